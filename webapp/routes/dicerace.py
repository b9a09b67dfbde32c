"""Dice-race routes: the games built here, decide, strategy, value, explain at one state, and the whole game as
maps (win probability and optimal number of dice over both scores)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Depends

from lookup.dicerace import decide, explain, sequential_table, simultaneous_table, strategy, value
from lookup.dicerace.play import DEFAULT_DICE, DEFAULT_TARGET
from lookup.dicerace.tables import SEQUENTIAL_NAME, SIMULTANEOUS_NAME, built_grid
from lookup.store import artifact_path, artifact_stamp, trusted_meta
from webapp.common import StrictModel, artifacts_dir

router = APIRouter(prefix="/api/dicerace", tags=["dicerace"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]
Mode = Literal["sequential", "simultaneous"]
HEATMAP_MAX_TARGET = 200  # target**2 cells; larger games are answered state by state
TABLES: dict[str, str] = {"sequential": SEQUENTIAL_NAME, "simultaneous": SIMULTANEOUS_NAME}


class State(StrictModel):
    """my_score, other_score: 0..target-1, from the asking player's view; dice: most dice a turn may roll."""

    my_score: int
    other_score: int
    dice: int = 10
    target: int = 100
    mode: Mode = "sequential"


class DecideQuery(State):
    seed: int | None = None  # simultaneous: seeds the draw from a mixed strategy


def _kw(q: State, root: Path) -> dict[str, object]:
    return {"dice": q.dice, "target": q.target, "mode": q.mode, "artifacts_dir": root}


@router.post("/decide")
def decide_route(q: DecideQuery, root: Artifacts) -> dict[str, int]:
    """The number of dice to roll (sequential: smallest optimal; simultaneous: a draw of the optimal mix)."""
    return {"dice_to_roll": decide(q.my_score, q.other_score, rng=q.seed, **_kw(q, root))}


@router.post("/strategy")
def strategy_route(q: State, root: Artifacts) -> dict[str, float]:
    """{d: probability} of an optimal strategy (keys are numbers of dice, as text)."""
    return {str(d): p for d, p in strategy(q.my_score, q.other_score, **_kw(q, root)).items()}


@router.post("/value")
def value_route(q: State, root: Artifacts) -> dict[str, float]:
    """Expected gain P(win) - P(loss) of the asking player under optimal play."""
    return {"value": value(q.my_score, q.other_score, **_kw(q, root))}


@router.post("/explain")
def explain_route(q: State, root: Artifacts) -> dict[str, object]:
    """Value, strategy, every optimal d and the expected gain of each d."""
    e = explain(q.my_score, q.other_score, **_kw(q, root))
    return {"value": e.value, "strategy": {str(d): p for d, p in e.strategy.items()}, "optimal": list(e.optimal),
            "option_values": {str(d): v for d, v in e.option_values.items()}, "mixed": e.mixed}


@router.get("/games")
def games_route(root: Artifacts) -> dict[str, list[dict[str, object]]]:
    """Every (dice, target) game whose tables are built here, with the modes built for it, whether its maps
    are served (target <= HEATMAP_MAX_TARGET) and whether it is the library's default game; smallest first."""
    modes: dict[tuple[int, int], list[str]] = {}
    for mode, name in TABLES.items():
        path = artifact_path(root, name)
        if artifact_stamp(path):  # 0: not built here (no game of this mode)
            for game in built_grid(trusted_meta(path)):
                modes.setdefault(game, []).append(mode)
    return {"games": [{"dice": d, "target": n, "modes": m, "map": n <= HEATMAP_MAX_TARGET,
                       "default": (d, n) == (DEFAULT_DICE, DEFAULT_TARGET)}
                      for (d, n), m in sorted(modes.items(), key=lambda g: (g[0][1], g[0][0]))]}


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
