"""Pig through the game protocol (``lookup.protocol``): the game, its advisor over the tables, and ``SPEC``, the
declaration every generic feature (records, review, simulation, the command line, the page) reads.

A state is ``PigState(scores, mover, turn_total, rolling)``: the two banked scores (seat 0's first), the seat
whose turn it is, its turn total, and whether the die is about to be rolled (a chance node: the start of a turn,
or after "roll") or the mover must choose ("roll" or "hold", after a face that is not the bust face). The game is
over once a score reaches the target.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

from lookup.games import MOVER, Axis, GameSpec, MapSpec, Option
from lookup.pig.rules import (
    ACTIONS,
    DEFAULT_RULES,
    DEFAULT_TARGET,
    HOLD,
    MAX_TARGET,
    ROLL,
    Rules,
    check_target,
    get_rules,
)
from lookup.pig.tables import PigTable, built_targets, load_table
from lookup.protocol import CHANCE, JSON, Action, Advisor, Game, Unit, json_object
from lookup.validate import integer

UNIT = Unit("P(win)", "the probability that the player wins, both playing optimally after", tie=1e-12)


class PigState(NamedTuple):
    scores: tuple[int, int]
    mover: int
    turn_total: int
    rolling: bool


class PigGame(Game):
    """Two-player Pig to ``target`` under ``rules``."""

    name = "pig"
    seats = 2
    unit = UNIT

    def __init__(self, rules: Rules, target: int) -> None:
        self.rules, self.target = rules, check_target(target)
        self._outcomes = tuple((f, rules.p_face) for f in range(1, rules.faces + 1))

    def initial_state(self) -> PigState:
        return PigState((0, 0), 0, 0, True)

    def to_move(self, state: PigState) -> int:
        return CHANCE if state.rolling else state.mover

    def legal_actions(self, state: PigState) -> tuple[str, ...]:
        return () if state.rolling or self.is_terminal(state) else ACTIONS

    def chance_outcomes(self, state: PigState) -> tuple[tuple[int, Fraction], ...]:
        return self._outcomes if state.rolling and not self.is_terminal(state) else ()

    def apply(self, state: PigState, action: Action) -> PigState:
        action = self.canonical(state, action)
        scores, me, turn = state.scores, state.mover, state.turn_total
        if action == HOLD:
            return PigState(_add(scores, me, turn), 1 - me, 0, True)
        if action == ROLL:
            return state._replace(rolling=True)
        if action == self.rules.bust_face:
            return PigState(scores, 1 - me, 0, True)
        if scores[me] + turn + action >= self.target:  # reaching the target wins at once
            return PigState(_add(scores, me, turn + action), me, 0, False)
        return PigState(scores, me, turn + action, False)

    def is_terminal(self, state: PigState) -> bool:
        return max(state.scores) >= self.target

    def returns(self, state: PigState) -> tuple[int, int]:
        """(1, 0) when seat 0 reached the target, (0, 1) when seat 1 did."""
        return (1, 0) if state.scores[0] >= self.target else (0, 1)

    def action_text(self, state: PigState, action: Action) -> str:
        if state.rolling:
            return f"rolls a {action}" + (": the turn is lost" if action == self.rules.bust_face else "")
        return f"{action}s" + (f" (banks {state.turn_total})" if action == HOLD else "")

    def state_text(self, state: PigState) -> str:
        a, b = state.scores
        if self.is_terminal(state):
            return f"scores {a} and {b}: player {1 if a >= self.target else 2} has won"
        return (f"scores {a} and {b} (target {self.target}); player {state.mover + 1} to "
                f"{'roll' if state.rolling else 'roll or hold'} with a turn total of {state.turn_total}")

    def state_json(self, state: PigState) -> dict[str, JSON]:
        return {"scores": list(state.scores), "to_move": state.mover, "turn_total": state.turn_total,
                "rolling": state.rolling}

    def parse_state(self, data: JSON) -> PigState:
        """A position: {"scores": [a, b], "to_move": 0 or 1, "turn_total": k, "rolling": true at the start of a
        turn or when the die is in the air}; ValueError naming what cannot be."""
        data = json_object(data, "Pig position", {"scores": True, "to_move": True, "turn_total": False,
                                                  "rolling": False})
        scores = data["scores"]
        if not isinstance(scores, list) or len(scores) != 2:
            raise ValueError("scores must be a list of the two banked scores")
        over = self.target + self.rules.faces - 1  # the most a winning roll can bring a player to
        a, b = (integer(s, "score", 0, over) for s in scores)
        mover = integer(data["to_move"], "to_move", 0, 1)
        turn = integer(data.get("turn_total", 0), "turn_total", 0, self.target - 1)
        rolling = data.get("rolling", turn == 0)
        if type(rolling) is not bool:
            raise ValueError("rolling must be true or false")
        if max(a, b) >= self.target:  # a finished game: the winner reached the target on its own turn
            if min(a, b) >= self.target or (a, b)[mover] < self.target or turn or rolling:
                raise ValueError(f"scores {a} and {b}: only the player to move may have reached the target "
                                 f"{self.target}, with no turn total and no die rolling")
            return PigState((a, b), mover, 0, False)
        if (a, b)[mover] + turn >= self.target:
            raise ValueError(f"score {(a, b)[mover]} + turn total {turn} reaches the target {self.target}: won")
        if not rolling and turn < min(self.rules.safe_faces):
            raise ValueError(f"turn total {turn}: a choice comes after a face of at least "
                             f"{min(self.rules.safe_faces)} (a turn begins with a roll)")
        if 0 < turn < min(self.rules.safe_faces):
            raise ValueError(f"turn total {turn} cannot be made with the faces {self.rules.safe_faces}")
        return PigState((a, b), mover, turn, rolling)


def _add(scores: tuple[int, int], seat: int, points: int) -> tuple[int, int]:
    return (scores[0] + points, scores[1]) if seat == 0 else (scores[0], scores[1] + points)


class PigAdvisor(Advisor):
    """Optimal play for both seats (P(win) of each), read from the table of the game's target."""

    game: PigGame

    def __init__(self, game: PigGame, table: PigTable) -> None:
        super().__init__(game)
        self.table = table

    def _index(self, state: PigState) -> tuple[int, int, int]:
        me = state.mover
        return state.scores[me], state.scores[1 - me], state.turn_total

    def value(self, state: PigState, seat: int) -> float:
        if self.game.is_terminal(state):
            return float(self.game.returns(state)[seat])
        index = self._index(state)
        mine = float(self.table.roll[index])
        if not state.rolling:
            mine = max(mine, float(self.table.hold[index]))
        return mine if seat == state.mover else 1.0 - mine

    def action_values(self, state: PigState) -> dict[str, float]:
        """Both stored values of the mover: rolling now and holding now."""
        index = self._index(state)
        return {ROLL: float(self.table.roll[index]), HOLD: float(self.table.hold[index])}


def open_pig(setup: dict[str, JSON], artifacts_dir: Path | None) -> PigAdvisor:
    rules = get_rules(DEFAULT_RULES)
    return PigAdvisor(PigGame(rules, setup["target"]), load_table(rules, setup["target"], artifacts_dir))


SPEC = GameSpec(
    name="pig",
    title="Pig",
    summary="Two players race to the target rolling one die: a 1 loses the turn's points and ends the turn; "
            "any other face adds to the turn total, and the player rolls on or holds to bank it.",
    options={"target": Option(DEFAULT_TARGET, "the score to reach", low=1, high=MAX_TARGET)},
    setups=lambda root: [{"target": t} for t in built_targets(get_rules(DEFAULT_RULES), root)],
    open=open_pig,
    map=MapSpec(Axis("score of the player to move", ("scores", MOVER), lambda g: range(g.target)),
                Axis("turn total", ("turn_total",), lambda g: range(g.target))),
)
