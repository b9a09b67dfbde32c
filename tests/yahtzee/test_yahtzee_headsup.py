"""Heads-up advice against an opponent who plays for expected score (``lookup.yahtzee.headsup``).

The ``law`` table (the expected-score policy's P(remaining >= t)) against its value table at every state and
against the exact score distribution (another method); the advice against a plain-Python recomputation of
its formula (the opponent's law by enumerating the expected-score policy's dice outcomes, W by the brute
force of tests/yahtzee/towin_brute.py, the keep tree written again); an opponent who has finished against
``decide(..., beat=)``; the CLI and bad input (the web routes and ``judge``: tests/web/test_web_api.py).
"""

from __future__ import annotations

import dataclasses
import itertools
import json
from functools import cache

import numpy as np
import pytest
from click.testing import CliRunner

from lookup.yahtzee import chance, decide, explain, headsup
from lookup.yahtzee.headsup import opponent_law
from lookup.yahtzee.rules import RULE_SETS, Rules
from lookup.yahtzee.sheet import Sheet
from lookup.yahtzee.towin import load_towin
from pipeline.cli import main as cli
from pipeline.yahtzee import towin
from pipeline.yahtzee.distribution import score_distribution
from pipeline.yahtzee.headsup_sim import win_share
from pipeline.yahtzee.solver import row_values, solve
from pipeline.yahtzee.streams import destiny_at, stream_base
from tests import shared
from tests.yahtzee.test_yahtzee_towin import MINI, MINI_FREE
from tests.yahtzee.towin_brute import Brute

FORCED = "scandinavian+forced"
# MINI (two dice, nine boxes, upper bonus, Yahtzee bonus, forced Joker) in free order, registered while this
# module runs so that its tables are built through the registry and read by ``lookup`` like any rule set's.
HU = dataclasses.replace(MINI, name="mini-headsup")
HU_PARAMS = ("yahtzee:\n  rule_sets: [hasbro]\n  towin:\n    rule_sets: [mini-headsup]\n    objectives: [win, law]\n"
             "    max_points: null\n    rows_per_task: 64\n    headsup_games: 4000\n    seed: 5\n"
             "  cluster:\n    workers: 1\n")


@pytest.fixture(scope="module")
def hu_tables(tmp_path_factory):
    RULE_SETS[HU.name] = HU
    try:
        yield shared.shared_build(tmp_path_factory, HU_PARAMS, ["yahtzee-towin-mini-headsup"])
    finally:
        del RULE_SETS[HU.name]


@pytest.mark.parametrize("rules", [MINI, MINI_FREE, FORCED])
def test_law_mean_is_the_value_and_start_law_is_the_score_distribution(rules):
    law = towin.solve(rules, objective="law")
    sol = solve(rules, policy=True)
    lay = towin.layout(sol.rules)
    vrow = row_values(sol)
    for n, layer in enumerate(law[:-1]):
        lo, hi = lay.layer(n)
        assert np.all(layer[:, 0] == 1.0) and np.all(np.diff(layer, axis=1) <= 0)  # P(>= 0) = 1, non-increasing
        np.testing.assert_allclose(layer[:, 1:].sum(axis=1), vrow[lo:hi], rtol=0, atol=1e-9)
    # The start row's law is the exact score distribution, computed by another pass (pipeline.yahtzee.distribution).
    start = law[0][0]
    pmf = start - np.append(start[1:], 0.0)
    want = score_distribution(sol.rules, sol.state_index, sol.reroll, sol.category).pmf
    assert abs(pmf.sum() - 1) < 1e-12
    np.testing.assert_allclose(pmf, want[:len(pmf)], rtol=0, atol=1e-13)
    assert not want[len(pmf):].any()


def test_built_law_table_sums_to_one_and_means_the_value(towin_tables):
    table = load_towin(FORCED, "law", towin_tables)
    sol = solve(FORCED)
    vrow = row_values(sol)
    worst_sum = worst_mean = 0.0
    for n in range(table.rules.n_boxes):
        layer = np.asarray(table.layers[n])
        lo = table.layer_ptr[n]
        for i in range(layer.shape[0]):
            bound = int(table.bound[lo + i])
            tail = layer[i, :bound + 1]
            pmf = tail - np.append(tail[1:], 0.0)
            worst_sum = max(worst_sum, abs(pmf.sum() - 1))
            worst_mean = max(worst_mean, abs(np.arange(bound + 1) @ pmf - vrow[lo + i]))
    assert worst_sum < 1e-12 and worst_mean < 1e-9
    assert opponent_law({}, FORCED, towin_tables).mean == pytest.approx(sol.start_value, abs=1e-9)


class Recomputed:
    """The heads-up formula for ``rules`` in plain Python: the opponent's law by enumerating every dice
    outcome of the expected-score policy (the solver's tables), W by ``Brute``, our turn's keep tree by
    ``Brute``'s matrices."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.sol = solve(rules, policy=True)
        self.width = 400
        self.win = Brute(rules, "win", self.width)
        self.laws: dict[tuple[int, int, int], np.ndarray] = {}

    def law(self, mask: int, upper: int, ybox: int) -> np.ndarray:
        """P(the expected-score policy scores exactly s more points), s = 0..width-1."""
        key = (mask, upper, ybox)
        if key in self.laws:
            return self.laws[key]
        b, rules, sol = self.win, self.rules, self.sol
        if mask == rules.all_filled:
            out = np.zeros(self.width)
            out[0] = 1.0
            return out
        row = int(sol.state_index[key])
        enc = rules.encoding
        code = [enc.roll_index([d - 1 for d in roll]) for roll in b.rolls]
        final = np.zeros((len(b.rolls), self.width))
        for r, roll in enumerate(b.rolls):
            c = int(sol.category[row, code[r]])
            joker = dict(b._options(mask, roll))[c]
            reward, nu, ny = b.outcome(upper, ybox, roll, c, joker, rules.optimised_upper_bonus)
            final[r, reward:] = self.law(mask | (1 << c), nu, ny)[:self.width - reward]
        v = final
        for j in (0, 1):  # one reroll left, then two
            keeps = []
            for r, roll in enumerate(b.rolls):
                reroll = int(sol.reroll[row, j, code[r]])  # bit i: the i-th smallest die is rerolled
                kept = tuple(d for i, d in enumerate(sorted(roll)) if not (reroll >> i) & 1)
                keeps.append(kept)
            v = np.array([self.trans(k) @ v for k in keeps])
        self.laws[key] = b.first @ v
        return self.laws[key]

    @staticmethod
    @cache
    def trans(kept: tuple[int, ...], n_dice: int = 2) -> np.ndarray:
        """The law of the roll (Brute's order) after rerolling every die but ``kept``, by enumeration."""
        rolls = list(itertools.combinations_with_replacement(range(1, 7), n_dice))
        index = {r: i for i, r in enumerate(rolls)}
        out = np.zeros(len(rolls))
        n = n_dice - len(kept)
        for faces in itertools.product(range(1, 7), repeat=n):
            out[index[tuple(sorted(kept + faces))]] += 6.0 ** -n
        return out

    def w(self, state: tuple[int, int, int], t: int) -> float:
        return 1.0 if t < 0 else (float(self.win.vector(*state)[t]) if t < self.width else 0.0)

    def option_values(self, me: Sheet, them: Sheet) -> tuple[np.ndarray, list[np.ndarray]]:
        """final[r, c] (NaN where not allowed) and the keep-tree vectors v[rerolls][roll] of our turn."""
        b = self.win
        mask, upper, ybox = me.state
        law = self.law(*them.state) if not them.finished else np.eye(1, self.width)[0]
        base = them.total - me.total
        final = np.full((len(b.rolls), self.rules.n_boxes), np.nan)
        for r, roll in enumerate(b.rolls):
            for c, joker in b._options(mask, roll):
                reward, nu, ny = b.outcome(upper, ybox, roll, c, joker, self.rules.optimised_upper_bonus)
                nxt = (mask | (1 << c), nu, ny)
                final[r, c] = sum(p * self.w(nxt, base + s - reward) for s, p in enumerate(law) if p)
        vs = [np.nanmax(final, axis=1)]
        for _ in range(2):
            vs.append((b.trans @ vs[-1])[b.subkeeps].max(axis=1))
        return final, vs


SHEETS = [({}, {}), ({"ones": 2}, {"twos": 4}), ({"ones": 1, "yahtzee": 11}, {"ones": 2, "chance": 9}),
          ({"twos": 4, "threes": 6, "straight": 4}, {"ones": 2, "sixes": 12, "yahtzee": 0})]


@pytest.fixture(scope="module")
def recomputed():
    return Recomputed(MINI)


@pytest.mark.parametrize("mine,theirs", SHEETS)
def test_advice_equals_the_recomputed_formula(hu_tables, recomputed, mine, theirs):
    me, them = Sheet.parse(mine, HU), Sheet.parse(theirs, HU)
    final, vs = recomputed.option_values(me, them)
    b = recomputed.win
    kw = {"opponent": theirs, "artifacts_dir": hu_tables}
    for r, roll in enumerate(b.rolls[::3]):
        r = 3 * r
        got = {o.category: o.probability for o in explain(list(roll), 0, mine, HU, **kw)}
        want = {HU.categories[c]: final[r, c] for c in range(HU.n_boxes) if not np.isnan(final[r, c])}
        assert got.keys() == want.keys()
        for c, p in want.items():
            assert got[c] == pytest.approx(p, rel=1e-12, abs=1e-14)
        for rerolls in (1, 2):
            options = explain(list(roll), rerolls, mine, HU, **kw)
            for o in options:
                want = float(Recomputed.trans(tuple(o.keep)) @ vs[rerolls - 1])
                assert o.probability == pytest.approx(want, rel=1e-12, abs=1e-14)
            d = decide(list(roll), rerolls, mine, HU, **kw)
            assert d.probability == options[0].probability == pytest.approx(vs[rerolls][r], rel=1e-12)
    assert chance(mine, HU, **kw) == pytest.approx(float(b.first @ vs[2]), rel=1e-12)


def test_law_of_the_built_table_equals_the_enumeration(hu_tables, recomputed):
    for _, theirs in SHEETS:
        them = Sheet.parse(theirs, HU)
        got = opponent_law(theirs, HU, hu_tables)
        assert got.points == them.total and abs(got.pmf.sum() - 1) < 1e-12
        want = recomputed.law(*them.state)
        np.testing.assert_allclose(got.pmf, want[:len(got.pmf)], rtol=0, atol=1e-13)
        assert not want[len(got.pmf):].any()


@pytest.mark.parametrize("rerolls", [0, 1, 2])
def test_a_finished_opponent_is_a_known_score_to_beat(towin_tables, rerolls):
    done = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18, "one_pair": 12,
            "two_pairs": 22, "three_of_a_kind": 18, "four_of_a_kind": 24, "small_straight": 15,
            "large_straight": 20, "full_house": 28, "chance": 25, "yatzy": 0}
    score = Sheet.parse(done, FORCED).total
    kw = {"artifacts_dir": towin_tables}
    for mine in ({}, {"ones": 2, "twos": 6}, {"ones": 4, "twos": 8, "threes": 12, "fours": 16}):
        for dice in ([3, 3, 3, 5, 6], [1, 2, 4, 4, 6], [6, 6, 6, 6, 6]):
            assert explain(dice, rerolls, mine, FORCED, opponent=done, **kw) == explain(
                dice, rerolls, mine, FORCED, beat=score, **kw)
            d = decide(dice, rerolls, mine, FORCED, opponent=done, **kw)
            w = decide(dice, rerolls, mine, FORCED, beat=score, **kw)
            assert (d.reroll, d.category, d.probability) == (w.reroll, w.category, w.probability)
            assert d.objective == "opponent" and d.target == score
        assert chance(mine, FORCED, opponent=done, **kw) == pytest.approx(chance(mine, FORCED, beat=score, **kw),
                                                                         rel=1e-12)
    # Both finished: the final scores decide, ties half.
    assert chance(done, FORCED, opponent=done, **kw) == 0.5
    assert chance(done, FORCED, opponent={**done, "chance": 24}, **kw) == 1.0


def test_cli_plays_against_an_expected_score_opponent(towin_tables, tmp_path):
    opp = tmp_path / "opp.json"
    opp.write_text(json.dumps({"ones": 3, "twos": 6, "threes": 9}))
    args = ["yahtzee", "decide", "3", "3", "3", "5", "6", "--rules", FORCED, "--box", "ones=2", "--box", "twos=6",
            "--opponent", str(opp), "--artifacts", str(towin_tables)]
    result = CliRunner().invoke(cli, [*args, "--opponent-plays", "expected", "--json"])
    assert result.exit_code == 0, result.output
    got = json.loads(result.output)
    want = explain([3, 3, 3, 5, 6], 2, {"ones": 2, "twos": 6}, FORCED,
                   opponent={"ones": 3, "twos": 6, "threes": 9}, artifacts_dir=towin_tables)
    assert [o["probability"] for o in got["options"]] == [o.probability for o in want]
    assert got["opponent_points"] == 18 and got["behind"] == 10
    result = CliRunner().invoke(cli, ["yahtzee", "chance", *args[7:], "--opponent-plays", "expected"])
    assert result.exit_code == 0, result.output
    assert float(result.output) == pytest.approx(chance({"ones": 2, "twos": 6}, FORCED, opponent={
        "ones": 3, "twos": 6, "threes": 9}, artifacts_dir=towin_tables), abs=1e-10)
    hasbro = ["yahtzee", "decide", "3", "3", "3", "5", "6", "--opponent", str(opp), "--artifacts", str(towin_tables)]
    for bad, message in (([*hasbro, "--opponent-plays", "to-win"], "forced-order"),
                         ([*args, "--opponent", str(opp), "--opponent-plays", "expected"], "one --opponent"),
                         ([*args, "--opponent-plays", "expected", "--goal", "200"], "give one objective"),
                         ([*args[:13], *args[15:], "--opponent-plays", "expected"], "needs --opponent")):
        result = CliRunner().invoke(cli, bad)
        assert result.exit_code != 0 and message in result.output, (bad, result.output)


def test_bad_input_is_refused(towin_tables, hu_tables):
    kw = {"artifacts_dir": towin_tables}
    with pytest.raises(ValueError, match="give one objective"):
        decide([1, 2, 3, 4, 5], 2, {}, FORCED, opponent={}, goal=200, **kw)
    with pytest.raises(ValueError, match="give one objective"):
        explain([1, 2, 3, 4, 5], 2, {}, FORCED, opponent={}, opponents=[{}], **kw)
    with pytest.raises(ValueError, match="unknown category"):
        decide([1, 2, 3, 4, 5], 2, {}, FORCED, opponent={"nines": 9}, **kw)
    with pytest.raises(ValueError, match="not built"):
        decide([1, 2, 3, 4, 5], 2, {}, "hasbro", opponent={}, **kw)
    # A law table capped below what the opponent can still score cannot give its law.
    with pytest.raises(ValueError, match="capped"):
        table = dataclasses.replace(load_towin(HU, "law", hu_tables), max_points=5)
        headsup._pmf(table, (0, 0, 0))


def _replay(rules: Rules, sol, artifacts, seed: int, game: int) -> tuple[int, int, int]:
    """Game ``game`` of the heads-up simulation played again in Python: B and the expected-score A by the
    solver's policy tables, the heads-up A by ``lookup.yahtzee.decide(..., opponent=B's sheet)``, each on its
    dice stream (pipeline.yahtzee.streams: faces 0..5; first roll the first dice, each reroll the next faces,
    smallest rerolled die first)."""
    enc, n = rules.encoding, rules.n_dice
    b_sheets: list[dict] = []

    def play(stream: int, heads_up: bool) -> int:
        # As a uint64, as the kernel holds it: a Python int below 2^63 would be typed int64 and mix differently.
        sheet, base = Sheet.empty(rules), np.uint64(stream_base(seed, game, stream))
        if stream == 1:
            b_sheets.append(sheet.to_dict())
        for turn in range(rules.n_boxes):
            faces = np.empty(3 * n, dtype=np.int64)
            destiny_at(base, turn, faces, 0, 3 * n)
            dice, used = sorted(int(f) for f in faces[:n]), n
            row = int(sol.state_index[sheet.state])
            them = b_sheets[min(turn + game % 2, rules.n_boxes)] if heads_up else None
            for left in (2, 1, 0):
                pips = [d + 1 for d in dice]
                if heads_up:
                    d = decide(pips, left, sheet.to_dict(), rules, opponent=them, artifacts_dir=artifacts)
                    rer = sum(1 << i for i, flag in enumerate(d.reroll or ()) if flag)
                    box = d.category
                else:
                    roll = enc.roll_index(dice)
                    rer = int(sol.reroll[row, left - 1, roll]) if left else 0
                    box = rules.categories[int(sol.category[row, roll])]
                if left == 0:
                    sheet.score(box, pips)
                    break
                for i in range(n):
                    if (rer >> i) & 1:
                        dice[i], used = int(faces[used]), used + 1
                dice.sort()
            if stream == 1:
                b_sheets.append(sheet.to_dict())
        return sheet.total

    b = play(1, False)
    return play(0, True), play(0, False), b


def test_simulated_games_replay_the_advice_and_are_fair(hu_tables):
    from lookup.store import open_artifact

    with open_artifact(hu_tables / "yahtzee-mini-headsup-headsup-games.zarr", schema="yahtzee.headsup_games",
                       versions=(1,)) as art:
        scores, stats = art.read("scores").astype(np.int64), art.meta["stats"]
    assert scores.shape == (4000, 3)
    sol = solve(HU, policy=True)
    for g in range(24):  # both seats
        assert _replay(HU, sol, hu_tables, 5, g) == tuple(scores[g]), g
    # The expected-score players: their mean score is the value (4 standard errors), and the expected-score A
    # wins half of the games against B (ties half): their scores are independent and equally distributed.
    for col in (1, 2):
        x = scores[:, col]
        assert abs(x.mean() - sol.start_value) < 4 * x.std(ddof=1) / np.sqrt(len(x))
    a = stats["all"]
    assert abs(a["expected_score_share"] - 0.5) < 4 * a["expected_score_share_standard_error"]
    assert a["share"] == pytest.approx(0.5 + np.mean(_win(scores[:, 0], scores[:, 2]) - _win(scores[:, 1],
                                                                                             scores[:, 2])))
    # The difference estimator is the sharper one (common random numbers).
    assert a["share_standard_error"] < a["share_plain_standard_error"]


def _win(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x > y) + 0.5 * (x == y)


def test_win_share_kernel_equals_a_plain_sum():
    rng = np.random.default_rng(3)
    for _ in range(200):
        pmf = rng.dirichlet(np.ones(int(rng.integers(1, 30))))
        row = np.sort(rng.random(int(rng.integers(1, 40))))[::-1]
        lead = int(rng.integers(-50, 50))
        want = sum(p * (1.0 if lead + s < 0 else row[lead + s] if lead + s < len(row) else 0.0)
                   for s, p in enumerate(pmf))
        assert win_share(pmf, lead, row) == pytest.approx(want, rel=1e-13, abs=1e-15)


@pytest.mark.full  # 200,000 forced-order games, against the exact best response
def test_heads_up_player_is_at_most_the_exact_best_response(tmp_path_factory, towin_tables):
    """The best response to an expected-score player (one seat plays to win knowing the other plays for expected
    score: exact, ``pipeline.yahtzee.party``) is the most any player can win against it; the heads-up player,
    which values each option as if it would learn the opponent's final score next, must win at most that, and
    at least the expected-score player's 1/2."""
    from pipeline.yahtzee.headsup_sim import flat_artifact, simulate
    from pipeline.yahtzee.party import against_expected_score

    pair = shared.computed(tmp_path_factory, "against_expected_score-forced", lambda: against_expected_score(FORCED))
    played = simulate(FORCED, row_values(solve(FORCED)), flat_artifact(load_towin(FORCED, "win", towin_tables)),
                      flat_artifact(load_towin(FORCED, "law", towin_tables)), 200_000, 11).summary()
    for j, seat in enumerate(("first", "second")):
        best = pair["responds"][j][f"win_{j}"] + pair["responds"][j]["tie_01"] / 2
        got, se = played[seat]["share"], played[seat]["share_standard_error"]
        assert 0.5 - 4 * se < got < best + 4 * se, (seat, got, se, best)
