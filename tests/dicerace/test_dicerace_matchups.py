"""Exact match-ups against 10^5 simulated games (within 4 standard errors), and policy tables."""

import numpy as np
import pytest

from pipeline.dicerace import policies
from pipeline.dicerace.matchups import match, sequential_match, simultaneous_match
from pipeline.dicerace.oneshot import solve_oneshot
from pipeline.dicerace.report import z_score
from pipeline.dicerace.sequential import solve_sequential
from pipeline.dicerace.simulate import simulate
from pipeline.dicerace.simultaneous import solve_simultaneous

GAMES = 100_000


@pytest.fixture(scope="module")
def game():
    dice, target = 5, 40
    return {"dice": dice, "target": target,
            "sequential": policies.sequential_optimal(solve_sequential(dice, target)),
            "simultaneous": policies.simultaneous_optimal(solve_simultaneous(dice, target)),
            "oneshot": policies.oneshot_optimal(solve_oneshot(dice)),
            "blind": policies.blind(dice), "random": policies.uniform(dice)}


def _assert_within(exact, sim):
    for field in ("win", "draw", "loss"):
        assert abs(z_score(getattr(exact, field), getattr(sim.outcome, field), sim.games)) <= 4, field


@pytest.mark.parametrize("a, b", [("sequential", "blind"), ("blind", "random"), ("random", "sequential")])
def test_sequential_exact_vs_simulated(game, a, b):
    exact = sequential_match(game[a], game[b], game["target"])
    for seed, (key, first) in enumerate((("a_first", True), ("b_first", False))):
        _assert_within(exact[key], simulate(game[a], game[b], game["target"], "sequential", GAMES, 11 + seed,
                                            a_first=first))


@pytest.mark.parametrize("a, b", [("simultaneous", "blind"), ("oneshot", "random"), ("simultaneous", "oneshot")])
def test_simultaneous_exact_vs_simulated(game, a, b):
    exact = simultaneous_match(game[a], game[b], game["target"])
    assert exact.draw > 0
    _assert_within(exact, simulate(game[a], game[b], game["target"], "simultaneous", GAMES, 5))


def test_a_quick_simulation_check():
    dice, target = 3, 20
    a, b = policies.blind(dice), policies.uniform(dice)
    exact = simultaneous_match(a, b, target)
    _assert_within(exact, simulate(a, b, target, "simultaneous", 20_000, 2))


def test_optimal_self_play_and_consistency(game):
    n = game["target"]
    seq = sequential_match(game["sequential"], game["sequential"], n)
    assert abs(seq["a_first"].win - seq["b_first"].loss) < 1e-15
    assert abs(seq["a_first"].gain - solve_sequential(game["dice"], n).value[0, 0]) < 1e-12
    sim = simultaneous_match(game["simultaneous"], game["simultaneous"], n)
    assert abs(sim.win - sim.loss) < 1e-12 and abs(sim.win + sim.draw + sim.loss - 1) < 1e-12
    # Optimal play is never worse than its value against anyone, whoever moves first.
    for other in ("blind", "random"):
        assert sequential_match(game["sequential"], game[other], n)["a_first"].gain >= seq["a_first"].gain - 1e-12
        assert simultaneous_match(game["simultaneous"], game[other], n).gain >= -1e-12


def test_user_tables_match_the_named_policies(game):
    dice, n = game["dice"], game["target"]
    as_counts = np.full((n, n), 6 if dice >= 6 else dice, dtype=np.int64)
    user = policies.from_table(as_counts, dice, n)
    assert match(user, game["random"], n, "sequential") == match(game["blind"], game["random"], n, "sequential")
    dense = np.zeros((n, n, dice))
    for i in range(n):
        for j in range(n):
            dense[i, j] = game["simultaneous"].probs(i, j)
    user = policies.from_table(dense, dice, n)
    want = simultaneous_match(game["simultaneous"], game["blind"], n)
    got = simultaneous_match(user, game["blind"], n)
    assert abs(got.win - want.win) < 1e-14 and abs(got.loss - want.loss) < 1e-14
    stationary = policies.from_table(np.full(dice, 1.0 / dice), dice, n)
    assert simultaneous_match(stationary, game["blind"], n) == simultaneous_match(game["random"], game["blind"], n)


@pytest.mark.parametrize("table, message", [
    (np.zeros((40, 40), dtype=int), "integers in 1..5"),
    (np.full((40, 40), 2.5), "integers"),
    (np.full((40, 40, 5), 0.3), "sum to 1"),
    (np.full(5, -0.2), ">= 0"),
    (np.ones((3, 3)), "expected shape"),
])
def test_bad_user_tables(table, message):
    with pytest.raises(ValueError, match=message):
        policies.from_table(table, 5, 40)


def test_mismatched_policies():
    with pytest.raises(ValueError, match="different numbers of dice"):
        sequential_match(policies.blind(5), policies.blind(6), 30)
    with pytest.raises(ValueError, match="mode"):
        match(policies.blind(5), policies.blind(5), 30, "turn-based")
    small = policies.from_table(np.ones((10, 10), dtype=int), 5, 10)
    with pytest.raises(ValueError, match="covers scores 0..9"):
        sequential_match(small, policies.blind(5), 30)
