"""Two-player forced-order Yatzy, played to win: the joint state space and the play-time API.

The game (docs/yahtzee.md, "Two players, forced order"): a forced-order rule set (``scandinavian+forced``);
at box position i every player in seat order (seat 0 first) plays one turn (three rolls, keeps between) and
must score the final roll in box i. After the last box the highest total wins; a sole winner scores 1,
m tied winners 1/m each. Each player maximises their own expected score of the game; with 2 players that
is P(win) + P(tie) / 2, and the game is zero-sum.

Joint turn-start states, by layer ``L = 2 i + s`` (box position i, seat s to move; layer ``2 n`` is the
finished game):

* each seat's *canonical upper total*: the upper total capped at the threshold while the bonus is still
  undecided, and the threshold itself once it is decided (reached, or out of reach even with every
  remaining upper box at its maximum). After the last upper box every seat's bonus is decided, so the
  upper totals collapse to one value and only the score difference remains;
* ``d`` = seat 0's total minus seat 1's total (upper bonus counted when earned), in ``-low[L]..high[L]``:
  every d a game can reach there, and every d' a turn leads to is on the next layer's axis.

The table holds, for every layer and state, ``value`` = seat 0's P(win) + P(tie) / 2 under optimal play
of both from the start of the mover's turn (seat 1's is ``1 - value``: zero-sum), and ``tie`` = P(tie)
under that optimal play (the solver's tie rule among exactly equal keeps: see ``pipeline.yahtzee.duel``).

The layout of these states is ``lookup.yahtzee.duel_states`` (one definition, the pipeline imports it);
this module answers :func:`decide` / :func:`explain` / :func:`win_probability` for the mover from the
artifact ``yahtzee-RULES-duel2``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.protocol import seat_text
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, play_arrays
from lookup.words import counted
from lookup.yahtzee.duel_states import DUEL_SCHEMA, SCHEMA_VERSIONS, DuelLayout, duel_layout, duel_name, layer_offsets
from lookup.yahtzee.party import load_party, party_analysis, party_outcomes, party_position, prefix_filled
from lookup.yahtzee.party_states import share_weights
from lookup.yahtzee.question import Objective, Plan, Question, objective_of
from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.sheet import Sheet, SheetLike
from lookup.yahtzee.tables import dashed
from lookup.yahtzee.turn import action_text, analyse_final, chosen_keep, final_outcomes, ranked_options

__all__ = ["DUEL_SCHEMA", "DuelDecision", "DuelLayout", "DuelOption", "DuelTable", "decide", "duel_layout",
           "duel_name", "explain", "load_duel", "share", "win_probability"]

@dataclass(frozen=True, eq=False)
class DuelTable:
    """The 2-player table of a rule set, opened for play: ``value`` and ``tie`` flat (``layer_offsets``),
    read element by element (``lookup.chunked.ChunkedArray``, chunks checked on first use)."""

    layout: DuelLayout
    value: Any
    tie: Any
    offsets: np.ndarray
    stats: dict[str, Any]

    def flat(self, layer: int, a: int, b: int, d: int) -> int:
        """Flat position of (layer, seat 0's upper index a, seat 1's b, difference d = seat 0 - seat 1)."""
        shape = self.layout.shape(layer)
        low, high = self.layout.low[layer], self.layout.high[layer]
        if not (0 <= a < shape[0] and 0 <= b < shape[1] and -low <= d <= high):
            raise ValueError(f"state (layer {layer}, uppers {a}, {b}, difference {d}) is outside the table")
        return int(self.offsets[layer] + (a * shape[1] + b) * shape[2] + d + low)

    def seat0(self, layer: int, a: int, b: int, d: int) -> tuple[float, float]:
        """(seat 0's P(win) + P(tie) / 2, P(tie)) at the start of ``layer``'s turn."""
        i = self.flat(layer, a, b, d)
        return float(self.value[i]), float(self.tie[i])


def load_duel(rules: Rules | str, players: int = 2,
              artifacts_dir: str | Path | None = None) -> DuelTable:
    """The verified 2-player table of ``rules``; NotBuiltError (a ValueError) naming the file when missing."""
    lay = duel_layout(get_rules(rules), None, players)
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, duel_name(lay.rules, players))
    return _load(lay, path, artifact_stamp(path))


@lru_cache(maxsize=4)
def _load(lay: DuelLayout, path: Path, stamp: int) -> DuelTable:
    name = lay.rules.name
    if not stamp:
        raise not_built(f"{path}: the {name!r} {lay.players}-player table is not built",
                        f"the {lay.players}-player table of rule set {name!r} is not built on this server",
                        params=f"{name!r} in yahtzee.duel.rule_sets and {lay.players} in yahtzee.duel.players",
                        build=f"yahtzee-duel{lay.players}-{dashed(lay.rules)}",
                        cost="about 15 s")
    meta, arrays = play_arrays(path, ["value", "tie", "layer_offset"], schema=DUEL_SCHEMA, versions=SCHEMA_VERSIONS,
                               rules=lay.rules.to_dict(), params={"players": lay.players})
    offsets = np.asarray(arrays["layer_offset"]).astype(np.int64)
    if not np.array_equal(offsets, layer_offsets(lay)):
        raise ValueError(f"{path}: its layer offsets differ from this code's layout (rebuild the table)")
    return DuelTable(lay, arrays["value"], arrays["tie"], offsets, meta.get("stats", {}))


@dataclass(frozen=True)
class DuelOption:
    """One legal option of the mover with its value: the mover's P(win) + P(tie) / 2 if both play on
    optimally (``probability``), and its loss against the best option (``regret``, exactly 0 when tied:
    ``lookup.yahtzee.turn.tied``)."""

    action: str
    keep: tuple[int, ...] | None
    category: str | None
    probability: float
    regret: float


@dataclass(frozen=True)
class DuelDecision:
    """What the mover should do to maximise their expected score of the game against the opponents: P(win) +
    P(tie) / 2 with one opponent; with two, a sole win 1 and a tie of m winners 1/m (the mover's "share").

    seat: 0 if the mover plays first at this box, 1 if second, 2 if third. reroll / keep / category as
    ``lookup.yahtzee.Decision``; probability: the mover's share from here when every player plays to win.
    """

    rules: str
    dice: tuple[int, ...]
    rerolls: int
    seat: int
    reroll: tuple[bool, ...] | None
    keep: tuple[int, ...] | None
    category: str | None
    probability: float

    def __str__(self) -> str:
        action = action_text(self.dice, self.reroll, self.keep, self.category)
        return f"{action}; P(win) + P(tie)/2 = {self.probability:.6f} ({seat_text(self.seat)} in turn order)"


@dataclass(frozen=True)
class _Position:
    lay: DuelLayout
    sheet: Sheet
    seat: int
    layer: int
    uppers: tuple[int, int]  # canonical upper indices of seat 0 and seat 1
    diff: int  # seat 0's total - seat 1's


def _position(sheet: SheetLike, opponents: Any, rules: Rules | str) -> _Position:
    """The joint state of the mover (``sheet``) against one opponent (``opponents``, counted by
    ``_opponent_count``), validated."""
    rules = get_rules(rules)
    lay = duel_layout(rules, None, 2)
    me = Sheet.parse(sheet, rules)
    them = Sheet.parse(opponents[0], rules)
    k, ko = prefix_filled(me, "the mover's sheet"), prefix_filled(them, "the opponent's sheet")
    if k == rules.n_boxes:
        raise ValueError("the mover's sheet is finished: every box is filled, there is nothing to decide")
    if ko not in (k, k + 1):
        raise ValueError(f"sheets not at the same box index: the mover has filled {counted(k, 'box')} and the opponent "
                         f"{ko}; in seat order the opponent has filled {k} (the mover plays first at this box) "
                         f"or {k + 1} (the mover plays second)")
    seat = 0 if ko == k else 1
    ua = lay.canonical(me.upper_total, k)
    ub = lay.canonical(them.upper_total, ko)
    mine, theirs = (int(lay.u_index[k][ua]), int(lay.u_index[ko][ub]))
    if mine < 0 or theirs < 0:
        raise ValueError("an upper total that forced-order play cannot produce")
    uppers = (mine, theirs) if seat == 0 else (theirs, mine)
    diff = me.total - them.total if seat == 0 else them.total - me.total
    return _Position(lay, me, seat, 2 * k + seat, uppers, diff)


def _analyse(table: DuelTable, pos: _Position):
    """The mover's turn valued in their P(win) + P(tie) / 2 (a ``lookup.yahtzee.turn.TurnAnalysis``)."""
    lay, seat, k = pos.lay, pos.seat, pos.layer // 2
    rules = lay.rules
    mask, upper, ybox = pos.sheet.state

    def worth(reward: int, nxt: tuple[int, int, int]) -> float:
        nu = int(lay.u_index[k + 1][lay.canonical(nxt[1], k + 1)])
        a, b = (nu, pos.uppers[1]) if seat == 0 else (pos.uppers[0], nu)
        d = pos.diff + reward if seat == 0 else pos.diff - reward
        v, _ = table.seat0(pos.layer + 1, a, b, d)
        return v if seat == 0 else 1.0 - v

    return analyse_final(rules, (mask, upper, ybox), final_outcomes(rules, mask, upper, ybox, worth), "probability")


def _turn(q: Question) -> tuple[Any, Any]:
    """(the mover's position, its turn valued in its share) of question ``q``: the 2-player table against one
    opponent, the 3-player one against two (``lookup.yahtzee.party``)."""
    rules, opponents = q.plan.rules, q.objective.sheets
    if len(opponents) == 2:
        three = party_position(q.sheet, opponents, rules)
        return three, party_analysis(load_party(rules, 3, q.artifacts_dir), three)
    pos = _position(q.sheet, opponents, rules)
    return pos, _analyse(load_duel(rules, 2, q.artifacts_dir), pos)


def decide(q: Question) -> DuelDecision:
    """The move that maximises the mover's P(win) + P(tie) / 2 against the objective's opponents (one sheet:
    the 2-player table) when both play optimally from here. The mover's seat follows from the sheets: the
    opponent has filled as many boxes (the mover plays first at this box) or one more (second). Two sheets:
    the 3-player table and the mover's share (``DuelDecision``), the opponents in turn order after the mover
    (``lookup.yahtzee.party``). Ties as ``lookup.yahtzee.towin.decide`` (relative ``PROBABILITY_TIE_REL``; fewest
    dice rerolled, then lowest mask)."""
    pos, analysis = _turn(q)
    rules, roll = q.plan.rules, q.roll
    if q.rerolls == 0:
        c = analysis.best_category(roll)
        return DuelDecision(rules.name, q.pips, 0, pos.seat, None, None, rules.categories[c],
                            float(analysis.final[roll, c]))
    reroll, keep, k = chosen_keep(rules, q.pips, roll, analysis.best_reroll(q.rerolls, roll))
    return DuelDecision(rules.name, q.pips, q.rerolls, pos.seat, reroll, keep, None,
                        float(analysis.keep[q.rerolls][k]))


def explain(q: Question) -> list[DuelOption]:
    """Every legal option (distinct keeps, or the one box forced order allows) with the mover's P(win) +
    P(tie) / 2, best first; options tied with the best come first in tie order, so the first is ``decide``'s."""
    return [DuelOption(*option) for option in ranked_options(_turn(q)[1], q.roll, q.rerolls)]


def win_probability(sheet: SheetLike, rules: Rules | str, *,
                    opponents: Sequence[SheetLike], artifacts_dir: str | Path | None = None
                    ) -> tuple[float, float, float]:
    """(P(mover wins alone), P(mover tied for the highest total), P(mover loses)) from the start of the mover's
    turn, every player playing to win (P(tie) under the build's tie rule among exactly equal keeps,
    ``pipeline.yahtzee.duel_kernels`` and ``party_kernels``). Two opponents: the 3-player table."""
    opponents = objective_of(opponents=opponents).sheets
    if len(opponents) == 2:
        three = party_position(sheet, opponents, rules)
        p = party_outcomes(load_party(three.lay.rules, 3, artifacts_dir), three)
        win = p[f"win_{three.seat}"]
        tie = sum(v for name, v in p.items() if name.startswith("tie_") and str(three.seat) in name)
        return win, tie, 1.0 - win - tie
    pos = _position(sheet, opponents, rules)
    v, t = load_duel(pos.lay.rules, 2, artifacts_dir).seat0(pos.layer, *pos.uppers, pos.diff)
    mine = v if pos.seat == 0 else 1.0 - v
    return mine - t / 2, t, 1.0 - mine - t / 2


def share(plan: Plan, sheet: SheetLike, objective: Objective, artifacts_dir: str | Path | None = None) -> float:
    """The mover's expected share of the game from the start of its turn, every player playing to win: P(win) +
    P(tie) / 2 with one opponent; with two, a sole win 1 and a tie of m winners 1/m each (the 3-player table's
    outcome probabilities weighted by ``share_weights``: ``win_probability`` adds every tie up)."""
    opponents = objective.sheets
    if len(opponents) == 2:
        pos = party_position(sheet, opponents, plan.rules)
        outcomes = load_party(pos.lay.rules, 3, artifacts_dir).at(pos.layer, pos.uppers, pos.totals)
        return float(share_weights(3)[pos.seat] @ outcomes)
    win, tie, _ = win_probability(sheet, plan.rules, opponents=opponents, artifacts_dir=artifacts_dir)
    return win + tie / 2
