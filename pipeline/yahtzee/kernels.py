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

from lookup.yahtzee import rules as _rules
from lookup.yahtzee.turn import TIE_EPS as _LOOKUP_TIE_EPS
from pipeline.jit import njit

# One definition of the Joker rule and of a box's bookkeeping, compiled from the lookup module. These two are
# inlined by numba: the strategy lab's game loop runs measurably slower when they are calls. The helpers below
# are plain compiled functions: numba types and lowers an ``inline="always"`` body again at every call site of
# every kernel (the solver's, the layered table's, the towin kernels'), which made compiling much longer,
# while LLVM still inlines the plain calls where it pays (same tables, same speed; docs/benchmarks.md).
scoring_options = njit(cache=True, inline="always")(_rules.scoring_options_n)
box_outcome = njit(cache=True, inline="always")(_rules.box_outcome_n)

# The number of boxes, the Yahtzee box and the forced order come in ``params`` (``rules.kernel_params``):
# (joker_code, upper_threshold, upper_bonus, yahtzee_bonus, n_dice, n_boxes, yahtzee_index, forced_order).
N_UPPER = _rules.UPPER
# Two options whose values differ by at most TIE_EPS points are tied (see ``solver`` docstring).
TIE_EPS = _LOOKUP_TIE_EPS  # 1e-9, defined once in lookup.yahtzee.turn


@njit(cache=True)
def _usable_boxes(mask, params):
    """Boxes a roll that is not five alike may be scored in: the open ones (only the first under a
    forced order)."""
    open_mask = ((1 << params[5]) - 1) & ~mask
    return open_mask & -open_mask if params[7] else open_mask


@njit(cache=True)
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
    thr, ubonus, ybonus, n_dice = params[1], params[2], params[3], params[4]
    n_rolls = v0.shape[0]
    for r in range(n_rolls):
        v0[r] = -np.inf
    usable = _usable_boxes(mask, params)
    for c in range(params[5]):
        if (usable >> c) & 1 == 0:
            continue
        nmask = mask | (1 << c)
        if c < N_UPPER:
            for k in range(n_dice + 1):
                rew, nu, ny = box_outcome(c, (c + 1) * k, upper, ybox, 0, thr, ubonus, ybonus, params[6])
                g[c, k] = rew + _next_value(vrow, state_index, nmask, nu, ny)
            gc = g[c]
            cnt = counts_t[c]
            for r in range(n_rolls):
                x = gc[cnt[r]]
                if x > v0[r]:
                    v0[r] = x
        else:
            rew, nu, ny = box_outcome(c, 0, upper, ybox, 0, thr, ubonus, ybonus, params[6])
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
    allowed, use_joker = scoring_options(params[0], mask, face, (1 << params[5]) - 1, params[6], params[7])
    best = -np.inf
    for c in range(params[5]):
        if (allowed >> c) & 1 == 0 or (only_c >= 0 and c != only_c):
            continue
        x = _yahtzee_box_value(mask, upper, ybox, r, c, use_joker, vrow, state_index, joker_score, score_t, params)
        if x > best:
            best = x
    return best


@njit(cache=True)
def _yahtzee_box_value(mask, upper, ybox, r, c, use_joker, vrow, state_index, joker_score, score_t, params):
    """Value of scoring the five-alike roll ``r`` in box ``c`` (allowed; ``use_joker``: Joker points)."""
    pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
    rew, nu, ny = box_outcome(c, pts, upper, ybox, 1, params[1], params[2], params[3], params[6])
    return rew + _next_value(vrow, state_index, mask | (1 << c), nu, ny)


@njit(cache=True)
def _expect_keeps(e, add_die, roll_offset, inv_faces):
    """E(k) for every keep smaller than a roll, from E of the rolls already in ``e[roll_offset:]``."""
    n_faces = add_die.shape[1]
    for k in range(roll_offset - 1, -1, -1):
        s = 0.0
        for f in range(n_faces):
            s += e[add_die[k, f]]
        e[k] = s * inv_faces


@njit(cache=True)
def _max_subkeeps(e, m, sub_pad, size_offset):
    """M(k) = max(E(k), max over one-die-smaller sub-keeps of M) for every keep, smallest first.

    ``sub_pad[k, :size]`` lists the sub-keeps of a keep of that size, padded with the index of the slot
    ``m[-1]`` = -inf; the fixed trip count per size keeps the loop branch-free.
    """
    m[m.shape[0] - 1] = -np.inf
    m[0] = e[0]
    for size in range(1, size_offset.shape[0] - 1):
        for k in range(size_offset[size], size_offset[size + 1]):
            best = e[k]
            for j in range(size):
                best = max(best, m[sub_pad[k, j]])
            m[k] = best


def _n_chunks(n: int) -> int:
    return max(1, min(n, 8 * numba.get_num_threads()))


def reroll_candidates(keep_of_mask: np.ndarray, mask_order: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(keeps, masks)`` [n_rolls, 2**n_dice]: per roll, its distinct keeps in the tie order (``mask_order``),
    each with the first mask that keeps it, padded by repeating the last (a roll of six dice with repeated faces
    has far fewer distinct keeps than 64 masks: :func:`_best_distinct_mask` scans fewer)."""
    keeps = np.empty_like(keep_of_mask)
    masks = np.empty_like(keep_of_mask)
    for r in range(keep_of_mask.shape[0]):
        seen: dict[int, int] = {}
        for mk in mask_order:
            seen.setdefault(int(keep_of_mask[r, mk]), int(mk))
        n = len(seen)
        keeps[r, :n], masks[r, :n] = list(seen), list(seen.values())
        keeps[r, n:], masks[r, n:] = keeps[r, n - 1], masks[r, n - 1]
    return keeps, masks


@njit(cache=True)
def _best_distinct_mask(e, best, r, cand_keep, cand_mask):
    """The first of the roll's distinct keeps (:func:`reroll_candidates`, in the tie order) within TIE_EPS of
    ``best``: its first mask, the mask a scan of all 2**n_dice masks in ``mask_order`` would find."""
    for j in range(cand_keep.shape[1]):
        if e[cand_keep[r, j]] >= best - TIE_EPS:
            return cand_mask[r, j]
    return cand_mask[r, 0]  # unreachable: the best keep is always among the keeps


@njit(cache=True)
def _best_categories(mask, upper, ybox, v0, g, w, vrow, state_index, score_t, joker_score, counts_t, yface, params,
                     category):
    """``category[r]``: the lowest-index allowed box whose value is within TIE_EPS of the best ``v0[r]``, for
    every roll (255 if none; never, since v0 is their maximum). Box by box over all rolls: the inner loops
    run over contiguous rolls."""
    n_rolls = v0.shape[0]
    for r in range(n_rolls):
        category[r] = 255
    usable = _usable_boxes(mask, params)
    for c in range(params[5]):
        if (usable >> c) & 1 == 0:
            continue
        if c < N_UPPER:
            gc = g[c]
            cnt = counts_t[c]
            for r in range(n_rolls):
                if category[r] == 255 and gc[cnt[r]] >= v0[r] - TIE_EPS:
                    category[r] = c
        else:
            sc = score_t[c]
            wc = w[c]
            for r in range(n_rolls):
                if category[r] == 255 and sc[r] + wc >= v0[r] - TIE_EPS:
                    category[r] = c
    for r in range(n_rolls):  # n alike: the Joker rule decides which boxes are allowed, and their values
        f = yface[r]
        if f < 0:
            continue
        category[r] = 255
        for c in range(params[5]):
            if (usable >> c) & 1 and _yahtzee_roll_value(mask, upper, ybox, f, r, c, vrow, state_index, joker_score,
                                                         score_t, params) >= v0[r] - TIE_EPS:
                category[r] = c
                break


@njit(cache=True)
def _outcome_moments(c, pts, alike, mask, upper, ybox, moments, base, state_index, params, out):
    """``out[:]`` = (reward + E[X'], E[(reward + X')^2], bonus earned now or later, Yahtzee box filled now or
    later) of scoring ``pts`` in box ``c``, X' the next state's remaining points (``moments[next - base]``)."""
    thr = params[1]
    rew, nu, ny = box_outcome(c, pts, upper, ybox, alike, thr, params[2], params[3], params[6])
    nxt = state_index[mask | (1 << c), nu, ny] - base
    m1 = moments[nxt, 0]
    out[0] = rew + m1
    out[1] = rew * rew + 2.0 * rew * m1 + moments[nxt, 1]
    out[2] = (1.0 if (c < N_UPPER and upper < thr <= nu) else 0.0) + moments[nxt, 2]
    out[3] = (1.0 if (ny == 1 and ybox == 0) else 0.0) + moments[nxt, 3]


@njit(cache=True)
def policy_moments(mask, upper, ybox, category, reroll, moments, base, first, out, e, q, tab, state_index, score_t,
                   joker_score, counts_t, yface, params, add_die, roll_offset, roll_prob, keep_of_mask):
    """``out[:]`` = (E[X], E[X^2], P(upper bonus earned from here), P(Yahtzee box gets its points from here))
    for the turn-start state (mask, upper, ybox) played by ``category[roll]`` and ``reroll[j, roll]`` (this
    state's policy rows), X the remaining points; ``moments[next_row - base]`` holds the same of the next
    states. Scratch: ``e`` [4, n_keeps] and ``q`` [4, n_rolls] (one row per number: contiguous loops), ``tab``
    [n_boxes, n_dice + 1, 4] (the outcomes of a box, computed once per box rather than per roll). Numbers
    before ``first`` are not computed (1: E[X] is the value, already known when the policy is the optimal one;
    ``out[0]`` is left alone)."""
    n_faces = add_die.shape[1]
    n_rolls = roll_prob.shape[0]
    inv_faces = 1.0 / n_faces
    usable = _usable_boxes(mask, params)
    for c in range(params[5]):  # rolls that are not n alike: the outcome is the box's and, upper, the count's
        if (usable >> c) & 1:
            for k in range(params[4] + 1 if c < N_UPPER else 1):
                _outcome_moments(c, (c + 1) * k, 0, mask, upper, ybox, moments, base, state_index, params, tab[c, k])
    for r in range(n_rolls):
        c = category[r]
        k = roll_offset + r
        f = yface[r]
        if f >= 0:  # n alike: the Joker rule and the Yahtzee bonus
            allowed, use_joker = scoring_options(params[0], mask, f, (1 << params[5]) - 1, params[6], params[7])
            pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
            _outcome_moments(c, pts, 1, mask, upper, ybox, moments, base, state_index, params, q[:, r])
            for t in range(4):
                e[t, k] = q[t, r]
        elif c < N_UPPER:
            o = tab[c, counts_t[c, r]]
            for t in range(4):
                e[t, k] = o[t]
        else:  # a lower box: the points add to the reward, the next state is the box's
            o = tab[c, 0]
            pts = score_t[c, r]
            e[0, k] = pts + o[0]
            e[1, k] = pts * pts + 2.0 * pts * o[0] + o[1]
            e[2, k] = o[2]
            e[3, k] = o[3]
    for j in range(2):
        for t in range(first, 4):
            et = e[t]
            for k in range(roll_offset - 1, -1, -1):
                s = 0.0
                for f in range(n_faces):
                    s += et[add_die[k, f]]
                et[k] = s * inv_faces
            qt = q[t]
            for r in range(n_rolls):
                qt[r] = et[keep_of_mask[r, reroll[j, r]]]
            for r in range(n_rolls):
                et[roll_offset + r] = qt[r]
    for t in range(first, 4):
        s = 0.0
        et = e[t]
        for r in range(n_rolls):
            s += roll_prob[r] * et[roll_offset + r]
        out[t] = s


@njit(cache=True, nogil=True)
def evaluate_layer(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, policy_row, reroll, category, moments,
                   state_index,
                   score_t, joker_score, counts_t, yface, params, add_die, roll_offset, roll_prob, keep_of_mask):
    """Policy evaluation of full-state rows lo..hi-1 (one layer), reading the next layer's rows.

    ``moments[row, :]`` = (E[X], E[X^2], P(upper bonus earned from here), P(Yahtzee box gets 50 from
    here)) where X is the remaining score of the real game (``params`` carry the real upper bonus) when
    playing ``reroll`` / ``category`` of row ``policy_row[row]``.
    """
    e = np.empty((4, add_die.shape[0]))
    q = np.empty((4, roll_prob.shape[0]))
    tab = np.empty((params[5], params[4] + 1, 4))
    for i in range(lo + start, lo + stop):
        prow = policy_row[i]
        policy_moments(row_mask[i], row_upper[i], row_ybox[i], category[prow], reroll[prow], moments, 0, 0,
                       moments[i], e, q, tab, state_index, score_t, joker_score, counts_t, yface, params, add_die,
                       roll_offset, roll_prob, keep_of_mask)


# ---------------------------------------------------------------------------------------------------
# Batched value kernel: BATCH states that share a filled mask are solved together, the batch being the
# innermost (contiguous) axis of every work array. One index load then serves BATCH values and the loads
# become SIMD vector loads; the arithmetic of each lane is exactly that of the scalar functions above
# (same operations in the same order), so values are bitwise identical to a scalar turn built from
# ``_final_values``, ``_expect_keeps`` and ``_max_subkeeps`` (which the policy kernel uses).

BATCH = 4


@njit(cache=True)
def _final_values_batch(mask, ups, ybs, v0, g, w, yv, vrow, state_index, score_t, joker_score, counts_t, yroll,
                        params):
    """Batched ``_final_values``: v0[r, s] for the states (mask, ups[s], ybs[s]); leaves ``g[c, k, s]`` and
    ``w[c, s]`` as ``_final_values`` leaves ``g[c, k]`` and ``w[c]`` for each lane, and ``yv[f, c, s]``: the
    value of scoring the n-alike roll of face f in box c (``_yahtzee_box_value``; boxes its rules allow only).

    The n-alike rolls box by box over the lanes, the Joker rule's options once per face: the values and their
    maximum are ``_yahtzee_roll_value``'s (the same sums, the same strict comparisons in the same box order),
    at a fraction of the cost of a call per lane and box (numba keeps the calls)."""
    thr, ubonus, ybonus, n_dice = params[1], params[2], params[3], params[4]
    n_rolls = v0.shape[0]
    for r in range(n_rolls):
        for s in range(BATCH):
            v0[r, s] = -np.inf
    usable = _usable_boxes(mask, params)
    for c in range(params[5]):
        if (usable >> c) & 1 == 0:
            continue
        nmask = mask | (1 << c)
        if c < N_UPPER:
            gc = g[c]
            for k in range(n_dice + 1):
                for s in range(BATCH):
                    rew, nu, ny = box_outcome(c, (c + 1) * k, ups[s], ybs[s], 0, thr, ubonus, ybonus,
                                              params[6])
                    gc[k, s] = rew + vrow[state_index[nmask, nu, ny]]
            cnt = counts_t[c]
            for r in range(n_rolls):
                kk = cnt[r]
                for s in range(BATCH):
                    x = gc[kk, s]
                    v0[r, s] = x if x > v0[r, s] else v0[r, s]
        else:
            wc = w[c]
            for s in range(BATCH):
                rew, nu, ny = box_outcome(c, 0, ups[s], ybs[s], 0, thr, ubonus, ybonus, params[6])
                wc[s] = vrow[state_index[nmask, nu, ny]]
            sc = score_t[c]
            for r in range(n_rolls):
                for s in range(BATCH):
                    x = sc[r] + wc[s]
                    v0[r, s] = x if x > v0[r, s] else v0[r, s]
    for f in range(yroll.shape[0]):
        r = yroll[f]
        allowed, use_joker = scoring_options(params[0], mask, f, (1 << params[5]) - 1, params[6], params[7])
        for s in range(BATCH):
            v0[r, s] = -np.inf
        for c in range(params[5]):
            if (allowed >> c) & 1 == 0:
                continue
            pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
            nmask = mask | (1 << c)
            for s in range(BATCH):
                rew, nu, ny = box_outcome(c, pts, ups[s], ybs[s], 1, thr, ubonus, ybonus, params[6])
                x = rew + vrow[state_index[nmask, nu, ny]]
                yv[f, c, s] = x
                v0[r, s] = x if x > v0[r, s] else v0[r, s]


@njit(cache=True)
def _expect_keeps_batch(e, add_die, roll_offset, inv_faces):
    n_faces = add_die.shape[1]
    for k in range(roll_offset - 1, -1, -1):
        for s in range(BATCH):
            e[k, s] = 0.0
        for f in range(n_faces):
            a = add_die[k, f]
            for s in range(BATCH):
                e[k, s] += e[a, s]
        for s in range(BATCH):
            e[k, s] *= inv_faces


@njit(cache=True)
def _max_subkeeps_batch(e, m, sub_pad, size_offset):
    last = m.shape[0] - 1
    for s in range(BATCH):
        m[last, s] = -np.inf
        m[0, s] = e[0, s]
    for size in range(1, size_offset.shape[0] - 1):
        for k in range(size_offset[size], size_offset[size + 1]):
            for s in range(BATCH):
                m[k, s] = e[k, s]
            for j in range(size):
                a = sub_pad[k, j]
                for s in range(BATCH):
                    x = m[a, s]
                    m[k, s] = x if x > m[k, s] else m[k, s]


@njit(cache=True)
def _best_categories_batch(mask, nb, v0, g, w, yv, score_t, counts_t, yface, params, category):
    """Batched ``_best_categories``: ``category[s, r]`` for the lanes s < nb, from ``_final_values_batch``'s v0, g,
    w and yv (the same comparisons of the same numbers, lane by lane).

    The boxes are visited from the last to the first and each one that is within TIE_EPS takes the roll: the last
    to take it is the lowest such box, the scalar kernel's first. Branch-free over the lanes (a roll's lanes are
    contiguous in ``cat``), where a scan from the first box that stops at the first fit is not."""
    n_rolls = v0.shape[0]
    cat = np.empty((n_rolls, BATCH))  # float64: the selects over the lanes vectorize as the comparisons' type
    for r in range(n_rolls):
        for s in range(BATCH):
            cat[r, s] = 255.0
    usable = _usable_boxes(mask, params)
    for c in range(params[5] - 1, -1, -1):
        if (usable >> c) & 1 == 0:
            continue
        cf = float(c)
        if c < N_UPPER:
            gc = g[c]
            cnt = counts_t[c]
            for r in range(n_rolls):
                x = gc[cnt[r]]
                for s in range(BATCH):
                    cat[r, s] = cf if x[s] >= v0[r, s] - TIE_EPS else cat[r, s]
        else:
            sc = score_t[c]
            wc = w[c]
            for r in range(n_rolls):
                for s in range(BATCH):
                    cat[r, s] = cf if sc[r] + wc[s] >= v0[r, s] - TIE_EPS else cat[r, s]
    for s in range(nb):
        for r in range(n_rolls):
            category[s, r] = np.uint8(cat[r, s])
    for r in range(n_rolls):  # n alike: the boxes the Joker rule allows, their values left in yv
        f = yface[r]
        if f < 0:
            continue
        allowed, use_joker = scoring_options(params[0], mask, f, (1 << params[5]) - 1, params[6], params[7])
        for s in range(nb):
            category[s, r] = 255
            for c in range(params[5]):
                if (usable & allowed) >> c & 1 and yv[f, c, s] >= v0[r, s] - TIE_EPS:
                    category[s, r] = c
                    break


@njit(cache=True)
def turn_policy_batch(mask, ups, ybs, nb, e, m, g, w, vrow, state_index, score_t, joker_score, counts_t, yroll, yface,
                      params, add_die, sub_pad, size_offset, roll_offset, roll_prob, cand_keep, cand_mask, reroll,
                      category, value):
    """The policy of the turns of the states (mask, ups[s], ybs[s]), s < nb (spare lanes up to BATCH hold any
    state of the same mask): ``reroll[s, j, r]`` (j = rerolls left - 1: the reroll mask, see
    ``pipeline.yahtzee.solver``) and ``category[s, r]`` (the box of final roll r). The turn is batched as
    ``solve_layer_batched``'s (the operations of the scalar turn ``_final_values``, ``_expect_keeps``,
    ``_max_subkeeps``, lane by lane), the boxes are ``_best_categories``' comparisons lane by lane, and each
    roll's reroll is the first of its distinct keeps within TIE_EPS of the best (:func:`_best_distinct_mask`).
    ``value[s]``: the turn-start value of lane s, bitwise ``solve_layer_batched``'s (the same sum). Scratch:
    e [n_keeps, BATCH], m [n_keeps + 1, BATCH], g [n_boxes, n_dice + 1, BATCH], w [n_boxes, BATCH]."""
    n_keeps = add_die.shape[0]
    n_rolls = n_keeps - roll_offset
    inv_faces = 1.0 / add_die.shape[1]
    n_cand = cand_keep.shape[1]
    v0 = e[roll_offset:]
    yv = np.empty((yroll.shape[0], params[5], BATCH))
    _final_values_batch(mask, ups, ybs, v0, g, w, yv, vrow, state_index, score_t, joker_score, counts_t, yroll, params)
    _best_categories_batch(mask, nb, v0, g, w, yv, score_t, counts_t, yface, params, category)
    for j in range(2):
        _expect_keeps_batch(e, add_die, roll_offset, inv_faces)
        _max_subkeeps_batch(e, m, sub_pad, size_offset)
        for r in range(n_rolls):  # the four lanes side by side: one scan of the candidates until each has its keep
            ck = cand_keep[r]
            b0 = m[roll_offset + r, 0] - TIE_EPS
            b1 = m[roll_offset + r, 1] - TIE_EPS
            b2 = m[roll_offset + r, 2] - TIE_EPS
            b3 = m[roll_offset + r, 3] - TIE_EPS
            p0 = p1 = p2 = p3 = -1
            for t in range(n_cand):  # selects, not branches: which lane finds its keep when is unpredictable
                k = ck[t]
                p0 = t if (p0 < 0) & (e[k, 0] >= b0) else p0
                p1 = t if (p1 < 0) & (e[k, 1] >= b1) else p1
                p2 = t if (p2 < 0) & (e[k, 2] >= b2) else p2
                p3 = t if (p3 < 0) & (e[k, 3] >= b3) else p3
                if (p0 | p1 | p2 | p3) >= 0:
                    break
            reroll[0, j, r] = cand_mask[r, p0]
            if nb > 1:
                reroll[1, j, r] = cand_mask[r, p1]
            if nb > 2:
                reroll[2, j, r] = cand_mask[r, p2]
            if nb > 3:
                reroll[3, j, r] = cand_mask[r, p3]
        for k in range(roll_offset, n_keeps):
            for s in range(BATCH):
                e[k, s] = m[k, s]
    for s in range(BATCH):
        value[s] = 0.0
    for r in range(n_rolls):
        p = roll_prob[r]
        for s in range(BATCH):
            value[s] += p * e[roll_offset + r, s]


@njit(cache=True, nogil=True)
def build_policy_batched(chunk, start, stop, batch_lo, batch_n, base, row_mask, row_upper, row_ybox, vrow, state_index,
                         score_t, joker_score, counts_t, yroll, yface, params, add_die, sub_pad, size_offset,
                         roll_offset, roll_prob, cand_keep, cand_mask, reroll, category):
    """The policy tables of ``pipeline.yahtzee.solver`` (``reroll[row, j, r]``, ``category[row, r]``) from the
    complete ``vrow``, by batches of rows sharing a mask (``turn_policy_batch``): batch b is rows batch_lo[b] ..
    + batch_n[b]; row i's decisions go to ``reroll[i - base]`` and ``category[i - base]``."""
    n_keeps = add_die.shape[0]
    e = np.empty((n_keeps, BATCH))
    m = np.empty((n_keeps + 1, BATCH))
    g = np.empty((params[5], params[4] + 1, BATCH))
    w = np.empty((params[5], BATCH))
    ups = np.empty(BATCH, dtype=np.int64)
    ybs = np.empty(BATCH, dtype=np.int64)
    rer = np.empty((BATCH, 2, n_keeps - roll_offset), dtype=np.uint8)
    cat = np.empty((BATCH, n_keeps - roll_offset), dtype=np.uint8)
    value = np.empty(BATCH)
    for b in range(start, stop):
        lo, nb = batch_lo[b], batch_n[b]
        for s in range(BATCH):
            i = lo + (s if s < nb else 0)
            ups[s] = row_upper[i]
            ybs[s] = row_ybox[i]
        turn_policy_batch(row_mask[lo], ups, ybs, nb, e, m, g, w, vrow, state_index, score_t, joker_score, counts_t,
                          yroll, yface, params, add_die, sub_pad, size_offset, roll_offset, roll_prob, cand_keep,
                          cand_mask, rer, cat, value)
        for s in range(nb):
            reroll[lo + s - base] = rer[s]
            category[lo + s - base] = cat[s]


@njit(cache=True, nogil=True)
def solve_layer_batched(chunk, start, stop, batch_lo, batch_n, row_mask, row_upper, row_ybox, vals, state_index,
                        score_t, joker_score, counts_t, yroll, params, add_die, sub_pad, size_offset, roll_offset,
                        roll_prob):
    """Values of the rows of one layer into ``vals``: batch b is rows batch_lo[b] .. + batch_n[b] (same mask,
    at most BATCH); reads the next layer's rows of ``vals``.

    ``vals[s, row]`` (float64, C order) is the expected remaining points from the start of a turn in state
    ``row`` holding ``s`` saved rolls, s in 0..cap with ``cap = vals.shape[0] - 1`` (``Rules.saved_rolls_cap``;
    a single row, cap 0, for every rule set that saves no rolls: the turn of three rolls). A turn starting
    with s saved rolls has 2 + s rerolls, and scoring a roll with j rerolls unused leads to the next state
    with min(j, cap) saved. With j rerolls left, roll r is worth W_j(r): the best of scoring it now
    (``F_min(j, cap)``, the final-roll values read from ``vals[min(j, cap)]``) and keeping a sub-multiset of
    it and rerolling the rest (the mean of W_(j-1) over the rerolled dice); the turn-start value with s saved
    rolls is the mean of W_(2+s) over the first roll. W_j does not depend on s, so one turn computes every
    s: cap + 1 final-value passes and 2 + cap keep-tree stages. Keeping all dice (the keep tree's full keep)
    is worth W_(j-1)(r) >= F_min(j-1, cap)(r), which already holds the value of scoring now once j > cap;
    for j <= cap scoring now carries one more saved roll, so F_j enters the max. With cap 0 no F enters
    and the operations are those of the three-roll turn (``turn_policy_batch``'s, bitwise).
    """
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    n_carry = vals.shape[0]  # cap + 1
    inv_faces = 1.0 / add_die.shape[1]
    n_dice = params[4]
    e = np.empty((n_keeps, BATCH))
    m = np.empty((n_keeps + 1, BATCH))
    fin = np.empty((n_carry, n_rolls, BATCH))  # fin[c]: final-roll values when c saved rolls carry on
    g = np.empty((params[5], n_dice + 1, BATCH))
    w = np.empty((params[5], BATCH))
    ups = np.empty(BATCH, dtype=np.int64)
    ybs = np.empty(BATCH, dtype=np.int64)
    tot = np.empty(BATCH)
    yv = np.empty((yroll.shape[0], params[5], BATCH))
    for b in range(start, stop):
        lo, nb = batch_lo[b], batch_n[b]
        for s in range(BATCH):
            i = lo + (s if s < nb else 0)  # spare lanes repeat the first state
            ups[s] = row_upper[i]
            ybs[s] = row_ybox[i]
        for c in range(n_carry):
            _final_values_batch(row_mask[lo], ups, ybs, fin[c], g, w, yv, vals[c], state_index, score_t,
                                joker_score, counts_t, yroll, params)
        e[roll_offset:] = fin[0]
        for stage in range(1, n_carry + 2):  # stage = rerolls left before the stage's choice
            _expect_keeps_batch(e, add_die, roll_offset, inv_faces)
            if stage < n_carry:
                fs = fin[stage]
                for r in range(n_rolls):
                    for s in range(BATCH):
                        x = fs[r, s]
                        e[roll_offset + r, s] = x if x > e[roll_offset + r, s] else e[roll_offset + r, s]
            _max_subkeeps_batch(e, m, sub_pad, size_offset)
            if stage >= 2:  # the first roll of a turn with stage - 2 saved rolls
                for s in range(BATCH):
                    tot[s] = 0.0
                for r in range(n_rolls):
                    p = roll_prob[r]
                    for s in range(BATCH):
                        tot[s] += p * m[roll_offset + r, s]
                saved = vals[stage - 2]
                for s in range(nb):
                    saved[lo + s] = tot[s]
            for r in range(roll_offset, n_keeps):  # W_stage: what the next stage's keeps reroll into
                for s in range(BATCH):
                    e[r, s] = m[r, s]


@njit(cache=True, nogil=True)
def solve_rows_with_moments(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, vrow, moments, base,
                            state_index, score_t,
                            joker_score, counts_t, yroll, yface, params, add_die, sub_pad, size_offset,
                            roll_offset, roll_prob, keep_of_mask, cand_keep, cand_mask, out):
    """Rows lo..hi-1 of one layer, each its turn solved and its optimal policy evaluated, without storing a
    policy: ``out[i - lo]`` = (value, E[X^2], P(upper bonus earned from here), P(Yahtzee box gets its points
    from here)), X the remaining points under the policy the value table implies (``policy_moments``).

    Reads the next layer's rows of ``vrow`` (values, by row) and ``moments`` (the same four numbers, by row -
    ``base``: the next layer alone). The value is
    the scalar turn (bitwise the batched ``solve_layer_batched``'s value: same operations
    in the same order); the policy follows the solver's tie rule.
    """
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    inv_faces = 1.0 / add_die.shape[1]
    n_dice = params[4]
    e = np.empty(n_keeps)
    m = np.empty(n_keeps + 1)
    g = np.empty((params[5], n_dice + 1))
    w = np.empty(params[5])
    category = np.empty(n_rolls, dtype=np.uint8)
    reroll = np.empty((2, n_rolls), dtype=np.uint8)
    e4 = np.empty((4, n_keeps))
    q4 = np.empty((4, n_rolls))
    tab = np.empty((params[5], n_dice + 1, 4))
    for i in range(lo + start, lo + stop):
        mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
        _final_values(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                      counts_t, yroll, params)
        _best_categories(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                         counts_t, yface, params, category)
        for j in range(2):
            _expect_keeps(e, add_die, roll_offset, inv_faces)
            _max_subkeeps(e, m, sub_pad, size_offset)
            for r in range(n_rolls):
                reroll[j, r] = _best_distinct_mask(e, m[roll_offset + r], r, cand_keep, cand_mask)
            e[roll_offset:] = m[roll_offset:n_keeps]
        total = 0.0
        for r in range(n_rolls):
            total += roll_prob[r] * e[roll_offset + r]
        policy_moments(mask, upper, ybox, category, reroll, moments, base, 1, out[i - lo], e4, q4, tab, state_index,
                       score_t, joker_score, counts_t, yface, params, add_die, roll_offset, roll_prob,
                       keep_of_mask)
        out[i - lo, 0] = total
