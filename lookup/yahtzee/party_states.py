"""The joint turn-start states of forced-order Yatzy among P players (2 or 3), each playing to win: one
definition of the layout, read by play (``lookup.yahtzee.party``) and by the solver
(``pipeline.yahtzee.party``).

Forced order fills the upper boxes first, so a game has two sections, and each has its own coordinates:

* **Upper section** (layers in which some seat still has an upper box to fill): a seat's total IS its raw
  upper total u plus the bonus once u reaches the threshold, T(u) = u + bonus [u >= threshold]. The raw upper
  totals (u_0, ..., u_{P-1}) are the whole state: axes of ``max_raw[filled] + 1`` values per seat.
* **Lower section** (every seat has filled every upper box): every bonus is decided and only the score
  differences matter: d_j = seat 0's total - seat j's, j = 1..P-1, each on an axis ``-low..high``.

That is what makes the tables small: on the Scandinavian sheet 33,044 joint states for two players and
9,951,283 for three, where canonical upper totals beside score differences (the layout the 2-player table
had before, 900,580 states) would need about 1e10 for three: in the upper section the differences are
functions of the raw totals, not extra coordinates.

Layers ``L = P i + s`` (box position i, seat s to move; layer ``P n`` is the finished game). Each state holds
the probabilities of the game's outcomes under the players' play from the start of the mover's turn; an
outcome is the set W of winners (the seats with the highest final total), numbered by the bit mask of W
minus 1 (``outcome_names``). A sole winner scores 1, m tied winners 1/m each: seat j's expected score of the
game ("share") is the sum over W containing j of P(W) / |W|.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from lookup.validate import shown
from lookup.yahtzee.rules import UPPER, Rules, box_outcome_n, get_rules, scoring_tables

__all__ = ["PARTY_SCHEMA", "PARTY_SCHEMA_VERSIONS", "PARTY_PLAYERS", "PartyLayout", "party_layout",
           "party_name", "outcome_names", "share_weights", "forced_boxes"]

PARTY_SCHEMA = "yahtzee.party"
PARTY_SCHEMA_VERSIONS = (1,)
PARTY_PLAYERS = (2, 3)


def party_name(rules: Rules, players: int) -> str:
    """The artifact of ``players``-player forced-order play to win under ``rules``."""
    return f"yahtzee-{rules.name}-party{players}"


def outcome_names(players: int) -> tuple[str, ...]:
    """Name of outcome k = the winner set with bit mask k + 1: ``win_0`` (seat 0 alone), ``tie_01`` (seats 0
    and 1 tied for the highest total), ..."""
    names = []
    for mask in range(1, 1 << players):
        seats = "".join(str(j) for j in range(players) if (mask >> j) & 1)
        names.append(("win_" if len(seats) == 1 else "tie_") + seats)
    return tuple(names)


def share_weights(players: int) -> np.ndarray:
    """``w[j, k]`` = 1 / |W| if seat j is in winner set W (outcome k), else 0: seat j's share = w[j] @ P."""
    w = np.zeros((players, (1 << players) - 1))
    for mask in range(1, 1 << players):
        seats = [j for j in range(players) if (mask >> j) & 1]
        w[seats, mask - 1] = 1.0 / len(seats)
    w.setflags(write=False)
    return w


@dataclass(frozen=True, eq=False)
class PartyLayout:
    """The joint states of a forced-order game among ``players`` seats (read-only arrays).

    boxes: sheet indices played, in order (the whole sheet, or a reduced game). points[i]: sorted distinct
    points box ``boxes[i]`` can score; ``point_of_roll[i][r]``: index in points[i] of roll r's points.
    n_upper: number of upper boxes (a prefix of ``boxes``). max_raw[j] (j <= n_upper): the largest raw upper
    total after j boxes. max_total[j]: a bound on a seat's total after j boxes, additive over the lower boxes
    (each adds its best points), so that every difference a turn leads to is on the next layer's axis.
    """

    rules: Rules
    boxes: tuple[int, ...]
    players: int
    points: tuple[np.ndarray, ...]
    point_of_roll: tuple[np.ndarray, ...]
    n_upper: int
    max_raw: tuple[int, ...]
    max_total: tuple[int, ...]

    @property
    def n_boxes(self) -> int:
        return len(self.boxes)

    @property
    def n_layers(self) -> int:
        """Turn layers (``players`` per box) plus the finished game."""
        return self.players * self.n_boxes + 1

    def position(self, layer: int) -> tuple[int, int]:
        """(box position, seat to move) of a turn layer: layer ``L = players * i + s``."""
        return divmod(layer, self.players)

    def filled(self, layer: int, seat: int) -> int:
        """Boxes filled by ``seat`` at the start of ``layer``'s turn."""
        i, s = self.position(layer)
        return i + (1 if seat < s else 0)

    @property
    def n_outcomes(self) -> int:
        return (1 << self.players) - 1

    def is_raw(self, layer: int) -> bool:
        """True in the upper section (raw upper totals), False in the lower one (score differences)."""
        return layer < self.players * self.n_upper

    def low(self, layer: int) -> tuple[int, ...]:
        """Lower section: d_j's axis starts at -low[j - 1] (seat j at most max_total of its boxes ahead)."""
        return tuple(self.max_total[self.filled(layer, j)] for j in range(1, self.players))

    def shape(self, layer: int) -> tuple[int, ...]:
        """Upper section: (max_raw + 1 per seat); lower section: (low + high + 1 per difference d_1..)."""
        if self.is_raw(layer):
            return tuple(self.max_raw[self.filled(layer, j)] + 1 for j in range(self.players))
        high = self.max_total[self.filled(layer, 0)]
        return tuple(lo + high + 1 for lo in self.low(layer))

    def size(self, layer: int) -> int:
        return int(np.prod(self.shape(layer)))

    def total_of_raw(self, upper: int) -> int:
        """T(u): a seat's total in the upper section, the bonus counted once the threshold is reached."""
        r = self.rules
        return upper + (r.upper_bonus if upper >= r.upper_threshold else 0)

    def after(self, layer: int, uppers: tuple[int, ...], totals: tuple[int, ...], points: int
              ) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """(raw upper totals, totals) once the mover of ``layer`` scores ``points`` in the forced box: the
        upper bonus is paid when the threshold is reached (``lookup.yahtzee.rules.box_outcome_n``)."""
        i, s = self.position(layer)
        r = self.rules
        thr = r.upper_threshold
        reward, _, _ = box_outcome_n(self.boxes[i], points, min(uppers[s], thr), 0, 0, thr, r.upper_bonus, 0,
                                     r.yahtzee_index)
        up, tot = list(uppers), list(totals)
        tot[s] += reward
        if self.boxes[i] < UPPER:
            up[s] += points
        return tuple(up), tuple(tot)

    def index(self, layer: int, uppers: tuple[int, ...], totals: tuple[int, ...]) -> int:
        """Position within ``layer`` (C order) of the state with these raw upper totals and totals (each
        seat's, bonus included); ValueError when it is off the layer's axes (not a reachable state)."""
        shape = self.shape(layer)
        if self.is_raw(layer):
            coords = tuple(uppers)
        else:
            coords = tuple(totals[0] - totals[j] + lo for j, lo in zip(range(1, self.players), self.low(layer),
                                                                       strict=True))
        if any(not 0 <= c < n for c, n in zip(coords, shape, strict=True)):
            raise ValueError(f"state (layer {layer}, upper totals {tuple(uppers)}, totals {tuple(totals)}) is "
                             "outside the table: not a position forced-order play can reach")
        return int(np.ravel_multi_index(coords, shape))

    def offsets(self) -> np.ndarray:
        """Start of each layer in the flat stored arrays, and their length at the end."""
        return np.concatenate(([0], np.cumsum([self.size(L) for L in range(self.n_layers)]))).astype(np.int64)


def forced_boxes(rules: Rules | str, boxes: tuple[int, ...] | None
                 ) -> tuple[Rules, tuple[int, ...], tuple[np.ndarray, ...], tuple[np.ndarray, ...]]:
    """(rules, boxes, points, point_of_roll) of a forced-order game between players, checked: a forced-order rule
    set without Joker or Yatzy bonus, ``boxes`` distinct increasing sheet indices (default every box);
    points[i] the sorted distinct points of box ``boxes[i]``, point_of_roll[i][r] roll r's index in them."""
    rules = get_rules(rules)
    if not rules.forced_order:
        raise ValueError(f"rule set {rules.name!r} is not forced-order: the tables of play between players need "
                         "boxes filled in sheet order (e.g. scandinavian+forced)")
    if rules.joker != "none" or rules.yahtzee_bonus or not rules.bonus_in_optimisation:
        raise ValueError(f"rule set {rules.name!r} has a Joker or a Yatzy bonus; the tables of play between "
                         "players cover rule sets without them (Scandinavian)")
    boxes = tuple(range(rules.n_boxes)) if boxes is None else tuple(int(c) for c in boxes)
    if not boxes or list(boxes) != sorted(set(boxes)) or not 0 <= boxes[0] <= boxes[-1] < rules.n_boxes:
        raise ValueError(f"boxes must be distinct increasing sheet indices of {rules.name!r}, not {boxes!r}")
    st = scoring_tables(rules)
    points, of_roll = [], []
    for c in boxes:
        pts, inv = np.unique(st.score[:, c], return_inverse=True)
        pts, inv = pts.astype(np.int64), inv.astype(np.int64)
        pts.setflags(write=False)
        inv.setflags(write=False)
        points.append(pts)
        of_roll.append(inv)
    return rules, boxes, tuple(points), tuple(of_roll)


@cache
def party_layout(rules: Rules | str, boxes: tuple[int, ...] | None = None, players: int = 3) -> PartyLayout:
    """The (cached) joint layout of ``rules`` (forced order, no Joker, no Yatzy bonus) among ``players``
    seats, playing ``boxes`` (sheet indices, increasing; default: the whole sheet)."""
    if type(players) is not int or players not in PARTY_PLAYERS:
        raise ValueError(f"players must be one of {PARTY_PLAYERS}, not {shown(players)}")
    rules, boxes, points, of_roll = forced_boxes(rules, boxes)
    n_upper = sum(1 for c in boxes if c < UPPER)
    max_raw = [0]
    for i in range(n_upper):
        max_raw.append(max_raw[-1] + int(points[i][-1]))
    max_total = [0] * (len(boxes) + 1)
    for j in range(n_upper + 1):
        max_total[j] = max_raw[j] + (rules.upper_bonus if max_raw[j] >= rules.upper_threshold else 0)
    for j in range(n_upper, len(boxes)):
        max_total[j + 1] = max_total[j] + int(points[j][-1])
    return PartyLayout(rules, boxes, players, points, of_roll, n_upper, tuple(max_raw), tuple(max_total))
