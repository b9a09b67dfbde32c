"""Farkle through the game protocol (``lookup.protocol``): the game, its advisor over the tables, and ``SPEC``, the
declaration every generic feature (records, review, simulation, the command line, the page) reads.

A state is ``FarkleState(scores, farkles, mover, turn_total, dice, roll, rolling)``: both banked scores and both
counts of farkles in a row (seat 0's first), the seat whose turn it is, its turn total (points), the dice it rolls
next, and where the turn stands:

* ``rolling``: the dice are about to be rolled, a chance node (the start of a turn, or after "roll"); its
  outcomes are every sorted roll of ``dice`` dice with its exact probability;
* ``roll`` (a sorted tuple of faces): a scoring roll lies on the table and the mover chooses which scoring dice to
  set aside (every scoring sub-multiset, ``lookup.farkle.rules.keeps`` order);
* otherwise the mover chooses to ``"bank"`` (a turn total of at least min_bank) or ``"roll"`` the dice left.

A roll that scores nothing is a farkle: the turn total is lost, the farkle is counted (the penalty paid at the
limit) and the other player's turn begins. Banking a score of at least the target wins at once.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lookup.farkle.rules import (
    BANK,
    DEFAULT_RULES,
    FULL,
    MAX_TARGET,
    MIN_FLOOR,
    ROLL,
    Rules,
    Size,
    after_farkle,
    check_size,
    dice_after,
    farkle_probability,
    get_rules,
    keeps,
    may_bank,
    parse_roll,
    points,
    roll_outcomes,
)
from lookup.farkle.tables import FarkleTable, built_sizes, load_table
from lookup.games import GameSpec, Option
from lookup.protocol import CHANCE, JSON, Action, Advisor, Game, Unit, json_object
from lookup.validate import integer
from lookup.words import counted

MAX_TURN = 100_000  # the largest turn total a position may give (hot dice have no limit; tables end far below)


class FarkleState(NamedTuple):
    scores: tuple[int, int]
    farkles: tuple[int, int]
    mover: int
    turn_total: int
    dice: int
    roll: tuple[int, ...] | None
    rolling: bool


class FarkleGame(Game):
    """Two-player Farkle of ``size`` under ``rules``; values tie within ``tie`` (the tables' error bound)."""

    name = "farkle"
    seats = 2

    def __init__(self, rules: Rules, size: Size, tie: float = 0.0) -> None:
        self.rules, self.size = rules, size
        self.unit = Unit("P(win)", "the probability that the player wins, both playing to win after", tie=tie)

    def initial_state(self) -> FarkleState:
        return FarkleState((0, 0), (0, 0), 0, 0, self.size.dice, None, True)

    def to_move(self, state: FarkleState) -> int:
        return CHANCE if state.rolling else state.mover

    def legal_actions(self, state: FarkleState) -> tuple[Action, ...]:
        if state.rolling or self.is_terminal(state):
            return ()
        if state.roll is not None:
            return tuple(k.dice for k in keeps(state.roll, self.rules))
        return (BANK, ROLL) if may_bank(state.turn_total, self.rules) else (ROLL,)

    def chance_outcomes(self, state: FarkleState) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
        return roll_outcomes(state.dice) if state.rolling and not self.is_terminal(state) else ()

    def apply(self, state: FarkleState, action: Action) -> FarkleState:
        action = self.canonical(state, action)
        me = state.mover
        if state.rolling:
            if keeps(action, self.rules):
                return state._replace(roll=action, rolling=False)
            scores, farkles = list(state.scores), list(state.farkles)
            scores[me], farkles[me] = after_farkle(scores[me], farkles[me], self.rules, self.size)
            return FarkleState(tuple(scores), tuple(farkles), 1 - me, 0, self.size.dice, None, True)
        if state.roll is not None:
            return state._replace(turn_total=state.turn_total + points(action, self.rules),
                                  dice=dice_after(state.dice, len(action), self.size), roll=None)
        if action == ROLL:
            return state._replace(rolling=True)
        scores, farkles = list(state.scores), list(state.farkles)
        scores[me] += state.turn_total
        farkles[me] = 0
        if scores[me] >= self.size.target:  # the game is won: the winner stays the mover, nothing on the table
            return FarkleState(tuple(scores), tuple(farkles), me, 0, self.size.dice, None, False)
        return FarkleState(tuple(scores), tuple(farkles), 1 - me, 0, self.size.dice, None, True)

    def is_terminal(self, state: FarkleState) -> bool:
        return max(state.scores) >= self.size.target

    def returns(self, state: FarkleState) -> tuple[int, int]:
        """(1, 0) when seat 0 reached the target, (0, 1) when seat 1 did."""
        return (1, 0) if state.scores[0] >= self.size.target else (0, 1)

    # -- words and JSON --

    def action_text(self, state: FarkleState, action: Action) -> str:
        if state.rolling:
            return f"rolls {' '.join(map(str, action))}" + ("" if keeps(action, self.rules) else ": farkle")
        if state.roll is not None:
            return f"sets aside {' '.join(map(str, action))} ({points(action, self.rules)} points)"
        if action == BANK:
            return f"banks {state.turn_total}"
        return f"rolls {counted(state.dice, 'die')}"

    def action_json(self, state: FarkleState, action: Action) -> JSON:
        return list(action) if isinstance(action, tuple) else action

    def state_text(self, state: FarkleState) -> str:
        (a, b), (fa, fb) = state.scores, state.farkles
        head = f"scores {a} and {b} (target {self.size.target}), farkles in a row {fa} and {fb}"
        if self.is_terminal(state):
            return f"{head}: player {1 if a >= self.size.target else 2} has won"
        who = f"player {state.mover + 1}"
        if state.rolling:
            return f"{head}; {who} rolls {counted(state.dice, 'die')} with a turn total of {state.turn_total}"
        if state.roll is not None:
            return (f"{head}; {who} rolled {' '.join(map(str, state.roll))} with a turn total of {state.turn_total}:"
                    " which dice to set aside?")
        return (f"{head}; {who} has a turn total of {state.turn_total} and {counted(state.dice, 'die')} to roll: "
                "roll or bank?")

    def state_json(self, state: FarkleState) -> dict[str, JSON]:
        return {"scores": list(state.scores), "farkles": list(state.farkles), "to_move": state.mover,
                "turn_total": state.turn_total, "dice": state.dice,
                "roll": None if state.roll is None else list(state.roll), "rolling": state.rolling}

    def parse_state(self, data: JSON) -> FarkleState:
        """A position: {"scores": [a, b], "farkles": [0, 0], "to_move": 0 or 1, "turn_total": t, "dice": n,
        "roll": [faces] or null, "rolling": bool} (farkles, turn_total, dice, roll and rolling may be left out: no
        farkles, the start of a turn); ValueError naming what cannot be."""
        r, size = self.rules, self.size
        data = json_object(data, "Farkle position", {"scores": True, "farkles": False, "to_move": True,
                                                     "turn_total": False, "dice": False, "roll": False,
                                                     "rolling": False})
        mover = integer(data["to_move"], "to_move", 0, 1)
        scores = _pair(data["scores"], "scores", lambda s, w: self._score(s, w))
        farkles = _pair(data.get("farkles", [0, 0]), "farkles",
                        lambda s, w: integer(s, w, 0, r.farkle_limit - 1))
        turn = integer(data.get("turn_total", 0), "turn_total", 0, MAX_TURN)
        if turn % r.unit:
            raise ValueError(f"turn_total must be a multiple of {r.unit}, got {turn}")
        dice = integer(data.get("dice", size.dice), "dice", 1, size.dice)
        roll = data.get("roll")
        if roll is not None:
            roll = parse_roll(roll, dice)
            if not keeps(roll, r):
                raise ValueError(f"the roll {list(roll)} farkles: the turn is over, nothing to choose")
        rolling = data.get("rolling", roll is None and turn == 0)
        if type(rolling) is not bool:
            raise ValueError("rolling must be true or false")
        if roll is not None and rolling:
            raise ValueError("a roll on the table is not rolling: give rolling false (or no roll)")
        if max(scores) >= size.target:  # a finished game: the winner banked on its own turn
            if min(scores) >= size.target or scores[mover] < size.target or turn or rolling or roll is not None \
                    or dice != size.dice:
                raise ValueError(f"scores {scores[0]} and {scores[1]}: only the player to move may have reached the "
                                 f"target {size.target}, with nothing else on the table")
            return FarkleState(scores, farkles, mover, 0, dice, None, False)
        if turn == 0 and (dice != size.dice or not (rolling or roll is not None)):
            raise ValueError(f"a turn total of 0 is the start of a turn: all {size.dice} dice are rolled "
                             "(rolling true, or their roll given)")
        return FarkleState(scores, farkles, mover, turn, dice, roll, rolling)

    def _score(self, value: JSON, what: str) -> int:
        s = integer(value, what, self.size.floor, self.size.target + MAX_TURN)
        if s % self.rules.unit:
            raise ValueError(f"{what} must be a multiple of {self.rules.unit}, got {s}")
        return s


def _pair(data: JSON, what: str, check) -> tuple[int, int]:
    if not isinstance(data, list) or len(data) != 2:
        raise ValueError(f"{what} must be a list of two numbers, seat 0's first")
    return check(data[0], f"{what}[0]"), check(data[1], f"{what}[1]")


class FarkleAdvisor(Advisor):
    """Play to win for both seats, read from the table of the game's size: P(win) of each seat."""

    game: FarkleGame

    def __init__(self, game: FarkleGame, table: FarkleTable) -> None:
        super().__init__(game)
        self.table = table
        self._farkle = [0.0] + [float(farkle_probability(n, game.rules)) for n in range(1, game.size.dice + 1)]

    def _index(self, state: FarkleState) -> tuple[int, int, int, int]:
        u, floor = self.game.rules.unit, self.game.size.floor
        me = state.mover
        return ((state.scores[me] - floor) // u, state.farkles[me], (state.scores[1 - me] - floor) // u,
                state.farkles[1 - me])

    def _bank(self, pos: tuple[int, int, int, int], t: int) -> float:
        """The mover's value of banking a turn total of ``t`` units (allowed: t >= min_bank)."""
        i, _, j, g = pos
        lay = self.table.layout
        return 1.0 if i + t >= lay.NB else 1.0 - float(self.table.start[j, g, i + t, 0])

    def _roll(self, pos: tuple[int, int, int, int], turn: np.ndarray | None, t: int, n: int) -> float:
        """R(t, n): the mover's value of rolling n dice with a turn total of t units."""
        i, f, j, g = pos
        lay = self.table.layout
        if t < lay.rows(i):
            return float(turn[t, n - 1]) if turn is not None else self.table.roll_value(i, f, j, g, t, n)
        # Past the stored rows the turn total has won: every scoring roll still wins, a farkle loses it.
        exit_ = (j, g, i, f + 1) if f < lay.FL - 1 else (j, g, max(i - self.game.rules.penalty // self.game.rules.unit,
                                                                     0), 0)
        pf = self._farkle[n]
        return pf * (1.0 - float(self.table.start[exit_])) + (1.0 - pf)

    def _choose(self, pos: tuple[int, int, int, int], turn: np.ndarray | None, t: int, n: int) -> float:
        """V(t, n): the better of banking (where allowed) and rolling."""
        rolled = self._roll(pos, turn, t, n)
        if t < self.game.rules.min_bank // self.game.rules.unit:
            return rolled
        banked = self._bank(pos, t)
        return banked if banked >= rolled else rolled

    def _turn(self, pos: tuple[int, int, int, int]) -> np.ndarray:
        return self.table.turn_values(*pos)

    def _mine(self, state: FarkleState) -> float:
        pos = self._index(state)
        u = self.game.rules.unit
        t = state.turn_total // u
        if state.rolling:
            return self._roll(pos, None, t, state.dice)
        if state.roll is not None:
            return max(self.action_values(state).values())
        return self._choose(pos, None, t, state.dice)

    def value(self, state: FarkleState, seat: int) -> float:
        if self.game.is_terminal(state):
            return float(self.game.returns(state)[seat])
        mine = self._mine(state)
        return mine if seat == state.mover else 1.0 - mine

    def action_values(self, state: FarkleState) -> dict[Action, float]:
        """Setting dice aside: the value of each keep (the choice after it played as the tables do); before a
        roll: banking (where allowed) and rolling."""
        game = self.game
        pos = self._index(state)
        u = game.rules.unit
        t = state.turn_total // u
        if state.roll is not None:
            turn = self._turn(pos)
            return {k: self._choose(pos, turn, t + points(k, game.rules) // u,
                                    dice_after(state.dice, len(k), game.size)) for k in game.legal_actions(state)}
        out = {}
        if may_bank(state.turn_total, game.rules):
            out[BANK] = self._bank(pos, t)
        out[ROLL] = self._roll(pos, None, t, state.dice)
        return out


def open_farkle(setup: dict[str, JSON], artifacts_dir: Path | None) -> FarkleAdvisor:
    rules = get_rules(DEFAULT_RULES)
    size = check_size(setup["target"], setup["floor"], setup["dice"], rules)
    table = load_table(rules, size, artifacts_dir)
    return FarkleAdvisor(FarkleGame(rules, size, tie=2 * table.bound), table)


SPEC = GameSpec(
    name="farkle",
    title="Farkle",
    summary="Two players race to 10,000 with six dice: after each roll the player sets aside scoring dice (1s, 5s, "
            "three or more of a kind, a straight, three pairs) and rolls the rest or banks the turn total (300 at "
            "least); a roll that scores nothing loses the turn total, and three such farkles in a row cost 500.",
    options={"target": Option(FULL.target, "a banked score of at least this wins", low=50, high=MAX_TARGET),
             "floor": Option(FULL.floor, "the lowest banked score (the farkle penalty stops there)", low=MIN_FLOOR,
                             high=0),
             "dice": Option(FULL.dice, "the number of dice", low=1, high=6)},
    setups=lambda root: [{"target": s.target, "floor": s.floor, "dice": s.dice}
                         for s in built_sizes(get_rules(DEFAULT_RULES), root)],
    open=open_farkle,
)
