"""Two-player forced-order Yatzy through the play API (lookup.yahtzee.duel over the 2-player table of
pipeline.yahtzee.party) against independent recomputation. The solver itself against an exact brute force on
reduced games: tests/yahtzee/test_yahtzee_party.py.

* Both seats on the expected-score policy: the joint Markov chain equals the outcome law of two independent
  scores (exact law of one score) and a seeded simulation of 10^5 games.
* The best responses to an expected-score player: at least the zero-sum value and 1/2.
* The artifact and the play API: decide / explain / win_probability agree with the in-memory solve; at the
  last box against a finished opponent they equal the single-player play-to-win table (another solver); bad
  input.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from lookup.yahtzee import decide, explain
from lookup.yahtzee.duel import win_probability
from lookup.yahtzee.party import load_party
from lookup.yahtzee.rules import get_rules, score_roll
from pipeline.yahtzee.party import iid_party, solve_party
from tests import shared

FORCED = "scandinavian+forced"


def _triple(outcomes: dict[str, float]) -> tuple[float, float, float]:
    """(P(seat 0 wins), P(tie), P(seat 1 wins)) of a 2-player outcome law."""
    return outcomes["win_0"], outcomes["tie_01"], outcomes["win_1"]


@pytest.fixture(scope="module")
def expected_pair(tmp_path_factory):
    """The expected-score pair's numbers as the run's 2-player table stores them: its build ran
    ``against_expected_score(FORCED)`` (seconds of CPU that a second call here would repeat). The tests below check
    them against the law of one player's score, the optimal solve and a seeded simulation."""
    stats = load_party(FORCED, 2, artifacts_dir=shared.small(tmp_path_factory, "yahtzee")).stats
    return {"chain": _triple(stats["expected_score"]), "iid": _triple(stats["expected_score_iid"]),
            "first_responds": _triple(stats["best_response"][0]),
            "second_responds": _triple(stats["best_response"][1])}


def test_both_expected_score_players_markov_chain_equals_independent_scores(expected_pair):
    first, tie, second = expected_pair["chain"]
    assert abs(first + tie + second - 1) < 1e-12
    # Neither policy looks at the other player: the final scores are independent, the edge is 0.
    for got, want in zip(expected_pair["chain"], expected_pair["iid"], strict=True):
        assert abs(got - want) < 1e-12
    assert abs(first - second) < 1e-12
    assert _triple(iid_party(np.array([0.25, 0.5, 0.25]), 2)) == (0.3125, 0.375, 0.3125)


def test_best_responses_to_an_expected_score_player(expected_pair, optimal):
    """Playing to win against an expected-score player does at least as well as against a perfect one (the
    zero-sum value) and as playing for expected score oneself (1/2 for either seat)."""
    minimax_first = optimal.shares()[0]
    first, tie, second = expected_pair["first_responds"]
    assert abs(first + tie + second - 1) < 1e-12
    assert first + tie / 2 >= max(minimax_first, 0.5)
    first, tie, second = expected_pair["second_responds"]
    assert abs(first + tie + second - 1) < 1e-12
    assert second + tie / 2 >= max(1 - minimax_first, 0.5)
    with pytest.raises(ValueError, match="fixed_seats"):
        solve_party(FORCED, None, 2, policy=(np.zeros(1), np.zeros(1)), fixed_seats=(2,))


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
    # solve_party(FORCED, None, 2), once per run. The table is another solve, by its build: the next test compares
    # them.
    return shared.two_player_solution(tmp_path_factory, FORCED)


def test_optimal_start_and_the_artifact(duel_tables, optimal):
    first, tie, second = _triple(optimal.start())
    assert abs(first + tie + second - 1) < 1e-12
    assert second > first  # the second player sees the first's score of each box before playing it
    assert win_probability([None] * 15, FORCED, opponents=[[None] * 15], artifacts_dir=duel_tables) == (
        first, tie, 1.0 - first - tie)
    # As the second player after the first scored 3 ones: seat 1's view of the stored state (raw upper totals).
    me, them = [None] * 15, [3] + [None] * 14
    w0, w1, t = optimal.layers[1][:, 3, 0]  # outcomes win_0, win_1, tie_01
    got = win_probability(me, FORCED, opponents=[them], artifacts_dir=duel_tables)
    assert got == pytest.approx((w1, t, w0), abs=1e-15)


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
        (dict(opponents=[[3, 6] + [None] * 13]), "not at the same box"),
        (dict(opponents=[[None, 6] + [None] * 13]), "sheet order"),
        (dict(opponents="nope"), "list of sheets"),
    ]
    for kw, match in cases:
        rules, sheet = kw.pop("rules", FORCED), kw.pop("sheet", empty)
        with pytest.raises(ValueError, match=match):
            decide([1, 2, 3, 4, 5], 2, sheet, rules, artifacts_dir=duel_tables, **kw)
    with pytest.raises(ValueError, match="not at the same box"):
        win_probability([3] + [None] * 14, FORCED, opponents=[[3, 6, 9] + [None] * 12], artifacts_dir=duel_tables)
    done = [1, 2, 3, 4, 5, 6, 2, 6, 3, 4, 15, 20, 0, 5, 0]
    with pytest.raises(ValueError, match="finished"):
        decide([1, 2, 3, 4, 5], 0, done, FORCED, opponents=[done], artifacts_dir=duel_tables)
    with pytest.raises(ValueError, match="increasing"):
        solve_party(FORCED, (3, 1), 2)


def test_params_are_checked():
    from pipeline.yahtzee.party_build import families, settings

    assert settings({"duel": {"rule_sets": [FORCED], "players": [2]}}) == {"rule_sets": [FORCED], "players": [2]}
    assert [f.name for f in families({"duel": {"rule_sets": [FORCED], "players": [2]}})] == [
        "yahtzee-party2-scandinavian-forced"]
    assert families({}) == []
    assert [f.name for f in families({"duel": {"rule_sets": [FORCED], "players": [2, 3]}})] == [
        "yahtzee-party2-scandinavian-forced", "yahtzee-party3-scandinavian-forced"]
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
    """The 2-player table beside the scandinavian+forced value and play-to-win (goal, win) tables (shared builds)."""
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
    first, tie, second = _triple(optimal.start())
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
