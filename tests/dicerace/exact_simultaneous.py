"""Exact-rational reference for the simultaneous race: every state's matrix game in fractions, its value, whether
it has a pure saddle point, and the row player's optimal strategies (is it unique, which support, which pure
rows are optimal), decided with exact arithmetic only.

Independent of the solver: roll laws by enumerating dice (convolving single dice beyond 6), matrices as
expectations over each player's roll in turn, and an exact optimal pair found by trying square supports
(HiGHS on the rounded matrix proposes the first support to try; a pair is accepted only when it passes the
exact equilibrium check, else square supports are enumerated). Uniqueness: the tangent cone of the optimal
set at the exact optimal strategy is {0}, decided by exact linear algebra.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import numpy as np
from exact_linear import solve_augmented

from .exact_reference import roll_law


@cache
def fast_roll_law(d: int) -> dict[int, Fraction]:
    """{points: probability} of one roll of d dice: enumerated dice (``roll_law``) up to 6 dice, beyond that the
    exact convolution of single dice (a 1 anywhere scores 1: probability 1 - (5/6)^d)."""
    if d <= 6:
        return roll_law(d)
    safe = {0: Fraction(1)}
    for _ in range(d):
        nxt: dict[int, Fraction] = {}
        for total, p in safe.items():
            for face in range(2, 7):
                nxt[total + face] = nxt.get(total + face, Fraction(0)) + p / 6
        safe = nxt
    return {1: 1 - Fraction(5, 6) ** d, **safe}

Matrix = list[list[Fraction]]


@dataclass(frozen=True)
class ExactState:
    """The row player's view of one state's exact matrix game.

    value: the game's value; saddle: it has a pure saddle point; unique: the row player has one optimal
    strategy; support: the 0-based rows of that strategy when unique (else None); pure_optimal: the rows
    that are optimal on their own (row minimum = value).
    """

    value: Fraction
    saddle: bool
    unique: bool
    support: tuple[int, ...] | None
    pure_optimal: tuple[int, ...]


def _solve_square(rows: list[list[Fraction]], rhs: list[Fraction]) -> list[Fraction] | None:
    """Gauss-Jordan elimination in fractions; None when singular."""
    return solve_augmented([list(r) + [b] for r, b in zip(rows, rhs, strict=True)])


def _nullspace(rows: list[list[Fraction]], n: int) -> list[list[Fraction]]:
    """A basis of {t in Q^n: rows t = 0}."""
    a = [list(r) for r in rows]
    pivots: list[int] = []
    r = 0
    for col in range(n):
        piv = next((k for k in range(r, len(a)) if a[k][col] != 0), None)
        if piv is None:
            continue
        a[r], a[piv] = a[piv], a[r]
        inv = 1 / a[r][col]
        a[r] = [v * inv for v in a[r]]
        for k in range(len(a)):
            if k != r and a[k][col] != 0:
                f = a[k][col]
                a[k] = [v - f * w for v, w in zip(a[k], a[r], strict=True)]
        pivots.append(col)
        r += 1
    basis = []
    for free in (c for c in range(n) if c not in pivots):
        t = [Fraction(0)] * n
        t[free] = Fraction(1)
        for k, p in enumerate(pivots):
            t[p] = -a[k][free]
        basis.append(t)
    return basis


def _equalising(m: Matrix, rows: tuple[int, ...], cols: tuple[int, ...]) -> tuple[list[Fraction], Fraction] | None:
    """x on ``rows`` with (x^T M)_c = v for c in ``cols`` and sum x = 1 (square support), or None."""
    k = len(rows)
    system = [[m[r][c] for r in rows] + [Fraction(-1)] for c in cols] + [[Fraction(1)] * k + [Fraction(0)]]
    sol = _solve_square(system, [Fraction(0)] * k + [Fraction(1)])
    if sol is None:
        return None
    x = [Fraction(0)] * len(m)
    for r, p in zip(rows, sol[:k], strict=True):
        x[r] = p
    return x, sol[k]


def _transpose_neg(m: Matrix) -> Matrix:
    return [[-m[r][c] for r in range(len(m))] for c in range(len(m[0]))]


def _try_support(m: Matrix, rows: tuple[int, ...], cols: tuple[int, ...]):
    """An exact optimal pair (x, y, v) on the square support (rows, cols), or None."""
    found = _equalising(m, rows, cols)
    other = _equalising(_transpose_neg(m), cols, rows)
    if found is None or other is None:
        return None
    (x, v), (y, _) = found, other
    if min(x) < 0 or min(y) < 0:
        return None
    n = len(m)
    low = min(sum(x[r] * m[r][c] for r in range(n)) for c in range(n))
    high = max(sum(m[r][c] * y[c] for c in range(n)) for r in range(n))
    return (x, y, v) if low == high == v else None


def optimal_pair(m: Matrix):
    """An exact optimal pair (x, y, value) of the matrix game m (row player maximises)."""
    from pipeline.dicerace.matrix_game import solve_lp

    n = len(m)
    row_min = [min(row) for row in m]
    col_max = [max(m[r][c] for r in range(n)) for c in range(n)]
    if max(row_min) == min(col_max):
        r, c = row_min.index(max(row_min)), col_max.index(min(col_max))
        return [Fraction(int(k == r)) for k in range(n)], [Fraction(int(k == c)) for k in range(n)], m[r][c]
    rounded = np.array([[float(v) for v in row] for row in m])
    guess = solve_lp(rounded)
    rows = tuple(int(r) for r in np.flatnonzero(guess.row > 1e-9))
    cols = tuple(int(c) for c in np.flatnonzero(guess.col > 1e-9))
    if len(rows) == len(cols) and (found := _try_support(m, rows, cols)) is not None:
        return found
    # Degenerate: every square support among the (nearly) best replies to the guess, then all of them.
    near_rows = [int(r) for r in np.flatnonzero(rounded @ guess.col >= guess.value - 1e-9)]
    near_cols = [int(c) for c in np.flatnonzero(guess.row @ rounded <= guess.value + 1e-9)]
    for pool_rows, pool_cols in ((near_rows, near_cols), (range(n), range(n))):
        for k in range(2, n + 1):
            for rows in itertools.combinations(pool_rows, k):
                for cols in itertools.combinations(pool_cols, k):
                    if (found := _try_support(m, rows, cols)) is not None:
                        return found
    raise AssertionError("a matrix game always has an equilibrium on square supports")


def _cone_is_zero(g: list[list[Fraction]], dim: int) -> bool:
    """True when {z in Q^dim: g z >= 0} = {0}."""
    if dim == 0:
        return True
    if len(_nullspace(g, dim)) > 0:
        return False  # a line (g z = 0) lies in the cone
    # A pointed cone other than {0} has an extreme ray: dim - 1 independent tight rows.
    for tight in itertools.combinations(range(len(g)), dim - 1):
        ray = _nullspace([g[k] for k in tight], dim)
        if len(ray) != 1:
            continue
        for sign in (1, -1):
            z = [sign * v for v in ray[0]]
            if all(sum(a * b for a, b in zip(row, z, strict=True)) >= 0 for row in g):
                return False
    return True


def row_player(m: Matrix) -> ExactState:
    """Exact saddle point, uniqueness and support of the row player's optimal strategies of m."""
    n = len(m)
    x, y, v = optimal_pair(m)
    row_min = [min(row) for row in m]
    col_max = [max(m[r][c] for r in range(n)) for c in range(n)]
    saddle = max(row_min) == min(col_max)
    pure_optimal = tuple(r for r in range(n) if row_min[r] == v)
    # Every optimal x is a best reply to y (lives on R1) and equalises y's support (C0); the optimal set is
    # x alone exactly when its tangent cone at x is {0}.
    r0 = [r for r in range(n) if x[r] > 0]
    r1 = [r for r in range(n) if sum(m[r][c] * y[c] for c in range(n)) == v]
    c0 = [c for c in range(n) if y[c] > 0]
    c1 = [c for c in range(n) if sum(x[r] * m[r][c] for r in range(n)) == v]
    # Quick witness of another optimal strategy: the direction e_a - e_b from a support row b to a row a.
    for a in r1:
        for b in r0:
            if a != b and all(m[a][c] == m[b][c] for c in c0) and all(m[a][c] >= m[b][c] for c in c1):
                return ExactState(value=v, saddle=saddle, unique=False, support=None, pure_optimal=pure_optimal)
    equal = [[Fraction(1)] * len(r1)] + [[m[r][c] for r in r1] for c in c0]
    basis = _nullspace(equal, len(r1))  # directions t on R1 (t = basis^T z)
    dim = len(basis)
    g = [[basis[k][a] for k in range(dim)] for a, r in enumerate(r1) if r not in r0]
    g += [[sum(basis[k][a] * m[r][c] for a, r in enumerate(r1)) for k in range(dim)] for c in c1 if c not in c0]
    unique = _cone_is_zero(g, dim)
    return ExactState(value=v, saddle=saddle, unique=unique, support=tuple(r0) if unique else None,
                      pure_optimal=pure_optimal)


def simultaneous_game(dice: int, target: int, rows: int | None = None) -> dict[tuple[int, int], ExactState]:
    """ExactState of every state (i, j) of the (dice, target) simultaneous race, for the rows i >= target - rows
    (all rows by default): T(a, b) the exact value once both have rolled; M(i, j)[d1, d2] the expectation over
    player 2's roll of the expectation over player 1's roll of T."""
    laws = [sorted(fast_roll_law(d).items()) for d in range(1, dice + 1)]
    value: dict[tuple[int, int], Fraction] = {}
    out: dict[tuple[int, int], ExactState] = {}

    def after(a: int, b: int) -> Fraction:
        if a >= target or b >= target:
            return Fraction((a > b) - (a < b))
        return value[(a, b)] if a >= b else -value[(b, a)]

    first = 0 if rows is None else target - rows
    for i in range(target - 1, first - 1, -1):
        # rolled[d1][b]: the exact expectation of T(i + k1, b) over player 1's roll of d1 dice.
        rolled = [[sum(p * after(i + k, b) for k, p in law) for b in range(target + 6 * dice + 1)] for law in laws]
        for j in range(target - 1, -1, -1):
            if j > i and rows is None:
                continue  # filled by symmetry below, from (j, i)
            m = [[sum(p * row[j + k] for k, p in law2) for law2 in laws] for row in rolled]
            if j > i:
                out[(i, j)] = row_player(m)
                continue
            state = row_player(m)
            value[(i, j)] = state.value
            out[(i, j)] = state
            if j < i:
                out[(j, i)] = row_player(_transpose_neg(m))
    return out
