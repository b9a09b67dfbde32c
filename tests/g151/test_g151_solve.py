"""Optimal 151 policies against independent exact methods (whole-state-space rational linear algebra)."""

from fractions import Fraction

import numpy as np
import pytest

from lookup.g151.rules import RULE_SETS, get_rules
from pipeline.g151.evaluate import solitaire_turns
from pipeline.g151.solve import solve_duel, solve_solitaire

from .reference import duel_rolls, duel_values, solitaire_equations, solitaire_policy_iteration, solve


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_solitaire_equals_policy_iteration_from_scratch_in_rationals(name):
    n = 7
    rules = get_rules(name)
    exact, rolls = solitaire_policy_iteration(rules, n)
    sol = solve_solitaire(rules, n)
    for (a, t), v in exact.items():
        table = sol.roll[a, t] if sol.policy[a, t] == 1 else sol.bank[a, t]
        assert abs(table - float(v)) < 1e-12, (a, t)
        if t:
            assert sol.policy[a, t] == rolls[(a, t)], (a, t)
    assert sol.start[0] == pytest.approx(float(exact[(0, 0)]), abs=1e-12)


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_duel_policy_is_exactly_optimal_in_rationals(name):
    n = 5
    rules = get_rules(name)
    duel = solve_duel(rules, n)
    rolls = duel_rolls(duel.policy, n)
    w = duel_values(rules, n, rolls, rolls)  # self-play: P(player 1 wins)

    def mover_wins(a, b, t):
        return w[(1, a, b, t)]

    # The exact values of the float policy match the tables, and no single action improves on it anywhere:
    # the Bellman optimality equations hold exactly, so these are the optimal values.
    for a in range(n):
        for b in range(n):
            assert abs(duel.start[a, b] - float(mover_wins(a, b, 0))) < 1e-12
            for t in range(1, n - a + 1):
                bank = Fraction(1) if a + t == n else 1 - w[(1, b, a + t, 0)]
                roll = _exact_roll(rules, n, w, a, b, t)
                assert abs(duel.bank[a, b, t] - float(bank)) < 1e-12
                assert abs(duel.roll[a, b, t] - float(roll)) < 1e-12
                chosen = roll if duel.policy[a, b, t] == 1 else bank
                assert chosen == max(roll, bank), (a, b, t)
                assert mover_wins(a, b, t) == chosen


def _exact_roll(rules, n, w, a, b, t):
    from .reference import enumerated_law, roll_outcomes

    fail = 1 - w[(1, b, a, 0)]
    total = Fraction(0)
    for p, kind, u in roll_outcomes(enumerated_law(rules), t, n - a, rules.zero_keeps_turn):
        if kind == "on":
            total += p * w[(1, a, b, u)]
        elif kind == "bank":
            total += p * (1 if a + u == n else 1 - w[(1, b, a + u, 0)])
        else:
            total += p * fail
    return total


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_solitaire_evaluator_matches_rationals_for_a_random_policy(name):
    n = 6
    rules = get_rules(name)
    rng = np.random.default_rng(3)
    pi = np.round(rng.random((n + 1, n + 1)) * 8) / 8  # exact in binary, so the rationals below match
    eq = solitaire_equations(rules, n, {(a, t): Fraction(pi[a, t]) for a in range(n) for t in range(1, n - a + 1)})
    exact = solve(eq)
    ev = solitaire_turns(pi, rules, n)
    assert ev.counted[0] == pytest.approx(float(exact[(0, 0)]), abs=1e-12)


@pytest.mark.parametrize("name", list(RULE_SETS))
@pytest.mark.parametrize("n", [10, 20, 40])
def test_default_grid_converges(name, n):
    solo, duel = solve_solitaire(name, n), solve_duel(name, n)
    assert solo.residual < 1e-12 and duel.residual < 1e-12
    assert duel.fallbacks == 0
    assert np.all((duel.start[:n, :n] > 0) & (duel.start[:n, :n] < 1))
    # Banking the target wins; at t = 0 the roll is forced.
    for a in range(n):
        assert np.all(duel.policy[a, :n, n - a] == 0) and np.all(duel.bank[a, :n, n - a] == 1)
        assert np.all(duel.policy[a, :n, 0] == 1)
    assert np.isnan(duel.roll[n]).all() and np.all(duel.policy[n] == 2)
    assert solo.start[n] == 0 and np.all(np.isfinite(solo.start)) and np.all(solo.start[:n] >= 1)


def test_known_values():
    # Both players 50 short under the stated rules: only a first roll worth exactly 50 (48 of 216) wins,
    # so W = c + f (1 - W) with c = 2/9, f = 7/9: W = 9/16.
    duel = solve_duel("stated", 20)
    assert duel.start[19, 19] == pytest.approx(9 / 16, abs=1e-15)
    # Alone 50 short: a geometric number of turns with success 2/9.
    assert solve_solitaire("stated", 20).start[19] == pytest.approx(4.5, abs=1e-13)
