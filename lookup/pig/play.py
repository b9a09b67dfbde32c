"""Play-time answers for Pig, thin entry points over the protocol's advisor (``lookup.pig.game``).

Every function takes the position from the asking player's view: ``my_score`` and ``other_score`` (banked,
below the target) and ``turn_total`` (0 at the start of the turn, where the die must be rolled). Values are the
probability that the asking player wins, both playing optimally.
"""

from __future__ import annotations

from pathlib import Path

from lookup.games import open_setup
from lookup.pig.game import PigAdvisor, PigState
from lookup.pig.rules import DEFAULT_TARGET, check_position, check_target


def _position(my_score: int, other_score: int, turn_total: int, target: int,
              artifacts_dir: str | Path | None) -> tuple[PigAdvisor, PigState]:
    target = check_target(target)
    mine, other, turn = check_position(my_score, other_score, turn_total, target)
    advisor = open_setup("pig", {"target": target}, artifacts_dir)
    state = PigState((mine, other), 0, turn, turn == 0)
    if turn:
        advisor.game.parse_state(advisor.game.state_json(state))  # a turn total the die can make
    return advisor, state


def explain(my_score: int, other_score: int, turn_total: int, target: int = DEFAULT_TARGET, *,
            artifacts_dir: str | Path | None = None) -> dict[str, float]:
    """{"roll": P(win) if rolling now, "hold": P(win) if holding now} (only "roll" at turn total 0, where the
    turn's first roll is forced)."""
    advisor, state = _position(my_score, other_score, turn_total, target, artifacts_dir)
    if state.rolling:
        return {"roll": advisor.value(state, 0)}
    return advisor.action_values(state)


def decide(my_score: int, other_score: int, turn_total: int, target: int = DEFAULT_TARGET, *,
           artifacts_dir: str | Path | None = None) -> str:
    """"roll" or "hold": the optimal action (ties roll; at turn total 0 the answer is "roll")."""
    advisor, state = _position(my_score, other_score, turn_total, target, artifacts_dir)
    return "roll" if state.rolling else advisor.decide(state)


def value(my_score: int, other_score: int, turn_total: int = 0, target: int = DEFAULT_TARGET, *,
          artifacts_dir: str | Path | None = None) -> float:
    """The probability that the asking player wins from here, both playing optimally."""
    advisor, state = _position(my_score, other_score, turn_total, target, artifacts_dir)
    return advisor.value(state, 0)
