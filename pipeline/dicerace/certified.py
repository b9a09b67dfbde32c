"""Certified comparisons of the simultaneous race's matrix entries, and the exact decisions built on them.

Every entry of a state's matrix game is carried as four non-negative channels (``simultaneous`` module):
W, D, L, the probabilities that player 1 wins, draws, loses, and S, an absolute slack. For some
decomposition (W*, D*, L*) (non-negative, W* + D* + L* = 1) whose value W* - L* is within S of the exact
entry,

    |C - C*| <= rho C*        for C in W, D, L,

rho a relative bound (``simultaneous.relative_bound``; the rounding of sums of non-negative numbers) and S the
slack inherited from states whose value came from a mixed equilibrium (zero elsewhere; ``mixed_value_slack``).
The difference of the decompositions' values at two entries a, b, within S_a + S_b of the exact difference,
has three exact forms,

    2 (W*_a - W*_b) + (D*_a - D*_b) = 2 (L*_b - L*_a) + (D*_b - D*_a) = (W*_a - L*_a) - (W*_b - L*_b),

and each computed form has an error bound of rho times the channels it uses plus the slacks: the first is
precise when player 1 almost surely loses (W, D tiny), the second when it almost surely wins, the third
in between. ``sign`` takes the form with the smallest bound: +1 / -1 when the difference is outside its
bound, 0 when the bound is exactly 0 (every channel used is an exact 0: a proven tie) and UNKNOWN
otherwise. Saddle points, optimal pure strategies and uniqueness at saddle points are decided with these
signs only (``signs_against``, ``saddle_verdict``); mixed equilibria are certified with a perturbation bound of
the support's linear system (``certify_mixed``).
"""

from __future__ import annotations

import math

import numpy as np

from pipeline.jit import njit

WIN, DRAW, LOSE, SLACK = 0, 1, 2, 3
CHANNELS = 4
UNKNOWN = 2
# Rounding of the three forms themselves (a few operations on the channels), in units of the channels.
UNIT = 2.0**-53
FORM_ROUNDING = 8 * UNIT


@njit(cache=True, inline="always")
def difference(g, r1, c1, r2, c2, rho):
    """(M[r1, c1] - M[r2, c2], bound on its error) for the channels g[ch, r, c] of one state's game."""
    w1, d1, l1, s1 = g[WIN, r1, c1], g[DRAW, r1, c1], g[LOSE, r1, c1], g[SLACK, r1, c1]
    w2, d2, l2, s2 = g[WIN, r2, c2], g[DRAW, r2, c2], g[LOSE, r2, c2], g[SLACK, r2, c2]
    rel = rho + FORM_ROUNDING
    slack = s1 + s2
    best = 2.0 * (w1 - w2) + (d1 - d2)
    bound = rel * (2.0 * (w1 + w2) + d1 + d2) + slack
    other = 2.0 * (l2 - l1) + (d2 - d1)
    other_bound = rel * (2.0 * (l1 + l2) + d1 + d2) + slack
    if other_bound < bound:
        best, bound = other, other_bound
    other = (w1 - l1) - (w2 - l2)
    other_bound = rel * (w1 + l1 + w2 + l2) + slack
    if other_bound < bound:
        best, bound = other, other_bound
    return best, bound


@njit(cache=True)
def state_form(g, symmetric):
    """The form of a state's entries (see :func:`shifted`): 0 for 2W + D (= M + 1) when player 1's W and D are
    small, 1 for -(2L + D) (= M - 1) when its L and D are, else 2 for W - L (and always at a state (a, a))."""
    if symmetric:
        return 2
    low = 0.0
    high = 0.0
    for a in range(g.shape[1]):
        for b in range(g.shape[2]):
            low = max(low, 2.0 * g[WIN, a, b] + g[DRAW, a, b])
            high = max(high, 2.0 * g[LOSE, a, b] + g[DRAW, a, b])
    return form_choice(low, high)


@njit(cache=True, inline="always")
def form_choice(low, high):
    """The form of a state (:func:`state_form`) from low = max (2W + D) and high = max (2L + D) over its
    entries (both at least 0)."""
    return 0 if low <= min(high, 1.0) else (1 if high <= 1.0 else 2)


@njit(cache=True, inline="always")
def form_entry(w, d, lose, s, form, rel):
    """(entry in the state's ``form``, its error bound) from the channels w, d, lose, s of one entry; ``rel`` the
    relative bound of the channels plus the rounding of the form (:func:`shifted`)."""
    if form == 0:
        return 2.0 * w + d, rel * (2.0 * w + d) + s
    if form == 1:
        return -(2.0 * lose + d), rel * (2.0 * lose + d) + s
    return w - lose, rel * (w + lose) + s


@njit(cache=True)
def shifted(g, rho, f, e, symmetric):
    """One form for the whole state: f = M + constant with its error bounds e (|f - f*| <= e entrywise),
    2W + D (= M + 1) when player 1's W and D are small, -(2L + D) (= M - 1) when its L and D are, else
    W - L (:func:`state_form`). Comparisons and the equilibria of f are those of M (a constant shift changes
    neither).

    ``symmetric``: a state (a, a), whose exact game is antisymmetric (M[c, r] = -M[r, c], so M[d, d] = 0):
    f = W - L made exactly antisymmetric, with the exact zeros of the diagonal known exactly (e = 0).
    """
    rel = rho + FORM_ROUNDING
    form = state_form(g, symmetric)
    for a in range(g.shape[1]):
        for b in range(g.shape[2]):
            f[a, b], e[a, b] = form_entry(g[WIN, a, b], g[DRAW, a, b], g[LOSE, a, b], g[SLACK, a, b], form, rel)
    if symmetric:
        for a in range(g.shape[1]):
            for b in range(a + 1):
                # The exact entries are antisymmetric: each computed one bounds both.
                half = 0.5 * (f[a, b] - f[b, a])
                err = max(e[a, b], e[b, a])
                f[a, b], f[b, a] = half, -half
                e[a, b], e[b, a] = err, err
            f[a, a] = 0.0
            e[a, a] = 0.0


@njit(cache=True, inline="always")
def _decided(diff, bound, g, r1, c1, r2, c2, rho):
    """The certified sign of M[r1, c1] - M[r2, c2] from its value in the state's form and that value's bound;
    when these cannot tell, from the best of the three forms for this pair (``difference``)."""
    if not (diff > bound or diff < -bound or bound == 0.0):
        diff, bound = difference(g, r1, c1, r2, c2, rho)
    if diff > bound:
        return 1
    if diff < -bound:
        return -1
    if bound == 0.0:
        return 0
    return UNKNOWN


@njit(cache=True, inline="always")
def sign(f, e, g, r1, c1, r2, c2, rho, transpose):
    """Certified sign of M[r1, c1] - M[r2, c2] (1, -1, 0 for a proven tie, UNKNOWN); with ``transpose`` the
    game is the column player's, M'[a, b] = -M[b, a]. The state's form (``shifted``) first; when it cannot
    tell, the best of the three forms for this pair (``difference``)."""
    if r1 == r2 and c1 == c2:
        return 0
    if transpose:
        r1, c1, r2, c2 = c1, r1, c2, r2
    s = _decided(f[r1, c1] - f[r2, c2], e[r1, c1] + e[r2, c2], g, r1, c1, r2, c2, rho)
    return -s if transpose and s != UNKNOWN else s


@njit(cache=True, inline="always")
def entry(g, a, b, form, rel):
    """(f[a, b], e[a, b]) as :func:`shifted` computes them at a state that is not (a, a), from its channels
    g[ch, a, b] (any layout) and ``form`` (:func:`state_form`), rel = rho + FORM_ROUNDING."""
    return form_entry(g[WIN, a, b], g[DRAW, a, b], g[LOSE, a, b], g[SLACK, a, b], form, rel)


@njit(cache=True, inline="always")
def entry_sign(g, form, rel, rho, r1, c1, r2, c2):
    """``sign(f, e, g, r1, c1, r2, c2, rho, False)`` at a state that is not (a, a), without f and e: its two
    entries from the channels (:func:`entry`)."""
    if r1 == r2 and c1 == c2:
        return 0
    f1, e1 = entry(g, r1, c1, form, rel)
    f2, e2 = entry(g, r2, c2, form, rel)
    return _decided(f1 - f2, e1 + e2, g, r1, c1, r2, c2, rho)


@njit(cache=True)
def is_saddle(f, e, g, r, c, rho, transpose):
    """1 when (r, c) is a proven saddle point (M[r, c] the minimum of its row and the maximum of its column),
    0 when proven not to be one, UNKNOWN otherwise."""
    dice = g.shape[1]
    unknown = False
    for k in range(dice):
        s = sign(f, e, g, r, k, r, c, rho, transpose)
        if s == -1:
            return 0
        unknown |= s == UNKNOWN
        s = sign(f, e, g, k, c, r, c, rho, transpose)
        if s == 1:
            return 0
        unknown |= s == UNKNOWN
    return UNKNOWN if unknown else 1


@njit(cache=True)
def no_saddle(f, e, g, rho):
    """True when the game provably has no pure saddle point: for every row r and column c, some entry of
    row r is smaller than some entry of column c (max of row minima < min of column maxima)."""
    dice = g.shape[1]
    for r in range(dice):
        low = np.argmin(f[r])
        for c in range(dice):
            high = np.argmax(f[:, c])
            if sign(f, e, g, r, low, high, c, rho, False) != -1:
                return False
    return True


@njit(cache=True)
def signs_against(f, e, g, r, c, rho, out):
    """out[a, b] = ``sign(f, e, g, a, b, r, c, rho, False)`` for every entry: the certified sign of M[a, b] -
    M[r, c] (1, -1, 0 for a proven tie, UNKNOWN). Every comparison the verdicts at a saddle point (r, c) make,
    for both players (:func:`saddle_from_signs`, :func:`saddle_verdict`), all at once: the state's form decides
    most of them in one pass over contiguous entries, ``difference`` the others."""
    fv = f[r, c]
    ev = e[r, c]
    undecided = UNKNOWN + 1
    for a in range(g.shape[1]):  # the state's form: a loop without calls, which the compiler vectorises
        for b in range(g.shape[2]):
            diff = f[a, b] - fv
            bound = e[a, b] + ev
            out[a, b] = (undecided if not (diff > bound or diff < -bound or bound == 0.0)
                         else (1 if diff > bound else (-1 if diff < -bound else 0)))
    out[r, c] = 0
    for a in range(g.shape[1]):  # the few it cannot tell (entries equal or within their bounds of M[r, c])
        for b in range(g.shape[2]):
            if out[a, b] == undecided:
                diff, bound = difference(g, a, b, r, c, rho)
                out[a, b] = 1 if diff > bound else (-1 if diff < -bound else (0 if bound == 0.0 else UNKNOWN))


@njit(cache=True, inline="always")
def _view(signs, rr, cc, transpose):
    """The sign of M'[rr, cc] - M'[saddle] in a player's own game M' from the row player's ``signs``: the column
    player's game is M'[a, b] = -M[b, a]."""
    if not transpose:
        return signs[rr, cc]
    s = signs[cc, rr]
    return s if s == UNKNOWN else -s


@njit(cache=True)
def saddle_from_signs(signs, r, c):
    """``is_saddle(f, e, g, r, c, rho, False)`` from ``signs_against(.., r, c, ..)``: 1 when (r, c) is a proven
    saddle point (M[r, c] the minimum of its row and the maximum of its column), 0 when proven not to be one,
    UNKNOWN otherwise."""
    unknown = False
    for k in range(signs.shape[0]):
        if signs[r, k] == -1 or signs[k, c] == 1:
            return 0
        unknown |= signs[r, k] == UNKNOWN or signs[k, c] == UNKNOWN
    return UNKNOWN if unknown else 1


@njit(cache=True)
def saddle_verdict(signs, r, c, transpose):
    """For the proven saddle point (r, c) of the row player's game (the column player's with ``transpose``:
    its saddle point is then (c, r) of the row player's, whose ``signs_against`` are given in both cases):
    (verdict, smallest optimal pure row, unknown). Verdict UNIQUE / SEVERAL / UNDECIDED as in
    ``matrix_game``; ``unknown``: some comparison could not be certified (the verdict then treats it as a
    tie).

    Any optimal x lives on the rows that equal the value on every optimal pure column c (column maximum =
    value): one such row means a unique optimal strategy; a second that is optimal on its own (row minimum
    = value) means several; otherwise UNDECIDED (an LP decides). An uncertain comparison counts only where no
    certain one decides: a column with an entry certainly above the value is not optimal whatever else it
    holds, and a row with an entry certainly below it is not a candidate.
    """
    dice = signs.shape[0]
    unknown = False
    optimal_col = np.zeros(dice, dtype=np.bool_)
    for cc in range(dice):
        above, unsure = False, False
        for rr in range(dice):
            s = _view(signs, rr, cc, transpose)
            above |= s == 1
            unsure |= s == UNKNOWN
        optimal_col[cc] = not above
        unknown |= unsure and not above
    # Candidates: the rows equal to the value on every optimal column (every optimal x lives on them).
    count = 0
    smallest = -1
    other_pure = False
    for rr in range(dice):
        ok, unsure = True, False
        for cc in range(dice):
            if optimal_col[cc]:
                s = _view(signs, rr, cc, transpose)
                ok &= s != -1
                unsure |= s == UNKNOWN
        unknown |= ok and unsure
        if not ok:
            continue
        count += 1
        # Optimal on its own (row minimum = value)? Any optimal pure row is a candidate.
        pure, unsure = True, False
        for cc in range(dice):
            s = _view(signs, rr, cc, transpose)
            pure &= s != -1
            unsure |= s == UNKNOWN
        unknown |= pure and unsure
        if pure and smallest < 0:
            smallest = rr
        other_pure |= pure and rr != r
    if count <= 1:
        return 0, smallest, unknown
    return (1 if other_pure else 2), smallest, unknown


@njit(cache=True, inline="always")
def _certainly_beyond(g, form, rel, fv, ev, line, extreme, extreme_err, column):
    """True when some entry of column ``line`` (row ``line`` when not ``column``) is certainly above (below for a
    row) the entry fv with bound ev in the state's form: the sign ``signs_against`` gives it is then +1 (-1).
    First from the column's maximum (row's minimum) ``extreme`` and the largest bound of the line
    ``extreme_err``: the entry reaching the extreme has a bound no larger, and rounding is monotonic, so
    extreme - fv > extreme_err + ev implies that entry's own test; else entry by entry (:func:`entry`)."""
    dice = g.shape[1]
    if column:
        if extreme - fv > extreme_err + ev:
            return True
        for k in range(dice):
            f, e = entry(g, k, line, form, rel)
            if f - fv > e + ev:
                return True
        return False
    if extreme - fv < -(extreme_err + ev):
        return True
    for k in range(dice):
        f, e = entry(g, line, k, form, rel)
        if f - fv < -(e + ev):
            return True
    return False


@njit(cache=True)
def quick_saddle(g, form, rho, r, c, col_max, col_err, row_min, row_err):
    """The verdicts :func:`saddle_verdict` gives at the rounded game's candidate (r, c) of a state that is not
    (a, a), for both players, from row r, column c and one test per other line instead of the whole sign matrix,
    when they need no more: (r, c) a proven saddle point (every sign in row r and column c against M[r, c]
    certain) and every other column with an entry certainly above the value, every other row one certainly
    below it (:func:`_certainly_beyond`, from the lines' extremes in the state's form and their largest bounds
    ``col_max``, ``col_err``, ``row_min``, ``row_err``). Then the only optimal pure column is c and the only
    optimal pure row r, no comparison is uncertain, and each player's candidates are the lines tied with the
    value on the other's saddle line: (UNIQUE or UNDECIDED for the row player, the same for the column player),
    the smallest optimal pure strategies being r and c. (-1, -1) when these conditions fail (the caller takes
    the full path, ``signs_against``).

    g[ch, a, b]: the state's channels (any layout); ``form``: its :func:`state_form`. Entries are computed where
    read (:func:`entry`), exactly as :func:`shifted` computes them."""
    dice = g.shape[1]
    rel = rho + FORM_ROUNDING
    fv, ev = entry(g, r, c, form, rel)
    ties_col = 0  # rows tied with the value in column c: the row player's candidates
    ties_row = 0  # columns tied with it in row r: the column player's
    for k in range(dice):
        s = entry_sign(g, form, rel, rho, r, k, r, c)
        if s != 0 and s != 1:  # a smaller entry in row r, or an uncertain one
            return -1, -1
        ties_row += s == 0
        s = entry_sign(g, form, rel, rho, k, c, r, c)
        if s != 0 and s != -1:
            return -1, -1
        ties_col += s == 0
    for k in range(dice):
        if k != c and not _certainly_beyond(g, form, rel, fv, ev, k, col_max[k], col_err[k], True):
            return -1, -1
        if k != r and not _certainly_beyond(g, form, rel, fv, ev, k, row_min[k], row_err[k], False):
            return -1, -1
    # saddle_verdict's codes: 0 one candidate (unique), 2 several but no other pure one (undecided)
    return (0 if ties_col <= 1 else 2), (0 if ties_row <= 1 else 2)


def mixed_value_slack(g: np.ndarray, x: np.ndarray, y: np.ndarray, rho: float) -> float:
    """The slack of a mixed state's value channels x^T C y (C = W, D, L; x, y probability vectors within
    rounding) for the channels g[ch, r, c] of its game, rho their relative bound.

    x^T C y is within the relative bound of x^T C' y, C' the entries' decompositions, whose values M' are
    within the entries' slacks S of the exact entries M*. Both x^T M' y and the exact value lie in the exact
    game's value interval [min_c (x^T M*)_c, max_r (M* y)_r], which is within max_r (S y)_r and max_c
    (x^T S)_c of M''s interval [min_c (x^T M')_c, max_r (M' y)_r]; that one is at most the computed gap plus
    the relative errors of the entries weighted by x and y (and the rounding of the gap) wide. So a slack is
    passed on once, as the value of a matrix game moves no more than its entries, not once per term.
    """
    decomposed = g.copy()
    decomposed[SLACK] = 0.0  # the entries' errors against their decompositions: the same form, no slack
    form, relative = np.empty(g.shape[1:]), np.empty(g.shape[1:])
    shifted(decomposed, rho, form, relative, False)
    gap = max(float((form @ y).max() - (x @ form).min()), 0.0)
    # Rounding of the two products, and x, y summing to 1 within dice u only.
    gap_rounding = 4.0 * (len(x) + 1) * UNIT * float(np.abs(form).max())
    inherited = max(float((g[SLACK] @ y).max()), float((x @ g[SLACK]).max()))
    widening = float((relative @ y).max() + (x @ relative).max())
    return 1.01 * (inherited + gap + gap_rounding + widening)


def certify_mixed(delta: np.ndarray, bound: np.ndarray, x: np.ndarray, y: np.ndarray) -> bool:
    """True when the exact game has an equilibrium on the supports of (x, y), strictly complementary, with a
    nonsingular kernel: then each player's optimal strategy is unique and has exactly that support
    (Shapley-Snow).

    ``delta``: the entries shifted by a constant (``shifted``: a common shift changes no strategy);
    ``bound``: the certified error of each. Each player's kernel system K z = e (z = its strategy on its
    support and the value) has a computed solution z with residual K z - e = res; the exact game's K* = K + dK
    has |dK| <= the bounds on the supports, so with beta = ||K^-1|| ||dK|| < 1/2 its solution z* is within
    (beta ||z|| + ||K^-1|| ||res||) / (1 - beta) of z (max norms; ||K^-1|| itself bounded through the computed
    inverse R as ||R|| / (1 - ||I - R K||), 1.01 on top covers the rounding of these float computations). The
    exact strategies are then positive on the supports; every pure strategy off a support must be strictly
    worse against the opponent's exact strategy (``_strictly_worse``).
    """
    rows, cols = np.flatnonzero(x > 0), np.flatnonzero(y > 0)
    if len(rows) != len(cols):
        return False
    shifts = []
    for matrix, err, p, sup_p, sup_q in ((delta, bound, x, rows, cols), (-delta.T, bound.T, y, cols, rows)):
        k = len(sup_p)
        kernel = np.zeros((k + 1, k + 1))
        kernel[:k, :k] = matrix[np.ix_(sup_p, sup_q)].T
        kernel[:k, k] = -1.0
        kernel[k, :k] = 1.0
        try:
            approx = np.linalg.inv(kernel)
        except np.linalg.LinAlgError:
            return False
        theta = np.abs(np.eye(k + 1) - approx @ kernel).sum(axis=1).max()
        theta += 4.0 * (k + 2) * UNIT * (np.abs(approx) @ np.abs(kernel)).sum(axis=1).max()
        if not theta < 0.5:
            return False
        inv_norm = np.abs(approx).sum(axis=1).max() / (1.0 - theta)
        beta = inv_norm * err[np.ix_(sup_p, sup_q)].sum(axis=0).max()
        if not beta < 0.5:
            return False
        z = np.append(p[sup_p], (p[sup_p] @ matrix[np.ix_(sup_p, sup_q)]).mean())
        rhs = np.zeros(k + 1)
        rhs[k] = 1.0
        residual = np.abs(kernel @ z - rhs).max() + 2.0 * (k + 2) * UNIT * (np.abs(kernel) @ np.abs(z) + 1.0).max()
        shift = 1.01 * (beta * np.abs(z).max() + inv_norm * residual) / (1.0 - beta)
        if p[sup_p].min() <= shift:
            return False
        shifts.append(shift)
    dx, dy = shifts
    return (_strictly_worse(delta, bound, x, y, rows, cols, dy)
            and _strictly_worse(-delta.T, bound.T, y, x, cols, rows, dx))


def _strictly_worse(matrix: np.ndarray, err: np.ndarray, p: np.ndarray, q: np.ndarray, sup_p: np.ndarray,
                    sup_q: np.ndarray, dq: float) -> bool:
    """True when every pure strategy r off the support sup_p of the maximising player (``matrix`` in its view,
    exact entries within ``err``) is strictly worse than the value against the opponent's exact strategy q*,
    which is within dq of q on sup_q and equalises this player's payoff over sup_p.

    As q* equalises over sup_p, v* = p^T A* q* / sum p for the computed p, so (A* q*)_r - v* =
    (A*_r - p^T A*) q* + v* (sum p - 1): the difference of r with p's mixture, whose computed value is as
    small as the margin, is what q*'s error multiplies (not the entries themselves, nor the value's error).
    """
    off = np.setdiff1d(np.arange(len(p)), sup_p)
    if len(off) == 0:
        return True
    rel = matrix[off][:, sup_q] - (p @ matrix)[sup_q]  # A_r - p^T A on the opponent's support
    margin = rel @ q[sup_q]
    errors = err[off][:, sup_q] + (p @ err)[sup_q]
    spread = np.abs(rel).sum(axis=1) * dq + errors @ (q[sup_q] + dq)
    scale = float(np.abs(matrix).max() + err.max())
    normalisation = scale * (abs(math.fsum(p) - 1.0) + 2.0 * UNIT)
    rounding = 8.0 * (len(p) + 2) * UNIT * scale
    return bool(np.all(margin + 1.01 * spread + normalisation + rounding < 0.0))
