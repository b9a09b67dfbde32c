"""Play-time answers for 151: ``decide``, ``value`` and ``action_values``, by indexing the tables.

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

import numpy as np

from lookup.errors import NotBuiltError
from lookup.g151.rules import DEFAULT_RULES, UNIT, Rules, get_rules, target_units, to_units
from lookup.g151.tables import load_tables

ROLL, BANK = "roll", "bank"


def _tables(banked: Any, turn_total: Any, other_banked: Any, target: Any, rules: str | Rules,
            artifacts_dir: str | Path | None) -> tuple[dict[str, np.ndarray], tuple[int, ...]]:
    """(the arrays of the right table, the index of the state); ValueError for any bad input."""
    rules = get_rules(rules)
    n = target_units(target)
    a = to_units(banked, "banked")
    t = to_units(turn_total, "turn_total")
    if a >= n:
        raise ValueError(f"banked {banked} must be below the target {target} (at the target the game is over)")
    if a + t > n:
        raise ValueError(f"banked {banked} + turn_total {turn_total} exceeds the target {target}: the turn "
                         "is lost (it scores nothing), there is no decision")
    index: tuple[int, ...] = (a, t)
    kind = "solitaire"
    if other_banked is not None:
        b = to_units(other_banked, "other_banked")
        if b >= n:
            raise ValueError(f"other_banked {other_banked} must be below the target {target} "
                             "(at the target the game is over)")
        index, kind = (a, b, t), "duel"
    tables = load_tables(rules, artifacts_dir)
    if target not in tables.targets:
        # A table that was not built is a missing artifact, as in every other game (not a refused input).
        raise NotBuiltError(f"the 151 table for target {target} (variant {rules.name!r}) is not built; built: "
                            f"{list(tables.targets)}. Add it to g151.targets in params.yaml and rebuild",
                            f"the 151 target {target} (variant {rules.name!r}) is not built on this server; built: "
                            f"{list(tables.targets)}")
    return tables.tables[(kind, int(target))], index


def decide(banked: int, turn_total: int, other_banked: int | None = None, target: int = 1000,
           rules: str | Rules = DEFAULT_RULES, *, artifacts_dir: str | Path | None = None) -> str:
    """``"roll"`` or ``"bank"``: the optimal action (two-player policy when ``other_banked`` is given).

    At ``turn_total`` 0 the answer is always "roll" (a turn starts with a roll). Ties bank.
    """
    arrays, index = _tables(banked, turn_total, other_banked, target, rules, artifacts_dir)
    return ROLL if arrays["policy"][index] == 1 else BANK


def value(banked: int, turn_total: int, other_banked: int | None = None, target: int = 1000,
          rules: str | Rules = DEFAULT_RULES, *, artifacts_dir: str | Path | None = None) -> float:
    """Value of the state under optimal play: the win probability of the player to move (with
    ``other_banked``) or the expected number of turns still counted, this one included (alone)."""
    arrays, index = _tables(banked, turn_total, other_banked, target, rules, artifacts_dir)
    field = "roll" if arrays["policy"][index] == 1 else "bank"
    return float(arrays[field][index])


def action_values(banked: int, turn_total: int, other_banked: int | None = None, target: int = 1000,
                  rules: str | Rules = DEFAULT_RULES, *,
                  artifacts_dir: str | Path | None = None) -> dict[str, float]:
    """{"roll": value, "bank": value} of both actions, optimal play afterwards (``bank`` absent at
    turn_total 0, where the roll is forced). The gap is what a mistake costs."""
    arrays, index = _tables(banked, turn_total, other_banked, target, rules, artifacts_dir)
    out = {ROLL: float(arrays["roll"][index])}
    if index[-1] > 0:
        out[BANK] = float(arrays["bank"][index])
    return out


__all__ = ["BANK", "ROLL", "UNIT", "action_values", "decide", "value"]
