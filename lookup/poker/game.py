"""A hold'em hand from the deal to the showdown through the game protocol (``lookup.protocol``): calling an all-in
bet against random hands (``lookup.poker.decide``'s question), its advisor over the preflop table and the exact
equity, and ``SPEC``.

One seat (the caller) against ``opponents`` players who are all in with random hands: ``pot`` chips are in the
middle (their bets included) and calling costs ``to_call``. A state is ``HandState(hole, called, board, hands)``:

- ``hole`` empty: a chance node deals the caller's two cards (1,326 equally likely pairs);
- ``called`` None: the caller's decision, "fold" or "call" (in that order: a tie folds, as ``decide``);
- folded: the hand is over (return 0);
- called: chance nodes deal the board (the flop's three cards at once, the turn, the river), then each opponent's
  two cards from what is left, one opponent at a time (in law the same as any other order of dealing: no one
  decides after the call); then the showdown.

The return is in chips, the net of calling rather than folding: ``share * (pot + to_call) - to_call`` for a
call (``share`` the caller's part of the final pot: 1 alone at the top, 1/k split k ways, 0 beaten), 0 for a
fold. Values are its expectation: before the flop from the preflop table (``lookup.poker.equity``, exact against
one random hand, as the table holds it against more), from the flop on the exact equity of the known cards
(counted by ``lookup.poker.equity``; against more than three unknown hands when the count fits its default budget,
else None: on the river and the turn it mostly does, on the flop mostly not); the decision's values are
``decide``'s: folding 0, calling its ``gain``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations
from math import comb
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lookup.games import GameSpec, Option
from lookup.poker.cards import DECK_SIZE, card_text, hand_class, parse_cards
from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES, FORMULA_OPPONENTS, MAX_BUDGET, MIN_DEALS, equity
from lookup.poker.evaluate import values
from lookup.poker.play import call_gain
from lookup.poker.rules import HOLE_CARDS, MAX_PLAYERS
from lookup.poker.tables import EvaluatorTables, built_preflop, load_evaluator
from lookup.protocol import CHANCE, JSON, Action, Advisor, Game, Unit, json_object
from lookup.store import ArtifactError
from lookup.validate import integer
from lookup.words import counted

FOLD, CALL = "fold", "call"
ACTIONS = (FOLD, CALL)
MAX_CHIPS = 10**12  # whole chips: any real stake
STREETS = {0: "the flop", 3: "the turn", 4: "the river"}  # what the board's next cards are called
UNIT = Unit("chips", "the expected net chips of calling rather than folding (a fold is 0)", digits=2)
Cards = tuple[int, ...]


class HandState(NamedTuple):
    hole: Cards = ()
    called: bool | None = None
    board: Cards = ()
    hands: tuple[Cards, ...] = ()


def _text(cards: Cards) -> str:
    return "".join(card_text(c) for c in cards)


class PokerHand(Game):
    """One hand: call or fold ``to_call`` chips into ``pot`` against ``opponents`` all-in random hands."""

    name = "poker"
    seats = 1
    unit = UNIT

    def __init__(self, opponents: int, pot: int, to_call: int, evaluator: EvaluatorTables) -> None:
        self.opponents = integer(opponents, "opponents", 1, MAX_PLAYERS - 1)
        self.pot = integer(pot, "pot", 1, MAX_CHIPS)
        self.to_call = integer(to_call, "to_call", 1, MAX_CHIPS)
        self.evaluator = evaluator

    def initial_state(self) -> HandState:
        return HandState()

    def _dealing(self, state: HandState) -> int:
        """How many cards the next chance node deals (0 at the decision or at the end)."""
        if not state.hole:
            return HOLE_CARDS
        if not state.called:
            return 0
        if len(state.board) < 5:
            return 3 if not state.board else 1
        return HOLE_CARDS if len(state.hands) < self.opponents else 0

    def to_move(self, state: HandState) -> int:
        return CHANCE if self._dealing(state) else 0

    def legal_actions(self, state: HandState) -> tuple[str, ...]:
        return ACTIONS if state.hole and state.called is None else ()

    def _used(self, state: HandState) -> set[int]:
        return {*state.hole, *state.board, *(c for h in state.hands for c in h)}

    def chance_outcomes(self, state: HandState) -> tuple[tuple[Cards, Fraction], ...]:
        """Every set of the cards dealt next (sorted card indices) from the cards still in the deck, equally
        likely."""
        k = self._dealing(state)
        if not k:
            return ()
        used = self._used(state)
        deck = [c for c in range(DECK_SIZE) if c not in used]
        p = Fraction(1, comb(len(deck), k))
        return tuple((cards, p) for cards in combinations(deck, k))

    def canonical(self, state: HandState, action: Action) -> Action:
        """The action, or the dealt cards as a sorted tuple, when legal here (checked without listing the up to
        19,600 flops)."""
        if self.is_terminal(state):
            raise ValueError("poker: the hand is over, nothing more happens")
        k = self._dealing(state)
        if not k:
            if action in ACTIONS:
                return action
            raise ValueError(f"poker: action {action!r} is not legal here; legal: {', '.join(ACTIONS)}")
        cards = tuple(sorted(parse_cards(action if isinstance(action, str) else list(action), "dealt cards")))
        if len(cards) != k:
            raise ValueError(f"poker: this deal is of {counted(k, 'card')}, got {len(cards)}")
        used = self._used(state)
        taken = [c for c in cards if c in used]
        if taken:
            raise ValueError(f"poker: the card {card_text(taken[0])} is already dealt")
        return cards

    def parse_action(self, state: HandState, data: JSON) -> Action:
        """"fold" or "call" at the decision, the dealt cards as text ("AsKd", "2c7dJh") at a chance node."""
        if self.to_move(state) == CHANCE and not isinstance(data, str):
            raise ValueError(f"poker: dealt cards are written as text such as 'AsKd', got {type(data).__name__}")
        if self.to_move(state) != CHANCE and data not in ACTIONS:
            raise ValueError(f"poker: action {str(data)[:40]!r} is not legal here; legal: {', '.join(ACTIONS)}")
        return self.canonical(state, data)

    def apply(self, state: HandState, action: Action) -> HandState:
        action = self.canonical(state, action)
        if action in ACTIONS:
            return state._replace(called=action == CALL)
        if not state.hole:
            return state._replace(hole=action)
        if len(state.board) < 5:
            return state._replace(board=state.board + action)
        return state._replace(hands=(*state.hands, action))

    def is_terminal(self, state: HandState) -> bool:
        return state.called is False or (state.called is True and len(state.hands) == self.opponents)

    def share(self, state: HandState) -> Fraction:
        """The caller's share of the final pot at the showdown: 1 / (players tied at the top), 0 when beaten."""
        hands = np.array([(*state.board, *h) for h in (state.hole, *state.hands)], dtype=np.int64)
        v = values(hands, self.evaluator)
        return Fraction(1, int((v == v.max()).sum())) if v[0] == v.max() else Fraction(0)

    def returns(self, state: HandState) -> tuple[Fraction]:
        """The chips the call netted against folding: ``share * (pot + to_call) - to_call``; 0 for a fold."""
        return (self.share(state) * (self.pot + self.to_call) - self.to_call if state.called else Fraction(0),)

    # -- words and JSON --

    def action_json(self, state: HandState, action: Action) -> JSON:
        return action if action in ACTIONS else _text(action)

    def action_text(self, state: HandState, action: Action) -> str:
        if action in ACTIONS:
            return f"{action}s" + (f" {self.to_call} into a pot of {self.pot}" if action == CALL else "")
        cards = " ".join(card_text(c) for c in action)
        if not state.hole:
            return f"deals {cards}"
        if len(state.board) < 5:
            return f"{STREETS[len(state.board)]}: {cards}"
        return f"player {len(state.hands) + 2} shows {cards}"

    def state_text(self, state: HandState) -> str:
        if not state.hole:
            return (f"{counted(self.opponents, 'opponent')} all in, pot {self.pot}, {self.to_call} to call; the deal "
                    "is next")
        parts = [f"hand {' '.join(map(card_text, state.hole))}, pot {self.pot}, {self.to_call} to call"]
        if state.called is None:
            return parts[0] + ": call or fold"
        if not state.called:
            return parts[0] + ": folded"
        if state.board:
            parts.append(f"board {' '.join(map(card_text, state.board))}")
        parts += [f"player {i + 2} {' '.join(map(card_text, h))}" for i, h in enumerate(state.hands)]
        if self.is_terminal(state):
            parts.append(f"the call nets {float(self.returns(state)[0]):.2f}")
        return "; ".join(parts)

    def state_json(self, state: HandState) -> dict[str, JSON]:
        return {"hole": _text(state.hole), "called": state.called, "board": _text(state.board),
                "hands": [_text(h) for h in state.hands]}

    def parse_state(self, data: JSON) -> HandState:
        """A position: {"hole": "AsKd" ("" before the deal), "called": null before the decision, true or false,
        "board": "2c7dJh" (0, 3, 4 or 5 cards), "hands": the opponents' hands shown ["QhQd", ...] (after the
        river)}; ValueError naming what cannot be."""
        data = json_object(data, "poker position", {"hole": True, "called": False, "board": False, "hands": False})
        if any(not isinstance(data.get(k, ""), str) for k in ("hole", "board")):
            raise ValueError("hole and board must be cards written as text, such as 'AsKd'")
        hole, board = parse_cards(data["hole"], "hole"), parse_cards(data.get("board", ""), "board")
        called, hands = data.get("called"), data.get("hands", [])
        if called is not None and type(called) is not bool:
            raise ValueError("called must be true, false or null")
        if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
            raise ValueError("hands must be a list of two-card hands written as text")
        shown = tuple(parse_cards(h, "hand") for h in hands)
        if len(hole) not in (0, HOLE_CARDS) or any(len(h) != HOLE_CARDS for h in shown):
            raise ValueError("a hand is two cards")
        if len(board) not in (0, 3, 4, 5) or len(shown) > self.opponents:
            raise ValueError(f"a board of {counted(len(board), 'card')} and {counted(len(shown), 'hand')} shown: not "
                             f"a position of this hand ({counted(self.opponents, 'opponent')})")
        every = [*hole, *board, *(c for h in shown for c in h)]
        if len(set(every)) != len(every):
            raise ValueError("a card is dealt twice")
        dealt_late = bool(board or shown)
        if (not hole and (called is not None or dealt_late)) or (not called and dealt_late) or \
                (shown and len(board) < 5):
            raise ValueError("the cards come in order: the hand, the decision, the board, then the opponents' hands")
        return HandState(tuple(sorted(hole)), called, tuple(sorted(board[:3])) + board[3:], tuple(
            tuple(sorted(h)) for h in shown))


class PokerAdvisor(Advisor):
    """The preflop table and the exact equity: ``decide``'s answer at the decision, the expected net chips of the
    call at every later state."""

    # The turn's and the river's cards are valued one by one when a position is shown; the 1,225 hands of an
    # opponent or the 19,600 flops are not: after each, the equity is an exact count of its own (seconds each).
    valued_outcomes = 64

    game: PokerHand

    def __init__(self, game: PokerHand, artifacts_dir: Path | None) -> None:
        super().__init__(game)
        self.artifacts_dir = artifacts_dir
        self._memo: dict[HandState, float | None] = {}

    def _called(self, state: HandState) -> float | None:
        """The expected net chips of a call, given the cards known at ``state`` (None where lookup does not count
        the equity exactly within its default budget after the flop)."""
        if state in self._memo:
            return self._memo[state]
        game = self.game
        unknown = game.opponents - len(state.hands)
        # Closed formulas count up to FORMULA_OPPONENTS in a time known beforehand; more are counted when they fit
        # the library's default budget, and the few deals drawn when they do not are not used (None).
        formula = unknown <= FORMULA_OPPONENTS
        eq = equity([state.hole, *state.hands], state.board, unknown, budget=MAX_BUDGET if formula else DEFAULT_BUDGET,
                    samples=MIN_DEALS if state.board and not formula else DEFAULT_SAMPLES,
                    artifacts_dir=self.artifacts_dir)
        found = float(call_gain(eq, game.pot, game.to_call)[1]) if eq.exact or not state.board else None
        self._memo[state] = found
        return found

    def _start(self) -> float:
        """Before the deal: the mean over the 1,326 hands of the better of folding and calling (the table's
        equity of each of the 169 classes, a class's hands alike)."""
        if HandState() not in self._memo:
            total = sum(n * max(0.0, self._called(HandState(hand, True))) for hand, n in _classes())  # type: ignore
            self._memo[HandState()] = total / comb(DECK_SIZE, HOLE_CARDS)
        return self._memo[HandState()]  # type: ignore[return-value]

    def value(self, state: HandState, seat: int) -> float | None:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[seat])
        if not state.hole:
            return self._start()
        if state.called is None:
            return max(0.0, self._called(state._replace(called=True)))  # type: ignore[type-var]
        return self._called(state)

    def action_values(self, state: HandState) -> dict[str, float | None]:
        """Folding 0, calling ``decide``'s gain: the equity of the hand against the random hands (the preflop
        table) times the final pot, less the call."""
        return {FOLD: 0.0, CALL: self._called(state._replace(called=True))}


@cache
def _classes() -> tuple[tuple[Cards, int], ...]:
    """One hand of each of the 169 starting-hand classes, and how many of the 1,326 hands the class holds."""
    found: dict[int, list] = {}
    for hand in combinations(range(DECK_SIZE), HOLE_CARDS):
        found.setdefault(hand_class(hand), [hand, 0])[1] += 1
    return tuple((hand, n) for hand, n in found.values())


def setups(root: Path) -> list[dict[str, JSON]]:
    """One setup per number of opponents the preflop table holds (pot 100, 50 to call: calling needs an equity
    above 1/3); [] when it is not built."""
    try:
        tables = built_preflop(root)
        load_evaluator(root)
    except ArtifactError:
        return []
    if tables is None:
        return []
    rows = tables.arrays["multi_equity"].shape[0]
    return [{"opponents": k, "pot": DEFAULT_POT, "to_call": DEFAULT_TO_CALL} for k in range(1, rows + 1)]


def open_hand(setup: dict[str, JSON], artifacts_dir: Path | None) -> PokerAdvisor:
    tables = built_preflop(artifacts_dir)
    rows = 0 if tables is None else tables.arrays["multi_equity"].shape[0]
    opponents = int(setup["opponents"])  # type: ignore[arg-type]
    if not 1 <= opponents <= rows:
        raise ValueError(f"opponents {opponents}: the preflop table covers 1..{rows} random hands")
    game = PokerHand(opponents, int(setup["pot"]), int(setup["to_call"]),  # type: ignore[arg-type]
                     load_evaluator(artifacts_dir))
    return PokerAdvisor(game, artifacts_dir)


DEFAULT_POT, DEFAULT_TO_CALL = 100, 50

SPEC = GameSpec(
    name="poker",
    title="Hold'em: call or fold",
    summary="Texas hold'em, one decision: the opponents are all in with random hands; call (the board is dealt "
            "and the best five of seven cards share the pot) or fold.",
    options={"opponents": Option(1, "how many opponents are all in", low=1, high=MAX_PLAYERS - 1),
             "pot": Option(DEFAULT_POT, "chips in the middle, the opponents' bets included", low=1, high=MAX_CHIPS),
             "to_call": Option(DEFAULT_TO_CALL, "chips it costs to call", low=1, high=MAX_CHIPS)},
    setups=setups,
    open=open_hand,
)
