"""Play-time answers for 151: ``decide``, ``value`` and ``action_values``, thin entry points over the protocol's
advisor (``lookup.g151.game``), which indexes the tables.

Arguments are in points (multiples of 50). ``banked`` is the score of the player to move, ``turn_total``
the points accumulated in the current turn (0 at the start of a turn, before the forced first roll),
``other_banked`` the opponent's score. With ``other_banked`` the answer is the optimal two-player policy
(maximise the probability of winning) and values are that probability for the player to move; without
it, the optimal solitaire policy (fewest expected turns to reach the target exactly) and values are the
expected number of turns still counted, the current one included.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from lookup.g151.game import BANK, DEFAULT_TARGET, ROLL, G151Advisor, G151Game, G151State
from lookup.g151.rules import DEFAULT_RULES, UNIT, Rules, get_rules, target_units, to_units
from lookup.g151.tables import load_tables


def _position(banked: Any, turn_total: Any, other_banked: Any, target: Any, rules: str | Rules,
              artifacts_dir: str | Path | None) -> tuple[G151Advisor, G151State]:
    """The advisor of the game (alone, or two players with ``other_banked``) and the asker's position as seat 0's;
    ValueError for any bad input, NotBuiltError for a target the tables do not hold."""
    rules = get_rules(rules)
    n = target_units(target)
    a = to_units(banked, "banked")
    t = to_units(turn_total, "turn_total")
    if a >= n:
        raise ValueError(f"banked {banked} must be below the target {target} (at the target the game is over)")
    if a + t > n:
        raise ValueError(f"banked {banked} + turn_total {turn_total} exceeds the target {target}: the turn "
                         "is lost (it scores nothing), there is no decision")
    scores: tuple[int, ...] = (a * UNIT,)
    if other_banked is not None:
        b = to_units(other_banked, "other_banked")
        if b >= n:
            raise ValueError(f"other_banked {other_banked} must be below the target {target} "
                             "(at the target the game is over)")
        scores = (a * UNIT, b * UNIT)
    # A table that was not built is a missing artifact, as in every other game (not a refused input).
    advisor = G151Advisor(G151Game(rules, n * UNIT, len(scores)), load_tables(rules, artifacts_dir))
    return advisor, G151State(scores, 0, t * UNIT, t == 0)


def decide(banked: int, turn_total: int, other_banked: int | None = None, target: int = DEFAULT_TARGET,
           rules: str | Rules = DEFAULT_RULES, *, artifacts_dir: str | Path | None = None) -> str:
    """``"roll"`` or ``"bank"``: the optimal action (two-player policy when ``other_banked`` is given).

    At ``turn_total`` 0 the answer is always "roll" (a turn starts with a roll). Ties bank.
    """
    advisor, state = _position(banked, turn_total, other_banked, target, rules, artifacts_dir)
    return ROLL if state.rolling else advisor.decide(state)


def value(banked: int, turn_total: int, other_banked: int | None = None, target: int = DEFAULT_TARGET,
          rules: str | Rules = DEFAULT_RULES, *, artifacts_dir: str | Path | None = None) -> float:
    """Value of the state under optimal play: the win probability of the player to move (with
    ``other_banked``) or the expected number of turns still counted, this one included (alone)."""
    advisor, state = _position(banked, turn_total, other_banked, target, rules, artifacts_dir)
    return advisor.value(state, 0)


def action_values(banked: int, turn_total: int, other_banked: int | None = None, target: int = DEFAULT_TARGET,
                  rules: str | Rules = DEFAULT_RULES, *,
                  artifacts_dir: str | Path | None = None) -> dict[str, float]:
    """{"roll": value, "bank": value} of both actions, optimal play afterwards (``bank`` absent at
    turn_total 0, where the roll is forced). The gap is what a mistake costs."""
    advisor, state = _position(banked, turn_total, other_banked, target, rules, artifacts_dir)
    if state.rolling:
        return {ROLL: advisor.value(state, 0)}
    return advisor.action_values(state)


__all__ = ["BANK", "ROLL", "UNIT", "action_values", "decide", "value"]
