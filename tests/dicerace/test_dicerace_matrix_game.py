"""Matrix-game helpers on games whose answers are known by hand."""

import numpy as np

from pipeline.dicerace.matrix_game import certify_support, mixed_verdicts, row_strategy_unique, solve_lp


def test_matching_pennies():
    game = np.array([[1.0, -1.0], [-1.0, 1.0]])
    sol = solve_lp(game)
    assert abs(sol.value) < 1e-12 and sol.gap < 1e-12
    np.testing.assert_allclose(sol.row, [0.5, 0.5], atol=1e-12)
    np.testing.assert_allclose(sol.col, [0.5, 0.5], atol=1e-12)
    assert mixed_verdicts(game, sol.row, sol.col, sol.value, 1e-12) == (0, 0)  # both UNIQUE
    x, y = np.empty(2), np.empty(2)
    assert certify_support(game, np.array([0, 1]), np.array([0, 1]), x, y) < 1e-12


def test_non_unique_mixture_without_a_second_pure_optimum():
    # Row 0 guarantees 0; so does the half-half mixture of rows 1 and 2.
    game = np.array([[0.0, 0.0], [1.0, -1.0], [-1.0, 1.0]])
    sol = solve_lp(game)
    assert abs(sol.value) < 1e-12
    assert not row_strategy_unique(game, np.array([1.0, 0, 0]), np.array([0.5, 0.5]), 0.0, 1e-12)


def test_unique_pure_strategy():
    game = np.array([[2.0, 3.0], [1.0, 0.0]])  # saddle at (0, 0), strict
    assert row_strategy_unique(game, np.array([1.0, 0.0]), np.array([1.0, 0.0]), 2.0, 1e-12)
    assert row_strategy_unique(-game.T, np.array([1.0, 0.0]), np.array([1.0, 0.0]), -2.0, 1e-12)
