"""The policy kernel as the solver ran it before its turns were batched (kept here as the reference the batched,
distinct-keep policy is tested against): one state at a time, each roll's reroll the first of ALL 2**n_dice masks
in the tie order (``mask_order``) whose keep is within TIE_EPS of the best, not only its distinct keeps."""

from __future__ import annotations

import numpy as np

from lookup.yahtzee.rules import get_rules, kernel_params
from lookup.yahtzee.states import state_space
from pipeline.jit import njit, run_chunks
from pipeline.yahtzee import kernels
from pipeline.yahtzee.solver import kernel_tables


@njit(cache=True)
def _best_mask(e, best, r, keep_of_mask, mask_order):
    """First reroll mask in ``mask_order`` whose keep is within TIE_EPS of ``best``."""
    for j in range(mask_order.shape[0]):
        mk = mask_order[j]
        if e[keep_of_mask[r, mk]] >= best - kernels.TIE_EPS:
            return mk
    return mask_order[0]  # unreachable: the best keep is always among the masks


@njit(cache=True, nogil=True)
def _build_policy(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, vrow, state_index, score_t, joker_score,
                  counts_t, yroll, yface, params, add_die, sub_pad, size_offset, roll_offset, roll_prob, keep_of_mask,
                  mask_order, reroll, category):
    """Policy of rows lo..hi-1 from the complete ``vrow``: ``reroll[row, j, r]`` (j = rerolls left - 1)
    and ``category[row, r]``."""
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    inv_faces = 1.0 / add_die.shape[1]
    e = np.empty(n_keeps)
    m = np.empty(n_keeps + 1)
    g = np.empty((params[5], params[4] + 1))
    w = np.empty(params[5])
    for i in range(lo + start, lo + stop):
        mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
        kernels._final_values(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                              counts_t, yroll, params)
        kernels._best_categories(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                                 counts_t, yface, params, category[i])
        for j in range(2):
            kernels._expect_keeps(e, add_die, roll_offset, inv_faces)
            kernels._max_subkeeps(e, m, sub_pad, size_offset)
            for r in range(n_rolls):
                reroll[i, j, r] = _best_mask(e, m[roll_offset + r], r, keep_of_mask, mask_order)
            e[roll_offset:] = m[roll_offset:e.shape[0]]


def reference_policy_block(rules, vrow: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """``solver.policy_block``'s tables for rows lo..hi-1 (row lo at index 0), by the reference kernel."""
    rules = get_rules(rules)
    space, kt = state_space(rules), kernel_tables(rules)
    reroll = np.zeros((hi - lo, 2, len(kt.roll_prob)), dtype=np.uint8)
    category = np.full((hi - lo, len(kt.roll_prob)), 255, dtype=np.uint8)
    run_chunks(_build_policy, hi - lo, kernels._n_chunks(hi - lo), 0, hi - lo, space.row_mask[lo:hi],
               space.row_upper[lo:hi], space.row_ybox[lo:hi], np.ascontiguousarray(vrow, dtype=np.float64),
               np.ascontiguousarray(space.state_index), kt.score_t, kt.joker_score, kt.counts_t, kt.yroll, kt.yface,
               np.array(kernel_params(rules), dtype=np.int64), kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset,
               kt.roll_prob, kt.keep_of_mask, kt.mask_order, reroll, category)
    return reroll, category
