"""Farkle's numba kernels: one turn solved for many positions at once, and the passes built on it
(docs/farkle.md, "How the table is built").

Why numba: a pass over the full table evaluates 423,765,000 states, each a sum over the outcomes of a roll of
the best of its keeps; numpy would need a temporary per outcome and per keep.

Notation (in units of ``Rules.unit`` points): a **position** is (i, f, j, g): the mover's banked score index i
(score = floor + i units), its farkles in a row f, the other's score index j and farkles g. ``X[i, f, j, g]``
is the probability that the mover wins from the start of its turn. Within a turn, ``R(t, n)`` is the mover's
probability of winning if it rolls n dice now with turn total t, and ``V(t, n)`` that of the choice before the
roll: ``max(bank(t), R(t, n))`` where banking is allowed (t >= min_bank), else ``R(t, n)``. A total t with
banked + t >= target and t >= min_bank has won (bank), value 1; rows t = 0 .. rows - 1 are the others.

    R(t, n) = pF(n) (1 - X[farkle exit]) + sum over outcome groups q of p_q max over keeps c of V(t + pts_c, n_c)
    bank(t) = 1 - X[j, g, i + t, 0]

Outcomes of a roll of n dice that offer the same keeps (points, dice left) are one group (``RollTable``); of
the keeps that set aside the same number of dice only the highest scoring is compared (more turn points are
never worse: docs/farkle.md). Lanes (positions) are the innermost axis of every array so that the loops over
lanes vectorise.

Sums: ``plain`` passes add the terms of R in order (fast, for the iteration); ``exact`` passes add them
pairwise, whose rounding error is bounded by ``level_error`` per row of the turn: those passes give the
certified bounds and the stored values.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from lookup.farkle.rules import Rules, Size, best_keeps, roll_outcomes
from pipeline.jit import njit

FAST = {"nnan", "ninf", "nsz"}  # no reassociation, no FMA contraction: the same bytes on every machine
CHUNK = 128  # lanes solved together (the turn's array of one chunk stays in the core's cache)
U = 2.0 ** -53  # unit roundoff of float64


@dataclass(frozen=True)
class RollTable:
    """The rolls of 1..D dice grouped by what they offer: ``pF[n]`` the probability that n dice farkle; the
    groups of n dice are ``g_lo[n] .. g_hi[n] - 1``, group q has probability ``gp[q]`` and keeps
    ``clo[q] .. chi[q] - 1``, keep c scoring ``cpts[c]`` units and leaving ``cnext[c]`` dice to roll.
    ``exact`` holds the same probabilities as Fractions (pF first, then the groups), for tests."""

    pF: np.ndarray
    g_lo: np.ndarray
    g_hi: np.ndarray
    gp: np.ndarray
    clo: np.ndarray
    chi: np.ndarray
    cpts: np.ndarray
    cnext: np.ndarray
    exact: tuple[tuple[Fraction, ...], ...]

    @property
    def maxpts(self) -> int:
        return int(self.cpts.max())

    @property
    def terms(self) -> int:
        """The most terms a sum of R has (the farkle term and one per group)."""
        return 1 + int(max(self.g_hi - self.g_lo))

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.pF, self.g_lo, self.g_hi, self.gp, self.clo, self.chi, self.cpts, self.cnext


def roll_table(rules: Rules, dice: int) -> RollTable:
    """The grouped rolls of 1..``dice`` dice under ``rules`` (hot dice: a keep of every die leaves ``dice``)."""
    unit = rules.unit
    pF = np.zeros(dice + 1)
    g_lo = np.zeros(dice + 1, np.int64)
    g_hi = np.zeros(dice + 1, np.int64)
    gp, clo, chi, cpts, cnext, exact = [], [], [], [], [], []
    for n in range(1, dice + 1):
        groups: dict[tuple[tuple[int, int], ...], Fraction] = defaultdict(Fraction)
        farkle = Fraction(0)
        for roll, p in roll_outcomes(n):
            best = best_keeps(roll, rules)
            if not best:
                farkle += p
                continue
            groups[tuple(sorted((n - k or dice, keep.points // unit) for k, keep in best.items()))] += p
        pF[n] = float(farkle)
        g_lo[n] = len(gp)
        ordered = sorted(groups)
        for key in ordered:
            gp.append(float(groups[key]))
            clo.append(len(cpts))
            for left, pts in key:
                cpts.append(pts)
                cnext.append(left)
            chi.append(len(cpts))
        g_hi[n] = len(gp)
        exact.append((farkle, *(groups[k] for k in ordered)))
    return RollTable(pF, g_lo, g_hi, np.array(gp), np.array(clo, np.int64), np.array(chi, np.int64),
                     np.array(cpts, np.int64), np.array(cnext, np.int64), tuple(exact))


def level_error(table: RollTable) -> float:
    """A bound on the rounding error one row of an ``exact`` pass adds to a value (docs/farkle.md, "The error
    bound"): the pairwise sum of at most ``terms`` products (gamma_{ceil(log2 terms) + 1}, Higham), the
    probabilities' own rounding (u / 2) and ``1 - X`` (u)."""
    k = math.ceil(math.log2(table.terms)) + 1
    return k * U / (1 - k * U) + 1.5 * U


def sizes(rules: Rules, size: Size) -> tuple[int, int, int, int]:
    """(NB score indices, min_bank, penalty, farkle limit) in units."""
    u = rules.unit
    return (size.target - size.floor) // u, rules.min_bank // u, rules.penalty // u, rules.farkle_limit


# -- the turn, for a chunk of lanes -----------------------------------------------------------------------------


@njit(cache=True, nogil=True, fastmath=FAST)
def turn_chunk(src, old, Li, Lf, Lj, Lg, l0, l1, NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext,
               terms, pairwise, out, R, Rbase):
    """Solve the turn of lanes l0 .. l1 - 1 (positions (Li, Lf, Lj, Lg), sorted by mover score, lowest first)
    with exits read from ``src``, the penalty's from ``old``; ``out[l] = R(0, D)``. With ``R`` non-empty, also
    ``R[Rbase[l] + t D + n - 1] = R(t, n)`` for every row t and n. ``pairwise``: add the terms of each R pairwise
    (``exact`` passes)."""
    FL = src.shape[1]
    k0 = l1 - l0
    tm = np.empty(k0, np.int64)
    Y = np.empty(k0)
    for a in range(k0):
        lane = l0 + a
        i, f, j, g = Li[lane], Lf[lane], Lj[lane], Lg[lane]
        tm[a] = max(NB - 1 - i, M - 1)
        if f < FL - 1:
            Y[a] = 1.0 - src[j, g, i, f + 1]
        else:
            Y[a] = 1.0 - old[j, g, max(i - P, 0), 0]
    top = tm[0]
    V = np.empty((top + 1 + cpts.max(), D + 1, k0))
    for a in range(k0):  # rows past a lane's last are won totals: 1 (its own rows are written before any read)
        for t in range(tm[a] + 1, V.shape[0]):
            for n in range(D + 1):
                V[t, n, a] = 1.0
    T = np.empty((terms, k0))
    m = np.empty(k0)
    bank = np.empty(k0)
    store = R.size > 0
    k = 0
    for t in range(top, -1, -1):
        while k < k0 and tm[k] >= t:
            k += 1
        if t >= M:
            for a in range(k):
                lane = l0 + a
                bank[a] = 1.0 - src[Lj[lane], Lg[lane], Li[lane] + t, 0]
        else:
            for a in range(k):
                bank[a] = -1.0
        for n in range(1, D + 1):
            acc = T[0]
            p0 = pF[n]
            for a in range(k):
                acc[a] = p0 * Y[a]
            q = 1
            for grp in range(g_lo[n], g_hi[n]):
                c = clo[grp]
                row = V[t + cpts[c], cnext[c]]
                for a in range(k):
                    m[a] = row[a]
                for c in range(clo[grp] + 1, chi[grp]):
                    row = V[t + cpts[c], cnext[c]]
                    for a in range(k):
                        v = row[a]
                        m[a] = v if v > m[a] else m[a]
                p = gp[grp]
                if pairwise:
                    term = T[q]
                    for a in range(k):
                        term[a] = p * m[a]
                    q += 1
                else:
                    for a in range(k):
                        acc[a] += p * m[a]
            if pairwise:
                s = 1
                while s < q:
                    b = 0
                    while b + s < q:
                        x, y = T[b], T[b + s]
                        for a in range(k):
                            x[a] += y[a]
                        b += 2 * s
                    s *= 2
            here = V[t, n]
            for a in range(k):
                here[a] = acc[a] if acc[a] > bank[a] else bank[a]
            if store:
                for a in range(k):
                    R[Rbase[l0 + a] + t * D + n - 1] = acc[a]
    for a in range(k0):
        out[l0 + a] = T[0, a]


@njit(cache=True, nogil=True)
def slab_lanes(S, Fs, NB, FL):
    """The positions of batch (S, Fs): i + j = S and f + g = Fs, mover score lowest first."""
    i_lo, i_hi = max(0, S - (NB - 1)), min(NB - 1, S)
    nf = 0
    for f in range(FL):
        if 0 <= Fs - f < FL:
            nf += 1
    n = (i_hi - i_lo + 1) * nf
    Li = np.empty(n, np.int64)
    Lf = np.empty(n, np.int64)
    Lj = np.empty(n, np.int64)
    Lg = np.empty(n, np.int64)
    a = 0
    for i in range(i_lo, i_hi + 1):
        for f in range(FL):
            g = Fs - f
            if 0 <= g < FL:
                Li[a], Lf[a], Lj[a], Lg[a] = i, f, S - i, g
                a += 1
    return Li, Lf, Lj, Lg


@njit(cache=True, nogil=True)
def slab_plain(X, X0, S, NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext, terms):
    """One Gauss-Seidel step of value iteration on every position of score sum S (all farkle counts, the
    most farkles first), in place; penalties read ``X0``, the values at the start of the sweep (as an update in
    order would: they fall to a lower sum, or at the floor to fewer farkles, updated later in the sweep), so that
    sums run at once give the same numbers. Returns the largest change."""
    FL = X.shape[1]
    none = np.empty(0)
    nobase = np.empty(0, np.int64)
    delta = 0.0
    for Fs in range(2 * FL - 2, -1, -1):
        Li, Lf, Lj, Lg = slab_lanes(S, Fs, NB, FL)
        n = Li.size
        out = np.empty(n)
        for l0 in range(0, n, CHUNK):
            turn_chunk(X, X0, Li, Lf, Lj, Lg, l0, min(n, l0 + CHUNK), NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi,
                       cpts, cnext, terms, False, out, none, nobase)
        for a in range(n):
            old = X[Li[a], Lf[a], Lj[a], Lg[a]]
            d = abs(out[a] - old)
            if d > delta:
                delta = d
            X[Li[a], Lf[a], Lj[a], Lg[a]] = out[a]
    return delta


@njit(cache=True, nogil=True)
def slab_interval(L, H, L0, H0, S, NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext, terms, rho):
    """One Gauss-Seidel step of interval iteration on score sum S, in place: the new low bound is the turn
    solved against the high bounds, minus its rounding bound ``rho[i]``, the new high bound the turn against
    the low bounds, plus it (the turn is antitone in its exits), each rounded outward. Returns (positions where
    a bound moved outward, largest high - low). Penalties read ``L0`` / ``H0``, the bounds at the start of the
    sweep (``slab_plain``)."""
    FL = L.shape[1]
    none = np.empty(0)
    nobase = np.empty(0, np.int64)
    outward = 0
    gap = 0.0
    for Fs in range(2 * FL - 2, -1, -1):
        Li, Lf, Lj, Lg = slab_lanes(S, Fs, NB, FL)
        n = Li.size
        lo = np.empty(n)
        hi = np.empty(n)
        for l0 in range(0, n, CHUNK):
            l1 = min(n, l0 + CHUNK)
            turn_chunk(H, H0, Li, Lf, Lj, Lg, l0, l1, NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext,
                       terms, True, lo, none, nobase)
            turn_chunk(L, L0, Li, Lf, Lj, Lg, l0, l1, NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext,
                       terms, True, hi, none, nobase)
        for a in range(n):
            i, f, j, g = Li[a], Lf[a], Lj[a], Lg[a]
            new_lo = np.nextafter(lo[a] - rho[i], -np.inf)
            new_hi = np.nextafter(hi[a] + rho[i], np.inf)
            if new_lo < L[i, f, j, g] or new_hi > H[i, f, j, g]:
                outward += 1
            L[i, f, j, g] = new_lo
            H[i, f, j, g] = new_hi
            if new_hi - new_lo > gap:
                gap = new_hi - new_lo
    return outward, gap


@njit(cache=True, nogil=True)
def block_values(X, i, r_lo, r_hi, NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext, terms, R):
    """R(t, n) of rows r_lo .. r_hi - 1 of mover score i (row r = (f NB + j) FL + g), each row its rows x D
    values [t][n - 1], into ``R`` (from index 0), exits read from ``X``, sums pairwise."""
    FL = X.shape[1]
    width = (max(NB - 1 - i, M - 1) + 1) * D
    n = r_hi - r_lo
    Li = np.full(n, i, np.int64)
    Lf = np.empty(n, np.int64)
    Lj = np.empty(n, np.int64)
    Lg = np.empty(n, np.int64)
    base = np.empty(n, np.int64)
    for a in range(n):
        r = r_lo + a
        Lf[a] = r // (NB * FL)
        Lj[a] = (r // FL) % NB
        Lg[a] = r % FL
        base[a] = a * width
    out = np.empty(n)
    for l0 in range(0, n, CHUNK):
        turn_chunk(X, X, Li, Lf, Lj, Lg, l0, min(n, l0 + CHUNK), NB, M, P, D, pF, g_lo, g_hi, gp, clo, chi, cpts,
                   cnext, terms, True, out, R, base)
    return out


@njit(cache=True, nogil=True)
def rounding_bounds(rows, M, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext, level):
    """e[t, n]: a bound on the rounding error of R(t, n) computed by an ``exact`` pass in a turn of ``rows``
    rows, from exact exits (docs/farkle.md, "The error bound"): each R adds ``level`` to the probability-weighted
    largest error of the choices it reads (the max of perturbed values is off by at most the largest
    perturbation); banking reads one rounded ``1 - X`` (u / 2); won rows are exact."""
    eR = np.zeros((rows + cpts.max() + 1, D + 1))
    eV = np.zeros((rows + cpts.max() + 1, D + 1))
    for t in range(rows - 1, -1, -1):
        for n in range(1, D + 1):
            acc = level
            for grp in range(g_lo[n], g_hi[n]):
                worst = 0.0
                for c in range(clo[grp], chi[grp]):
                    v = eV[t + cpts[c], cnext[c]]
                    if v > worst:
                        worst = v
                acc += gp[grp] * worst
            eR[t, n] = acc
            eV[t, n] = max(acc, 0.5 * 1.1102230246251565e-16) if t >= M else acc
    return eR[:rows]


# -- one player's turn for points (the solitaire table) ---------------------------------------------------------


@njit(cache=True, nogil=True)
def points_table(rows, M, D, pF, g_lo, g_hi, gp, clo, chi, cpts, cnext):
    """E[t, n]: the expected points (in units) a turn banks from turn total t with n dice to roll, playing for
    the most points, for t < rows; E[t, n] = t from ``rows`` on (the caller's proof that banking is best
    there). Row 0 of n < D and column 0 are unused (NaN)."""
    E = np.full((rows + cpts.max() + 1, D + 1), np.nan)
    for t in range(rows, E.shape[0]):
        for n in range(1, D + 1):
            E[t, n] = t
    for t in range(rows - 1, -1, -1):
        for n in range(1, D + 1):
            acc = 0.0  # a farkle banks nothing
            for grp in range(g_lo[n], g_hi[n]):
                best = -1.0
                for c in range(clo[grp], chi[grp]):
                    v = E[t + cpts[c], cnext[c]]
                    if v > best:
                        best = v
                acc += gp[grp] * best
            E[t, n] = max(acc, float(t)) if t >= M else acc
    return E[:rows]
