"""The simultaneous dice race: value and optimal mixed strategies of every state, by backward induction.

State (i, j): player 1 has i, player 2 has j, both < N. Both choose a number of dice at once (d1, d2)
and roll; with totals (i + k1, j + k2), if at least one total is >= N the higher total wins (+1 for
player 1), the lower loses (-1), equal totals draw (0); otherwise the game continues from
(i + k1, j + k2). So each state is the zero-sum matrix game

    M(i, j)[d1, d2] = sum_{k1, k2} P(d1, k1) P(d2, k2) T(i + k1, j + k2),
    T(a, b) = EG1(a, b) if both a, b < N, else final_outcome(a, b),

and EG1(i, j) is its value, from player 1's view. Both players gain at least one point per turn, so
every state depends only on states with a larger first score: rows i are solved from N - 1 down to 0.

The game is symmetric, M(j, i) = -M(i, j)^T, so EG1(j, i) = -EG1(i, j), and player 2's optimal
strategies at (i, j) are player 1's at (j, i): only states j <= i are solved; their column player's
strategy is stored at (j, i). Every table here is in the view of the player whose score is the first
index ("me" at (my score, other's score)).

Speed: for row i, the expected T over player 1's roll (``kernels.roll_rows``) and then over player 2's
roll (the Q-mean recursion along columns) give all D x D entries of every state of the row in
~6 D^2 operations per state. Then, in order, without any LP:

1. most states have a pure saddle point (max of row minima = min of column maxima), proven with certified
   comparisons of the entries (``pipeline.dicerace.certified``: each entry is carried as player 1's
   probabilities of winning, drawing and losing plus a slack, so that the order of entries is exact even
   when they differ by 1e-20 near +-1);
2. most of the others have the support of a neighbouring state's solution, or two adjacent numbers
   of dice around the maximin / minimax ones: solving the equalising equations on a guessed square
   support and checking that neither player can do better (``matrix_game.certify_support``) proves
   the pair optimal, exactly as an LP's duality certificate would;
3. the remaining states are solved by HiGHS (``matrix_game.solve_lp``).

Uniqueness is decided by the same certified comparisons (``certified.signs_against``, ``saddle_verdict``) and, for mixed
equilibria, by a certified Shapley-Snow test (``certified.certify_mixed``); where these cannot tell, as
before with a tolerance (``matrix_game.mixed_verdicts``, two HiGHS LPs in ``matrix_game.row_strategy_unique``),
and the state is counted in the stats as uncertified.
"""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numba
import numpy as np
from numba import carray

from lookup.dicerace.tables import MIXED, NO_SADDLE, NOT_UNIQUE, SimultaneousTable
from pipeline.dicerace.certified import (
    CHANNELS,
    DRAW,
    FORM_ROUNDING,
    LOSE,
    SLACK,
    UNKNOWN,
    WIN,
    certify_mixed,
    form_choice,
    form_entry,
    is_saddle,
    mixed_value_slack,
    no_saddle,
    quick_saddle,
    saddle_from_signs,
    saddle_verdict,
    shifted,
    signs_against,
)
from pipeline.dicerace.kernels import (
    BUST_SCORE,
    MAX_DICE,
    RING,
    SAFE_FACES,
    SMALLEST_TRUSTED,
    advance_rows,
    bust_powers,
    final_outcome,
    qmean_step,
    roll_rows,
    safe_powers,
    simultaneous_over,
    split_roll,
)
from pipeline.dicerace.matrix_game import (
    CERTIFIED_GAP,
    SEVERAL,
    SUPPORT_EPS,
    UNDECIDED,
    UNIQUE,
    certify_support,
    mixed_verdicts,
    row_strategy_unique,
    solve_lp,
)
from pipeline.jit import njit, run_chunks, stack_floats

# flags[i, j] bits (lookup.dicerace.tables), for the strategy of the player with score i at (i, j):
# MIXED: the stored optimal strategy uses two or more numbers of dice; NOT_UNIQUE: another optimal
# strategy exists; NO_SADDLE: the state's matrix game has no pure saddle point.
# How a state of a row was solved.
SADDLE, CERTIFIED, NEEDS_LP = 0, 1, 2
MAX_FACE = int(SAFE_FACES.max())
N_GUESSES = 8
# States whose saddle-point tests run side by side, one vector lane each (``saddle_states``): two AVX-512 vectors.
LANES = 16
LANE_LINES = LANES * MAX_DICE  # the lanes' values for every row (or column) of a game


@dataclass(frozen=True, eq=False)
class SimultaneousSolution(SimultaneousTable):
    """Optimal play of the simultaneous race for (dice, target): the tables as ``lookup`` reads them
    (value, pure, mixed_row, mixed, flags, all in the view of the first index; see
    ``lookup.dicerace.tables.SimultaneousTable``), plus the relative error bound of the W, D, L channels
    (``relative_bound``) and the work statistics."""

    tolerance: float = 0.0
    stats: dict[str, float] = field(default_factory=dict)


def dense_policy(pure: np.ndarray, mixed_row: np.ndarray, mixed: np.ndarray) -> np.ndarray:
    """A (N, N, D) table of probabilities over d from the pure / mixed_row / mixed encoding."""
    n, dice = pure.shape[0], mixed.shape[1]
    table = np.zeros((n, n, dice))
    i, j = np.nonzero(pure)
    table[i, j, pure[i, j].astype(np.int64) - 1] = 1.0
    i, j = np.nonzero(mixed_row >= 0)
    table[i, j] = mixed[mixed_row[i, j]]
    return table


def relative_bound(dice: int, target: int, rounds: int | None = None) -> float:
    """Bound on the relative rounding error of every W, D, L channel the solve computes (see
    ``pipeline.dicerace.certified``), u = 2^-53: a roll adds at most (5 dice + 3) u (``kernels.split_roll``
    form, as in ``pipeline.dicerace.sequential.relative_bound``); a round is two rolls and the mixing of the
    entries by two strategies (two dot products of at most dice terms, 2 dice + 2 u, and strategies that sum to
    1 within dice u each, 2 dice + 2 u). ``rounds``: how many rounds remain at most (every round adds at least
    one point to each score, so at most target - max(i, j) from state (i, j)); target by default, the bound of
    every state. 1.01 covers the second-order terms."""
    rounds = target if rounds is None else rounds
    return 1.01 * rounds * (2 * (5 * dice + 3) + 4 * dice + 4) * 2.0**-53


@njit(cache=True)
def _terminal_table(target, top):
    """Channels [W, D, L, S] of T(a, b) over totals 0..top (+ padding): the final outcome where the game is
    over (exact 0 / 1, no slack), NaN elsewhere."""
    size = top + 1 + RING
    table = np.full((CHANNELS, size, size), np.nan)
    for a in range(size):
        for b in range(size):
            if simultaneous_over(a, b, target):
                outcome = final_outcome(a, b)
                table[:, a, b] = 0.0
                table[WIN if outcome > 0 else (DRAW if outcome == 0 else LOSE), a, b] = 1.0
    return table


@njit(cache=True)
def row_games(rolls, n_cols, bust_pow, safe_pow, games):
    """games[j // LANES, d1 - 1, d2 - 1, j % LANES] = M(i, j)[d1, d2] for j < n_cols, from rolls[d1 - 1, b] =
    expected T(i + k1, b) over player 1's roll of d1 dice (``roll_rows``): the Q-mean recursion along columns.

    The layout (``saddle_states`` reads LANES states side by side): each (d1, d2) is written as short contiguous
    vector stores over the states of each block (a state's D x D entries contiguous made this a loop of scattered
    stores: 0.26 against 0.22 ms for one channel of a 500-state row), and a block of LANES states is contiguous."""
    dice, width = rolls.shape
    levels = np.empty((2, width))  # Q-means of one level and the next, alternately
    for d1 in range(dice):
        first = rolls[d1]
        levels[0] = first
        for d2 in range(1, dice + 1):
            nxt = levels[d2 & 1]
            # Level d2 is needed at columns up to n_cols - 1 + MAX_FACE * (dice - d2) only.
            qmean_step(levels[(d2 - 1) & 1], nxt, min(width - RING, n_cols - 1 + MAX_FACE * (dice - d2)))
            bust_p, safe_p = bust_pow[d2], safe_pow[d2]
            for block in range(-(-n_cols // LANES)):
                out = games[block, d1, d2 - 1]
                base = block * LANES
                if base + LANES <= n_cols:
                    for t in range(LANES):  # a constant count: the compiler vectorises it
                        out[t] = split_roll(first[base + t + BUST_SCORE], nxt[base + t], bust_p, safe_p)
                else:
                    for t in range(n_cols - base):
                        out[t] = split_roll(first[base + t + BUST_SCORE], nxt[base + t], bust_p, safe_p)


@njit(cache=True)
def _bits(mask):
    count = 0
    for d in range(32):
        count += (mask >> d) & 1
    out = np.empty(count, dtype=np.int64)
    k = 0
    for d in range(32):
        if (mask >> d) & 1:
            out[k] = d
            k += 1
    return out


@njit(cache=True)
def _guess(g, j, n, r, c, dice, prev_rows, prev_cols, row_sup, col_sup):
    """The g-th support guess (row mask, column mask) for a state without saddle point: the solutions'
    supports at (i + 1, j), (i, j - 1), (i + 1, j - 1), (i + 1, j + 1), then the four pairs of adjacent
    numbers of dice containing the maximin row r and the minimax column c. (0, 0) when unavailable."""
    if g == 0:
        return prev_rows[j], prev_cols[j]
    if g == 1:
        return (row_sup[j - 1], col_sup[j - 1]) if j > 0 else (0, 0)
    if g == 2:
        return (prev_rows[j - 1], prev_cols[j - 1]) if j > 0 else (0, 0)
    if g == 3:
        return (prev_rows[j + 1], prev_cols[j + 1]) if j + 1 < prev_rows.shape[0] else (0, 0)
    rr = r + (g & 1) - 1
    cc = c + ((g >> 1) & 1) - 1
    if rr < 0 or cc < 0 or rr + 1 >= dice or cc + 1 >= dice:
        return 0, 0
    return (3 << rr), (3 << cc)


@njit(cache=True, inline="always")
def _lane_forms(games, block, low, high, form):
    """form[t] = ``certified.state_form`` of the block's state t from games[ch, block, d1, d2, t]; low, high:
    scratch of LANES values. The inner loop runs over the block's states, one vector lane each, all LANES lanes (a
    constant count, which the compiler vectorises; lanes past the row's last state hold finite values of earlier
    rows, or zeros). Inlined into ``saddle_states``, whose stack arrays (``pipeline.jit.stack_floats``) low and high
    are: in numpy memory the loop stays scalar."""
    entries = games.shape[2] * games.shape[3] * LANES
    win = games[WIN, block].reshape(entries)  # flat views: simple indices, which the compiler vectorises
    draw = games[DRAW, block].reshape(entries)
    lose = games[LOSE, block].reshape(entries)
    low[:] = 0.0
    high[:] = 0.0
    for k in range(entries // LANES):
        base = k * LANES  # (a range with a step, or a sum the compiler cannot prove non-negative, makes it gather)
        for t in range(LANES):
            x = 2.0 * win[base + t] + draw[base + t]
            y = 2.0 * lose[base + t] + draw[base + t]
            low[t] = x if x > low[t] else low[t]
            high[t] = y if y > high[t] else high[t]
    for t in range(LANES):
        form[t] = form_choice(low[t], high[t])


@njit(cache=True, inline="always")
def _lane_extremes(games, block, form, rel, col_max, col_err, row_min, row_err):
    """For the block's states t (all LANES lanes, as ``_lane_forms``), in their forms (``certified.form_entry``, as
    ``certified.shifted``): col_max[b, t], row_min[a, t], the column maxima and row minima of the entries, and
    col_err[b, t], row_err[a, t], the largest bound of each column and row. Inlined, with stack arrays, as
    ``_lane_forms``."""
    dice = games.shape[2]
    entries = dice * dice * LANES
    win = games[WIN, block].reshape(entries)  # flat views, as in _lane_forms
    draw = games[DRAW, block].reshape(entries)
    lose = games[LOSE, block].reshape(entries)
    slack = games[SLACK, block].reshape(entries)
    col_max[:] = -np.inf
    row_min[:] = np.inf
    col_err[:] = 0.0
    row_err[:] = 0.0
    for a in range(dice):
        for b in range(dice):
            base = (a * dice + b) * LANES
            for t in range(LANES):
                k = base + t
                f, e = form_entry(win[k], draw[k], lose[k], slack[k], form[t], rel)
                col_max[b, t] = f if f > col_max[b, t] else col_max[b, t]
                row_min[a, t] = f if f < row_min[a, t] else row_min[a, t]
                col_err[b, t] = e if e > col_err[b, t] else col_err[b, t]
                row_err[a, t] = e if e > row_err[a, t] else row_err[a, t]


@njit(cache=True, inline="always")
def _lane_saddles(games, block, form, rel, rows, cols, col_max, col_err, row_min, row_err, value, err, ties_row,
                  ties_col, decided):
    """``certified.quick_saddle`` for the block's states t side by side (vector loops over the lanes, gathering each
    lane's saddle row rows[t] and column cols[t]), when every test it makes is decided by the state's form alone:
    decided[t] = 1 and the verdicts follow from ties_row[t], ties_col[t] (the entries of row rows[t] and of column
    cols[t] proven equal to the value, the candidate included) as in ``quick_saddle``; decided[t] = 0 where some test
    needs more (a comparison the form cannot tell, or a line without an entry certainly beyond the value in its
    extreme): ``quick_saddle`` decides that state. value[t], err[t]: the candidate's entry and bound. Stack arrays
    and inlined, as ``_lane_forms``."""
    dice = games.shape[2]
    entries = dice * dice * LANES
    win = games[WIN, block].reshape(entries)
    draw = games[DRAW, block].reshape(entries)
    lose = games[LOSE, block].reshape(entries)
    slack = games[SLACK, block].reshape(entries)
    for t in range(LANES):
        k = (rows[t] * dice + cols[t]) * LANES + t
        value[t], err[t] = form_entry(win[k], draw[k], lose[k], slack[k], form[t], rel)
        ties_row[t] = 0.0
        ties_col[t] = 0.0
        decided[t] = 1.0
    for line in range(dice):
        for t in range(LANES):
            # Row rows[t]: no entry below the value, none undecided (the candidate itself is a tie).
            k = (rows[t] * dice + line) * LANES + t
            f, e = form_entry(win[k], draw[k], lose[k], slack[k], form[t], rel)
            diff = f - value[t]
            bound = e + err[t]
            tie = line == cols[t] or (bound == 0.0 and not diff > bound and not diff < -bound)
            above = line != cols[t] and diff > bound
            ties_row[t] += 1.0 if tie else 0.0
            decided[t] = decided[t] if tie or above else 0.0
            # Column cols[t]: no entry above the value, none undecided.
            k = (line * dice + cols[t]) * LANES + t
            f, e = form_entry(win[k], draw[k], lose[k], slack[k], form[t], rel)
            diff = f - value[t]
            bound = e + err[t]
            tie = line == rows[t] or (bound == 0.0 and not diff > bound and not diff < -bound)
            below = line != rows[t] and diff < -bound
            ties_col[t] += 1.0 if tie else 0.0
            decided[t] = decided[t] if tie or below else 0.0
            # Every other column has an entry certainly above the value, every other row one below it.
            beyond = line == cols[t] or col_max[line, t] - value[t] > col_err[line, t] + err[t]
            beyond &= line == rows[t] or row_min[line, t] - value[t] < -(row_err[line, t] + err[t])
            decided[t] = decided[t] if beyond else 0.0


@njit(cache=True)
def _maximin(m):
    """(the maximin row, the minimax column) of the entries m: the first row of largest minimum, the first column of
    smallest maximum."""
    dice = m.shape[0]
    row_min = np.empty(dice)
    col_max = np.empty(dice)
    for a in range(dice):
        row_min[a] = m[a].min()
        col_max[a] = m[:, a].max()
    return np.argmax(row_min), np.argmin(col_max)


@njit(cache=True)
def _saddle_signs(m, e, g, r, c, rho, signs, verdicts):
    """The full path of one state (every comparison against the rounded game's candidate (r, c),
    ``certified.signs_against``): (saddle, r, c, r0, c0, unknown) with saddle 1 when (r, c) is a proven saddle
    point (or, when unresolved comparisons count as ties, not refuted), 0 when the state has none (or none could be
    found), r0 / c0 the smallest optimal pure strategies, and verdicts[0], verdicts[1] set at a saddle point."""
    dice = m.shape[0]
    unknown = False
    signs_against(m, e, g, r, c, rho, signs)
    saddle = saddle_from_signs(signs, r, c)
    if saddle == 0 and not no_saddle(m, e, g, rho):
        # The rounded game's saddle point is refuted, yet no proof that there is none: try every entry.
        saddle = UNKNOWN
        for a in range(dice * dice):
            if is_saddle(m, e, g, a // dice, a % dice, rho, False) == 1:
                r, c, saddle = a // dice, a % dice, 1
                signs_against(m, e, g, r, c, rho, signs)
                break
        unknown = saddle == UNKNOWN
        if saddle == UNKNOWN:
            return 0, r, c, r, c, unknown  # no candidate left: solve it as a mixed game
    if saddle == 0:
        return 0, r, c, r, c, unknown
    # proven, or not refuted (UNKNOWN: unresolved comparisons count as ties)
    verdicts[0], r0, u0 = saddle_verdict(signs, r, c, False)
    verdicts[1], c0, u1 = saddle_verdict(signs, c, r, True)
    unknown = saddle == UNKNOWN or u0 or u1
    r0 = r if r0 < 0 else r0  # the smallest optimal pure strategy of each player
    c0 = c if c0 < 0 else c0
    return 1, r, c, r0, c0, unknown


@njit(cache=True, nogil=True)
def saddle_states(chunk, start, stop, games, n, rho, comp, xs, ys, status, verdicts, unknown, shift, bound, row_sup,
                  col_sup, maximin):
    """The states j < n of the blocks start .. stop - 1 of a row (block b: states b LANES .. b LANES + LANES - 1):
    their saddle points (see the module docstring).

    games[ch, j // LANES, d1, d2, j % LANES]: the channels of state j's matrix game (``pipeline.dicerace.certified``,
    :func:`row_games`). Writes shift[j], bound[j] (the entries shifted by a constant, and their certified errors;
    only where a later step reads them: states without a proven saddle point or with an undecided verdict),
    status[j] (SADDLE, or NEEDS_LP for :func:`mixed_states`), unknown[j] (a comparison could not be certified),
    maximin[j] (the maximin row and the minimax column), and at saddle points the strategies xs[j] (row player =
    the player with score i) and ys[j] (column player), verdicts[j] (uniqueness for x and y), comp[j] (the channels
    of the value) and the support masks row_sup[j], col_sup[j] (0 elsewhere). Each state alone: chunks of blocks
    run on threads.

    The LANES states of a block side by side, in vector loops over the states: their forms, row minima and column
    maxima (``_lane_forms``, ``_lane_extremes``), and their verdicts from their saddle lines (``_lane_saddles``);
    where the state's form does not decide these, ``certified.quick_saddle`` for that state, and where its lines do
    not decide, or at the state (a, a), all its entries (``certified.shifted``, :func:`_saddle_signs`): the same
    verdicts, values and strategies on every path.
    """
    dice = games.shape[2]
    rel = rho + FORM_ROUNDING
    low = carray(stack_floats(LANES), LANES)
    high = carray(stack_floats(LANES), LANES)
    form = np.empty(LANES, dtype=np.int64)
    col_max = carray(stack_floats(LANE_LINES), (dice, LANES))
    col_err = carray(stack_floats(LANE_LINES), (dice, LANES))
    row_min = carray(stack_floats(LANE_LINES), (dice, LANES))
    row_err = carray(stack_floats(LANE_LINES), (dice, LANES))
    value = carray(stack_floats(LANES), LANES)
    err = carray(stack_floats(LANES), LANES)
    ties_row = carray(stack_floats(LANES), LANES)
    ties_col = carray(stack_floats(LANES), LANES)
    decided = carray(stack_floats(LANES), LANES)
    rows = np.empty(LANES, dtype=np.int64)  # each state's maximin row and minimax column
    cols = np.empty(LANES, dtype=np.int64)
    g = np.empty((CHANNELS, dice, dice))  # one state's channels, contiguous (the full path)
    m = np.empty((dice, dice))  # its shifted entries and their bounds
    e = np.empty((dice, dice))
    signs = np.empty((dice, dice), dtype=np.int64)
    for block in range(start, stop):
        k = min(n, (block + 1) * LANES) - block * LANES
        _lane_forms(games, block, low, high, form)
        _lane_extremes(games, block, form, rel, col_max, col_err, row_min, row_err)
        for t in range(LANES):
            rows[t] = np.argmax(row_min[:, t])
            cols[t] = np.argmin(col_max[:, t])
        _lane_saddles(games, block, form, rel, rows, cols, col_max, col_err, row_min, row_err, value, err, ties_row,
                      ties_col, decided)
        for t in range(k):
            j = block * LANES + t
            symmetric = j == n - 1
            r, c = rows[t], cols[t]
            xs[j] = 0.0
            ys[j] = 0.0
            status[j] = NEEDS_LP
            row_sup[j] = 0
            col_sup[j] = 0
            unknown[j] = False
            verdicts[j] = -1
            state = games[:, block, :, :, t]
            if not symmetric and decided[t] == 1.0:
                verdicts[j, 0] = UNIQUE if ties_col[t] <= 1.0 else UNDECIDED
                verdicts[j, 1] = UNIQUE if ties_row[t] <= 1.0 else UNDECIDED
            elif not symmetric:
                verdicts[j, 0], verdicts[j, 1] = quick_saddle(state, form[t], rho, r, c, col_max[:, t],
                                                              col_err[:, t], row_min[:, t], row_err[:, t])
            saddle, r0, c0 = 1, r, c
            full = verdicts[j, 0] < 0
            if full or verdicts[j, 0] == UNDECIDED or verdicts[j, 1] == UNDECIDED:
                g[:] = state
                shifted(g, rho, m, e, symmetric)
            if full:
                if symmetric:  # the antisymmetric entries: their own maximin row and minimax column
                    r, c = _maximin(m)
                saddle, r, c, r0, c0, unknown[j] = _saddle_signs(m, e, g, r, c, rho, signs, verdicts[j])
            maximin[j, 0] = r
            maximin[j, 1] = c
            if saddle != 0:
                status[j] = SADDLE
                xs[j, r0] = 1.0
                ys[j, c0] = 1.0
                for ch in range(CHANNELS):
                    comp[j, ch] = state[ch, r0, c0]
                row_sup[j] = 1 << r0
                col_sup[j] = 1 << c0
            if status[j] != SADDLE or verdicts[j, 0] == UNDECIDED or verdicts[j, 1] == UNDECIDED:
                shift[j] = m
                bound[j] = e


@njit(cache=True)
def mixed_states(n, prev_rows, prev_cols, xs, ys, status, shift, row_sup, col_sup, maximin):
    """The states j < n of a row that :func:`saddle_states` left NEEDS_LP, in increasing j: a guessed square
    support whose equalising strategies certify optimal (``matrix_game.certify_support``) makes the state
    CERTIFIED, with xs[j], ys[j] and the support masks row_sup[j], col_sup[j]. The guesses read the solved
    supports of the previous row (prev_rows / prev_cols) and of state j - 1 of this row (``_guess``)."""
    dice = shift.shape[1]
    x = np.empty(dice)
    y = np.empty(dice)
    for j in range(n):
        if status[j] != NEEDS_LP:
            continue
        r, c = maximin[j, 0], maximin[j, 1]
        for k in range(N_GUESSES):
            rm, cm = _guess(k, j, n, r, c, dice, prev_rows, prev_cols, row_sup, col_sup)
            rows = _bits(rm)
            cols = _bits(cm)
            if rows.shape[0] < 2 or rows.shape[0] != cols.shape[0]:
                continue
            if certify_support(shift[j], rows, cols, x, y) <= CERTIFIED_GAP:
                status[j] = CERTIFIED
                xs[j] = x
                ys[j] = y
                row_sup[j] = rm
                col_sup[j] = cm
                break


@njit(cache=True, nogil=True)
def channel_games(chunk, start, stop, ring, a, target, table, bust_pow, safe_pow, rolls, games):
    """For the channels ch = start .. stop - 1: advance ``ring[ch]`` to row total a (``kernels.advance_rows``)
    and, for a row of states (a < target), the channel's games for j <= a (``roll_rows``, :func:`row_games`). Each
    channel alone: chunks of channels run on threads."""
    width = table.shape[2]
    # The columns read from row a on: row a' <= a reads its rolls up to column a' + MAX_FACE D (the Q-means of
    # row_games) and the ring at the same columns; no row reads past target - 1 + MAX_FACE D.
    cols = min(width - BUST_SCORE, min(a, target - 1) + MAX_FACE * games.shape[2] + 1)
    for ch in range(start, stop):
        advance_rows(ring[ch], a, cols)
        if a < target:
            roll_rows(ring[ch], a, table[ch, a + BUST_SCORE, : width - BUST_SCORE], bust_pow, safe_pow, rolls[ch],
                      cols)
            row_games(rolls[ch], a + 1, bust_pow, safe_pow, games[ch])


@njit(cache=True)
def _store_strategies(strategies, verdicts, status, first, pure, mixed_row, flags):
    """For each stored strategy s (strategies[s], a probability vector over d; verdicts[s] its uniqueness, status[s]
    how its state was solved): pure[s] its number of dice when one d has probability above SUPPORT_EPS (the first
    most likely), else 0; mixed_row[s] its row in the mixed strategies (first, first + 1, .. in order) or -1; flags[s]
    (NO_SADDLE, MIXED, NOT_UNIQUE). Returns the mask of the mixed ones."""
    mixed = np.zeros(strategies.shape[0], dtype=np.bool_)
    row = first
    for s in range(strategies.shape[0]):
        support = 0
        best = 0
        for d in range(strategies.shape[1]):
            support += strategies[s, d] > SUPPORT_EPS
            best = d if strategies[s, d] > strategies[s, best] else best
        flag = 0 if status[s] == SADDLE else NO_SADDLE
        if verdicts[s] == SEVERAL:
            flag |= NOT_UNIQUE
        if support == 1:
            pure[s] = best + 1
            mixed_row[s] = -1
        else:
            pure[s] = 0
            mixed_row[s] = row
            row += 1
            mixed[s] = True
            flag |= MIXED
        flags[s] = flag
    return mixed


def solve_simultaneous(dice: int, target: int, *,
                       progress: Callable[[int], None] | None = None) -> SimultaneousSolution:
    """Value and optimal strategies of every state of the (dice, target) simultaneous race."""
    if not 1 <= dice <= MAX_DICE or target < 1:
        raise ValueError(f"need 1 <= dice <= {MAX_DICE} and target >= 1, got dice={dice}, target={target}")
    rho = relative_bound(dice, target)
    bust_pow, safe_pow = bust_powers(dice), safe_powers(dice)
    top = target - 1 + MAX_FACE * dice  # the highest total a roll can reach
    table = _terminal_table(target, top)
    width = table.shape[2]
    ring = np.zeros((CHANNELS, RING, dice + 1, width))
    rolls = np.empty((CHANNELS, dice, width - BUST_SCORE))
    # games[ch, j // LANES, d1 - 1, d2 - 1, j % LANES]: the channels of M(a, j) (row_games)
    games = np.zeros((CHANNELS, -(-target // LANES), dice, dice, LANES))
    out = _Tables(dice, target, rho)
    row = _Row(dice, target)
    threads = numba.get_num_threads()
    with ThreadPoolExecutor(threads) as pool:  # two kernels a row on every thread: one pool for the whole solve
        for a in range(top, -1, -1):
            run_chunks(channel_games, CHANNELS, threads, ring, a, target, table, bust_pow, safe_pow, rolls, games,
                       pool=pool)
            if a < target:
                n = a + 1  # states (a, j) with j <= a; the others follow by symmetry
                # Row a's states (a, j), j <= a, end within target - a rounds: their channels' own bound.
                rho_row = relative_bound(dice, target, target - a)
                run_chunks(saddle_states, -(-n // LANES), threads, games, n, rho_row, row.comp, row.xs, row.ys,
                           row.status, row.verdicts, row.unknown, row.shift, row.bound, row.row_sup, row.col_sup,
                           row.maximin, pool=pool)
                mixed_states(n, row.prev_rows, row.prev_cols, row.xs, row.ys, row.status, row.shift, row.row_sup,
                             row.col_sup, row.maximin)
                out.finish_row(a, n, games, row, rho_row)
                comp = row.comp[:n]
                # The player with score j at (j, a) wins where player 1 at (a, j) loses.
                for ch, mirror in ((WIN, LOSE), (DRAW, DRAW), (LOSE, WIN), (SLACK, SLACK)):
                    table[ch, a, :n] = comp[:, ch]
                    table[mirror, :n, a] = comp[:, ch]
                if progress is not None:
                    progress(1)
            for ch in range(CHANNELS):
                ring[ch, a % RING, 0, :] = table[ch, a]
    return out.solution()


class _Row:
    """Per-row work arrays of ``saddle_states`` and ``mixed_states``, and the previous row's supports (the
    guesses)."""

    def __init__(self, dice: int, target: int) -> None:
        self.comp = np.zeros((target, CHANNELS))
        self.xs = np.zeros((target, dice))
        self.ys = np.zeros((target, dice))
        self.status = np.zeros(target, dtype=np.int64)
        self.verdicts = np.zeros((target, 2), dtype=np.int64)
        self.unknown = np.zeros(target, dtype=np.bool_)
        self.shift = np.zeros((target, dice, dice))
        self.bound = np.zeros((target, dice, dice))
        self.row_sup = np.zeros(target, dtype=np.int64)
        self.col_sup = np.zeros(target, dtype=np.int64)
        self.prev_rows = np.zeros(target, dtype=np.int64)
        self.prev_cols = np.zeros(target, dtype=np.int64)
        self.maximin = np.zeros((target, 2), dtype=np.int64)


class _Tables:
    """The solution's tables, filled row by row; LPs for the states the fast pass left open."""

    def __init__(self, dice: int, target: int, rho: float) -> None:
        self.dice, self.target, self.rho = dice, target, rho
        self.value = np.zeros((target, target))
        self.pure = np.zeros((target, target), dtype=np.uint8)
        self.mixed_row = np.full((target, target), -1, dtype=np.int32)
        self.flags = np.zeros((target, target), dtype=np.uint8)
        self.mixed: list[np.ndarray] = []
        self.counts = {"saddle_states": 0, "certified_states": 0, "lp_states": 0, "uniqueness_lps": 0,
                       "uncertified_states": 0}
        self.max_lp_gap = 0.0
        self.max_slack = 0.0

    def finish_row(self, a: int, n: int, games: np.ndarray, row: _Row, rho: float) -> None:
        """Solve row a's open states by LP, certify the mixed ones, decide open uniqueness verdicts, store
        both players. ``rho``: the relative bound of row a's channels (``relative_bound``)."""
        for j in np.flatnonzero(row.status[:n] == NEEDS_LP):
            sol = solve_lp(row.shift[j])
            self.max_lp_gap = max(self.max_lp_gap, sol.gap)
            row.xs[j], row.ys[j] = sol.row, sol.col
            row.row_sup[j] = _mask(sol.row)
            row.col_sup[j] = _mask(sol.col)
        for j in np.flatnonzero(row.status[:n] != SADDLE):
            self._mixed_state(np.ascontiguousarray(games[:, j // LANES, :, :, j % LANES]), row, j, rho)
        for j, player in zip(*np.nonzero(row.verdicts[:n] == UNDECIDED), strict=True):
            m, x, y = row.shift[j], row.xs[j], row.ys[j]
            value, tol = float(x @ m @ y), 2.0 * float(row.bound[j].max())
            if player == 0:
                unique = row_strategy_unique(m, x, y, value, tol)
            else:
                unique = row_strategy_unique(-m.T, y, x, -value, tol)
            row.verdicts[j, player] = UNIQUE if unique else SEVERAL
            row.unknown[j] = True  # an LP with tolerances, not a certified decision
            self.counts["uniqueness_lps"] += 1
        status = row.status[:n]
        for name, code in (("saddle_states", SADDLE), ("certified_states", CERTIFIED), ("lp_states", NEEDS_LP)):
            self.counts[name] += int(np.count_nonzero(status == code))
        self.counts["uncertified_states"] += int(np.count_nonzero(row.unknown[:n]))
        comp = row.comp[:n]
        # (a, a) is worth exactly 0: with W = L = the mean of the two, (W* + L*) / 2, D*, (W* + L*) / 2 is a
        # decomposition of 0 within the relative bound, so no slack.
        comp[a, WIN] = comp[a, LOSE] = 0.5 * (comp[a, WIN] + comp[a, LOSE])
        comp[a, SLACK] = 0.0
        probs = comp[:, :SLACK]
        if np.any((probs > 0.0) & (probs < SMALLEST_TRUSTED)):
            raise ValueError(f"(dice={self.dice}, target={self.target}): a probability below 2^-900 in row {a}, "
                             "where the relative error bound of the certified comparisons no longer holds")
        self.max_slack = max(self.max_slack, float(comp[:, SLACK].max()))
        values = comp[:, WIN] - comp[:, LOSE]
        self.value[a, :n] = values
        self.value[:n, a] = -values
        self.value[a, a] = 0.0  # a symmetric zero-sum game is worth exactly 0 (and not -0.0)
        # Player 2 at (a, j) is the player with score j: its strategy goes to (j, a); (a, a) keeps x.
        self._store((slice(0, n - 1), a), row.ys[: n - 1], row.verdicts[: n - 1, 1], status[: n - 1])
        self._store((a, slice(0, n)), row.xs[:n], row.verdicts[:n, 0], status)
        row.prev_rows[:] = 0
        row.prev_cols[:] = 0
        row.prev_rows[:n] = row.row_sup[:n]
        row.prev_cols[:n] = row.col_sup[:n]

    def _mixed_state(self, g: np.ndarray, row: _Row, j: int, rho: float) -> None:
        """Certify state j's mixed equilibrium and set its verdicts and value channels: x^T C y for C = W, D,
        L (x, y normalised: they sum to 1 within dice u, which ``relative_bound`` covers) and the slack of
        ``certified.mixed_value_slack``."""
        m, e, x, y = row.shift[j], row.bound[j], row.xs[j], row.ys[j]
        x /= x.sum()
        y /= y.sum()
        if certify_mixed(m, e, x, y):
            row.verdicts[j] = UNIQUE, UNIQUE
        else:
            row.unknown[j] = True
            row.verdicts[j] = mixed_verdicts(m, x, y, float(x @ m @ y), 2.0 * float(e.max()))
        for ch in (WIN, DRAW, LOSE):
            row.comp[j, ch] = x @ g[ch] @ y
        row.comp[j, SLACK] = mixed_value_slack(g, x, y, rho)

    def _store(self, cells: tuple, strategies: np.ndarray, verdicts: np.ndarray, status: np.ndarray) -> None:
        """Store the strategies of the cells ``cells`` of the tables (a row or column slice) and their flags; the
        mixed ones appended to the list of mixed strategies (``_store_strategies``)."""
        mixed = _store_strategies(strategies, verdicts, status, len(self.mixed), self.pure[cells],
                                  self.mixed_row[cells], self.flags[cells])
        self.mixed.extend(strategies[mixed])

    def solution(self) -> SimultaneousSolution:
        mixed = np.array(self.mixed, dtype=np.float64).reshape(len(self.mixed), self.dice)
        stats = {**self.counts, "states": self.target * self.target,
                 "no_saddle_states": int(np.count_nonzero(self.flags & NO_SADDLE)),
                 "mixed_strategies": int(len(mixed)),
                 "not_unique": int(np.count_nonzero(self.flags & NOT_UNIQUE)),
                 "max_lp_gap": self.max_lp_gap, "max_slack": self.max_slack}
        return SimultaneousSolution(dice=self.dice, target=self.target, value=self.value, pure=self.pure,
                                    mixed_row=self.mixed_row, mixed=mixed, flags=self.flags,
                                    tolerance=self.rho, stats=stats)


def _mask(strategy: np.ndarray) -> int:
    return int(sum(1 << int(d) for d in np.flatnonzero(strategy > SUPPORT_EPS)))
