"""Numba kernels of the exact Yahtzee solver: one turn of one state, the keep tree, the policy argmax.

Notation (K keeps, R rolls, F faces, D dice, see ``lookup.yahtzee.encoding``):

* ``V0[r]``: value of final roll ``r`` (0 rerolls left) = best over allowed boxes of
  (points earned now + value of the next turn-start state).
* ``E[k]``: value of keeping multiset ``k`` and rerolling the other dice (= ``V`` for a full keep);
  E(k) = mean over the F faces of E(k + face).
* ``M[k]``: best E over all sub-multisets of ``k``: M(k) = max(E(k), max over faces f in k of M(k - f)).
  With one reroll left the value of roll ``r`` is M0(r); with two, M1(r); the turn-start value is the
  mean of M1 over the first roll.

Values are expected remaining points from the perspective of the player at the start of the turn.
The rule helpers come from ``lookup.yahtzee.rules`` (one definition), compiled here with ``njit``.
"""

from __future__ import annotations

import numba
import numpy as np
from numba import njit, prange

from lookup.yahtzee import rules as _rules

# One definition of the Joker rule and of a box's bookkeeping, compiled from the lookup module.
scoring_options = njit(cache=True, inline="always")(_rules.scoring_options)
box_outcome = njit(cache=True, inline="always")(_rules.box_outcome)

N_CAT = _rules.N_CATEGORIES
N_UPPER = _rules.UPPER
# Two options whose values differ by at most TIE_EPS points are tied (see ``solver`` docstring).
TIE_EPS = 1e-9


@njit(cache=True, inline="always")
def _next_value(vrow, state_index, mask, upper, ybox):
    return vrow[state_index[mask, upper, ybox]]


@njit(cache=True)
def _final_values(
    mask, upper, ybox, v0, g, w, vrow, state_index, score_t, joker_score, counts_t, yroll, params
):
    """Fill ``v0[r]`` (final-roll values) for state (mask, upper, ybox).

    Also leaves ``g[c, k]`` (upper box c scored with k dice of its face: reward + next value) and
    ``w[c]`` (next value after a lower box c scored normally, points not included) for the argmax.
    params = (joker_code, upper_threshold, upper_bonus, yahtzee_bonus, n_dice).
    """
    joker_code, thr, ubonus, ybonus, n_dice = params[0], params[1], params[2], params[3], params[4]
    n_rolls = v0.shape[0]
    for r in range(n_rolls):
        v0[r] = -np.inf
    for c in range(N_CAT):
        if (mask >> c) & 1:
            continue
        nmask = mask | (1 << c)
        if c < N_UPPER:
            for k in range(n_dice + 1):
                rew, nu, ny = box_outcome(c, (c + 1) * k, upper, ybox, 0, thr, ubonus, ybonus)
                g[c, k] = rew + _next_value(vrow, state_index, nmask, nu, ny)
            gc = g[c]
            cnt = counts_t[c]
            for r in range(n_rolls):
                x = gc[cnt[r]]
                if x > v0[r]:
                    v0[r] = x
        else:
            rew, nu, ny = box_outcome(c, 0, upper, ybox, 0, thr, ubonus, ybonus)
            wc = _next_value(vrow, state_index, nmask, nu, ny)
            w[c] = wc
            sc = score_t[c]
            for r in range(n_rolls):
                x = sc[r] + wc
                if x > v0[r]:
                    v0[r] = x
    # Five-alike rolls: Joker rule, Yahtzee box worth 50 (next ybox = 1) and the Yahtzee bonus.
    for f in range(yroll.shape[0]):
        r = yroll[f]
        v0[r] = _yahtzee_roll_value(mask, upper, ybox, f, r, -1, vrow, state_index, joker_score,
                                    score_t, params)


@njit(cache=True)
def _yahtzee_roll_value(mask, upper, ybox, face, r, only_c, vrow, state_index, joker_score, score_t, params):
    """Best value of five-alike roll ``r`` of ``face`` over its allowed boxes (only box ``only_c`` if >= 0;
    -inf if that box is not allowed)."""
    joker_code, thr, ubonus, ybonus = params[0], params[1], params[2], params[3]
    allowed, use_joker = scoring_options(joker_code, mask, face)
    best = -np.inf
    for c in range(N_CAT):
        if (allowed >> c) & 1 == 0 or (only_c >= 0 and c != only_c):
            continue
        pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
        rew, nu, ny = box_outcome(c, pts, upper, ybox, 1, thr, ubonus, ybonus)
        x = rew + _next_value(vrow, state_index, mask | (1 << c), nu, ny)
        if x > best:
            best = x
    return best


@njit(cache=True, inline="always")
def _expect_keeps(e, add_die, roll_offset, inv_faces):
    """E(k) for every keep smaller than a roll, from E of the rolls already in ``e[roll_offset:]``."""
    n_faces = add_die.shape[1]
    for k in range(roll_offset - 1, -1, -1):
        s = 0.0
        for f in range(n_faces):
            s += e[add_die[k, f]]
        e[k] = s * inv_faces


@njit(cache=True, inline="always")
def _max_subkeeps(e, m, sub_ptr, sub_idx):
    """M(k) = max(E(k), max over one-die-smaller sub-keeps of M) for every keep, smallest first."""
    for k in range(e.shape[0]):
        best = e[k]
        for j in range(sub_ptr[k], sub_ptr[k + 1]):
            x = m[sub_idx[j]]
            if x > best:
                best = x
        m[k] = best


@njit(cache=True)
def _turn_value(mask, upper, ybox, e, m, g, w, vrow, state_index, score_t, joker_score, counts_t, yroll,
                params, add_die, sub_ptr, sub_idx, roll_offset, roll_prob, inv_faces):
    n_rolls = roll_prob.shape[0]
    _final_values(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                  counts_t, yroll, params)
    _expect_keeps(e, add_die, roll_offset, inv_faces)
    _max_subkeeps(e, m, sub_ptr, sub_idx)  # m[roll] = value with 1 reroll left
    e[roll_offset:] = m[roll_offset:]
    _expect_keeps(e, add_die, roll_offset, inv_faces)
    _max_subkeeps(e, m, sub_ptr, sub_idx)  # m[roll] = value with 2 rerolls left
    total = 0.0
    for r in range(n_rolls):
        total += roll_prob[r] * m[roll_offset + r]
    return total


def _n_chunks(n: int) -> int:
    return max(1, min(n, 8 * numba.get_num_threads()))


@njit(cache=True, parallel=True)
def solve_layer(lo, hi, row_mask, row_upper, row_ybox, vrow, state_index, score_t, joker_score, counts_t,
                yroll, params, add_die, sub_ptr, sub_idx, roll_offset, roll_prob, n_chunks):
    """Values of rows lo..hi-1 (one layer) into ``vrow``, reading the next layer's rows of ``vrow``."""
    n = hi - lo
    n_keeps = add_die.shape[0]
    n_faces = add_die.shape[1]
    inv_faces = 1.0 / n_faces
    n_dice = params[4]
    step = (n + n_chunks - 1) // n_chunks
    for ch in prange(n_chunks):
        e = np.empty(n_keeps)
        m = np.empty(n_keeps)
        g = np.empty((N_CAT, n_dice + 1))
        w = np.empty(N_CAT)
        for i in range(lo + ch * step, min(hi, lo + (ch + 1) * step)):
            vrow[i] = _turn_value(row_mask[i], row_upper[i], row_ybox[i], e, m, g, w, vrow, state_index,
                                  score_t, joker_score, counts_t, yroll, params, add_die, sub_ptr, sub_idx,
                                  roll_offset, roll_prob, inv_faces)


@njit(cache=True)
def _best_mask(e, best, r, keep_of_mask, mask_order, roll_offset):
    """First reroll mask in ``mask_order`` whose keep is within TIE_EPS of ``best``."""
    for j in range(mask_order.shape[0]):
        mk = mask_order[j]
        if e[keep_of_mask[r, mk]] >= best - TIE_EPS:
            return mk
    return mask_order[0]  # unreachable: the best keep is always among the masks


@njit(cache=True)
def _best_category(mask, upper, ybox, r, v0r, g, w, vrow, state_index, score_t, joker_score, counts_t,
                   yface, params):
    """Lowest-index allowed box whose value is within TIE_EPS of the best ``v0r``."""
    f = yface[r]
    for c in range(N_CAT):
        if (mask >> c) & 1:
            continue
        if f >= 0:
            x = _yahtzee_roll_value(mask, upper, ybox, f, r, c, vrow, state_index, joker_score, score_t,
                                    params)
        elif c < N_UPPER:
            x = g[c, counts_t[c, r]]
        else:
            x = score_t[c, r] + w[c]
        if x >= v0r - TIE_EPS:
            return c
    return 255


@njit(cache=True, parallel=True)
def build_policy(lo, hi, row_mask, row_upper, row_ybox, vrow, state_index, score_t, joker_score, counts_t,
                 yroll, yface, params, add_die, sub_ptr, sub_idx, roll_offset, roll_prob, keep_of_mask,
                 mask_order, reroll, category, n_chunks):
    """Policy of rows lo..hi-1 from the complete ``vrow``: ``reroll[row, j, r]`` (j = rerolls left - 1)
    and ``category[row, r]``."""
    n = hi - lo
    n_keeps = add_die.shape[0]
    n_faces = add_die.shape[1]
    n_rolls = roll_prob.shape[0]
    inv_faces = 1.0 / n_faces
    n_dice = params[4]
    step = (n + n_chunks - 1) // n_chunks
    for ch in prange(n_chunks):
        e = np.empty(n_keeps)
        m = np.empty(n_keeps)
        g = np.empty((N_CAT, n_dice + 1))
        w = np.empty(N_CAT)
        for i in range(lo + ch * step, min(hi, lo + (ch + 1) * step)):
            mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
            _final_values(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                          counts_t, yroll, params)
            for r in range(n_rolls):
                category[i, r] = _best_category(mask, upper, ybox, r, e[roll_offset + r], g, w, vrow,
                                                state_index, score_t, joker_score, counts_t, yface, params)
            for j in range(2):
                _expect_keeps(e, add_die, roll_offset, inv_faces)
                _max_subkeeps(e, m, sub_ptr, sub_idx)
                for r in range(n_rolls):
                    reroll[i, j, r] = _best_mask(e, m[roll_offset + r], r, keep_of_mask, mask_order,
                                                 roll_offset)
                e[roll_offset:] = m[roll_offset:]


@njit(cache=True, parallel=True)
def evaluate_layer(lo, hi, row_mask, row_upper, row_ybox, policy_row, reroll, category, moments, state_index,
                   score_t, joker_score, yface, params, add_die, roll_offset, roll_prob, keep_of_mask,
                   n_chunks):
    """Policy evaluation of full-state rows lo..hi-1 (one layer), reading the next layer's rows.

    ``moments[row, :]`` = (E[X], E[X^2], P(upper bonus earned from here), P(Yahtzee box gets 50 from
    here)) where X is the remaining score of the real game (``params`` carry the real upper bonus) when
    playing ``reroll`` / ``category`` of row ``policy_row[row]``.
    """
    joker_code, thr, ubonus, ybonus = params[0], params[1], params[2], params[3]
    n = hi - lo
    n_keeps = add_die.shape[0]
    n_faces = add_die.shape[1]
    n_rolls = roll_prob.shape[0]
    inv_faces = 1.0 / n_faces
    step = (n + n_chunks - 1) // n_chunks
    for ch in prange(n_chunks):
        e = np.empty((n_keeps, 4))
        q = np.empty((n_rolls, 4))
        for i in range(lo + ch * step, min(hi, lo + (ch + 1) * step)):
            mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
            prow = policy_row[i]
            for r in range(n_rolls):
                c = category[prow, r]
                f = yface[r]
                allowed, use_joker = scoring_options(joker_code, mask, f)
                pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
                rew, nu, ny = box_outcome(c, pts, upper, ybox, 1 if f >= 0 else 0, thr, ubonus, ybonus)
                nxt = state_index[mask | (1 << c), nu, ny]
                m1 = moments[nxt, 0]
                e[roll_offset + r, 0] = rew + m1
                e[roll_offset + r, 1] = rew * rew + 2.0 * rew * m1 + moments[nxt, 1]
                got_bonus = 1.0 if (c < N_UPPER and upper < thr <= nu) else 0.0
                e[roll_offset + r, 2] = got_bonus + moments[nxt, 2]
                got_50 = 1.0 if (ny == 1 and ybox == 0) else 0.0
                e[roll_offset + r, 3] = got_50 + moments[nxt, 3]
            for j in range(2):
                for k in range(roll_offset - 1, -1, -1):
                    for t in range(4):
                        s = 0.0
                        for f in range(n_faces):
                            s += e[add_die[k, f], t]
                        e[k, t] = s * inv_faces
                for r in range(n_rolls):
                    kk = keep_of_mask[r, reroll[prow, j, r]]
                    for t in range(4):
                        q[r, t] = e[kk, t]
                for r in range(n_rolls):
                    for t in range(4):
                        e[roll_offset + r, t] = q[r, t]
            for t in range(4):
                s = 0.0
                for r in range(n_rolls):
                    s += roll_prob[r] * e[roll_offset + r, t]
                moments[i, t] = s
