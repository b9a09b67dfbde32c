"""Numba kernels of play to win: one turn of one state, vectorised over the points still needed.

A *needed-points vector* ``P[t]``, t = 0..bound, holds for one turn-start state the probability of scoring
at least t more points (``goal`` objective), or the probability of ending strictly above t plus half the
probability of ending exactly on t (``win`` objective: a known opponent's score, ties counting half). Both
read 1 below t = 0 and 0 above the state's ``bound`` (the most points it can still score, capped at
``max_points``), so only columns 0..bound are stored.

One turn, for every t at once (the inner loops run over contiguous t: SIMD vector loads):

* ``F[r, t]``: final roll ``r`` scored in the best allowed box: max over boxes of ``Pnext[t - reward]``
  (reward = box points + upper bonus + Yahtzee bonus earned now; a shifted read of the next state's vector);
* ``E[k, t]``: keep multiset ``k`` and reroll the rest = mean over faces of ``E[k + face, t]``;
* ``M[k, t]``: best sub-keep = max(E[k, t], max over one-die-smaller sub-keeps of M) (``kernels``' keep
  tree on vectors); the turn-start vector is the mean of ``M`` over the first roll (one more keep pass:
  E of the empty keep).

The maximum is taken for each t separately: the policy depends on t, which is why it is not stored but
recomputed from the table at play time (``lookup.yahtzee.towin``). ``evaluate_rows`` does the same for a
FIXED policy (expected-score play) instead of the maximum: the exact probability that it reaches t.
Probabilities are float64; a row's arithmetic does not depend on which rows share its call, so any
partition of a layer into tasks gives the same bytes.
"""

from __future__ import annotations

import numpy as np

from pipeline.jit import njit
from pipeline.yahtzee import kernels

N_UPPER = kernels.N_UPPER
_final_values = kernels._final_values
box_outcome = kernels.box_outcome
scoring_options = kernels.scoring_options


@njit(cache=True, nogil=True)
def max_reach_layer(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, reach, state_index, score_t,
                    joker_score, counts_t, yroll, params):
    """``reach[row]`` for rows lo + start .. lo + stop - 1 of the layer lo..hi-1 (``pipeline.jit.run_chunks``):
    the most points the state can still score (any dice can come up, so it is a max over rolls and boxes of
    reward + reach of the next state); reads the next layer."""
    v0 = np.empty(score_t.shape[1])
    g = np.empty((params[5], params[4] + 1))
    w = np.empty(params[5])
    for i in range(lo + start, lo + stop):
        _final_values(row_mask[i], row_upper[i], row_ybox[i], v0, g, w, reach, state_index, score_t,
                      joker_score, counts_t, yroll, params)
        reach[i] = v0.max()


@njit(cache=True, inline="always")
def _shift_max(dst, src, src_bound, reward, width):
    """dst[t] = max(dst[t], S(t - reward)) for t < width, where S(x) = 1 for x < 0, src[x] for
    0 <= x <= src_bound, 0 above (probabilities are <= 1, so the first columns simply become 1)."""
    low = min(reward, width)
    for t in range(low):
        dst[t] = 1.0
    top = min(width, reward + src_bound + 1)
    for t in range(low, top):
        x = src[t - reward]
        dst[t] = x if x > dst[t] else dst[t]


@njit(cache=True, inline="always")
def _shift_copy(dst, src, src_bound, reward, width):
    """dst[t] = S(t - reward) for t < width (``_shift_max`` onto nothing: a fixed policy's box)."""
    low = min(reward, width)
    for t in range(low):
        dst[t] = 1.0
    top = min(width, reward + src_bound + 1)
    for t in range(low, top):
        dst[t] = src[t - reward]
    for t in range(max(top, low), width):
        dst[t] = 0.0


@njit(cache=True, inline="always")
def _next(state_index, nxt_lo, mask, upper, ybox):
    return state_index[mask, upper, ybox] - nxt_lo


@njit(cache=True)
def _yahtzee_options(mask, face, r, params, joker_score, score_t):
    """(allowed box mask, use Joker points) of five-alike roll ``r`` of ``face``."""
    return scoring_options(params[0], mask, face, (1 << params[5]) - 1, params[6], params[7])


@njit(cache=True)
def _box_reward(c, r, mask, upper, ybox, face, use_joker, joker_score, score_t, params):
    """(reward, next upper, next ybox) of scoring roll ``r`` in box ``c``."""
    pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
    return box_outcome(c, pts, upper, ybox, 1 if face >= 0 else 0, params[1], params[2], params[3], params[6])


@njit(cache=True)
def _final_max(mask, upper, ybox, width, f, g, state_index, nxt, nxt_lo, nxt_bound, score_t, joker_score,
               counts_t, yroll, params, roll_offset):
    """f[roll_offset + r, :width] = best over allowed boxes of the next vector shifted by the reward."""
    n_rolls = score_t.shape[1]
    n_dice = params[4]
    for r in range(n_rolls):
        row = f[roll_offset + r]
        for t in range(width):
            row[t] = 0.0
    usable = kernels._usable_boxes(mask, params)
    for c in range(params[5]):
        if (usable >> c) & 1 == 0:
            continue
        nmask = mask | (1 << c)
        if c < N_UPPER:
            # The reward depends on the roll only through the count of face c + 1: one shifted vector per count.
            for k in range(n_dice + 1):
                rew, nu, ny = box_outcome(c, (c + 1) * k, upper, ybox, 0, params[1], params[2], params[3],
                                          params[6])
                j = _next(state_index, nxt_lo, nmask, nu, ny)
                _shift_copy(g[k], nxt[j], nxt_bound[j], rew, width)
            cnt = counts_t[c]
            for r in range(n_rolls):
                src = g[cnt[r]]
                row = f[roll_offset + r]
                for t in range(width):
                    x = src[t]
                    row[t] = x if x > row[t] else row[t]
        else:
            rew, nu, ny = box_outcome(c, 0, upper, ybox, 0, params[1], params[2], params[3], params[6])
            j = _next(state_index, nxt_lo, nmask, nu, ny)
            src, sb = nxt[j], nxt_bound[j]
            sc = score_t[c]
            for r in range(n_rolls):
                _shift_max(f[roll_offset + r], src, sb, rew + np.int64(sc[r]), width)
    # Five-alike rolls: the Joker rule, the Yahtzee box's 50 (next ybox 1) and the Yahtzee bonus.
    for face in range(yroll.shape[0]):
        r = yroll[face]
        row = f[roll_offset + r]
        for t in range(width):
            row[t] = 0.0
        allowed, use_joker = _yahtzee_options(mask, face, r, params, joker_score, score_t)
        for c in range(params[5]):
            if (allowed >> c) & 1:
                rew, nu, ny = _box_reward(c, r, mask, upper, ybox, face, use_joker, joker_score, score_t, params)
                j = _next(state_index, nxt_lo, mask | (1 << c), nu, ny)
                _shift_max(row, nxt[j], nxt_bound[j], rew, width)


@njit(cache=True, inline="always")
def _expect(e, add_die, roll_offset, width):
    """E(k) for every keep smaller than a roll (mean over faces of E(k + face)), columns < width.

    A sum divided by the number of faces (not times its inverse, nor weighted by roll probabilities): a
    mean of ones is exactly one, so P(>= 0) = 1 comes out exactly (tested)."""
    n_faces = add_die.shape[1]
    for k in range(roll_offset - 1, -1, -1):
        dst = e[k]
        for t in range(width):
            dst[t] = 0.0
        for f in range(n_faces):
            src = e[add_die[k, f]]
            for t in range(width):
                dst[t] += src[t]
        for t in range(width):
            dst[t] /= n_faces


@njit(cache=True, inline="always")
def _best_subkeeps(e, m, sub_pad, size_offset, width):
    """M(k) = max(E(k), max over one-die-smaller sub-keeps of M(k')) for every keep, columns < width.
    ``sub_pad`` pads with index K: those entries are skipped (they stand for absent faces)."""
    n_keeps = e.shape[0]
    for size in range(size_offset.shape[0] - 1):
        for k in range(size_offset[size], size_offset[size + 1]):
            dst = m[k]
            src = e[k]
            for t in range(width):
                dst[t] = src[t]
            for jj in range(size):
                a = sub_pad[k, jj]
                if a >= n_keeps:
                    break
                sub = m[a]
                for t in range(width):
                    x = sub[t]
                    dst[t] = x if x > dst[t] else dst[t]


@njit(cache=True)
def _start_vector(e, add_die, roll_offset, out, width):
    """The turn-start vector from the values of the first roll in ``e[roll_offset:]``: the mean over that
    roll is E(empty keep) of one more keep pass (each face of each die in turn: exact means)."""
    _expect(e, add_die, roll_offset, width)
    for t in range(width):
        out[t] = e[0, t]


@njit(cache=True, nogil=True)
def solve_rows(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, bound, state_index, nxt, nxt_lo, nxt_bound,
               out, score_t,
               joker_score, counts_t, yroll, params, add_die, sub_pad, size_offset, roll_offset, roll_prob):
    """Optimal needed-points vectors of rows lo..hi-1 into ``out[row - lo, :bound[row] + 1]`` (``out`` is
    zero elsewhere). ``nxt[j]`` is the vector of row ``nxt_lo + j`` of the next layer, ``nxt_bound`` its
    bounds."""
    n_keeps = add_die.shape[0]
    width_max = out.shape[1]
    e = np.empty((n_keeps, width_max))
    m = np.empty((n_keeps, width_max))
    g = np.empty((params[4] + 1, width_max))
    for i in range(lo + start, lo + stop):
        width = bound[i] + 1
        _final_max(row_mask[i], row_upper[i], row_ybox[i], width, e, g, state_index, nxt, nxt_lo, nxt_bound,
                   score_t, joker_score, counts_t, yroll, params, roll_offset)
        for _ in range(2):
            _expect(e, add_die, roll_offset, width)
            _best_subkeeps(e, m, sub_pad, size_offset, width)
            for k in range(roll_offset, n_keeps):
                for t in range(width):
                    e[k, t] = m[k, t]
        _start_vector(e, add_die, roll_offset, out[i - lo], width)


@njit(cache=True, nogil=True)
def evaluate_rows(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, bound, state_index, nxt, nxt_lo,
                  nxt_bound, out,
                  policy_row, reroll, category, score_t, joker_score, yface, params, add_die, roll_offset, roll_prob,
                  keep_of_mask):
    """Like ``solve_rows`` for the fixed policy ``reroll`` / ``category`` (rows ``policy_row[row]``): the
    probability that THAT policy reaches t, instead of the best probability."""
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    width_max = out.shape[1]
    e = np.empty((n_keeps, width_max))
    q = np.empty((n_rolls, width_max))
    for i in range(lo + start, lo + stop):
        width = bound[i] + 1
        mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
        prow = policy_row[i]
        for r in range(n_rolls):
            c = category[prow, r]
            face = yface[r]
            allowed, use_joker = scoring_options(params[0], mask, face, (1 << params[5]) - 1, params[6],
                                                 params[7])
            rew, nu, ny = _box_reward(c, r, mask, upper, ybox, face, use_joker, joker_score, score_t, params)
            j = _next(state_index, nxt_lo, mask | (1 << c), nu, ny)
            _shift_copy(e[roll_offset + r], nxt[j], nxt_bound[j], rew, width)
        for stage in range(2):
            _expect(e, add_die, roll_offset, width)
            for r in range(n_rolls):
                src = e[keep_of_mask[r, reroll[prow, stage, r]]]
                for t in range(width):
                    q[r, t] = src[t]
            for r in range(n_rolls):
                for t in range(width):
                    e[roll_offset + r, t] = q[r, t]
        _start_vector(e, add_die, roll_offset, out[i - lo], width)
