"""The exact Yahtzee solver against published numbers and an independent brute-force recomputation."""

import itertools
import math

import numpy as np
import pytest

from lookup.yahtzee import get_rules
from lookup.yahtzee.encoding import get_encoding
from lookup.yahtzee.rules import ALL_FILLED, CHANCE, YAHTZEE, score_roll
from lookup.yahtzee.states import state_space
from lookup.yahtzee.turn import analyse_turn
from pipeline.yahtzee.solver import exact_statistics, solve

# Start-of-game values published to 7 decimals (docs/yahtzee.md): compared to their rounding (5e-8).
PUBLISHED_START = {
    "hasbro": 254.5877287,
    "verhoeff": 254.5896095,
    "plain": 245.8707745,
    "no-joker": 253.9702412,
}


@pytest.fixture(scope="session")
def solved(tmp_path_factory):
    """solved(name, policy=False): solve(name, policy=policy), once per run (tests/shared.py: the hasbro,
    verhoeff and seed solutions are those of the run's one build of their tables)."""
    from tests import shared

    return lambda name, policy=False: shared.solution(tmp_path_factory, name, policy)


# ------------------------------------------------------------------------------------------ published


# verhoeff is solved (its tables built) only by the full-size checks of make test-full.
VERHOEFF = pytest.param("verhoeff", marks=pytest.mark.full)


@pytest.mark.parametrize("name", [VERHOEFF if n == "verhoeff" else n for n in PUBLISHED_START])
def test_start_of_game_values(name, solved):
    assert solved(name).start_value == pytest.approx(PUBLISHED_START[name], abs=5e-8)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["hasbro", VERHOEFF, "no-joker", "plain", "seed"])
def test_single_open_box_values(name, solved):
    value = solved(name).value
    assert value[ALL_FILLED & ~(1 << CHANCE), 0, 0] == pytest.approx(70 / 3, abs=1e-12)
    assert value[ALL_FILLED & ~(1 << YAHTZEE), 0, 0] == pytest.approx(2.30143212628495, abs=1e-12)  # docs/yahtzee.md


@pytest.mark.full
def test_verhoeff_statistics(solved):
    from tests.yahtzee.occupancy import end_statistics

    sol = solved("verhoeff", policy=True)
    stats = exact_statistics("verhoeff", sol)
    assert stats["mean"] == pytest.approx(PUBLISHED_START["verhoeff"], abs=5e-8)
    # The sd depends on how exact ties are broken: test_verhoeff_published_figures checks ours against
    # an independent re-evaluation and Verhoeff's 59.6117 against the exact range over all tie rules.
    assert stats["p_upper_bonus"] == pytest.approx(0.681, abs=5e-4)  # published 68.1 % (docs/yahtzee.md), rounded
    # Both probabilities against an exact forward pass of the same policy written in numpy (to float rounding).
    exact = end_statistics(sol.rules, sol.state_index, sol.reroll, sol.category)
    assert abs(stats["p_upper_bonus"] - exact["p_upper_bonus"]) < 1e-12
    assert abs(stats["p_yahtzee_50"] - exact["p_yahtzee_50"]) < 1e-12


@pytest.mark.slow
def test_value_table_shape_and_unreachable_states(solved):
    sol = solved("hasbro")
    space = state_space(get_rules("hasbro"))
    assert sol.value.shape == (1 << 13, 64, 2)
    assert np.array_equal(np.isnan(sol.value), ~space.reachable)
    assert np.isnan(sol.value[0, 0, 1]) and np.isnan(sol.value[0, 5, 0]) and np.isnan(sol.value[1, 6, 0])
    assert np.all(sol.value[ALL_FILLED][space.reachable[ALL_FILLED]] == 0.0)
    # The capped upper total: 63 reached means the bonus is already counted.
    m = ALL_FILLED & ~(1 << CHANCE)
    assert sol.value[m, 63, 0] == pytest.approx(70 / 3, abs=1e-9)


def test_seed_values_ignore_the_upper_bonus(solved):
    sol = solved("seed")
    v = sol.value
    # With the bonus out of the optimisation the upper total changes nothing.
    mask = 0b1111  # ones..fours filled
    ups = np.flatnonzero(~np.isnan(v[mask, :, 0]))
    assert len(ups) > 10 and np.all(v[mask, ups, 0] == v[mask, ups[0], 0])
    assert sol.start_value < PUBLISHED_START["hasbro"] - 5


# ------------------------------------------------------------------------------------------ brute force
# An independent turn: all reroll outcomes by itertools.product over the rerolled dice, boxes and Joker
# written from the rules as stated in docs/yahtzee.md (only score_roll, the unit-tested score of one box, is shared).

PIPS = range(1, 7)


def brute_allowed(rules, filled: int, roll: tuple) -> tuple[list[int], bool]:
    open_boxes = [c for c in range(13) if not (filled >> c) & 1]
    five_alike = len(set(roll)) == 1
    ybox_filled = bool((filled >> YAHTZEE) & 1)
    if not five_alike or not ybox_filled or rules.joker == "none":
        return open_boxes, False
    upper_box = roll[0] - 1
    if rules.joker == "forced":
        if upper_box in open_boxes:
            return [upper_box], False
        lower = [c for c in open_boxes if c >= 6]
        return (lower, True) if lower else (open_boxes, False)
    if upper_box in open_boxes:  # free Joker only with the matching upper box filled
        return open_boxes, False
    return open_boxes, True


def brute_turn(rules, value, state):
    filled, upper, ybox = state
    bonus = rules.upper_bonus if rules.bonus_in_optimisation else 0
    rolls = list(itertools.combinations_with_replacement(PIPS, 5))

    def box_value(roll, c, joker):
        pts = score_roll(rules, roll, c, joker=joker)
        reward, nu, ny = pts, upper, ybox
        if c < 6:
            nu = min(63, upper + pts)
            if upper < 63 <= nu:
                reward += bonus
        if c == YAHTZEE and pts == 50:
            ny = 1
        if len(set(roll)) == 1 and ybox == 1:
            reward += rules.yahtzee_bonus
        return reward + value[filled | (1 << c), nu, ny]

    final = {}
    for roll in rolls:
        boxes, joker = brute_allowed(rules, filled, roll)
        final[roll] = {c: box_value(roll, c, joker) for c in boxes}
    v0 = {roll: max(d.values()) for roll, d in final.items()}

    def keep_values(v):
        memo = {}
        for roll in rolls:
            for mask in range(32):
                kept = tuple(roll[i] for i in range(5) if not (mask >> i) & 1)
                if kept not in memo:
                    outs = list(itertools.product(PIPS, repeat=5 - len(kept)))
                    memo[kept] = sum(v[tuple(sorted(kept + o))] for o in outs) / len(outs)
        return memo

    k1 = keep_values(v0)
    v1 = {roll: max(k1[tuple(roll[i] for i in range(5) if not (m >> i) & 1)] for m in range(32)) for roll in rolls}
    k2 = keep_values(v1)
    v2 = {roll: max(k2[tuple(roll[i] for i in range(5) if not (m >> i) & 1)] for m in range(32)) for roll in rolls}
    start = sum(v2[r] * math.factorial(5) / math.prod(math.factorial(r.count(p)) for p in PIPS) for r in rolls)
    return final, k1, k2, start / 6**5


def first_within(values: list[tuple[tuple, float, int]], eps=1e-9) -> int:
    """values: (order key, value, choice); the first in key order within eps of the best."""
    best = max(v for _, v, _ in values)
    return min((k, ch) for k, v, ch in values if v >= best - eps)[1]


def sample_states(name: str, n: int, seed: int) -> list[tuple[int, int, int]]:
    space = state_space(get_rules(name))
    ms, us, ys = np.nonzero(space.reachable)
    keep = ms != ALL_FILLED
    ms, us, ys = ms[keep], us[keep], ys[keep]
    rng = np.random.default_rng(seed)
    # Favour late-game states (few open boxes: Joker and bonus cases) and states with ybox = 1.
    n_open = 13 - np.array([bin(m).count("1") for m in ms])
    weight = 1.0 / n_open**2 * np.where(ys == 1, 3.0, 1.0)
    pick = rng.choice(len(ms), size=n, replace=False, p=weight / weight.sum())
    return [(int(ms[i]), int(us[i]), int(ys[i])) for i in pick]


@pytest.mark.parametrize("name, n", [("hasbro", 30), ("no-joker", 40), ("plain", 30),
                                     pytest.param("hasbro", 150, marks=pytest.mark.full),
                                     pytest.param("verhoeff", 100, marks=pytest.mark.full)])
def test_brute_force_turns_match(name, n, solved):
    rules = get_rules(name)
    enc = get_encoding(5, 6)
    sol = solved(name, policy=name in ("hasbro", "verhoeff"))
    for state in sample_states(name, n, seed=len(name)):
        final, k1, k2, start = brute_turn(rules, sol.value, state)
        assert sol.value[state] == pytest.approx(start, abs=1e-9), state
        turn = analyse_turn(rules, sol.value, state)
        assert turn.start_value == pytest.approx(start, abs=1e-9)
        for k, keep in enumerate(enc.keeps):
            pips = tuple(f + 1 for f in keep)
            assert turn.keep[1][k] == pytest.approx(k1[pips], abs=1e-9)
            assert turn.keep[2][k] == pytest.approx(k2[pips], abs=1e-9)
        row = sol.state_index[state]
        for r, roll in enumerate(enc.rolls):
            pips = tuple(int(f) + 1 for f in roll)
            want = np.full(13, np.nan)
            for c, v in final[pips].items():
                want[c] = v
            np.testing.assert_allclose(turn.final[r], want, atol=1e-9, equal_nan=True)
            if sol.category is None:
                continue
            best_c = first_within([(c, v, c) for c, v in final[pips].items()])
            assert sol.category[row, r] == best_c == turn.best_category(r), (state, pips)
            for j, kv in ((1, k1), (2, k2)):
                opts = []
                for m in range(32):
                    kept = tuple(pips[i] for i in range(5) if not (m >> i) & 1)
                    opts.append(((bin(m).count("1"), m), kv[kept], m))
                best_m = first_within(opts)
                assert sol.reroll[row, j - 1, r] == best_m == turn.best_reroll(j, r), (state, pips, j)


@pytest.mark.slow
def test_policy_rows_agree_with_turn_analysis(solved):
    """On many random states the policy tables equal the numpy turn analysis of the value table."""
    rules = get_rules("hasbro")
    sol = solved("hasbro", policy=True)
    assert sol.reroll.dtype == np.uint8 and sol.category.dtype == np.uint8
    assert sol.reroll.shape[1:] == (2, 252) and sol.category.shape[1] == 252
    for state in sample_states("hasbro", 300, seed=7):
        turn = analyse_turn(rules, sol.value, state)
        row = sol.state_index[state]
        cats = [turn.best_category(r) for r in range(252)]
        assert np.array_equal(sol.category[row], cats), state
        for j in (1, 2):
            masks = [turn.best_reroll(j, r) for r in range(252)]
            assert np.array_equal(sol.reroll[row, j - 1], masks), (state, j)


def test_progress_callback_and_rules_argument(solved):
    # The smallest rule set (16 masks; a full-size one here would solve a table the run solves anyway). Its
    # value-only solve equals the values of the policy solve of its built tables, bit for bit.
    calls = []
    sol = solve(get_rules("scandinavian+forced"), progress=lambda d, t: calls.append((d, t)))
    assert calls == [(i, 15) for i in range(1, 16)]
    assert sol.rules.name == "scandinavian+forced"
    assert np.array_equal(sol.value, solved("scandinavian+forced", policy=True).value, equal_nan=True)
    with pytest.raises(ValueError, match="unknown Yahtzee rule set"):
        solve("nope")
