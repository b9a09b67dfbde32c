"""Certified comparisons of matrix entries carried as (W, D, L, slack), and the certified mixed supports."""

from fractions import Fraction

import numpy as np
import pytest

from pipeline.dicerace import certified
from pipeline.dicerace.certified import CHANNELS, DRAW, LOSE, SLACK, UNKNOWN, WIN, certify_mixed, shifted, sign
from pipeline.dicerace.matrix_game import solve_lp

from .exact_simultaneous import optimal_pair, row_player

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


def _exact(m: np.ndarray, signs: np.ndarray, err: np.ndarray) -> list[list[Fraction]]:
    """The exact game m + signs * err, entry by entry in fractions."""
    return [[Fraction(float(v)) + int(s) * Fraction(float(e)) for v, s, e in zip(*rows, strict=True)]
            for rows in zip(m, signs, err, strict=True)]


def _corners(shape: tuple[int, int], count: int, seed: int) -> list[np.ndarray]:
    """Sign patterns of the error box: all up, all down, the computed game itself, random corners."""
    rng = np.random.default_rng(seed)
    return [np.ones(shape), -np.ones(shape), np.zeros(shape)] + [rng.choice([-1, 1], shape) for _ in range(count)]


def test_ill_conditioned_support_is_certified_like_the_exact_games():
    # A 2x2 support whose entries differ by 1e-9 (kernel condition ~1e9, as at 917 against 562 with 30
    # dice, target 1000), margins of 2e-8 off the support, entry errors of 1e-16. The strategies' error bound
    # is ~1e-7, far above the margins: what the off-support strategies are compared with is their difference
    # with the mixture, whose error is 1e-7 times the (tiny) differences.
    m = -1.3e-5 + 1e-9 * np.array([[0.0, -1.3, 20.0], [-0.4, -0.2, 20.0], [-20.0, -20.0, 0.0]])
    err = np.full((3, 3), 1e-16)
    sol = solve_lp(m)  # as the solver does for such states: the kernel is too close to singular to guess
    x, y = sol.row, sol.col
    assert list(np.flatnonzero(x)) == list(np.flatnonzero(y)) == [0, 1]
    kernel = np.block([[m[:2, :2].T, -np.ones((2, 1))], [np.ones((1, 2)), np.zeros((1, 1))]])
    assert np.linalg.cond(kernel) > 1e8
    assert certify_mixed(m, err, x, y)
    # Every exact game within the errors has this support, strictly complementary, unique for both players.
    for signs in _corners((3, 3), 8, seed=5):
        exact = _exact(m, signs, err)
        for game in (exact, [[-exact[r][c] for r in range(3)] for c in range(3)]):
            state = row_player(game)
            assert state.unique and state.support == (0, 1) and not state.saddle
    # A third column within the errors of the value: some exact game in the box makes it as good, refused.
    v = float(x @ m @ y)
    close = m.copy()
    close[:2, 2] = v + 5e-17
    assert not certify_mixed(close, err, x, y)


@pytest.mark.parametrize("rho, slacks", [(1e-9, 1e-6), (1e-6, 0.0)])
@pytest.mark.parametrize("seed", range(4))
def test_mixed_value_slack_bounds_the_exact_value_of_every_game_within_the_errors(seed, rho, slacks):
    # Entries with relative errors rho and slacks S (certified.py): the exact entry is within rho (W + L) + S of
    # W - L. The mixed state's value channels must satisfy the same invariant: |W - L - v*| <= rho (W + L) + slack
    # for the exact value v* of every such game (inherited slacks dominating, or relative errors). Seed 0 is a
    # flat game (every entry worth 0, W + L varying): any pair is optimal, and the errors decide the value.
    rng = np.random.default_rng(seed)
    if seed == 0:
        win = rng.uniform(0.0, 0.5, (3, 3))
        win[0, 0] = 0.0
        g = _channels(win, 1.0 - 2.0 * win)
        x = y = np.array([1.0, 0.0, 0.0])
    else:
        g = _channels(rng.uniform(0.0, 0.6, (3, 3)), rng.uniform(0.0, 0.4, (3, 3)) * (rng.random((3, 3)) < 0.5))
        sol = solve_lp(g[WIN] - g[LOSE])
        x, y = sol.row, sol.col
    g[SLACK] = rng.uniform(0.0, slacks, (3, 3))
    slack = certified.mixed_value_slack(g, x, y, rho)
    w, lose = x @ g[WIN] @ y, x @ g[LOSE] @ y
    allowed = Fraction(rho * (w + lose) * (1 + 2 * rho) + slack)
    err = 0.999 * (rho * (g[WIN] + g[LOSE]) + g[SLACK])
    for signs in _corners((3, 3), 16, seed=seed):
        v = optimal_pair(_exact(g[WIN] - g[LOSE], signs, err))[2]
        assert abs(v - Fraction(float(w - lose))) <= allowed


def _tied_game(rng: np.random.Generator, dice: int) -> np.ndarray:
    """Channels of a game with many exact ties and near ties: W and D from a few levels (exact zeros, equal
    entries, entries 1e-20 apart near a sure loss), a slack on some."""
    levels = np.array([0.0, 1e-20, 2e-20, 0.25, 0.25 + 2.0**-40, 0.5, 0.75])
    win = rng.choice(levels, (dice, dice))
    draw = rng.choice([0.0, 0.0, 0.125, 0.25], (dice, dice))
    g = _channels(win, np.minimum(draw, 1.0 - win))
    g[SLACK] = np.where(rng.random((dice, dice)) < 0.2, 1e-13, 0.0)
    return g


@pytest.mark.parametrize("seed", range(3))
def test_quick_saddle_verdicts_are_the_full_sign_matrix_verdicts(seed):
    # quick_saddle decides a saddle point from its row, its column and one test per other line; wherever it
    # decides, the verdicts and smallest optimal strategies must be those of the full sign matrix
    # (signs_against, saddle_from_signs, saddle_verdict), which compares every entry with the saddle point.
    rng = np.random.default_rng(seed)
    decided, verdicts = 0, set()
    for trial in range(600):
        dice = int(rng.integers(2, 6))
        g = _tied_game(rng, dice)
        if trial % 3 == 1:  # a game with a clear saddle point: the common case at (30, 1000)
            g[WIN] = np.add.outer(np.linspace(0.1, 0.2, dice), -np.linspace(0.0, 0.05, dice)) + g[WIN] * 1e-3
            g[DRAW] = 0.0
            g[LOSE] = 1.0 - g[WIN]
        elif trial % 3 == 2:  # sure draws (proven ties at the value) among certain wins and losses
            value = rng.choice([-0.5, 0.0, 0.0, 0.5], (dice, dice))
            g = _channels(np.maximum(value, 0.0), 1.0 - np.abs(value))
        f, e = np.empty((dice, dice)), np.empty((dice, dice))
        shifted(g, RHO, f, e, False)
        r, c = int(np.argmax(f.min(axis=1))), int(np.argmin(f.max(axis=0)))
        quick = certified.quick_saddle(g, certified.state_form(g, False), RHO, r, c, f.max(axis=0), e.max(axis=0),
                                       f.min(axis=1), e.max(axis=1))
        if quick[0] < 0:
            continue
        decided += 1
        signs = np.empty((dice, dice), dtype=np.int64)
        certified.signs_against(f, e, g, r, c, RHO, signs)
        assert certified.saddle_from_signs(signs, r, c) == 1
        verdict_row, r0, unsure_row = certified.saddle_verdict(signs, r, c, False)
        verdict_col, c0, unsure_col = certified.saddle_verdict(signs, c, r, True)
        assert quick == (verdict_row, verdict_col)
        assert (r0, c0) == (r, c) and not unsure_row and not unsure_col
        verdicts.add(quick)
    # The test exercises the quick path (the other states take the full one), with ties on the saddle lines.
    assert decided >= 150 and {(0, 0), (2, 0), (0, 2)} <= verdicts


def test_saddle_states_side_by_side_agree_with_each_state_alone():
    # simultaneous.saddle_states decides LANES states at once (vector loops over the states, then quick_saddle,
    # then the full path); each state's verdicts and pure strategies must be what the full sign matrix of that
    # state alone gives wherever the rounded game's candidate is a proven saddle point.
    from pipeline.dicerace.simultaneous import LANES, SADDLE, _Row, saddle_states

    rng = np.random.default_rng(7)
    dice, n = 4, 3 * LANES + 5
    states = []
    for j in range(n):
        g = _tied_game(rng, dice)
        if j % 3 == 1:
            g[WIN] = np.add.outer(np.linspace(0.1, 0.2, dice), -np.linspace(0.0, 0.05, dice)) + g[WIN] * 1e-3
            g[DRAW], g[LOSE] = 0.0, 1.0 - g[WIN]
        elif j % 3 == 2:
            value = rng.choice([-0.5, 0.0, 0.0, 0.5], (dice, dice))
            g = _channels(np.maximum(value, 0.0), 1.0 - np.abs(value))
        states.append(g)
    # The row's last state is (a, a), whose exact game is antisymmetric (solved by the full path).
    value = rng.choice([-0.5, 0.0, 0.5], (dice, dice))
    value = np.triu(value, 1) - np.triu(value, 1).T
    states.append(_channels(np.maximum(value, 0.0), 1.0 - np.abs(value)))
    games = np.zeros((CHANNELS, -(-(n + 1) // LANES), dice, dice, LANES))
    for j, g in enumerate(states):
        games[:, j // LANES, :, :, j % LANES] = g
    row = _Row(dice, n + 1)
    saddle_states(0, 0, games.shape[1], games, n + 1, RHO, row.comp, row.xs, row.ys, row.status, row.verdicts,
                  row.unknown, row.shift, row.bound, row.row_sup, row.col_sup, row.maximin)
    checked = 0
    for j, g in enumerate(states[:n]):
        f, e = np.empty((dice, dice)), np.empty((dice, dice))
        shifted(g, RHO, f, e, False)
        r, c = int(np.argmax(f.min(axis=1))), int(np.argmin(f.max(axis=0)))
        signs = np.empty((dice, dice), dtype=np.int64)
        certified.signs_against(f, e, g, r, c, RHO, signs)
        if certified.saddle_from_signs(signs, r, c) != 1:
            continue
        checked += 1
        verdict_row, r0, _ = certified.saddle_verdict(signs, r, c, False)
        verdict_col, c0, _ = certified.saddle_verdict(signs, c, r, True)
        assert row.status[j] == SADDLE
        assert tuple(row.verdicts[j]) == (verdict_row, verdict_col)
        assert np.argmax(row.xs[j]) == (r if r0 < 0 else r0) and np.argmax(row.ys[j]) == (c if c0 < 0 else c0)
        assert np.array_equal(row.comp[j], g[:, np.argmax(row.xs[j]), np.argmax(row.ys[j])])
    assert checked >= n // 2
