"""The joint turn-start states of forced-order Yatzy between two players (``lookup.yahtzee.duel`` plays
from them; ``pipeline.yahtzee.duel`` solves them): one definition of the layout, the part of the play code
that the duel table's fingerprint covers.

Layers ``L = 2 i + s`` (box position i, seat s to move; layer ``2 n`` is the finished game). A state of a
layer: each seat's canonical upper total (the total capped at the threshold while the bonus is undecided,
the threshold once it is decided: reached, or out of reach), and d = seat 0's total - seat 1's on the
layer's axis ``-low[L]..high[L]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from lookup.validate import shown
from lookup.yahtzee.party_states import SeatLayers, forced_boxes
from lookup.yahtzee.rules import UPPER, Rules, box_outcome_n

__all__ = ["DUEL_SCHEMA", "SCHEMA_VERSIONS", "DuelLayout", "duel_layout", "duel_name", "layer_offsets"]

DUEL_SCHEMA = "yahtzee.duel"
SCHEMA_VERSIONS = (1,)


def duel_name(rules: Rules, players: int = 2) -> str:
    return f"yahtzee-{rules.name}-duel{players}"


@dataclass(frozen=True, eq=False)
class DuelLayout(SeatLayers):
    """The joint states of a forced-order game between ``players`` seats (read-only arrays).

    boxes: the sheet indices played, in order (the whole sheet, or a reduced game for tests). points[i]: sorted
    distinct points box ``boxes[i]`` can score; ``point_of_roll[i][r]`` the index in ``points[i]`` of roll r's
    points. reach[j]: sorted canonical upper totals of a seat that has filled box positions 0..j-1.
    ``u_index[j][u]``: position of canonical total u in reach[j] (-1: unreachable). max_total[j]: a bound on a
    seat's total after j boxes (the sum of each turn's best reward); layer L's difference axis runs from ``-low[L]``
    (seat 1 at most max_total[i] ahead) to ``high[L]`` (seat 0 at most max_total[i + s] ahead), stored at index d +
    low[L]. ``merge_decided``: True collapses every decided bonus (reached or out of reach) into the threshold;
    False (fixed-policy evaluation) keeps a reached bonus apart from an unreachable one (played as upper 0), as the
    single-player policy rows do (``lookup.yahtzee.states``).
    """

    rules: Rules
    boxes: tuple[int, ...]
    players: int
    merge_decided: bool
    points: tuple[np.ndarray, ...]
    point_of_roll: tuple[np.ndarray, ...]
    reach: tuple[tuple[int, ...], ...]
    u_index: tuple[np.ndarray, ...]
    max_total: tuple[int, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]

    def canonical(self, upper: int, filled: int) -> int:
        """The canonical upper total of a seat with ``upper`` points in its upper boxes after ``filled``
        boxes: the threshold once the bonus is decided (reached, or unreachable), else the total."""
        thr = self.rules.upper_threshold
        if upper >= thr:
            return thr
        if upper + self._upper_room(filled) < thr or self.rules.upper_bonus == 0:
            # Out of reach: the same future as a reached bonus (merged), or, for a fixed single-player
            # policy, as upper 0 (the row ``lookup.yahtzee.states`` gives such states, so the same policy row).
            return thr if self.merge_decided else 0
        return upper

    def _upper_room(self, filled: int) -> int:
        return sum(self.rules.n_dice * (c + 1) for c in self.boxes[filled:] if c < UPPER)

    def shape(self, layer: int) -> tuple[int, ...]:
        """Array shape of ``layer``: one axis of canonical upper totals per seat, then the difference."""
        return tuple(len(self.reach[self.filled(layer, p)]) for p in range(self.players)) + (
            self.low[layer] + self.high[layer] + 1,)

    def score_step(self, i: int, upper: int, points: int) -> tuple[int, int]:
        """(reward, next canonical upper) of scoring ``points`` in box position ``i`` with canonical upper
        total ``upper``: ``lookup.yahtzee.rules.box_outcome_n`` (the upper bonus is paid when the threshold
        is reached). A canonical ``upper`` equal to the threshold earns no bonus, as it must."""
        r = self.rules
        reward, nu, _ = box_outcome_n(self.boxes[i], points, upper, 0, 0, r.upper_threshold, r.upper_bonus, 0,
                                      r.yahtzee_index)
        return reward, self.canonical(nu, i + 1)


@cache
def duel_layout(rules: Rules | str, boxes: tuple[int, ...] | None = None, players: int = 2,
                merge_decided: bool = True) -> DuelLayout:
    """The (cached) joint layout of ``rules`` (a forced-order rule set without Joker or Yatzy bonus),
    playing ``boxes`` (sheet indices, increasing; default: the whole sheet)."""
    if type(players) is not int or players != 2:
        raise ValueError(f"players must be 2 (three: lookup.yahtzee.party_states), not {shown(players)}")
    rules, boxes, points, of_roll = forced_boxes(rules, boxes)
    lay = DuelLayout(rules, boxes, players, merge_decided, points, of_roll, (), (), (), (), ())
    reach: list[tuple[int, ...]] = [(lay.canonical(0, 0),)]
    for i in range(len(boxes)):
        reach.append(tuple(sorted({lay.score_step(i, u, int(p))[1] for u in reach[i] for p in points[i]})))
    u_index = []
    for r in reach:
        idx = np.full(rules.upper_threshold + 1, -1, dtype=np.int64)
        idx[list(r)] = np.arange(len(r))
        idx.setflags(write=False)
        u_index.append(idx)
    # max_total[j]: the sum over the first j boxes of the most one turn can earn (box points, plus the bonus
    # where some reachable upper total can cross the threshold). It bounds a seat's total after j boxes and,
    # being additive, keeps every read of the next layer on its axis (a tighter bound on totals would not:
    # a stored but unreachable d, seat 1 ahead by the bound, plus a turn's best reward, leaves it).
    max_total = [0]
    for i in range(len(boxes)):
        best = max(lay.score_step(i, u, int(p))[0] for u in reach[i] for p in points[i])
        max_total.append(max_total[-1] + best)
    n = len(boxes)
    # Layer L = (i, s): seat 0 has filled i + (s > 0) boxes, seat 1 has filled i.
    low = tuple(max_total[layer // players] for layer in range(players * n + 1))
    high = tuple(max_total[min(n, layer // players + (layer % players > 0))] for layer in range(players * n + 1))
    for a in points + of_roll:
        a.setflags(write=False)
    object.__setattr__(lay, "reach", tuple(reach))
    object.__setattr__(lay, "u_index", tuple(u_index))
    object.__setattr__(lay, "max_total", tuple(max_total))
    object.__setattr__(lay, "low", low)
    object.__setattr__(lay, "high", high)
    return lay


def layer_offsets(lay: DuelLayout) -> np.ndarray:
    """Start of each layer in the flat stored arrays (C order within a layer), and the total at the end."""
    sizes = [int(np.prod(lay.shape(layer))) for layer in range(lay.n_layers)]
    return np.concatenate(([0], np.cumsum(sizes))).astype(np.int64)
