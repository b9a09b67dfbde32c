"""Dice-race route beyond every game's (``webapp.routes.games``): the whole game as two maps over both scores (win
probability and optimal number of dice), drawn by the page's extra picture of the game (js/extras/dicerace.js)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Depends

from lookup.dicerace import sequential_table, simultaneous_table, strategy, value
from webapp.common import artifacts_dir

router = APIRouter(prefix="/api/dicerace", tags=["dicerace"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]
Mode = Literal["sequential", "simultaneous"]
HEATMAP_MAX_TARGET = 200  # target**2 cells; larger games are answered state by state


def _win_grid(dice: int, target: int, mode: str, root: Path) -> list[list[float]]:
    """[my][other]: sequential, P(win) of the player about to move (the table's own, precise near 0; no draws);
    simultaneous, P(win) + P(draw) / 2 = (1 + EG1) / 2, the only win measure its table holds (draws happen
    there: equal totals past the target)."""
    if mode == "sequential":
        win = np.asarray(sequential_table(dice, target, artifacts_dir=root).win, dtype=np.float64)
    else:
        win = (1.0 + np.asarray(simultaneous_table(dice, target, artifacts_dir=root).value, dtype=np.float64)) / 2
    return win.tolist()


@lru_cache(maxsize=16)
def _heatmap(dice: int, target: int, mode: str, root: Path) -> dict[str, object]:
    best, mixed = [], []
    for mine in range(target):
        row_best, row_mixed = [], []
        for other in range(target):
            s = strategy(mine, other, dice=dice, target=target, mode=mode, artifacts_dir=root)
            row_best.append(max(s, key=lambda d: (s[d], -d)))
            row_mixed.append(len(s) > 1)
        best.append(row_best)
        mixed.append(row_mixed)
    return {"dice": dice, "target": target, "mode": mode, "best": best, "mixed": mixed,
            "win": _win_grid(dice, target, mode, root),
            "win_meaning": "P(win)" if mode == "sequential" else "P(win) + P(draw)/2"}


@router.get("/heatmap")
def heatmap_route(root: Artifacts, dice: int = 10,
                  target: int = 100, mode: Mode = "sequential") -> dict[str, object]:
    """Maps indexed [my score][other's score], the asking player's view (sequential: it is about to move):
    best, the most likely optimal number of dice (ties: fewest); mixed, several d optimal; win, its P(win)
    (simultaneous: P(win) + P(draw)/2, named by win_meaning) under optimal play by both."""
    value(0, 0, dice=dice, target=target, mode=mode, artifacts_dir=root)  # the library validates first
    if target > HEATMAP_MAX_TARGET:
        raise ValueError(f"heatmap only for target <= {HEATMAP_MAX_TARGET}, got {target}")
    return _heatmap(dice, target, mode, root)
