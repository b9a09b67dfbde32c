"""Pig's rules as data (stated in docs/pig.md, "Rules"): one die, a 1 loses the turn, hold to bank it.

Two players race to a target (100). On a turn the player rolls one die, again and again: a 1 scores nothing for
the turn and ends it; any other face adds to the turn total, and the player chooses to roll again or to hold,
banking the turn total. A turn begins with a roll. A player whose banked score plus turn total reaches the target
wins at once (holding there is always best, so this changes no value and no decision that matters).

One definition for everything: the solver (``pipeline.pig``), the protocol game (``lookup.pig.game``) and the
answers (``lookup.pig.play``) read these constants and functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from lookup.naming import by_name
from lookup.validate import integer

ROLL, HOLD = "roll", "hold"
ACTIONS = (ROLL, HOLD)  # the documented order: ties (exactly equal values) go to rolling
MAX_TARGET = 1000  # the largest target a table may be built or asked for (a 1000-point table is 4 GB)


@dataclass(frozen=True)
class Rules:
    """Pig's one rule set: a die of ``faces`` faces; ``bust_face`` ends the turn with nothing."""

    name: str = "standard"
    faces: int = 6
    bust_face: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "faces": self.faces, "bust_face": self.bust_face}

    @property
    def p_face(self) -> Fraction:
        return Fraction(1, self.faces)

    @property
    def safe_faces(self) -> tuple[int, ...]:
        return tuple(f for f in range(1, self.faces + 1) if f != self.bust_face)


RULE_SETS: dict[str, Rules] = {"standard": Rules()}
DEFAULT_RULES = "standard"
DEFAULT_TARGET = 100


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules passes through); ValueError for an unknown one."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "Pig rule set")


def check_target(target: Any) -> int:
    """The target as an int; ValueError unless it is an integer in 1..MAX_TARGET."""
    return integer(target, "target", 1, MAX_TARGET)


def check_position(my_score: Any, other_score: Any, turn_total: Any, target: int) -> tuple[int, int, int]:
    """(my_score, other_score, turn_total) as ints; ValueError naming the bad one: scores in 0..target-1 (a score
    at the target has won), turn total in 0..target-1-my_score (reaching the target wins at once)."""
    mine = integer(my_score, "my_score", 0, target - 1)
    other = integer(other_score, "other_score", 0, target - 1)
    turn = integer(turn_total, "turn_total", 0)
    if mine + turn >= target:
        raise ValueError(f"my_score {mine} + turn_total {turn} reaches the target {target}: the game is won, "
                         "there is nothing to decide")
    return mine, other, turn
