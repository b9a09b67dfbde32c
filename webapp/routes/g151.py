"""151 routes: the variants and targets built here, decide and value at one state, and the policy over (banked,
turn total) as a heatmap."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends

from lookup.g151 import DEFAULT_RULES, UNIT, action_values, decide, value
from lookup.g151.rules import RULE_SETS
from lookup.g151.tables import artifact_name, load_tables
from lookup.store import artifact_path, artifact_stamp
from webapp.common import StrictModel, artifacts_dir

router = APIRouter(prefix="/api/g151", tags=["g151"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]


class State(StrictModel):
    """Points (multiples of 50): banked score of the player to move, this turn's total, the opponent's
    banked score (null: alone, fewest turns to the target exactly)."""

    banked: int
    turn_total: int
    other_banked: int | None = None
    target: int = 1000
    rules: str = DEFAULT_RULES


def _args(q: State, root: Path) -> tuple[tuple[object, ...], dict[str, object]]:
    return (q.banked, q.turn_total, q.other_banked, q.target, q.rules), {"artifacts_dir": root}


@router.get("/games")
def games_route(root: Artifacts) -> dict[str, list[dict[str, object]]]:
    """Every variant built here with its targets (points), in the order of lookup.g151's rule sets."""
    built = [rules for rules in RULE_SETS.values() if artifact_stamp(artifact_path(root, artifact_name(rules)))]
    return {"games": [{"rules": r.name, "targets": list(load_tables(r, root).targets)} for r in built]}


@router.post("/decide")
def decide_route(q: State, root: Artifacts) -> dict[str, object]:
    """"roll" or "bank", with the value of both actions (win probability, or expected turns alone)."""
    args, kw = _args(q, root)
    return {"action": decide(*args, **kw), "action_values": action_values(*args, **kw)}


@router.post("/value")
def value_route(q: State, root: Artifacts) -> dict[str, float]:
    """Win probability of the player to move (duel) or expected turns still counted (alone)."""
    args, kw = _args(q, root)
    return {"value": value(*args, **kw)}


@lru_cache(maxsize=32)
def _heatmap(target: int, rules: str, other_banked: int | None, root: Path) -> dict[str, object]:
    n = target // UNIT
    roll = [[None if a + t > n else decide(a * UNIT, t * UNIT, other_banked, target, rules, artifacts_dir=root)
             == "roll" for t in range(n + 1)] for a in range(n)]
    return {"target": target, "unit": UNIT, "rules": rules, "other_banked": other_banked, "roll": roll}


@router.get("/heatmap")
def heatmap_route(root: Artifacts, target: int = 1000, rules: str = DEFAULT_RULES,
                  other_banked: int | None = None) -> dict[str, object]:
    """roll[banked / 50][turn_total / 50]: true = roll on, false = bank, null = turn already lost."""
    value(0, 0, other_banked, target, rules, artifacts_dir=root)  # the library validates first
    return _heatmap(target, rules, other_banked, root)
