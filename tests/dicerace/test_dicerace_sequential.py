"""Sequential race: the solver against exact rational arithmetic, ties included."""

import numpy as np
import pytest

from pipeline.dicerace.kernels import float_tolerance
from pipeline.dicerace.sequential import lowest_bit, solve_sequential

from .exact_reference import sequential_game


@pytest.mark.parametrize("dice, target", [(1, 15), (2, 30), (3, 25), (4, 30), (5, 20), (6, 24)])
def test_values_and_ties_match_exact_rationals(dice, target):
    exact, ties = sequential_game(dice, target)
    sol = solve_sequential(dice, target)
    for (i, j), v in exact.items():
        assert abs(sol.value[i, j] - float(v)) <= 1e-12, (i, j)
        mask = int(sol.optimal[i, j])
        assert {d for d in range(1, dice + 1) if mask >> (d - 1) & 1} == ties[(i, j)], (i, j)


def test_exact_ties_are_exactly_equal_in_floating_point():
    # Decided states (every d wins, or every d loses) must tie exactly, not just within the tolerance.
    sol = solve_sequential(6, 40)
    assert np.all(sol.value[39, :] == 1.0)
    assert sol.optimal[39, 0] == (1 << 6) - 1


def test_shapes_ranges_and_first_player_advantage():
    sol = solve_sequential(10, 100)
    assert sol.value.shape == (100, 100) and sol.optimal.dtype == np.uint32
    assert np.all(np.abs(sol.value) <= 1.0)
    assert np.all(sol.optimal > 0) and np.all(sol.optimal < 1 << 10)
    assert 0 < sol.value[0, 0] < 0.2
    assert sol.tolerance == float_tolerance(10, 100) < 1e-11
    best = lowest_bit(sol.optimal)
    assert best.min() >= 1 and best.max() <= 10
    # Two points short: rolling one die risks the least (the seed's Q3 remark).
    assert best[98, 50] == 1


def test_lowest_bit():
    assert list(lowest_bit(np.array([1, 2, 6, 0b1000000000000000000000000000000, 0]))) == [1, 2, 2, 31, 0]
