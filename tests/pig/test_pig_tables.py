"""The Pig tables against the published optimal value and against exact rationals by another method."""

from __future__ import annotations

import numpy as np
import pytest

from lookup.pig import get_rules
from pipeline.pig.solve import solve
from tests.pig.exact import action_values, solve_policy


def test_first_player_wins_as_published():
    """Neller and Presser (2004): with optimal play by both, the first player wins 0.5305927 of games to 100."""
    solution = solve(get_rules(), 100)
    assert round(solution.start, 7) == 0.5305927
    assert solution.residual < 1e-14


@pytest.mark.parametrize("target", [6, 10])
def test_optimal_in_exact_rationals(target):
    """The tables' policy, solved exactly as one linear system over every turn-start value, leaves no state where
    the other action is better (so it is optimal: every policy ends the game with probability 1, so the
    optimality equations have one solution), and every stored value is that exact value to 1e-15."""
    solution = solve(get_rules(), target)
    n = target
    rolls = {(i, j, k): bool(solution.roll[i, j, k] > solution.hold[i, j, k])
             for i in range(n) for j in range(n) for k in range(2, n - i)}
    w = solve_policy(target, rolls)
    exact = action_values(target, w)
    assert exact, "no decision state"
    for (i, j, k), (roll, hold) in exact.items():
        chosen, other = (roll, hold) if rolls[(i, j, k)] else (hold, roll)
        assert chosen >= other, ((i, j, k), roll, hold)
        assert abs(solution.roll[i, j, k] - float(roll)) < 1e-15
        assert abs(solution.hold[i, j, k] - float(hold)) < 1e-15
    for (i, j), value in w.items():
        assert abs(solution.roll[i, j, 0] - float(value)) < 1e-15


def test_unreachable_states_are_nan():
    """A turn total of 1 cannot be made (the smallest safe face is 2); nor can a total at or past the target."""
    s = solve(get_rules(), 12)
    assert np.isnan(s.roll[:, :, 1]).all() and np.isnan(s.hold[:, :, 1]).all()
    assert np.isnan(s.hold[:, :, 0]).all()
    assert np.isnan(s.roll[11, 0, 1:]).all() and not np.isnan(s.roll[11, 0, 0])


def test_built_artifact_holds_the_solution(pig_tables):
    from lookup.pig.tables import load_table

    table = load_table(get_rules(), 20, pig_tables)
    s = solve(get_rules(), 20)
    np.testing.assert_array_equal(np.asarray(table.roll[...]), s.roll)
    np.testing.assert_array_equal(np.asarray(table.hold[...]), s.hold)
