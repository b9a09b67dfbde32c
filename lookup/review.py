"""The review of a game, for every game: what each decision of one seat cost and what each other event (a chance
outcome, another seat's move) brought it, in the game's unit, read from the tables through the protocol.

For the reviewed seat s, with V(state) its value under the tables' play (``Advisor.value``):

* a **decision** of s costs ``best - chosen``: the value of the best legal action minus that of the action taken
  (``Advisor.action_values``; 0 when the two tie in the unit's rule, as ``decide`` treats them); where the tables
  play s by an opponent model (tic-tac-toe's other seat), V(before) is the model's expectation, below the best
  action's value, and the decision's luck is that gap (0 where the tables play s optimally);
* any **other event** brings s its **luck**: V(after) - V(before), the value the event added or took away
  (dice and cards, and the other seats' moves when they differ from what the tables expected of them).

So, wherever the tables hold V: V(end) = V(start) - total cost + total luck (in the unit's direction: for a unit
to keep low, such as 151's turns, a cost or a bad luck raises it). Where a value is missing (a search-based game
values only the seat's own decisions), the luck is counted from the last value known, at the next one known.
Nothing here writes a file; every number is a table read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from lookup.protocol import CHANCE, JSON, Action, Advisor, State, seat_text
from lookup.records import GameRecord, parse_record, replay, step_texts
from lookup.words import counted

DECISION, CHANCE_EVENT, OTHER_SEAT = "decision", "chance", "opponent"


@dataclass(frozen=True)
class Judged:
    """One event of a reviewed game.

    index: its number in the record (1-based); mover: the seat that acted, or -1 for chance; kind: "decision"
    (the reviewed seat's), "chance" or "opponent"; event / text: what happened, as JSON and in words; value: the
    reviewed seat's value after it (None where the tables hold none). A decision has best / best_text (the
    tables' best action, the first of tied ones), best_value and chosen_value (the mover's value after each)
    and cost (>= 0), and luck: the best action's value minus the seat's value before (0 where the tables play the
    seat optimally); any other event has luck (its change of the seat's value; None where unknown).
    """

    index: int
    mover: int
    kind: str
    event: JSON
    text: str
    value: float | None
    cost: float | None = None
    best: JSON = None
    best_text: str | None = None
    best_value: float | None = None
    chosen_value: float | None = None
    luck: float | None = None

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def _number(x: float | None, digits: int) -> str:
    return "unknown" if x is None else f"{x:.{digits}f}"


@dataclass(frozen=True)
class Review:
    """A whole game reviewed for ``seat``, in ``unit`` (its name) where higher or lower is better (``higher``).

    start / end: the seat's value at the record's start and end (the return once the game is over);
    total_cost: what its decisions lost; total_luck: what every other event brought; decisions: how many of its
    decisions the tables value; mistakes: how many cost something; per_decision: the average cost of a decision
    (a proficiency figure: 0 is perfect play); finished: the game is over; unvalued: how many of its decisions the
    tables do not value (a seat the setup's tables play by a model, such as heads-up Yahtzee's expected-score
    opponent: listed, with no cost).
    """

    game: str
    setup: dict[str, JSON]
    seat: int
    unit: str
    higher: bool
    events: tuple[Judged, ...]
    start: float | None
    end: float | None
    total_cost: float
    total_luck: float
    decisions: int
    mistakes: int
    finished: bool
    unvalued: int = 0

    @property
    def per_decision(self) -> float:
        return self.total_cost / self.decisions if self.decisions else 0.0

    def costliest(self, n: int = 5) -> list[Judged]:
        """The ``n`` decisions that cost most (only those that cost something), costliest first, earlier first
        on ties."""
        costly = [e for e in self.events if e.cost]
        return sorted(costly, key=lambda e: (-e.cost, e.index))[:n]

    def unvalued_text(self) -> str:
        """What the totals leave out, in words ("" when the tables value every decision of the seat)."""
        if not self.unvalued:
            return ""
        return f"; {counted(self.unvalued, 'decision')} the tables of this setup do not value"

    def as_dict(self) -> dict[str, Any]:
        """The JSON of the library, the command line and the page (every field, each event, per_decision)."""
        out = {k: getattr(self, k) for k in self.__dataclass_fields__ if k != "events"}
        out["per_decision"] = self.per_decision
        out["events"] = [e.as_dict() for e in self.events]
        return out

    def summary(self, digits: int = 4) -> list[str]:
        """The review in a few lines of text: the totals, then every decision that cost something."""
        def f(x: float | None) -> str:
            return _number(x, digits)

        lines = [f"review of {seat_text(self.seat)} ({self.game}, values in {self.unit}, "
                 f"{'higher' if self.higher else 'lower'} is better):",
                 f"  {counted(self.decisions, 'decision')}, {self.mistakes} below the best; "
                 f"cost {f(self.total_cost)} in all ({f(self.per_decision)} a decision); "
                 f"luck {self.total_luck:+.{digits}f}" + self.unvalued_text(),
                 f"  value {f(self.start)} at the start, {f(self.end)} {'at the end' if self.finished else 'now'}"]
        for e in self.events:
            if e.cost:
                lines.append(f"  event {e.index}: {e.text} cost {f(e.cost)} (best: {e.best_text}, "
                             f"{f(e.best_value)} against {f(e.chosen_value)})")
        return lines


def judge(advisor: Advisor, state: State, action: Action, index: int = 0) -> Judged:
    """The cost of ``action`` by the seat to move at ``state``, before it is played (what the coach says the moment
    a decision is made): the best action's value against this one's, in the game's unit. ``cost`` is None where
    the tables do not value that seat's decisions. ValueError for an action that is not legal there."""
    game = advisor.game
    action = game.canonical(state, action)
    mover = game.to_move(state)
    if mover == CHANCE:
        raise ValueError(f"{game.name}: chance is to move here, there is no decision to judge")
    text, event = game.action_text(state, action), game.action_json(state, action)
    values = advisor.action_values(state)
    if None in values.values():
        return Judged(index, mover, DECISION, event, text, None)
    best_action = advisor.best_actions(state)[0]
    best, chosen = values[best_action], values[action]
    return Judged(index, mover, DECISION, event, text, chosen, game.unit.gain(best, chosen),
                  game.action_json(state, best_action), game.action_text(state, best_action), best, chosen)


def review(advisor: Advisor, record: GameRecord | Mapping[str, JSON], seat: int | None = None) -> Review:
    """The review of ``record`` (a ``GameRecord`` or its JSON) for ``seat`` (default: the record's, else 0) under
    the tables of ``advisor`` (whose game the record must be of). ValueError for a record the rules refuse."""
    game = advisor.game
    record = parse_record(record)
    if record.game != game.name:
        raise ValueError(f"the record is a {record.game!r} game, not {game.name!r}")
    seat = seat if seat is not None else record.seat if record.seat is not None else 0
    if not 0 <= seat < game.seats:
        raise ValueError(f"seat {seat}: the game has seats 0..{game.seats - 1}")
    steps, final = replay(game, record.events, record.start)
    texts = step_texts(game, steps, seat, game.is_terminal(final))  # as the seat was shown them
    unit = game.unit
    sign = 1.0 if unit.higher_is_better else -1.0
    start = advisor.value(steps[0].state if steps else final, seat)
    reference = start  # the seat's value the next luck is measured from
    judged, cost, luck, mistakes = [], 0.0, 0.0, 0
    for step, text in zip(steps, texts, strict=True):
        value = advisor.value(step.after, seat)
        if step.mover == seat:
            decision = judge(advisor, step.state, step.action, step.index)
            if decision.cost is not None:
                cost += decision.cost
                mistakes += decision.cost > 0
                # The seat's value before its decision is its best action's where the tables play it optimally;
                # where they play it by an opponent model (tic-tac-toe's other seat) it is the model's expectation,
                # and the step from it to the best action is luck (what the seat gains over the play expected of it).
                slack = None if reference is None else sign * (decision.best_value - reference)
                if slack is not None:
                    luck += slack
                judged.append(replace(decision, luck=slack))
                reference = decision.chosen_value
                continue
        event = game.action_json(step.state, step.action)
        gained = None
        if value is not None and reference is not None:
            gained = sign * (value - reference)
            luck += gained
        if value is not None:
            reference = value
        kind = CHANCE_EVENT if step.mover == CHANCE else DECISION if step.mover == seat else OTHER_SEAT
        judged.append(Judged(step.index, step.mover, kind, event, text, value, luck=gained))
    end = float(game.returns(final)[seat]) if game.is_terminal(final) else advisor.value(final, seat)
    valued = sum(1 for j in judged if j.cost is not None)
    return Review(game.name, record.setup, seat, unit.name, unit.higher_is_better, tuple(judged), start, end,
                  cost, luck, valued, mistakes, game.is_terminal(final),
                  sum(1 for step in steps if step.mover == seat) - valued)
