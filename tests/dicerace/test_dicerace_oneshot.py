"""The one-shot simultaneous game: the seed's D = 3 matrix exactly, value 0 for every D."""

from fractions import Fraction

import numpy as np
import pytest

from pipeline.dicerace.oneshot import exact_matrix, solve_oneshot
from pipeline.dicerace.simultaneous import solve_simultaneous

from .exact_reference import roll_law


def test_seed_matrix_for_three_dice_exactly():
    assert exact_matrix(3) == [
        [Fraction(0), Fraction(-3, 8), Fraction(-49, 216)],
        [Fraction(3, 8), Fraction(0), Fraction(-773, 3888)],
        [Fraction(49, 216), Fraction(773, 3888), Fraction(0)],
    ]
    # The seed's printed decimals.
    seed = [[0, -0.375, -0.2268519], [0.375, 0, -0.1988169], [0.226852, 0.198817, 0]]
    np.testing.assert_allclose(solve_oneshot(3).matrix, seed, atol=1e-6)


@pytest.mark.parametrize("dice", [1, 2, 4, 5])
def test_matrix_against_enumerated_rolls(dice):
    matrix = exact_matrix(dice)
    for d1 in range(1, dice + 1):
        for d2 in range(1, dice + 1):
            want = sum(p1 * p2 * ((k1 > k2) - (k1 < k2)) for k1, p1 in roll_law(d1).items()
                       for k2, p2 in roll_law(d2).items())
            assert matrix[d1 - 1][d2 - 1] == want


@pytest.mark.parametrize("dice", [*range(1, 13), 20, 30])
def test_antisymmetric_and_value_zero(dice):
    sol = solve_oneshot(dice)
    assert all(sol.exact[a][b] == -sol.exact[b][a] for a in range(dice) for b in range(dice))
    assert abs(sol.value) <= 1e-12
    # The stored strategy guarantees the value against every pure reply.
    assert (sol.strategy @ sol.matrix).min() >= -1e-12
    assert abs(sol.strategy.sum() - 1) < 1e-12 and sol.strategy.min() >= 0


def test_general_solver_with_target_one_is_the_oneshot_game():
    # With N = 1 every roll ends the game: state (0, 0) is the one-shot game.
    for dice in (3, 6):
        sim = solve_simultaneous(dice, 1)
        one = solve_oneshot(dice)
        assert sim.value[0, 0] == 0.0
        assert (sim.strategy(0, 0) @ one.matrix).min() >= -1e-12
