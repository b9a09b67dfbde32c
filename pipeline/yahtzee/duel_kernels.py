"""Numba kernel of the forced-order duel: one turn of one joint state, vectorised over the score difference.

For one layer (box position i, seat s to move) and one pair of canonical upper totals (a, b), the turn is
the usual keep tree (``pipeline.yahtzee.kernels``' notation) on VECTORS over the score difference d =
seat 0's total - seat 1's total:

* final roll r scores ``points[i][q]`` (q = ``pidx[r]``: forced order, so the box is given and only the
  points matter): ``G[q, d]`` = the next layer's vector at the mover's next upper total, read at
  d + reward (seat 0) or d - reward (seat 1): a shifted contiguous read;
* ``E[k, d]`` = mean over faces of ``E[k + face, d]``; ``M[k, d]`` = max(E[k, d], M of the one-die-smaller
  sub-keeps) for each d separately; two reroll passes; the turn start is the mean over the first roll.

Seat 0 maximises the stored value (its P(win) + P(tie) / 2); seat 1 minimises it. Seat 1's turn maximises
the NEGATED value (negation is exact in floating point, unlike 1 - v) and negates the result back.
Alongside each value vector the kernel carries the P(tie) vector of the option it keeps: the tie rule is
the towin kernel's (a sub-keep replaces the current best only when STRICTLY better, so among exactly equal
options the larger keep, then the first sub-keep in face order, wins), which fixes P(tie) where optimal
options tie exactly.

Why numba: a turn is ~6,000 vector operations on vectors of up to ~750 differences, for ~13,000 joint
upper-total pairs in the upper section (about 3e10 floating-point operations for the whole 2-player
table); the inner loops over contiguous d vectorise (SIMD) and ``pipeline.jit.run_chunks`` splits the pairs over both
cores.
In numpy the per-keep overhead (~1 us a call, 6,000 calls a state) alone would cost minutes.

With ``fixed`` = 1 the mover plays the fixed policy ``reroll[prow[mover's upper], rerolls_left - 1, roll]``
(the single-player expected-score policy) instead of maximising: the Markov chain of both policies fixed.
Every vector's arithmetic depends only on its own pair, so the numbers do not depend on the thread count.
"""

from __future__ import annotations

import numpy as np

from pipeline.jit import njit


@njit(cache=True)
def _expect2(e, et, add_die, roll_offset, width):
    """E(k) (and its tie vector) for every keep smaller than a roll: a sum over faces divided by the number
    of faces, so a mean of equal numbers is exactly that number."""
    n_faces = add_die.shape[1]
    for k in range(roll_offset - 1, -1, -1):
        dst = e[k]
        dt = et[k]
        for x in range(width):
            dst[x] = 0.0
            dt[x] = 0.0
        for f in range(n_faces):
            src = e[add_die[k, f]]
            st = et[add_die[k, f]]
            for x in range(width):
                dst[x] += src[x]
                dt[x] += st[x]
        for x in range(width):
            dst[x] /= n_faces
            dt[x] /= n_faces


@njit(cache=True)
def _best2(e, et, m, mt, sub_pad, size_offset, width):
    """M(k) = max(E(k), M of its one-die-smaller sub-keeps) per d, with the tie vector of the chosen option."""
    n_keeps = e.shape[0]
    for size in range(size_offset.shape[0] - 1):
        for k in range(size_offset[size], size_offset[size + 1]):
            dst = m[k]
            dt = mt[k]
            for x in range(width):
                dst[x] = e[k, x]
                dt[x] = et[k, x]
            for jj in range(size):
                a = sub_pad[k, jj]
                if a >= n_keeps:
                    break
                sub = m[a]
                subt = mt[a]
                for x in range(width):
                    if sub[x] > dst[x]:
                        dst[x] = sub[x]
                        dt[x] = subt[x]


@njit(cache=True, nogil=True)
def solve_layer(chunk, start, stop, mover, low, nxt_v, nxt_t, nxt_low, next_u, reward, pidx, out_v, out_t, add_die,
                sub_pad, size_offset, roll_offset, keep_of_mask, fixed, prow, reroll):
    """Fill ``out_v[a, b, :]`` / ``out_t[a, b, :]`` (seat 0's value and P(tie) at d = x - low) for every
    pair of the layer.

    mover: the seat to move (0 or 1); next_u[u, q] / reward[u, q]: the mover's next upper index and the
    points earned (box + bonus) when the box scores its q-th possible points with upper index u; nxt_v /
    nxt_t: the next layer's arrays (difference d at index d + ``nxt_low``; the driver checks that every read
    is on that axis).
    """
    n_a, n_b, width = out_v.shape
    n_keeps = add_die.shape[0]
    n_rolls = pidx.shape[0]
    n_q = reward.shape[1]
    sign = 1.0 if mover == 0 else -1.0
    e = np.empty((n_keeps, width))
    et = np.empty((n_keeps, width))
    m = np.empty((n_keeps, width))
    mt = np.empty((n_keeps, width))
    g = np.empty((n_q, width))
    gt = np.empty((n_q, width))
    for p in range(start, stop):
        a = p // n_b
        b = p % n_b
        u = a if mover == 0 else b
        for q in range(n_q):
            nu = next_u[u, q]
            shift = reward[u, q] if mover == 0 else -reward[u, q]
            base = nxt_low - low + shift  # next index of x: (x - low) + shift + nxt_low
            if mover == 0:
                src = nxt_v[nu, b]
                srct = nxt_t[nu, b]
            else:
                src = nxt_v[a, nu]
                srct = nxt_t[a, nu]
            for x in range(width):
                g[q, x] = sign * src[base + x]
                gt[q, x] = srct[base + x]
        for r in range(n_rolls):
            q = pidx[r]
            for x in range(width):
                e[roll_offset + r, x] = g[q, x]
                et[roll_offset + r, x] = gt[q, x]
        for stage in range(2):
            _expect2(e, et, add_die, roll_offset, width)
            if fixed:
                for r in range(n_rolls):
                    k = keep_of_mask[r, reroll[prow[u], stage, r]]
                    for x in range(width):
                        m[roll_offset + r, x] = e[k, x]
                        mt[roll_offset + r, x] = et[k, x]
            else:
                _best2(e, et, m, mt, sub_pad, size_offset, width)
            for k in range(roll_offset, n_keeps):
                for x in range(width):
                    e[k, x] = m[k, x]
                    et[k, x] = mt[k, x]
        _expect2(e, et, add_die, roll_offset, width)
        for x in range(width):
            out_v[a, b, x] = sign * e[0, x]
            out_t[a, b, x] = et[0, x]
