"""Game records, one JSON format for every game (library, command line and web page), and their replay.

    {"version": 2, "game": "pig", "setup": {"target": 100}, "seat": 0,
     "start": null,
     "events": [4, "roll", 6, "hold", 1, ...]}

``setup``: the game's setup (``lookup.games``; options left out take their defaults). ``start``: the position the
record starts from (the game's ``state_json``, typed in at a real table), or null for the game's start.
``events``: everything that happened, in order, each written as the game writes an action or a chance outcome
(``Game.action_json``): at a chance node the outcome (the dice rolled, the card dealt), else the action of the
seat to move. ``seat``: the seat the record is about (whose decisions a review judges; null: every seat's).

``replay`` checks every event against the rules, so a record is valid or not whatever is built; a bad one is a
``ValueError`` naming the event ("event 7 (player 2): ...").
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lookup.files import parse_json_bounded, read_json_bounded
from lookup.protocol import CHANCE, JSON, Action, Game, State, json_object, seat_text
from lookup.validate import integer

RECORD_VERSION = 2
RECORD_LIMIT = 256 << 10  # bytes: the longest game (a 20-box Maxi game, typed generously) is far below
RECORD_DEPTH = 12  # nesting of a record (record > events > event > ... a Yahtzee sheet in ``start``)
MAX_EVENTS = 4096  # no game of ours has more events (a Maxi game: 20 turns of at most 6 events)
_KEYS = {"version": False, "game": True, "setup": False, "seat": False, "start": False, "events": True, "note": False}


@dataclass(frozen=True)
class GameRecord:
    """A record as read (``parse_record``); ``replay`` checks it against the game."""

    game: str
    setup: dict[str, JSON] = field(default_factory=dict)
    events: tuple[JSON, ...] = ()
    start: JSON = None
    seat: int | None = None
    note: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"version": RECORD_VERSION, "game": self.game, "setup": self.setup, "seat": self.seat,
                               "start": self.start, "events": list(self.events)}
        if self.note is not None:
            out["note"] = self.note
        return out

    def to_json(self) -> str:
        """The JSON text, the events ten to a line (readable, and a diff shows where a game changed)."""
        head = {k: v for k, v in self.to_dict().items() if k != "events"}
        rows = [", ".join(json.dumps(e) for e in self.events[i:i + 10]) for i in range(0, len(self.events), 10)]
        body = ",\n  ".join(rows)
        return json.dumps(head)[:-1] + (f', "events": [\n  {body}\n]}}\n' if rows else ', "events": []}\n')


def parse_record(data: JSON) -> GameRecord:
    """``data`` (parsed JSON, or a GameRecord) as a record: its shape checked, not yet its events (``replay``)."""
    if isinstance(data, GameRecord):
        return data
    data = json_object(data, "game record", _KEYS)
    version = data.get("version", RECORD_VERSION)
    if type(version) is not int or version != RECORD_VERSION:
        raise ValueError(f"game record: version {str(version)[:20]}; this reader knows version {RECORD_VERSION}")
    if type(data["game"]) is not str:
        raise ValueError("game record: game must be a game's name")
    setup = data.get("setup") or {}
    if not isinstance(setup, Mapping):
        raise ValueError(f"game record: setup must be an object, got {type(setup).__name__}")
    events = data["events"]
    if not isinstance(events, list):
        raise ValueError(f"game record: events must be a list, got {type(events).__name__}")
    if len(events) > MAX_EVENTS:
        raise ValueError(f"game record: {len(events)} events, more than the {MAX_EVENTS} a game can have")
    seat = data.get("seat")
    note = data.get("note")
    if note is not None and type(note) is not str:
        raise ValueError("game record: note must be a string")
    return GameRecord(data["game"], dict(setup), tuple(events), data.get("start"),
                      None if seat is None else integer(seat, "game record: seat", 0, 8), note)


def load_record(path: str | Path) -> GameRecord:
    """The record in the JSON file ``path`` (a regular file of at most ``RECORD_LIMIT`` bytes)."""
    try:
        data = read_json_bounded(path, RECORD_LIMIT, f"record {path}", follow_symlinks=True, depth=RECORD_DEPTH)
    except FileNotFoundError:
        raise ValueError(f"record {path}: file not found") from None
    except OSError as exc:
        raise ValueError(f"record {path}: cannot be read ({exc.strerror})") from None
    return parse_record(data)


def parse_record_text(text: bytes | str, what: str = "record") -> GameRecord:
    """A record from JSON text (standard input, a request body), bounded in size and nesting."""
    if len(text) > RECORD_LIMIT:
        raise ValueError(f"{what}: more than the {RECORD_LIMIT} bytes a game record may take; refused")
    return parse_record(parse_json_bounded(text, what, RECORD_DEPTH))


@dataclass(frozen=True)
class Step:
    """One event of a replayed record: the state before it, who acted (a seat or ``CHANCE``), the action or
    outcome, and the state after it."""

    index: int
    state: State
    mover: int
    action: Action
    after: State


def start_state(game: Game, start: JSON) -> State:
    """The position a record starts from: ``start`` parsed by the game, or its initial state."""
    if start is None:
        return game.initial_state()
    try:
        return game.parse_state(start)
    except ValueError as exc:
        raise ValueError(f"start: {exc}") from None


def replay(game: Game, events: Sequence[JSON], start: JSON = None) -> tuple[list[Step], State]:
    """Every event applied in order from ``start`` (see ``start_state``); returns the steps and the final state.
    ValueError naming the first event the rules refuse, or an event after the end of the game."""
    state = start_state(game, start)
    steps = []
    for i, event in enumerate(events, start=1):
        if game.is_terminal(state):
            raise ValueError(f"event {i}: the game is over after event {i - 1}; the record has more events")
        mover = game.to_move(state)
        try:
            action = game.parse_action(state, event)
        except ValueError as exc:
            raise ValueError(f"event {i} ({seat_text(mover)}): {exc}") from None
        after = game.apply(state, action)
        steps.append(Step(i, state, mover, action, after))
        state = after
    return steps, state


def record_of(game: Game, setup: Mapping[str, JSON], steps: Sequence[Step], start: JSON = None,
              seat: int | None = None) -> GameRecord:
    """The record of replayed or played ``steps`` (the inverse of ``replay``)."""
    return GameRecord(game.name, dict(setup), tuple(game.action_json(s.state, s.action) for s in steps), start, seat)


def step_texts(game: Game, steps: Sequence[Step], seat: int | None, over: bool) -> list[str]:
    """Each step in words as ``seat`` was shown it (``Game.action_text_for``); every event whole once the game is
    ``over``, or for no seat (None: the record's reader sees everything)."""
    shown = None if over else seat
    return [game.action_text_for(s.state, s.action, shown) for s in steps]


__all__ = ["CHANCE", "MAX_EVENTS", "RECORD_LIMIT", "RECORD_VERSION", "GameRecord", "Step", "load_record",
           "parse_record", "parse_record_text", "record_of", "replay", "start_state", "step_texts"]
