"""151 route beyond every game's (``webapp.routes.games``): the policy over (banked, turn total) as a map, drawn by
the page's extra picture of the game (js/extras/g151.js)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends

from lookup.g151 import DEFAULT_RULES, DEFAULT_TARGET, UNIT, decide, value
from webapp.common import artifacts_dir

router = APIRouter(prefix="/api/g151", tags=["g151"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]


@lru_cache(maxsize=32)
def _heatmap(target: int, rules: str, other_banked: int | None, root: Path) -> dict[str, object]:
    n = target // UNIT
    roll = [[None if a + t > n else decide(a * UNIT, t * UNIT, other_banked, target, rules, artifacts_dir=root)
             == "roll" for t in range(n + 1)] for a in range(n)]
    return {"target": target, "unit": UNIT, "rules": rules, "other_banked": other_banked, "roll": roll}


@router.get("/heatmap")
def heatmap_route(root: Artifacts, target: int = DEFAULT_TARGET, rules: str = DEFAULT_RULES,
                  other_banked: int | None = None) -> dict[str, object]:
    """roll[banked / 50][turn_total / 50]: true = roll on, false = bank, null = turn already lost."""
    value(0, 0, other_banked, target, rules, artifacts_dir=root)  # the library validates first
    return _heatmap(target, rules, other_banked, root)
