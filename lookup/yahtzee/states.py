"""The turn-start state space of Yahtzee and its row numbering.

A state is ``(filled_mask, upper, ybox)``: the ``n_boxes``-bit mask of filled boxes, the upper-section total
capped at ``rules.upper_threshold`` (0..63) and ``ybox`` = 1 when the Yahtzee box holds 50.

Reachable states: ``upper`` must be a (capped) sum of ``(f + 1) * k`` with ``k`` in 0..n_dice over the
FILLED upper boxes ``f``, ``ybox`` = 1 needs the Yahtzee box filled, and under ``forced_order`` the filled
boxes are a prefix of the sheet.

Rows: states whose futures are identical share one row (one computation, one policy row):

* when the upper bonus can no longer matter (the optimisation ignores it, or even ``n_dice`` of each
  open upper face cannot reach the threshold) every such ``upper`` is played like ``upper = 0``;
* when the rules pay no Yahtzee bonus, ``ybox`` changes nothing and is played like ``ybox = 0``.

Rows are sorted by the number of filled boxes, then mask, upper, ybox; row 0 is the start of a game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from lookup.yahtzee.rules import UPPER, Rules

__all__ = ["StateSpace", "layer_name", "state_space", "upper_reachable"]


def upper_reachable(rules: Rules) -> np.ndarray:
    """``ok[upper_mask, u]`` (bool, 2**6 x threshold+1): can filled upper boxes ``upper_mask`` total ``u``?"""
    t = rules.upper_threshold
    ok = np.zeros((1 << UPPER, t + 1), dtype=bool)
    ok[0, 0] = True
    for m in range(1, 1 << UPPER):
        f = (m & -m).bit_length() - 1  # lowest filled face; the rest is a smaller mask
        prev = ok[m & (m - 1)]
        for k in range(rules.n_dice + 1):
            add = (f + 1) * k
            src = np.flatnonzero(prev)
            ok[m, np.minimum(t, src + add)] = True
    return ok


def layer_name(n_filled: int) -> str:
    """The name of a layered artifact's array of the rows with ``n_filled`` filled boxes."""
    return f"layer_{n_filled:02d}"


@dataclass(frozen=True, eq=False)
class StateSpace:
    """Reachable states and their rows (read-only arrays).

    state_index[2**n_boxes, threshold+1, 2] int32: row of each state, -1 if unreachable.
    row_mask, row_upper, row_ybox [n_rows] int64: the representative state of each row.
    layer_ptr[n_boxes + 2]: rows with n filled boxes are ``layer_ptr[n]:layer_ptr[n + 1]``.
    reachable[2**n_boxes, threshold+1, 2] bool.
    """

    state_index: np.ndarray
    row_mask: np.ndarray
    row_upper: np.ndarray
    row_ybox: np.ndarray
    layer_ptr: np.ndarray
    reachable: np.ndarray

    @property
    def n_rows(self) -> int:
        return len(self.row_mask)


# Masks per block while the arrays are built: the [mask, upper, ybox] grid of Maxi Yatzy (2**20 x 85 x 2) is
# walked in blocks so that no temporary the size of the grid (int64) is ever made; only the results are.
_BLOCK_MASKS = 1 << 14


def _popcount(masks: np.ndarray, n_boxes: int) -> np.ndarray:
    count = np.zeros(len(masks), dtype=np.int64)
    for c in range(n_boxes):
        count += (masks >> c) & 1
    return count


def _representatives(rules: Rules, masks: np.ndarray, merge: bool) -> tuple[np.ndarray, np.ndarray]:
    """(reachable[mask, u, y], flat index of each state's representative) for a block of consecutive masks.

    Flat indices number the whole grid in (mask, upper, ybox) order; the representative is the state whose
    row the state shares (itself unless ``merge`` folds it, see the module docstring).
    """
    t = rules.upper_threshold
    ups = np.arange(t + 1)
    reach_u = upper_reachable(rules)[masks & ((1 << UPPER) - 1)]  # [mask, u]
    if rules.forced_order:
        reach_u &= ((masks & (masks + 1)) == 0)[:, None]  # filled boxes form a prefix of the sheet
    yi = rules.yahtzee_index
    yfilled = (masks >> yi) & 1 == 1 if yi >= 0 else np.zeros(len(masks), dtype=bool)
    reachable = np.stack([reach_u, reach_u & yfilled[:, None]], axis=2)
    open_upper_pips = np.zeros(len(masks), dtype=np.int64)
    for f in range(UPPER):
        open_upper_pips += np.where((masks >> f) & 1 == 0, f + 1, 0)
    dead = (ups[None, :] + rules.n_dice * open_upper_pips[:, None] < t) | (rules.optimised_upper_bonus == 0)
    rep_u = np.where(dead & merge, 0, ups[None, :])  # [mask, u]
    rep_y = np.arange(2) if (rules.yahtzee_bonus or not merge) else np.zeros(2, dtype=np.int64)
    return reachable, (masks[:, None, None] * (t + 1) + rep_u[:, :, None]) * 2 + rep_y[None, None, :]


def _popcount(masks: np.ndarray, n_boxes: int) -> np.ndarray:
    count = np.zeros(len(masks), dtype=np.int64)
    for c in range(n_boxes):
        count += (masks >> c) & 1
    return count


# Masks per block while the arrays are built: the grid of Maxi Yatzy (2**20 x 85 x 2 states) is walked in
# blocks so that no int64 temporary the size of the grid is made (4.4 GB peak instead of 13.7 GB for it).
_BLOCK_MASKS = 1 << 14


@cache
def state_space(rules: Rules, merge: bool = True) -> StateSpace:
    """The (cached) state space of ``rules``; ``merge=False`` gives every reachable state its own row."""
    n_masks, width = 1 << rules.n_boxes, 2 * (rules.upper_threshold + 1)  # width: states of one mask
    blocks = [np.arange(a, min(n_masks, a + _BLOCK_MASKS)) for a in range(0, n_masks, _BLOCK_MASKS)]
    reachable = np.empty((n_masks, rules.upper_threshold + 1, 2), dtype=bool)
    selected = []  # flat indices of the representatives, in (mask, upper, ybox) order
    for masks in blocks:
        block, rep = _representatives(rules, masks, merge)
        reachable[masks[0]:masks[-1] + 1] = block
        flat = np.arange(masks[0] * width, (masks[-1] + 1) * width).reshape(block.shape)
        selected.append(flat[block & (rep == flat)])
    sel = np.concatenate(selected)
    sel = sel[np.argsort(_popcount(sel // width, rules.n_boxes), kind="stable")]  # by filled boxes, then as is
    row_mask, row_upper, row_ybox = sel // width, (sel // 2) % (rules.upper_threshold + 1), sel % 2
    state_index = np.full(n_masks * width, -1, dtype=np.int32)
    state_index[sel] = np.arange(len(sel), dtype=np.int32)
    del sel
    for masks in blocks:  # every other reachable state takes its representative's row (in the same block)
        block, rep = _representatives(rules, masks, merge)
        lo, hi = masks[0] * width, (masks[-1] + 1) * width
        state_index[lo:hi] = np.where(block.ravel(), state_index[rep.ravel()], -1)
    state_index = state_index.reshape(reachable.shape)
    layer_ptr = np.searchsorted(_popcount(row_mask, rules.n_boxes), np.arange(rules.n_boxes + 2)).astype(np.int64)
    for arr in (state_index, row_mask, row_upper, row_ybox, layer_ptr, reachable):
        arr.setflags(write=False)
    return StateSpace(state_index, row_mask, row_upper, row_ybox, layer_ptr, reachable)
