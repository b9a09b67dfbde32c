"""Zero-sum matrix games: optimal mixed strategies by LP (HiGHS through scipy), and their uniqueness.

Convention: ``M[r, c]`` is the row player's expected gain when the row player plays r and the column
player plays c; the row player maximises, the column player minimises. The value v is
max_x min_c (x^T M)_c = min_y max_r (M y)_r.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.jit import njit

# HiGHS's feasibility tolerances (defaults 1e-7) set to its tightest, so the duality gap is ~1e-10.
HIGHS_OPTIONS = {"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10}
# A probability below this in an LP solution is solver noise, not part of the support.
SUPPORT_EPS = 1e-9
# Two optimal strategies this far apart (in the generic direction below) are distinct.
DISTINCT = 1e-7
# A pair of strategies whose guarantees are this close is certified optimal (the value lies between).
CERTIFIED_GAP = 1e-12
# Kernels (square sub-games on the supports) with a smaller singular value are treated as singular.
SINGULAR = 1e-9
# Uniqueness verdicts, for one player.
UNIQUE, SEVERAL, UNDECIDED = 0, 1, 2


@dataclass(frozen=True)
class MixedSolution:
    """value: the game's value (row player's view); row / col: optimal strategies of the two players;
    gap: max_r (M col)_r - min_c (row^T M)_c, the certified width of the interval holding the value."""

    value: float
    row: np.ndarray
    col: np.ndarray
    gap: float


def guarantees(matrix: np.ndarray, row: np.ndarray, col: np.ndarray) -> tuple[float, float]:
    """(what ``row`` guarantees the row player, what ``col`` concedes at most): min_c (row^T M)_c and
    max_r (M col)_r. The value lies between them."""
    return float((row @ matrix).min()), float((matrix @ col).max())


def solve_lp(matrix: np.ndarray) -> MixedSolution:
    """Optimal strategies of both players from one LP (the row player's; the column player's strategy
    is its dual), polished on the supports HiGHS found.

    LP: maximise v subject to (x^T M)_c >= v for every column c, sum x = 1, x >= 0.
    """
    from scipy.optimize import linprog

    rows, cols = matrix.shape
    cost = np.zeros(rows + 1)
    cost[-1] = -1.0
    a_ub = np.hstack([-matrix.T, np.ones((cols, 1))])  # v - (x^T M)_c <= 0
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    bounds = [(0, None)] * rows + [(None, None)]
    res = linprog(cost, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0], bounds=bounds,
                  method="highs", options=HIGHS_OPTIONS)
    if res.status != 0:
        raise RuntimeError(f"HiGHS failed on a {rows}x{cols} matrix game: {res.message}")
    x = _normalised(res.x[:rows])
    y = _normalised(-res.ineqlin.marginals)
    return _polished(matrix, x, y)


def _normalised(p: np.ndarray) -> np.ndarray:
    p = np.where(p > SUPPORT_EPS, p, 0.0)
    return p / p.sum()


def _equalising(matrix: np.ndarray, support: np.ndarray, against: np.ndarray) -> np.ndarray | None:
    """The strategy on ``support`` that makes every column of ``against`` pay the same (least squares
    when the kernel is not square), or None when it is not a probability vector."""
    k = len(support)
    sub = matrix[np.ix_(support, against)].T  # one row per opposing pure strategy
    system = np.vstack([np.hstack([sub, -np.ones((len(against), 1))]), np.hstack([np.ones((1, k)), [[0.0]]])])
    rhs = np.zeros(len(against) + 1)
    rhs[-1] = 1.0
    sol = np.linalg.lstsq(system, rhs, rcond=None)[0][:k]
    if np.any(sol < -1e-12):
        return None
    full = np.zeros(matrix.shape[0])
    full[support] = np.maximum(sol, 0.0)
    return full / full.sum()


def _polished(matrix: np.ndarray, x: np.ndarray, y: np.ndarray) -> MixedSolution:
    """Solve the equalising equations on the supports (Shapley-Snow kernel) to remove the LP's
    tolerance-sized errors; keep whichever strategies certify the narrower interval for the value."""
    rows_s, cols_s = np.flatnonzero(x), np.flatnonzero(y)
    low, high = guarantees(matrix, x, y)
    x2 = _equalising(matrix, rows_s, cols_s)
    y2 = _equalising(-matrix.T, cols_s, rows_s)
    if x2 is not None and y2 is not None:
        low2, high2 = guarantees(matrix, x2, y2)
        if high2 - low2 < high - low:
            x, y, low, high = x2, y2, low2, high2
    return MixedSolution(value=0.5 * (low + high), row=x, col=y, gap=high - low)


def row_strategy_unique(matrix: np.ndarray, row: np.ndarray, col: np.ndarray, value: float, tol: float) -> bool:
    """True when ``row`` is the row player's only optimal strategy (``col`` is an optimal one of the
    column player, ``value`` the game's value).

    The optimal set is a polytope containing ``row``; it is larger than that point exactly when its
    tangent cone at ``row`` is not {0}: directions t with sum t = 0, t_r >= 0 where row_r = 0,
    t_r = 0 where r is not a best reply to ``col`` (no optimal strategy uses it), and (t^T M)_c >= 0
    on the columns c where ``row`` concedes only the value. A cone is {0} exactly when a generic linear
    function is 0 on its part in the box [-1, 1]^D, so two LPs decide; unlike asking whether the
    optimal set itself is a point, the answer does not depend on how far the set is fattened by the
    solver's tolerances (a nonzero cone gives an O(1) optimum, not one of the size of the tolerance).
    """
    from scipy.optimize import linprog

    rows = matrix.shape[0]
    direction = np.sqrt(np.arange(2, rows + 2, dtype=np.float64)) % 1.0 + 0.5
    active = np.flatnonzero(row @ matrix <= value + tol)
    bounds = []
    for r in range(rows):
        if (matrix @ col)[r] < value - tol:
            bounds.append((0.0, 0.0))
        elif row[r] <= SUPPORT_EPS:
            bounds.append((0.0, 1.0))
        else:
            bounds.append((-1.0, 1.0))
    extremes = []
    for sign in (1.0, -1.0):
        res = linprog(-sign * direction, A_ub=-matrix[:, active].T, b_ub=np.zeros(len(active)),
                      A_eq=np.ones((1, rows)), b_eq=[0.0], bounds=bounds, method="highs",
                      options=HIGHS_OPTIONS)
        if res.status != 0:
            raise RuntimeError(f"HiGHS failed on a uniqueness check: {res.message}")
        extremes.append(abs(res.fun))
    return max(extremes) <= DISTINCT


@njit(cache=True)
def _kernel_strategy(m, rows, cols, out):
    """The strategy on ``rows`` equalising the row player's gain over ``cols`` (x^T M[rows, cols] = v 1,
    sum x = 1), written into ``out``; returns the kernel's smallest singular value (0: no solution)."""
    k = rows.shape[0]
    system = np.zeros((k + 1, k + 1))
    for a in range(k):
        for b in range(k):
            system[b, a] = m[rows[a], cols[b]]
        system[a, k] = -1.0
        system[k, a] = 1.0
    rhs = np.zeros(k + 1)
    rhs[k] = 1.0
    smallest = np.linalg.svd(system)[1][-1]
    if smallest < SINGULAR:
        return 0.0
    sol = np.linalg.solve(system, rhs)
    out[:] = 0.0
    for a in range(k):
        out[rows[a]] = sol[a]
    return smallest


@njit(cache=True)
def certify_support(m, rows, cols, x, y):
    """Try the square support (rows, cols): solve both players' equalising equations into x and y and
    return the certified gap max_r (M y)_r - min_c (x^T M)_c (inf when the kernel is singular or a
    solution is not a probability vector). A gap <= CERTIFIED_GAP proves both strategies optimal."""
    if rows.shape[0] != cols.shape[0]:
        return np.inf
    if _kernel_strategy(m, rows, cols, x) == 0.0:
        return np.inf
    if _kernel_strategy(-m.T, cols, rows, y) == 0.0:
        return np.inf
    if x.min() < 0.0 or y.min() < 0.0:
        return np.inf
    return (m @ y).max() - (x @ m).min()


@njit(cache=True)
def mixed_verdicts(m, x, y, value, tol):
    """Uniqueness verdicts (row player, column player) for an optimal pair (x, y) with square supports.

    Shapley-Snow: if every pure strategy outside a player's support does strictly worse (by more than
    ``tol``) against the other's strategy, the other's strategy is positive on its support, and the
    kernel on the supports is nonsingular, then the first player's optimal strategy is unique (any
    optimal x' lives on x's support and equalises over y's support, a nonsingular square system).
    Otherwise UNDECIDED: an LP decides.
    """
    rows = np.flatnonzero(x > SUPPORT_EPS)
    cols = np.flatnonzero(y > SUPPORT_EPS)
    if rows.shape[0] != cols.shape[0]:
        return UNDECIDED, UNDECIDED
    scratch = np.empty(x.shape[0])
    if _kernel_strategy(m, rows, cols, scratch) == 0.0:
        return UNDECIDED, UNDECIDED
    against_y = m @ y
    against_x = x @ m
    row_strict = True
    for r in range(x.shape[0]):
        if x[r] <= SUPPORT_EPS and against_y[r] >= value - tol:
            row_strict = False
    col_strict = True
    for c in range(y.shape[0]):
        if y[c] <= SUPPORT_EPS and against_x[c] <= value + tol:
            col_strict = False
    return (UNIQUE if row_strict else UNDECIDED), (UNIQUE if col_strict else UNDECIDED)
