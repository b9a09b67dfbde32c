"""Forced-order Yatzy among two or three players, each playing to win: the mover's turn valued from the table
``yahtzee-RULES-partyN`` of N players (the states: ``lookup.yahtzee.party_states``).

The game (docs/yahtzee.md, "Two players, forced order" and "Three players, forced order"): at box position i every
player in seat order (seat 0 first) plays one turn and must score the final roll in box i; after the last box the
highest total wins; a sole winner scores 1, m tied winners 1/m each, and each player maximises their own expected
score of the game (their "share"). ``lookup.yahtzee.duel`` (``decide(..., opponents=[...])``) asks through here.

``opponents`` lists the other players' sheets in turn order after the mover: first those still to play
this box, then those who have played it. The mover's seat follows: the number of opponents who have filled
one more box than the mover.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, play_arrays
from lookup.words import counted
from lookup.yahtzee.party_states import (
    PARTY_SCHEMA,
    PARTY_SCHEMA_VERSIONS,
    PartyLayout,
    outcome_names,
    party_layout,
    party_name,
    share_weights,
)
from lookup.yahtzee.rules import Rules, get_rules, scoring_tables
from lookup.yahtzee.sheet import Sheet, SheetLike
from lookup.yahtzee.tables import dashed
from lookup.yahtzee.turn import TurnAnalysis, analyse_final

__all__ = ["PartyTable", "PartyPosition", "load_party", "party_position", "party_analysis", "party_outcomes",
           "prefix_filled"]


@dataclass(frozen=True, eq=False)
class PartyTable:
    """The table of ``layout.players`` players, opened for play: one flat array per outcome (winner set),
    read element by element (``lookup.chunked.ChunkedArray``, chunks checked on first use)."""

    layout: PartyLayout
    outcomes: tuple[Any, ...]
    offsets: np.ndarray
    stats: dict[str, Any]

    def at(self, layer: int, uppers: tuple[int, ...], totals: tuple[int, ...]) -> np.ndarray:
        """P(outcome k) from the start of ``layer``'s turn at the state with these raw upper totals and totals
        (seat order)."""
        i = int(self.offsets[layer]) + self.layout.index(layer, uppers, totals)
        return np.array([float(a[i]) for a in self.outcomes])


def load_party(rules: Rules | str, players: int = 3,
               artifacts_dir: str | Path | None = None) -> PartyTable:
    """The verified table of ``players`` players under ``rules``; NotBuiltError (a ValueError) naming the file
    and the build command when missing."""
    lay = party_layout(get_rules(rules), None, players)
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, party_name(lay.rules, players))
    return _load(lay, path, artifact_stamp(path))


@lru_cache(maxsize=4)
def _load(lay: PartyLayout, path: Path, stamp: int) -> PartyTable:
    name, p = lay.rules.name, lay.players
    if not stamp:
        raise not_built(f"{path}: the {name!r} {p}-player table is not built",
                        f"the {p}-player table of rule set {name!r} is not built on this server",
                        params=f"{name!r} in yahtzee.duel.rule_sets and {p} in yahtzee.duel.players",
                        build=f"yahtzee-party{p}-{dashed(lay.rules)}",
                        cost="seconds for 2 players; about 2.5 minutes, 1.4 GB of memory and 212 MB on disk for 3")
    names = list(outcome_names(p))
    meta, arrays = play_arrays(path, [*names, "layer_offset"], schema=PARTY_SCHEMA, versions=PARTY_SCHEMA_VERSIONS,
                               rules=lay.rules.to_dict(), params={"players": p})
    offsets = np.asarray(arrays["layer_offset"]).astype(np.int64)
    if not np.array_equal(offsets, lay.offsets()):
        raise ValueError(f"{path}: its layer offsets differ from this code's layout (rebuild the table)")
    return PartyTable(lay, tuple(arrays[n] for n in names), offsets, meta.get("stats", {}))


@dataclass(frozen=True)
class PartyPosition:
    """The mover's place in the game: their sheet, seat (0 = first at this box), the layer, and every seat's
    raw upper total and total (bonus included), in seat order."""

    lay: PartyLayout
    sheet: Sheet
    seat: int
    layer: int
    uppers: tuple[int, ...]
    totals: tuple[int, ...]


def prefix_filled(sh: Sheet, who: str) -> int:
    """How many boxes ``sh`` has filled, in sheet order (forced order); ValueError naming ``who`` if not."""
    filled = [b is not None for b in sh.boxes]
    k = sum(filled)
    if any(filled[k:]) or not all(filled[:k]):
        raise ValueError(f"{who} is not filled in sheet order (forced order: boxes 0..k-1 filled, the rest open)")
    return k


def party_position(sheet: SheetLike, opponents: Sequence[SheetLike], rules: Rules | str) -> PartyPosition:
    """The joint state of the mover (``sheet``) among ``len(opponents) + 1`` players, validated."""
    rules = get_rules(rules)
    players = len(opponents) + 1
    lay = party_layout(rules, None, players)
    me = Sheet.parse(sheet, rules)
    them = [Sheet.parse(o, rules) for o in opponents]
    k = prefix_filled(me, "the mover's sheet")
    filled = [prefix_filled(o, f"opponent {j + 1}'s sheet") for j, o in enumerate(them)]
    if k == rules.n_boxes:
        raise ValueError("the mover's sheet is finished: every box is filled, there is nothing to decide")
    seat = sum(1 for f in filled if f == k + 1)
    expected = [k] * (players - 1 - seat) + [k + 1] * seat
    if filled != expected:
        raise ValueError(f"sheets not at the same box in turn order: the mover has filled {counted(k, 'box')} and the "
                         f"opponents {filled}; list the opponents in turn order after the mover, those still to "
                         f"play this box ({k} filled) first, then those who have played it ({k + 1})")
    by_seat = [me] + them  # turn order from the mover: seats seat, seat + 1, ... (mod players)
    order = [by_seat[(j - seat) % players] for j in range(players)]
    return PartyPosition(lay, me, seat, players * k + seat, tuple(s.upper_total for s in order),
                         tuple(s.total for s in order))


def party_outcomes(table: PartyTable, pos: PartyPosition) -> dict[str, float]:
    """P(outcome) from the start of the mover's turn, by outcome name, seats numbered from seat 0."""
    values = table.at(pos.layer, pos.uppers, pos.totals)
    return dict(zip(outcome_names(pos.lay.players), (float(v) for v in values), strict=True))


def party_analysis(table: PartyTable, pos: PartyPosition) -> TurnAnalysis:
    """The mover's turn valued in their share of the game (``lookup.yahtzee.turn.TurnAnalysis``): every final
    roll scores the forced box, and leads to a state of the next layer whose outcomes the table holds."""
    lay, seat = pos.lay, pos.seat
    rules = lay.rules
    i = pos.layer // lay.players
    box = lay.boxes[i]
    weight = share_weights(lay.players)[seat]
    st = scoring_tables(rules)
    final = np.full((st.score.shape[0], rules.n_boxes), np.nan)
    worth: dict[int, float] = {}
    for r in range(st.score.shape[0]):
        points = int(st.score[r, box])
        if points not in worth:
            nxt = lay.after(pos.layer, pos.uppers, pos.totals, points)
            worth[points] = float(weight @ table.at(pos.layer + 1, *nxt))
        final[r, box] = worth[points]
    return analyse_final(rules, pos.sheet.state, final, "probability")
