"""The one game protocol: states with chance nodes, and the tables' answers about them.

Every game implements it (``lookup/<game>/game.py``); every feature written once on it (records and replay
``lookup.records``, the review ``lookup.review``, simulation ``lookup.simulate``, the opponent models
``lookup.opponents``, the command line and the web page) works for every game. The shape is OpenSpiel's:

**A game** (:class:`Game`) holds its rules and setup; its states are hashable values.

- ``initial_state()``: where a game starts (often a chance node: the first roll, the deal).
- ``to_move(state)``: the seat about to act (0 .. seats - 1), or :data:`CHANCE` at a chance node. Not asked
  at a terminal state.
- ``legal_actions(state)``: the actions of the seat to move, in the game's documented order (ties between
  actions of equal value go to the first; the "first" and "last" opponent models read it).
- ``chance_outcomes(state)``: at a chance node, every outcome with its exact probability (``Fraction``s summing
  to 1).
- ``apply(state, action_or_outcome)``: the next state (a ``ValueError`` for one that is not legal here).
- ``is_terminal(state)``, ``returns(state)``: at the end, what each seat receives, in the game's unit.
- ``observation(state, seat)``: what that seat sees (hashable); the state itself in a game of complete
  information.
- Words and JSON: ``action_text`` / ``action_json`` / ``parse_action`` for actions and outcomes alike,
  ``state_text`` / ``state_json`` / ``parse_state`` for positions (a position typed in at a real table).
- What a seat is shown: ``state_text_for(state, seat)`` and ``action_text_for(state, action, seat)``, the words
  with what the seat does not see left out (by default the full text: complete information).

**An advisor** (:class:`Advisor`) is what the built tables say about one game: ``value(state, seat)`` (the
seat's expected return under the tables' play, in ``unit``; None where the tables hold nothing about that
state, e.g. a seat's view it cannot have), ``action_values(state)`` (the mover's value after each legal action,
the tables' play afterwards) and ``policy(state)`` (the tables' strategy: probabilities over the legal actions,
a single action when pure). Its values are read from the tables, never recomputed from the children: the
behavioural test (``tests/test_protocol.py``) checks that a chance node's value is the expectation over its
outcomes and that a decision's is its best action's.

Perspective: a value is always that of the seat named (``value``) or of the seat to move (``action_values``), and
it is what that seat can know: the expectation over the states it cannot tell apart from this one (its
``observation``), weighed by the tables' play. In a game of complete information that is the state's own value.
Where a seat does not see the whole state (dominoes' hands, the other player's choice in the simultaneous dice
race), the per-state identities above hold only on average over what it cannot see, and the behavioural test
checks them only where the seat concerned sees the whole state (``observation(state, seat) == state``).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from lookup.validate import dice_text, shown

CHANCE = -1  # ``to_move`` at a chance node
State = Hashable
Action = Hashable
JSON = Any  # a value json.dumps writes: None, bool, int, float, str, lists and dicts of them
MAX_JSON_TEXT = 200  # characters of an action's JSON that an error message repeats


@dataclass(frozen=True)
class Unit:
    """What a game's values and returns mean.

    name: short ("points", "P(win)", "share", "expected gain", "turns", "chips"); text: one sentence for people;
    higher_is_better: False for a count to keep low (151 alone: turns); digits: how many decimals a person
    reads; tie / tie_rel: values within ``tie + tie_rel * |better|`` of each other are equal (the tables'
    rounding: 0 where they are exact; relative for probabilities, whose rounding is relative to their size).
    """

    name: str
    text: str
    higher_is_better: bool = True
    digits: int = 4
    tie: float = 0.0
    tie_rel: float = 0.0

    def gain(self, better: float, worse: float) -> float:
        """How much ``better`` beats ``worse`` in this unit (positive when it does): the cost of choosing
        ``worse`` over ``better``; 0 when the two tie."""
        gap = better - worse if self.higher_is_better else worse - better
        return 0.0 if abs(gap) <= self.tie + self.tie_rel * abs(better) else float(gap)

    def best(self, values: Sequence[float]) -> float:
        return max(values) if self.higher_is_better else min(values)

    def format(self, value: float) -> str:
        return f"{value:.{self.digits}f}"


class Game:
    """A game under one setup (see the module docstring). Subclasses define ``name``, ``seats``, ``unit`` and the
    abstract methods; the text and JSON forms default to the action itself (for actions that are plain JSON
    values already: ints, strings, lists)."""

    name: str = ""
    seats: int = 1
    unit: Unit

    # -- the rules --

    def initial_state(self) -> State:
        raise NotImplementedError

    def to_move(self, state: State) -> int:
        raise NotImplementedError

    def legal_actions(self, state: State) -> tuple[Action, ...]:
        raise NotImplementedError

    def chance_outcomes(self, state: State) -> tuple[tuple[Action, Fraction], ...]:
        raise NotImplementedError

    @property
    def has_chance(self) -> bool:
        """Whether chance may move in this game: a game without chance (tic-tac-toe) leaves ``chance_outcomes`` to
        this base class."""
        return type(self).chance_outcomes is not Game.chance_outcomes

    def apply(self, state: State, action: Action) -> State:
        raise NotImplementedError

    def is_terminal(self, state: State) -> bool:
        raise NotImplementedError

    def returns(self, state: State) -> tuple[float | Fraction, ...]:
        raise NotImplementedError

    def observation(self, state: State, seat: int) -> Hashable:
        """Complete information by default: every seat sees the state."""
        return state

    # -- words and JSON --

    def action_text(self, state: State, action: Action) -> str:
        return str(action)

    def action_json(self, state: State, action: Action) -> JSON:
        return action

    def parse_action(self, state: State, data: JSON) -> Action:
        """The legal action (or chance outcome) at ``state`` whose JSON is ``data``; ValueError naming it and
        what is legal otherwise. One rule for every game: an action is what the game writes for it."""
        options = self.options(state)
        quick = _frozen(data)  # the action itself, where JSON lists stand for tuples: one C-level search
        if quick is not None and quick in options:
            found = options[options.index(quick)]
            if _same(self.action_json(state, found), data):
                return found
        for action in options:
            if _same(self.action_json(state, action), data):
                return action
        if type(data) in (str, int) and not isinstance(data, bool):
            # Dice as people type them ("4", "112356", "1 1 2 3 5 6"; digits alone may come as a JSON number): an
            # outcome that is one die's face, or the faces as typed or sorted (as a game lists them).
            try:
                faces = dice_text(str(data))
            except ValueError:
                faces = ()
            for form in ([faces[0]] if len(faces) == 1 else []) + ([list(faces), sorted(faces)] if faces else []):
                if form != data:
                    try:
                        return self.parse_action(state, form)
                    except ValueError:
                        pass
        kind = "outcome" if self.to_move(state) == CHANCE else "action"
        legal = ", ".join(json.dumps(self.action_json(state, a)) for a in options[:12])
        more = f" (and {len(options) - 12} more)" if len(options) > 12 else ""
        raise ValueError(f"{self.name}: {kind} {json_text(data)} is not legal here; legal: {legal}{more}")

    def state_text(self, state: State) -> str:
        return str(state)

    # -- what one seat is shown (hidden information) --

    def state_text_for(self, state: State, seat: int | None) -> str:
        """The position in words as ``seat`` is shown it (None: everything, ``state_text``): ``state_text`` in a
        game of complete information; a game with hidden information (dominoes' hands) leaves out what the seat
        does not see, until the game is over."""
        return self.state_text(state)

    def action_text_for(self, state: State, action: Action, seat: int | None) -> str:
        """An action or outcome at ``state`` in words as ``seat`` was shown it (None: everything; ``action_text``
        by default; a tile dealt to the other hand is "a tile"). While the game goes on; once it is over every
        event may be shown whole (``lookup.records.step_texts``)."""
        return self.action_text(state, action)

    def state_json(self, state: State) -> JSON:
        raise NotImplementedError

    def parse_state(self, data: JSON) -> State:
        raise NotImplementedError

    # -- derived, the same for every game --

    def options(self, state: State) -> tuple[Action, ...]:
        """What may happen next: the chance outcomes at a chance node, else the legal actions; () at the end."""
        if self.is_terminal(state):
            return ()
        if self.to_move(state) == CHANCE:
            return tuple(o for o, _ in self.chance_outcomes(state))
        return self.legal_actions(state)

    def canonical(self, state: State, action: Action) -> Action:
        """``action`` as the game lists it at ``state`` (an action of the mover, or an outcome of positive
        probability, given as itself or in an equivalent form: a list for a tuple); ValueError naming it
        otherwise. What every ``apply`` checks first."""
        if self.is_terminal(state):
            raise ValueError(f"{self.name}: the game is over, nothing more happens")
        options = self.options(state)
        try:
            if action in options:
                return options[options.index(action)]
        except TypeError:  # unhashable or uncomparable: read as JSON below
            pass
        return self.parse_action(state, self.action_json(state, action))


class Advisor:
    """What the tables say about one game (see the module docstring). Subclasses define ``value``; the default
    ``action_values`` reads the value of each action's result for the mover, the default ``policy`` plays the
    first best action (the game's order; ties within the unit's ``tie``).

    ``valued_outcomes``: up to how many outcomes a chance node's outcomes are each valued when a position is shown
    (``lookup.advice``); a game whose values after an outcome are costly counts lowers it."""

    valued_outcomes: int = 2_000
    # False where the tables do not play the other seats: their moves are only entered, as seen at a real table (a
    # game seen from one seat, dominoes' hidden hand); the page and the routes then offer no "table" player for them.
    plays_others: bool = True

    def __init__(self, game: Game) -> None:
        self.game = game

    @property
    def unit(self) -> Unit:
        return self.game.unit

    def value(self, state: State, seat: int) -> float | None:
        """The expected return of ``seat`` from ``state`` under the tables' play (in ``unit``), given what the
        seat observes; at a terminal state its return; None where the tables hold no value for that state and
        seat."""
        raise NotImplementedError

    def action_values(self, state: State) -> dict[Action, float]:
        """{action: the mover's expected return after it, the tables' play afterwards} for every legal action,
        given what the mover observes."""
        game = self.game
        me = game.to_move(state)
        return {a: self.value(game.apply(state, a), me) for a in game.legal_actions(state)}

    def policy(self, state: State) -> dict[Action, float]:
        """The tables' strategy at a decision: {action: probability} (one action with probability 1 if pure)."""
        return {self.best_actions(state)[0]: 1.0}

    def best_actions(self, state: State) -> tuple[Action, ...]:
        """Every legal action whose value ties with the best, in the game's order."""
        values = self.action_values(state)
        best = self.unit.best(list(values.values()))
        return tuple(a for a, v in values.items() if not self.unit.gain(best, v))

    def decide(self, state: State) -> Action:
        """The action the tables play (the most probable of a mixed strategy; ties: the game's order)."""
        policy = self.policy(state)
        return max(policy, key=lambda a: policy[a])


def json_text(data: JSON) -> str:
    """``data`` as a message shows it: its JSON (cut to ``MAX_JSON_TEXT`` characters), or its repr when it is not
    JSON."""
    try:
        return shown(json.dumps(data), MAX_JSON_TEXT).strip("'")
    except (TypeError, ValueError):
        return shown(data, MAX_JSON_TEXT)


def _frozen(data: JSON) -> Hashable | None:
    """``data`` with its lists as tuples (None for anything unhashable: an object)."""
    if isinstance(data, list):
        items = [_frozen(x) for x in data]
        return None if any(x is None and y is not None for x, y in zip(items, data, strict=True)) else tuple(items)
    return data if isinstance(data, str | int | float | bool | type(None)) else None


def _same(a: JSON, b: JSON) -> bool:
    """Equal as JSON, types included (true is not 1, 1.0 is not 1)."""
    return a == b and json.dumps(a) == json.dumps(b)


def seat_text(seat: int) -> str:
    """A seat as people read it (numbered from 1 in text; JSON numbers seats from 0)."""
    return "chance" if seat == CHANCE else f"player {seat + 1}"


def json_object(data: JSON, what: str, keys: Mapping[str, bool]) -> dict[str, JSON]:
    """``data`` as a JSON object with only ``keys`` (name -> required); ValueError naming an unknown or missing
    key. The one check of every JSON object a game parses (positions, setups, records)."""
    if not isinstance(data, Mapping):
        raise ValueError(f"{what} must be a JSON object, got {type(data).__name__}")
    unknown = [k for k in data if k not in keys]
    if unknown:
        raise ValueError(f"{what}: unknown key {shown(str(unknown[0]), 40)}; keys: {', '.join(keys)}")
    missing = [k for k, required in keys.items() if required and k not in data]
    if missing:
        raise ValueError(f"{what}: missing key {missing[0]!r}")
    return dict(data)
