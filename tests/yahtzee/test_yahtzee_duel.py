"""Two-player forced-order Yatzy (pipeline.yahtzee.duel, lookup.yahtzee.duel) against independent recomputation.

* Reduced games (2 to 4 boxes, 2, 3 or 5 dice, a low bonus threshold so the bonus is in play): a brute-force
  recursion written plainly here (raw upper totals, every reroll mask of every roll, payoff vectors, each
  mover maximising their own payoff; exact rationals for 2 and 3 dice) equals the solver's table at every
  stored state, for every raw upper total the canonical one stands for.
* Both seats on the expected-score policy: the joint Markov chain equals the outcome law of two independent
  scores (exact law of one score) and a seeded simulation of 10^5 games.
* The artifact and the play API: decide / explain / win_probability agree with the in-memory solve; bad input.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from lookup.yahtzee import decide, explain
from lookup.yahtzee.duel import load_duel, win_probability
from lookup.yahtzee.duel_states import duel_layout
from lookup.yahtzee.rules import get_rules, score_roll
from pipeline.yahtzee.duel import iid_outcomes, solve_duel
from tests import shared

FORCED = "scandinavian+forced"


def _mini(n_dice: int, threshold: int):
    base = get_rules(FORCED)
    return dataclasses.replace(base, name=f"mini-{n_dice}-{threshold}", n_dice=n_dice, upper_threshold=threshold)


@cache
def _outcomes(m: int, exact: bool) -> tuple[tuple[tuple[int, ...], object], ...]:
    """Every sorted result of throwing m dice, with its probability (counted over all 6^m ordered throws)."""
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(1, 7), repeat=m))
    return tuple((k, Fraction(v, 6 ** m) if exact else v / 6 ** m) for k, v in sorted(counts.items()))


class Brute:
    """The game by plain recursion: state (box position, seat to move, raw upper totals, d = seat 0 - seat 1).
    Returns payoff vectors (seat 0's, seat 1's): 1 to the sole winner, 1/2 each on a tie."""

    def __init__(self, rules, boxes: tuple[int, ...], exact: bool) -> None:
        self.rules, self.boxes, self.exact = rules, boxes, exact
        self.n = rules.n_dice
        self.memo: dict = {}
        self.turns: dict = {}

    def _reward(self, i: int, upper: int, points: int) -> tuple[int, int]:
        """Points earned and the new raw upper total: the bonus when the upper total first reaches the threshold."""
        c = self.boxes[i]
        if c >= 6:
            return points, upper
        thr = self.rules.upper_threshold
        return points + (self.rules.upper_bonus if upper < thr <= upper + points else 0), upper + points

    def value(self, i: int, seat: int, u0: int, u1: int, d: int) -> tuple:
        key = (i, seat, u0, u1, d)
        if key in self.memo:
            return self.memo[key]
        if i == len(self.boxes):
            half = Fraction(1, 2) if self.exact else 0.5
            out = (1, 0) if d > 0 else ((half, half) if d == 0 else (0, 1))
        else:
            outcome = {}
            for roll, _ in _outcomes(self.n, self.exact):
                points = score_roll(self.rules, roll, self.boxes[i])
                if points not in outcome:
                    if seat == 0:
                        reward, nu = self._reward(i, u0, points)
                        outcome[points] = self.value(i, 1, nu, u1, d + reward)
                    else:
                        reward, nu = self._reward(i, u1, points)
                        outcome[points] = self.value(i + 1, 0, u0, nu, d - reward)
            out = self.turn(i, seat, outcome)
        self.memo[key] = out
        return out

    def turn(self, i: int, seat: int, outcome: dict) -> tuple:
        """The mover's best play of one turn (three rolls, any dice kept) given the payoff of each score."""
        key = (i, seat, tuple(sorted(outcome.items())))
        if key in self.turns:
            return self.turns[key]
        rolls = _outcomes(self.n, self.exact)
        best = {roll: outcome[score_roll(self.rules, roll, self.boxes[i])] for roll, _ in rolls}
        for _ in range(2):  # one reroll left, then two
            kept_value: dict = {}
            new = {}
            for roll, _p in rolls:
                options = []
                for mask in range(1 << self.n):
                    kept = tuple(roll[j] for j in range(self.n) if not (mask >> j) & 1)
                    if kept not in kept_value:
                        acc = [0, 0]
                        for extra, p in _outcomes(self.n - len(kept), self.exact):
                            v = best[tuple(sorted(kept + extra))]
                            acc[0] += p * v[0]
                            acc[1] += p * v[1]
                        kept_value[kept] = tuple(acc)
                    options.append(kept_value[kept])
                new[roll] = max(options, key=lambda v: v[seat])
            best = new
        out = tuple(sum(p * best[roll][s] for roll, p in rolls) for s in range(2))
        self.turns[key] = out
        return out


def _raw_uppers(rules, boxes: tuple[int, ...], j: int) -> list[int]:
    """Every raw upper total after the first j boxes (sums of face x count, uncapped)."""
    totals = {0}
    for c in boxes[:j]:
        if c < 6:
            totals = {u + (c + 1) * k for u in totals for k in range(rules.n_dice + 1)}
    return sorted(totals)


# make test keeps the four-box game and the five-dice one (floats); the other two run in make test-full.
@pytest.mark.parametrize("n_dice, threshold, boxes, exact", [
    pytest.param(2, 4, (0, 1, 14), True, marks=pytest.mark.full),  # ones, twos, yatzy (two alike), bonus at 4
    (2, 5, (0, 1, 6, 13), True),     # four boxes: ones, twos, one pair, chance, bonus at 5
    pytest.param(3, 5, (0, 1, 13), True, marks=pytest.mark.full),  # ones, twos, chance with three dice
    (5, 3, (0, 14), False),          # five dice: ones and yatzy, bonus at 3 (floats: 1e-12)
])
def test_reduced_games_equal_brute_force_at_every_state(n_dice, threshold, boxes, exact):
    rules = _mini(n_dice, threshold)
    sol = solve_duel(rules, boxes)
    lay = sol.layout
    brute = Brute(rules, boxes, exact)
    checked = 0
    for layer in range(lay.n_layers):
        i, seat = lay.position(layer)
        value, tie = sol.values[layer], sol.ties[layer]
        assert ((tie >= 0) & (tie <= 1)).all()
        assert (value - tie / 2 >= -1e-12).all() and (1 - value - tie / 2 >= -1e-12).all()  # both P(win) >= 0
        low, high = lay.low[layer], lay.high[layer]
        j0, j1 = lay.filled(layer, 0), lay.filled(layer, 1)
        for u0 in _raw_uppers(rules, boxes, j0):
            a = lay.u_index[j0][lay.canonical(min(u0, threshold), j0)]
            for u1 in _raw_uppers(rules, boxes, j1):
                b = lay.u_index[j1][lay.canonical(min(u1, threshold), j1)]
                assert a >= 0 and b >= 0
                for x in range(low + high + 1):
                    p0, p1 = brute.value(i, seat, u0, u1, x - low)
                    if exact:
                        assert p0 + p1 == 1  # zero-sum, exactly
                    else:
                        assert abs(p0 + p1 - 1) < 1e-12
                    assert abs(value[a, b, x] - float(p0)) < 1e-12, (layer, u0, u1, x - low)
                    assert abs((1 - value[a, b, x]) - float(p1)) < 1e-12
                    checked += 1
    assert checked > 200


@pytest.fixture(scope="module")
def expected_pair(tmp_path_factory):
    """The expected-score pair's numbers as the run's duel table stores them: its build ran
    ``expected_score_duel(FORCED)`` (8 s of CPU that a second call here would repeat). The tests below check them
    against the law of one player's score, the optimal solve and a seeded simulation."""
    stats = load_duel(FORCED, 2, artifacts_dir=shared.small(tmp_path_factory, "yahtzee")).stats
    es = stats["expected_score"]
    return {"chain": (es["first_wins"], es["tie"], es["second_wins"]), "iid": tuple(es["iid_check"]),
            "first_responds": tuple(stats["first_plays_to_win_against_expected_score"]),
            "second_responds": tuple(stats["second_plays_to_win_against_expected_score"])}


def test_both_expected_score_players_markov_chain_equals_independent_scores(expected_pair):
    first, tie, second = expected_pair["chain"]
    assert abs(first + tie + second - 1) < 1e-12
    # Neither policy looks at the other player: the final scores are independent, the edge is 0.
    for got, want in zip(expected_pair["chain"], expected_pair["iid"], strict=True):
        assert abs(got - want) < 1e-12
    assert abs(first - second) < 1e-12
    assert iid_outcomes(np.array([0.25, 0.5, 0.25])) == (0.3125, 0.375, 0.3125)


def test_best_responses_to_an_expected_score_player(expected_pair, optimal):
    """Playing to win against an expected-score player does at least as well as against a perfect one (the
    zero-sum value) and as playing for expected score oneself (1/2 for either seat)."""
    minimax_first = optimal.start()[0] + optimal.start()[1] / 2
    first, tie, second = expected_pair["first_responds"]
    assert abs(first + tie + second - 1) < 1e-12
    assert first + tie / 2 >= max(minimax_first, 0.5)
    first, tie, second = expected_pair["second_responds"]
    assert abs(first + tie + second - 1) < 1e-12
    assert second + tie / 2 >= max(1 - minimax_first, 0.5)
    with pytest.raises(ValueError, match="fixed_seats"):
        solve_duel(FORCED, policy=(np.zeros(1), np.zeros(1)), fixed_seats=(2,))


def _simulate(games: int, seed: int) -> np.ndarray:
    """Seeded games of two expected-score players (the single-player policy tables, played die by die):
    outcome counts (seat 0 wins, tie, seat 1 wins)."""
    from pipeline.yahtzee.solver import solve

    rules = get_rules(FORCED)
    sol = solve(rules, policy=True)
    enc = rules.encoding
    code_of = {tuple(int(c) for c in cnt): r for r, cnt in enumerate(enc.roll_counts)}
    table = np.full(6 ** 6, -1, dtype=np.int64)
    for cnt, r in code_of.items():
        table[sum(c * 6 ** f for f, c in enumerate(cnt))] = r
    score = np.array([[score_roll(rules, enc.rolls[r] + 1, c) for c in range(rules.n_boxes)]
                      for r in range(enc.n_rolls)])
    rng = np.random.default_rng(seed)

    def roll_index(dice: np.ndarray) -> np.ndarray:
        counts = np.stack([(dice == f).sum(axis=1) for f in range(6)], axis=1)
        return table[(counts * 6 ** np.arange(6)).sum(axis=1)]

    totals = np.zeros((2, games), dtype=np.int64)
    uppers = np.zeros((2, games), dtype=np.int64)
    for c in range(rules.n_boxes):
        mask = (1 << c) - 1
        for seat in range(2):
            row = sol.state_index[mask, np.minimum(uppers[seat], 63), 0]
            dice = np.sort(rng.integers(0, 6, size=(games, 5)), axis=1)
            for left in (2, 1):
                r = roll_index(dice)
                reroll = sol.reroll[row, left - 1, r]
                bits = (reroll[:, None] >> np.arange(5)) & 1
                dice = np.sort(np.where(bits == 1, rng.integers(0, 6, size=(games, 5)), dice), axis=1)
            points = score[roll_index(dice), c]
            if c < 6:
                bonus = np.where((uppers[seat] < 63) & (uppers[seat] + points >= 63), 50, 0)
                uppers[seat] += points
                points = points + bonus
            totals[seat] += points
    diff = totals[0] - totals[1]
    return np.array([(diff > 0).sum(), (diff == 0).sum(), (diff < 0).sum()])


def test_markov_chain_equals_a_seeded_simulation(expected_pair):
    games = 100_000
    counts = _simulate(games, seed=2026)
    for p, k in zip(expected_pair["chain"], counts, strict=True):
        se = math.sqrt(p * (1 - p) / games)
        assert abs(k / games - p) < 4 * se, (p, k / games, se)


@pytest.fixture(scope="module")
def duel_tables(tmp_path_factory):
    return shared.small(tmp_path_factory, "yahtzee")


@pytest.fixture(scope="module")
def optimal(tmp_path_factory):
    # solve_duel(FORCED), once per run. The duel table is another solve, by its build: the next test compares them.
    return shared.duel_solution(tmp_path_factory, FORCED)


def test_optimal_start_and_the_artifact(duel_tables, optimal):
    first, tie, second = optimal.start()
    assert abs(first + tie + second - 1) < 1e-12
    assert second > first  # the second player sees the first's score of each box before playing it
    assert win_probability([None] * 15, FORCED, opponents=[[None] * 15], artifacts_dir=duel_tables) == (
        first, tie, second)
    # As the second player after the first scored 3 ones: seat 1's view of the stored state.
    me, them = [None] * 15, [3] + [None] * 14
    lay = optimal.layout
    v = optimal.values[1][lay.u_index[1][3], 0, 3 + lay.low[1]]
    t = optimal.ties[1][lay.u_index[1][3], 0, 3 + lay.low[1]]
    got = win_probability(me, FORCED, opponents=[them], artifacts_dir=duel_tables)
    assert got == pytest.approx(((1 - v) - t / 2, t, v - t / 2), abs=1e-15)


@pytest.mark.parametrize("sheet, opponent", [
    ([None] * 15, [None] * 15),
    ([2, 6, 9, 12, 15, 18] + [None] * 9, [3, 6, 9, 12, 15, 24, 12] + [None] * 8),
    ([3, 6, 9, 12, 15, 24, 12, 14, 9, 16, 0, 20, 0, 22] + [None],
     [2, 4, 9, 16, 20, 24, 10, 14, 9, 16, 15, 0, 24, 25, 50]),
])
def test_decide_and_explain_agree_with_the_table(duel_tables, sheet, opponent):
    rules = get_rules(FORCED)
    enc = rules.encoding
    start = win_probability(sheet, FORCED, opponents=[opponent], artifacts_dir=duel_tables)
    best = np.array([decide([int(f) + 1 for f in roll], 2, sheet, FORCED, opponents=[opponent],
                            artifacts_dir=duel_tables).probability for roll in enc.rolls])
    # The mean over the first roll of the best option is the start of the turn's value (ties half).
    assert math.isclose(float(enc.roll_prob @ best), start[0] + start[1] / 2, rel_tol=1e-12, abs_tol=1e-14)
    for rerolls in (2, 1, 0):
        d = decide([6, 2, 2, 5, 1], rerolls, sheet, FORCED, opponents=[opponent], artifacts_dir=duel_tables)
        options = explain([6, 2, 2, 5, 1], rerolls, sheet, FORCED, opponents=[opponent], artifacts_dir=duel_tables)
        assert options[0].probability == d.probability and options[0].regret == 0.0
        assert all(o.regret >= 0 for o in options)
        if rerolls == 0:
            assert [o.category for o in options] == [rules.categories[sum(b is not None for b in sheet)]]


def test_bad_input_is_refused(duel_tables):
    empty = [None] * 15
    cases = [
        (dict(rules="no-such-rules", opponents=[empty]), "no-such-rules"),
        (dict(rules="scandinavian", opponents=[empty]), "not forced-order"),
        (dict(rules="hasbro", sheet=[None] * 13, opponents=[[None] * 13]), "not forced-order"),
        (dict(opponents=[]), "give 1 or 2 opponent sheets, got 0"),
        (dict(opponents=[empty, empty]), "3-player table is not built"),  # three players: not built here
        (dict(opponents=empty), "give 1 or 2 opponent sheets, got 15"),
        (dict(opponents=[[3, 6] + [None] * 13]), "not at the same box index"),
        (dict(opponents=[[None, 6] + [None] * 13]), "sheet order"),
        (dict(opponents="nope"), "list of sheets"),
    ]
    for kw, match in cases:
        rules, sheet = kw.pop("rules", FORCED), kw.pop("sheet", empty)
        with pytest.raises(ValueError, match=match):
            decide([1, 2, 3, 4, 5], 2, sheet, rules, artifacts_dir=duel_tables, **kw)
    with pytest.raises(ValueError, match="not at the same box index"):
        win_probability([3] + [None] * 14, FORCED, opponents=[[3, 6, 9] + [None] * 12], artifacts_dir=duel_tables)
    done = [1, 2, 3, 4, 5, 6, 2, 6, 3, 4, 15, 20, 0, 5, 0]
    with pytest.raises(ValueError, match="finished"):
        decide([1, 2, 3, 4, 5], 0, done, FORCED, opponents=[done], artifacts_dir=duel_tables)
    with pytest.raises(ValueError, match="players must be 2"):
        duel_layout(FORCED, None, 3)
    with pytest.raises(ValueError, match="increasing"):
        solve_duel(FORCED, (3, 1))


def test_params_are_checked():
    from pipeline.yahtzee.duel_build import families, settings

    assert settings({"duel": {"rule_sets": [FORCED], "players": [2]}}) == {"rule_sets": [FORCED], "players": [2]}
    assert [f.name for f in families({"duel": {"rule_sets": [FORCED], "players": [2]}})] == [
        "yahtzee-duel2-scandinavian-forced"]
    assert families({}) == []
    assert [f.name for f in families({"duel": {"rule_sets": [FORCED], "players": [2, 3]}})] == [
        "yahtzee-duel2-scandinavian-forced", "yahtzee-party3-scandinavian-forced"]
    for duel, match in (({"rule_sets": [FORCED], "players": [4]}, "four or more players are not built"),
                        ({"rule_sets": [FORCED], "players": [2, 2]}, "distinct"),
                        ({"rule_sets": ["scandinavian"], "players": [2]}, "not forced-order"),
                        ({"rule_sets": ["nope"], "players": [2]}, "nope"),
                        ({"rule_sets": [FORCED]}, "yahtzee.duel.players"),
                        ([2], "must be a mapping")):
        with pytest.raises(ValueError, match=match):
            settings({"duel": duel})


@pytest.fixture(scope="module")
def duel_and_towin(tmp_path_factory, duel_tables):
    """The duel table beside the scandinavian+forced value and play-to-win (goal, win) tables (shared builds)."""
    return shared.union(tmp_path_factory, "duel-towin", duel_tables, shared.yahtzee(tmp_path_factory, FORCED),
                        shared.small(tmp_path_factory, "yahtzee"))


@pytest.mark.parametrize("dice, rerolls", [([6, 6, 6, 2, 1], 2), ([6, 6, 2, 6, 1], 1), ([6, 6, 6, 6, 6], 0),
                                           ([1, 2, 3, 4, 5], 2)])
def test_against_a_finished_opponent_equals_beating_its_score(duel_and_towin, dice, rerolls):
    # The second player's last box (yatzy) against a finished first player: winning the game is beating the
    # opponent's known final score, ties half, which the single-player play-to-win table answers on its own
    # (a different table, built by a different solver).
    from lookup import yahtzee
    from lookup.yahtzee import Sheet

    opponent = [2, 4, 9, 16, 20, 24, 10, 14, 9, 16, 15, 0, 24, 25, 50]
    s = Sheet.parse(opponent, FORCED).total  # 288
    for chance in (7, 19, 29):  # the mover's total before the yatzy box: 238 (50 more ties), 250, 260
        me = [3, 6, 9, 12, 15, 24, 12, 14, 9, 16, 15, 20, 26, chance, None]
        duel = explain(dice, rerolls, me, FORCED, opponents=[opponent], artifacts_dir=duel_and_towin)
        beat = yahtzee.explain(dice, rerolls, me, FORCED, beat=s, artifacts_dir=duel_and_towin)
        assert sorted((o.action, round(o.probability, 12)) for o in duel) == sorted(
            (o.action, round(o.probability, 12)) for o in beat), chance
        assert 0 < max(o.probability for o in duel) < 1 or rerolls == 0
        d = yahtzee.decide(dice, rerolls, me, FORCED, opponents=[opponent], artifacts_dir=duel_and_towin)
        assert d.seat == 1 and d.probability == pytest.approx(
            yahtzee.decide(dice, rerolls, me, FORCED, beat=s, artifacts_dir=duel_and_towin).probability, abs=1e-12)


def test_cli_opponent_prints_the_librarys_ranking(duel_tables, tmp_path):
    import json

    from click.testing import CliRunner

    from pipeline.cli import main

    me, them = [3, 6] + [None] * 13, [2, 4, 9] + [None] * 12
    (tmp_path / "me.json").write_text(json.dumps(me))
    (tmp_path / "them.json").write_text(json.dumps(them))
    args = ["yahtzee", "decide", "6", "2", "2", "5", "1", "--rules", FORCED, "--sheet", str(tmp_path / "me.json"),
            "--opponent", str(tmp_path / "them.json"), "--artifacts", str(duel_tables)]
    got = CliRunner().invoke(main, [*args, "--json"])
    assert got.exit_code == 0, got.output
    want = explain([6, 2, 2, 5, 1], 2, me, FORCED, opponents=[them], artifacts_dir=duel_tables)
    printed = json.loads(got.output)
    # Seats numbered from 0 as in every JSON (the web's, the records'): the mover plays second at this box (the CLI
    # said 2); the text says "player 2".
    decision = decide([6, 2, 2, 5, 1], 2, me, FORCED, opponents=[them], artifacts_dir=duel_tables)
    assert printed["seat"] == decision.seat == 1 and [(o["action"], o["probability"]) for o in printed["options"]] == [
        (o.action, o.probability) for o in want]
    text = CliRunner().invoke(main, args).output
    assert "(player 2 in turn order)" in text
    refused = CliRunner().invoke(main, [*args, "--goal", "100"])
    assert refused.exit_code == 1 and "give one objective" in refused.output
    (tmp_path / "bad.json").write_text("[")
    refused = CliRunner().invoke(main, [*args[:-4], "--opponent", str(tmp_path / "bad.json")])
    assert refused.exit_code == 1 and "--opponent" in refused.output


def test_players_report(tmp_path_factory, duel_tables, towin_tables, optimal, expected_pair, tmp_path):
    """The report's numbers are the solver's (optimal play and the expected-score pair, solved here), its
    shares add up, the 3-player part says how to build it when it is not built, and the heads-up part shows the
    games' estimates beside the exact best responses."""
    import json

    from lookup.store import open_artifact
    from pipeline.yahtzee.players_report import write_report

    both = shared.union(tmp_path_factory, "duel-towin", duel_tables, towin_tables)
    section = {"duel": {"rule_sets": [FORCED], "players": [2, 3]}, "towin": {"rule_sets": [FORCED]}}
    out = write_report(section, both, tmp_path / "report")
    heads = json.loads((out / "summary.json").read_text())["heads_up"]
    with open_artifact(both / "yahtzee-scandinavian+forced-headsup-games.zarr", schema="yahtzee.headsup_games",
                       versions=(1,)) as art:
        scores = art.read("scores").astype(np.int64)
    assert len(heads) == 1 and heads[0]["games"] == len(scores) == 2000
    hu = (scores[:, 0] > scores[:, 2]) + 0.5 * (scores[:, 0] == scores[:, 2])
    es = (scores[:, 1] > scores[:, 2]) + 0.5 * (scores[:, 1] == scores[:, 2])
    assert heads[0]["all"]["share"] == pytest.approx(0.5 + (hu - es).mean(), abs=1e-12)
    first_resp = expected_pair["first_responds"]
    assert f"{first_resp[0] + first_resp[1] / 2:.5f}" in (out / "report.md").read_text()
    assert (out / "scandinavian-forced-heads-up.png").stat().st_size
    summary = json.loads((out / "summary.json").read_text())["results"][0]
    rows = {m["matchup"]: m for m in summary["two_players"]}
    first, tie, second = optimal.start()
    both = rows["both play to win"]
    assert abs(both["first_wins"] - first) < 1e-12 and abs(both["tie"] - tie) < 1e-12
    es = rows["both play for expected score"]
    assert abs(es["first_wins"] - expected_pair["chain"][0]) < 1e-12
    for m in rows.values():
        assert abs(m["first_share"] + m["second_share"] - 1) < 1e-12
    assert summary["three_players"] is None
    text = (out / "report.md").read_text()
    assert "yahtzee.duel.players: [2, 3]" in text and (out / "scandinavian-forced-two-players.png").stat().st_size
    empty = write_report({}, duel_tables, tmp_path / "none")  # no yahtzee.duel: nothing configured, said so
    assert "No table of play between players" in (empty / "report.md").read_text()
