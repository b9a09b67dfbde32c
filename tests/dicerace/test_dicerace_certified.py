"""Certified comparisons of matrix entries carried as (W, D, L, slack), and the certified mixed supports."""

import numpy as np

from pipeline.dicerace.certified import CHANNELS, DRAW, LOSE, SLACK, UNKNOWN, WIN, certify_mixed, shifted, sign

RHO = 1e-12


def _channels(win: np.ndarray, draw: np.ndarray, slack: float = 0.0) -> np.ndarray:
    g = np.zeros((CHANNELS, *win.shape))
    g[WIN], g[DRAW], g[LOSE], g[SLACK] = win, draw, 1.0 - win - draw, slack
    return g


def _sign(g: np.ndarray, a: tuple[int, int], b: tuple[int, int]) -> int:
    f, e = np.empty(g.shape[1:]), np.empty(g.shape[1:])
    shifted(g, RHO, f, e, False)
    return sign(f, e, g, *a, *b, RHO, False)


def test_tiny_differences_near_minus_one_are_separated():
    # Player 1 almost surely loses; W - L rounds to -1 for all four entries, W itself does not.
    g = _channels(np.array([[1e-20, 2e-20], [0.0, 0.0]]), np.zeros((2, 2)))
    assert np.all(g[WIN] - g[LOSE] == -1.0)
    assert _sign(g, (0, 1), (0, 0)) == 1
    assert _sign(g, (0, 0), (1, 0)) == 1
    assert _sign(g, (1, 0), (1, 1)) == 0  # both exact zeros: a proven tie


def test_ties_are_proven_only_from_exact_zeros():
    win = np.array([[0.25, 0.25], [0.0, 0.0]])
    assert _sign(_channels(win, np.zeros((2, 2))), (0, 0), (0, 1)) == UNKNOWN  # equal, but not provably
    # A slack (an inherited mixed-equilibrium error) makes even exact zeros uncertain.
    assert _sign(_channels(win, np.zeros((2, 2)), slack=1e-30), (1, 0), (1, 1)) == UNKNOWN


def test_transposed_sign_is_the_column_players_view():
    g = _channels(np.array([[0.3, 0.1], [0.2, 0.4]]), np.zeros((2, 2)))
    f, e = np.empty((2, 2)), np.empty((2, 2))
    shifted(g, RHO, f, e, False)
    # Column player's game M'[a, b] = -M[b, a]: M'[0, 1] - M'[0, 0] = M[0, 0] - M[1, 0] > 0.
    assert sign(f, e, g, 0, 1, 0, 0, RHO, True) == 1


def test_certify_mixed_accepts_a_regular_equilibrium_only():
    # Matching pennies plus a third row and column; x = y = (1/2, 1/2, 0).
    x = y = np.array([0.5, 0.5, 0.0])
    small = np.full((3, 3), 1e-12)
    m = np.array([[1.0, -1.0, -2.0], [-1.0, 1.0, -2.0], [-3.0, -3.0, -3.0]])
    assert not certify_mixed(m, small, x, y)  # column 2 beats x: not an equilibrium
    m = np.array([[1.0, -1.0, 2.0], [-1.0, 1.0, 2.0], [-3.0, -3.0, -3.0]])
    assert certify_mixed(m, small, x, y)
    assert not certify_mixed(m, np.full((3, 3), 0.6), x, y)  # errors as large as the margins
    # A duplicated row is as good as the support: not strictly complementary (the optimal x is not unique).
    dup = np.array([[1.0, -1.0, 2.0], [-1.0, 1.0, 2.0], [1.0, -1.0, 2.0]])
    assert not certify_mixed(dup, small, np.array([0.5, 0.5, 0.0]), y)
