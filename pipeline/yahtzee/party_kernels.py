"""Numba kernel of forced-order play to win among P players: one layer's turns, vectorised along the layer's
last axis.

A layer (``lookup.yahtzee.party_states``) is stored in memory as ``out[k, row, x]``: outcome k (a winner set),
``row`` = the state's coordinates but the last in C order, x = its last coordinate. For each row the mover's
turn is the usual keep tree (``pipeline.yahtzee.kernels``' notation) on VECTORS over x, each node carrying
C = K + 1 vectors: the mover's share of the game (slot 0, what the mover maximises) and the K outcome
probabilities (slots 1..K). Everything in the tree is a mean or a choice, so the share stays the weighted
sum of the outcomes it travels with.

* final roll r scores the forced box's ``q = pidx[r]``-th possible points: ``G[q, :, x]`` = the next layer at
  row ``nrow[row, q]``, column ``x + ncol[row, q]`` (the driver computes where each score leads: a shift of
  the mover's raw upper total, or of the score differences);
* ``E[k]`` = mean over faces of ``E[k + face]``; ``M[k]`` = E[k] unless a one-die-smaller sub-keep's M gives
  the mover a share larger by more than ``tie_rel`` times it (then the first such in face order, and so
  on): among options the mover values equally up to rounding, the larger keep. Two reroll passes; the turn
  start is the mean over the first roll.

Why the relative tolerance: with three players, which of two options of equal value to the mover is played
changes the others' chances, so the rule must see exact ties as ties. Two options of equal exact value come
out of float64 a few units of the last place apart (the same keep tree as ``lookup.yahtzee.turn.tied``,
whose ``PROBABILITY_TIE_REL`` the driver passes).

With ``fixed`` = 1 the mover plays the single-player expected-score policy: roll r's keep is
``reroll[prow[row, x], rerolls_left - 1, r]``. Every row's arithmetic depends only on its own row, so the
numbers do not depend on the thread count.

Why numba: ~6,000 vector operations per turn for each of ~1e7 joint states of the 3-player game; the loops
over contiguous x vectorise and ``pipeline.jit.run_chunks`` splits the rows over the cores.
"""

from __future__ import annotations

import numpy as np

from pipeline.jit import njit


@njit(cache=True)
def _expect(e, add_die, roll_offset, n_c, width):
    """E(k) for every keep smaller than a roll, all C slots: a sum over faces divided by their number."""
    n_faces = add_die.shape[1]
    for k in range(roll_offset - 1, -1, -1):
        for c in range(n_c):
            dst = e[k, c]
            for x in range(width):
                dst[x] = 0.0
            for f in range(n_faces):
                src = e[add_die[k, f], c]
                for x in range(width):
                    dst[x] += src[x]
            for x in range(width):
                dst[x] /= n_faces


@njit(cache=True)
def _best(e, m, sub_pad, size_offset, n_c, width, tie_rel):
    """M(k): E(k), or a one-die-smaller sub-keep's M where the mover's share (slot 0) is larger by more than
    ``tie_rel`` of the current best; all C slots follow the choice."""
    n_keeps = e.shape[0]
    for size in range(size_offset.shape[0] - 1):
        for k in range(size_offset[size], size_offset[size + 1]):
            for c in range(n_c):
                for x in range(width):
                    m[k, c, x] = e[k, c, x]
            for jj in range(size):
                a = sub_pad[k, jj]
                if a >= n_keeps:
                    break
                for x in range(width):
                    best = m[k, 0, x]
                    if m[a, 0, x] > best + tie_rel * best:
                        for c in range(n_c):
                            m[k, c, x] = m[a, c, x]


@njit(cache=True, nogil=True)
def solve_layer(chunk, start, stop, nxt, nrow, ncol, pidx, weight, out, add_die, sub_pad, size_offset, roll_offset,
                keep_of_mask, fixed, prow, reroll, tie_rel):
    """Fill ``out[k, row, x]`` (outcome k's probability from the start of the mover's turn) for every row.

    nxt[k, row', x']: the next layer (the driver checks that every read is inside it); nrow / ncol [row, q]:
    where scoring the box's q-th possible points leads; weight[k]: the mover's share of outcome k (1 / |W| if
    the mover is in winner set W); prow[row, x]: the mover's single-player policy row (``fixed`` only).
    """
    n_out, n_rows, width = out.shape
    n_c = n_out + 1
    n_keeps = add_die.shape[0]
    n_rolls = pidx.shape[0]
    n_q = nrow.shape[1]
    e = np.empty((n_keeps, n_c, width))
    m = np.empty((n_keeps, n_c, width))
    g = np.empty((n_q, n_c, width))
    for row in range(start, stop):
        for q in range(n_q):
            r2 = nrow[row, q]
            c0 = ncol[row, q]
            for x in range(width):
                g[q, 0, x] = 0.0
            for k in range(n_out):
                src = nxt[k, r2]
                w = weight[k]
                for x in range(width):
                    v = src[c0 + x]
                    g[q, k + 1, x] = v
                    g[q, 0, x] += w * v
        for r in range(n_rolls):
            q = pidx[r]
            for c in range(n_c):
                for x in range(width):
                    e[roll_offset + r, c, x] = g[q, c, x]
        for stage in range(2):
            _expect(e, add_die, roll_offset, n_c, width)
            if fixed:
                for r in range(n_rolls):
                    for x in range(width):
                        k = keep_of_mask[r, reroll[prow[row, x], stage, r]]
                        for c in range(n_c):
                            m[roll_offset + r, c, x] = e[k, c, x]
            else:
                _best(e, m, sub_pad, size_offset, n_c, width, tie_rel)
            for k in range(roll_offset, n_keeps):
                for c in range(n_c):
                    for x in range(width):
                        e[k, c, x] = m[k, c, x]
        _expect(e, add_die, roll_offset, n_c, width)
        for k in range(n_out):
            for x in range(width):
                out[k, row, x] = e[0, k + 1, x]
