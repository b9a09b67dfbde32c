"""Yahtzee's game through the protocol (``lookup.protocol``): positions, chance outcomes and actions for every
rule set (Maxi Yatzy and forced order included), with 1 to 3 seats. The declaration (``SPEC``: the setups and
their advisors) is ``lookup.yahtzee.game``.

A state is ``YState(sheets, mover, dice, rerolls, kept)``: each seat's sheet (its boxes in sheet order, None
when open, and its Yahtzee bonus points), the seat whose turn it is, the dice on the table (sorted pips; None
before the turn's first roll), the rerolls left, and the faces kept for a reroll (a chance node) or None.

* Chance: the turn's first roll (every sorted roll of all the dice), and each reroll (every sorted roll that
  the kept faces and the rerolled dice can make), with exact probabilities.
* Decisions: with rerolls left, which faces to keep (every distinct sub-multiset of the dice, in the tie order
  of ``decide``: fewest dice rerolled, then lowest mask; keeping all the dice passes to the next roll's decision
  without rolling); with none left, the box to score (those the sheet allows, Joker and forced order included).
* Seats take whole turns in seat order; the game is over when every sheet is full.

What a seat receives (``returns``) is the game's objective (the setup's ``objective``): "expected" its final
score (points); "goal" 1 when the final score reaches ``target``, else 0; "beat" 1 / 1/2 / 0 as it beats, ties or
not the known final score ``target``; "opponent" (two seats: seat 0 plays to win against seat 1, who plays for
expected score) and "win" (two or three seats, forced order, every seat plays to win) the seat's share: 1 for a
sole highest total, 1/m for m tied highest totals. The advisors over the tables are ``lookup.yahtzee.advisors``.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any, NamedTuple

from lookup.protocol import CHANCE, JSON, Action, Game, Unit, json_object
from lookup.validate import dice_text, integer, shown
from lookup.words import counted
from lookup.yahtzee.rules import Rules
from lookup.yahtzee.sheet import Sheet, category_index, parse_dice
from lookup.yahtzee.turn import PROBABILITY_TIE_REL, TIE_EPS

ROLLS = 3  # one roll and two rerolls, every rule set
POINTS = Unit("points", "the expected final score, optimal play after", digits=4, tie=TIE_EPS)
SHARE = Unit("share", "the expected share of the game: 1 for a sole win, 1/m for a tie of m, 0 for a loss",
             digits=6, tie_rel=PROBABILITY_TIE_REL)
GOAL = Unit("P(goal)", "the probability of reaching the goal", digits=6, tie_rel=PROBABILITY_TIE_REL)
SheetKey = tuple[tuple[int | None, ...], int]  # (boxes, Yahtzee bonus points)


class YState(NamedTuple):
    sheets: tuple[SheetKey, ...]
    mover: int
    dice: tuple[int, ...] | None
    rerolls: int
    kept: tuple[int, ...] | None


@cache
def roll_outcomes(n_faces: int, kept: tuple[int, ...], n_dice: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every sorted roll of ``n_dice`` dice that keeping ``kept`` and rerolling the others can give, with its exact
    probability (the multinomial count of the rerolled dice over n_faces ** rerolled)."""
    m = n_dice - len(kept)
    out = []
    for faces in combinations_with_replacement(range(1, n_faces + 1), m):
        ways = factorial(m) // prod(factorial(faces.count(f)) for f in set(faces))
        out.append((tuple(sorted(kept + faces)), Fraction(ways, n_faces ** m)))
    return tuple(out)


@cache
def keep_options(rules: Rules, dice: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The distinct keeps of sorted ``dice`` in the tie order (fewest dice rerolled, then lowest mask)."""
    enc = rules.encoding
    roll = enc.roll_index([d - 1 for d in dice])
    seen, out = set(), []
    for mask in enc.mask_order:
        k = int(enc.keep_of_mask[roll, mask])
        if k not in seen:
            seen.add(k)
            out.append(tuple(int(f) + 1 for f in enc.keeps[k]))
    return tuple(out)


def sheet_of(key: SheetKey, rules: Rules) -> Sheet:
    return Sheet(list(key[0]), rules, key[1])


def key_of(sheet: Sheet) -> SheetKey:
    return tuple(sheet.boxes), sheet.yahtzee_bonus


class YahtzeeGame(Game):
    """Yahtzee under ``rules`` with ``seats`` players and an ``objective`` (see the module docstring)."""

    name = "yahtzee"

    def __init__(self, rules: Rules, seats: int = 1, objective: str = "expected", target: int | None = None) -> None:
        self.rules, self.seats, self.objective, self.target = rules, seats, objective, target
        self.unit = {"expected": POINTS, "goal": GOAL}.get(objective, SHARE)
        if objective == "beat":
            self.unit = Unit("P(win)", f"the probability of beating {target} (a tie counts half)", digits=6,
                             tie_rel=PROBABILITY_TIE_REL)

    def initial_state(self) -> YState:
        empty = ((None,) * self.rules.n_boxes, 0)
        return YState((empty,) * self.seats, 0, None, ROLLS - 1, None)

    def sheet(self, state: YState, seat: int | None = None) -> Sheet:
        """The sheet of ``seat`` (default: the mover) as a ``Sheet``."""
        return sheet_of(state.sheets[state.mover if seat is None else seat], self.rules)

    def to_move(self, state: YState) -> int:
        return CHANCE if state.dice is None or state.kept is not None else state.mover

    def legal_actions(self, state: YState) -> tuple[Action, ...]:
        if self.is_terminal(state) or self.to_move(state) == CHANCE:
            return ()
        if state.rerolls:
            return keep_options(self.rules, state.dice)
        return tuple(self.sheet(state).allowed(state.dice))

    def chance_outcomes(self, state: YState) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        if self.is_terminal(state) or self.to_move(state) != CHANCE:
            return ()
        return roll_outcomes(self.rules.n_faces, state.kept or (), self.rules.n_dice)

    def apply(self, state: YState, action: Action) -> YState:
        action = self.canonical(state, action)
        if state.dice is None:  # the turn's first roll
            return state._replace(dice=action, rerolls=ROLLS - 1)
        if state.kept is not None:  # a reroll
            return state._replace(dice=action, rerolls=state.rerolls - 1, kept=None)
        if state.rerolls:
            if len(action) == self.rules.n_dice:  # keeping every die: on to the next roll's decision
                return state._replace(rerolls=state.rerolls - 1)
            return state._replace(kept=action)
        sheet = self.sheet(state)
        sheet.score(action, state.dice)
        sheets = state.sheets[:state.mover] + (key_of(sheet),) + state.sheets[state.mover + 1:]
        return YState(sheets, (state.mover + 1) % self.seats, None, ROLLS - 1, None)

    def is_terminal(self, state: YState) -> bool:
        return all(None not in boxes for boxes, _ in state.sheets)

    def totals(self, state: YState) -> list[int]:
        return [sheet_of(k, self.rules).total for k in state.sheets]

    def returns(self, state: YState) -> tuple[float | Fraction, ...]:
        totals = self.totals(state)
        if self.objective == "expected":
            return (float(totals[0]),)
        if self.objective == "goal":
            return (1.0 if totals[0] >= self.target else 0.0,)
        if self.objective == "beat":
            return (1.0 if totals[0] > self.target else 0.5 if totals[0] == self.target else 0.0,)
        top = max(totals)
        winners = totals.count(top)
        return tuple(Fraction(1, winners) if t == top else Fraction(0) for t in totals)

    # -- words and JSON --

    def action_json(self, state: YState, action: Action) -> JSON:
        return list(action) if isinstance(action, tuple) else action

    def parse_action(self, state: YState, data: JSON) -> Action:
        """Dice and keeps in any order (sorted here), a roll also as typed (``roll``), boxes by name in any
        spelling ``category_index`` reads."""
        if self.to_move(state) == CHANCE and (isinstance(data, list) or type(data) in (str, int)):
            data = self.roll(state, data)
        elif isinstance(data, list) and all(type(d) is int for d in data):
            data = sorted(data)
        elif type(data) is str and self.to_move(state) != CHANCE and not state.rerolls:
            try:
                data = self.rules.categories[category_index(data[:40], self.rules)]
            except ValueError:
                pass  # worded below, with the boxes allowed
        return super().parse_action(state, data)

    def roll(self, state: YState, data: JSON) -> list[int]:
        """The roll ``data`` at the chance node ``state``, sorted: a list of faces, or the dice as typed
        (``dice_text``: "13356", "1 3 3 5 6", "1,3,3,5,6"; digits typed alone may come as a JSON number, 13356);
        all the dice or, at a reroll, only those rolled again (the faces kept are added). ValueError naming a
        word that is not dice, a wrong count or face, or a roll that does not hold the dice kept."""
        faces = dice_text(str(data)) if type(data) in (str, int) else data
        n, kept = self.rules.n_dice, list(state.kept or ())
        if kept and isinstance(faces, list | tuple) and len(faces) not in (n, n - len(kept)):
            raise ValueError(f"a reroll: {n} dice, or the {counted(n - len(kept), 'die')} rolled again; got "
                             f"{len(faces)}: {shown(list(faces))}")
        if kept and len(faces) == n - len(kept):
            faces = [*kept, *faces]
        roll = sorted(parse_dice(faces, self.rules))  # its count and faces checked, and worded
        if any(roll.count(f) < kept.count(f) for f in kept):
            raise ValueError(f"the roll {roll} does not hold the dice kept, {kept}")
        return roll

    def action_text(self, state: YState, action: Action) -> str:
        if self.to_move(state) == CHANCE:
            return f"rolls {list(action)}" if state.kept is None else f"rerolls to {list(action)}"
        if state.rerolls:
            if len(action) == self.rules.n_dice:
                return "keep all"
            return f"keep {list(action)}, reroll {self.rules.n_dice - len(action)}" if action else "reroll all"
        points = self.sheet(state).allowed(state.dice)[action]
        return f"score {action.replace('_', ' ')} ({counted(points, 'point')})"

    def state_text(self, state: YState) -> str:
        seats = [f"player {s + 1}: {counted(sheet_of(k, self.rules).total, 'point')}, "
                 f"{counted(sum(b is None for b in k[0]), 'box')} open" for s, k in enumerate(state.sheets)]
        if self.is_terminal(state):
            return "; ".join(seats) + "; the game is over"
        who = f"player {state.mover + 1}" if self.seats > 1 else "the player"
        if state.dice is None:
            now = f"{who} rolls the dice"
        elif state.kept is not None:
            now = f"{who} keeps {list(state.kept)} and rerolls {counted(self.rules.n_dice - len(state.kept), 'die')}"
        else:
            left = f"{counted(state.rerolls, 'reroll')} left" if state.rerolls else "time to score"
            now = f"dice {list(state.dice)}, {left}"
        return "; ".join(seats) + f"; {now}"

    def state_json(self, state: YState) -> dict[str, JSON]:
        return {"sheets": [sheet_of(k, self.rules).to_dict() for k in state.sheets], "to_move": state.mover,
                "dice": None if state.dice is None else list(state.dice), "rerolls": state.rerolls,
                "kept": None if state.kept is None else list(state.kept)}

    def parse_state(self, data: JSON) -> YState:
        """A position: {"sheets": [one sheet per seat (a mapping box -> points, as ``decide`` takes)], "to_move":
        the seat whose turn it is, "dice": the dice on the table or null before the turn's first roll,
        "rerolls": rerolls left (default 2), "kept": faces kept for a reroll, or null}; ValueError naming what
        cannot be."""
        data = json_object(data, "Yahtzee position", {"sheets": True, "to_move": False, "dice": False,
                                                      "rerolls": False, "kept": False})
        sheets = data["sheets"]
        if not isinstance(sheets, list) or len(sheets) != self.seats:
            raise ValueError(f"sheets must be a list of {counted(self.seats, 'sheet')}, one per seat")
        parsed = [Sheet.parse(s, self.rules) for s in sheets]
        mover = integer(data.get("to_move", 0), "to_move", 0, self.seats - 1)
        filled = [sum(b is not None for b in s.boxes) for s in parsed]
        if not all(s.finished for s in parsed):
            base = filled[mover]
            expected = [base + 1 if seat < mover else base for seat in range(self.seats)]
            if filled != expected:
                raise ValueError(f"boxes filled per seat {filled}: with player {mover + 1} to move, the players "
                                 f"before have played one more turn ({expected})")
        elif mover:
            raise ValueError("the game is over: to_move must be 0")
        dice = data.get("dice")
        rerolls = integer(data.get("rerolls", ROLLS - 1), "rerolls", 0, ROLLS - 1)
        kept = data.get("kept")
        state = YState(tuple(key_of(s) for s in parsed), mover, None, ROLLS - 1, None)
        if self.is_terminal(state):
            if dice is not None or kept is not None or rerolls != ROLLS - 1:
                raise ValueError("the game is over: no dice on the table")
            return state
        if dice is None:
            if kept is not None or rerolls != ROLLS - 1:
                raise ValueError("no dice on the table: nothing is kept, 2 rerolls are left")
            return state
        dice = tuple(sorted(parse_dice(dice, self.rules)))
        if kept is not None:
            if not rerolls:
                raise ValueError("kept dice wait for a reroll, but no reroll is left")
            kept = tuple(sorted(integer_keep(kept, self.rules)))
            if kept not in keep_options(self.rules, dice):
                raise ValueError(f"kept {list(kept)}: not some of the dice {list(dice)}")
        return YState(state.sheets, mover, dice, rerolls, kept)


def integer_keep(kept: Any, rules: Rules) -> tuple[int, ...]:
    """Faces kept (fewer than all the dice), each 1..n_faces; ValueError otherwise."""
    if not isinstance(kept, list) or len(kept) >= rules.n_dice:
        raise ValueError(f"kept must be a list of fewer than {rules.n_dice} faces")
    return tuple(integer(f, "kept face", 1, rules.n_faces) for f in kept)
