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

__all__ = ["StateSpace", "state_space", "upper_reachable"]


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


@cache
def state_space(rules: Rules, merge: bool = True) -> StateSpace:
    """The (cached) state space of ``rules``; ``merge=False`` gives every reachable state its own row."""
    t = rules.upper_threshold
    masks = np.arange(1 << rules.n_boxes)
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
    max_add = rules.n_dice * open_upper_pips
    dead = (ups[None, :] + max_add[:, None] < t) | (rules.optimised_upper_bonus == 0)
    rep_u = np.where(dead & merge, 0, ups[None, :])  # [mask, u]
    rep_y = np.arange(2) if (rules.yahtzee_bonus or not merge) else np.zeros(2, dtype=np.int64)

    m3, u3, y3 = np.meshgrid(masks, ups, np.arange(2), indexing="ij")
    rm, ru, ry = m3, np.broadcast_to(rep_u[:, :, None], m3.shape), rep_y[y3]
    is_rep = reachable & (ru == u3) & (ry == y3)
    popcount = np.zeros(len(masks), dtype=np.int64)
    for c in range(rules.n_boxes):
        popcount += (masks >> c) & 1
    sel = np.flatnonzero(is_rep.ravel())
    order = np.lexsort((y3.ravel()[sel], u3.ravel()[sel], m3.ravel()[sel], popcount[m3.ravel()[sel]]))
    sel = sel[order]
    row_mask, row_upper, row_ybox = (a.ravel()[sel].astype(np.int64) for a in (m3, u3, y3))

    rows_of_rep = np.full(m3.size, -1, dtype=np.int64)
    rows_of_rep[sel] = np.arange(len(sel))
    flat_rep = (rm * (t + 1) + ru) * 2 + ry
    state_index = np.where(reachable.ravel(), rows_of_rep[flat_rep.ravel()], -1).astype(np.int32)
    state_index = state_index.reshape(m3.shape)
    layer_ptr = np.searchsorted(popcount[row_mask], np.arange(rules.n_boxes + 2)).astype(np.int64)
    for a in (state_index, row_mask, row_upper, row_ybox, layer_ptr, reachable):
        a.setflags(write=False)
    return StateSpace(state_index, row_mask, row_upper, row_ybox, layer_ptr, reachable)
