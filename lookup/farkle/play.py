"""Play-time answers for Farkle, thin entry points over the protocol's advisor (``lookup.farkle.game``).

Every function takes the position from the asking player's view: ``my_score`` and ``other_score`` (banked points),
``turn_total`` (0 at the start of a turn, where all the dice are rolled), ``dice`` (the dice to roll next, or just
rolled), ``roll`` (the faces on the table after a roll, or None before a roll) and both counts of farkles in a row.
``setup`` picks the table ({"target", "floor", "dice"}; default the full game, 10,000 / -2,500 / 6 dice). Values are
the probability that the asking player wins, both playing to win.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from lookup.farkle.game import FarkleAdvisor, FarkleState
from lookup.farkle.rules import DEFAULT_RULES, FACES, ROLL, get_rules
from lookup.farkle.tables import load_points
from lookup.games import open_setup
from lookup.validate import integer


class Decision(NamedTuple):
    """What to do: ``keep`` the dice to set aside from the roll given (None before a roll), then ``action``
    ("roll" or "bank") with ``turn_total`` and ``dice`` as they are after the keep; ``value`` the asking
    player's probability of winning playing so."""

    keep: tuple[int, ...] | None
    action: str
    turn_total: int
    dice: int
    value: float


def _position(my_score: Any, other_score: Any, turn_total: Any, dice: Any, roll: Any, my_farkles: Any,
              other_farkles: Any, setup: Mapping[str, Any] | None,
              artifacts_dir: str | Path | None) -> tuple[FarkleAdvisor, FarkleState]:
    advisor = open_setup("farkle", setup, artifacts_dir)
    game = advisor.game
    turn = integer(turn_total, "turn_total", 0)
    data = {"scores": [my_score, other_score], "farkles": [my_farkles, other_farkles], "to_move": 0,
            "turn_total": turn, "dice": game.size.dice if dice is None else dice,
            "roll": None if roll is None else list(roll) if isinstance(roll, tuple | list) else roll,
            "rolling": roll is None and turn == 0}
    state = game.parse_state(data)
    if game.is_terminal(state):
        raise ValueError(f"my_score {my_score} has reached the target {game.size.target}: the game is won")
    return advisor, state


def decide(my_score: int, other_score: int, turn_total: int = 0, dice: int | None = None,
           roll: list[int] | tuple[int, ...] | None = None, *, my_farkles: int = 0, other_farkles: int = 0,
           setup: Mapping[str, Any] | None = None, artifacts_dir: str | Path | None = None) -> Decision:
    """The tables' play: before a roll, "roll" or "bank" (at a turn total of 0, or below min_bank, "roll");
    after ``roll``, which dice to set aside and then whether to roll or bank."""
    advisor, state = _position(my_score, other_score, turn_total, dice, roll, my_farkles, other_farkles, setup,
                               artifacts_dir)
    game = advisor.game
    keep = None
    if state.roll is not None:
        keep = advisor.decide(state)
        state = game.apply(state, keep)
    action = ROLL if state.rolling else advisor.decide(state)
    return Decision(keep, action, state.turn_total, state.dice, advisor.value(state, 0))


def value(my_score: int, other_score: int, turn_total: int = 0, dice: int | None = None,
          roll: list[int] | tuple[int, ...] | None = None, *, my_farkles: int = 0, other_farkles: int = 0,
          setup: Mapping[str, Any] | None = None, artifacts_dir: str | Path | None = None) -> float:
    """The asking player's probability of winning from this position, both playing to win."""
    advisor, state = _position(my_score, other_score, turn_total, dice, roll, my_farkles, other_farkles, setup,
                               artifacts_dir)
    return advisor.value(state, 0)


def explain(my_score: int, other_score: int, turn_total: int = 0, dice: int | None = None,
            roll: list[int] | tuple[int, ...] | None = None, *, my_farkles: int = 0, other_farkles: int = 0,
            setup: Mapping[str, Any] | None = None,
            artifacts_dir: str | Path | None = None) -> dict[Any, float]:
    """Every option with the asking player's probability of winning after it: after a roll, {dice set aside:
    value} (the choice after it played as the tables do); before a roll, {"bank": value, "roll": value} ("bank"
    only where allowed; only "roll" at the start of a turn)."""
    advisor, state = _position(my_score, other_score, turn_total, dice, roll, my_farkles, other_farkles, setup,
                               artifacts_dir)
    if state.rolling:
        return {ROLL: advisor.value(state, 0)}
    return advisor.action_values(state)


def expected_points(turn_total: int = 0, dice: int = FACES, *, game_dice: int = FACES,
                    artifacts_dir: str | Path | None = None) -> float:
    """The expected points a turn banks from ``turn_total`` with ``dice`` to roll (of ``game_dice``: hot dice roll
    them all again), playing for the most points (the solitaire table, docs/farkle.md); roll on when it is more
    than the turn total. ``turn_total`` 0 is the start of a turn (all the dice)."""
    rules = get_rules(DEFAULT_RULES)
    d = integer(game_dice, "game_dice", 1, FACES)
    n = integer(dice, "dice", 1, d)
    t = integer(turn_total, "turn_total", 0, 10**6)
    if t % rules.unit:
        raise ValueError(f"turn_total must be a multiple of {rules.unit}, got {t}")
    if t == 0 and n != d:
        raise ValueError(f"a turn total of 0 is the start of a turn: all {d} dice are rolled")
    table: np.ndarray = load_points(rules, d, artifacts_dir)
    k = t // rules.unit
    return float(table[k, n]) if k < len(table) else float(t)  # past the table, banking is best (proved)
