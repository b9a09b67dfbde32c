"""Perturbation's weights: the seed's random walk (docs/yahtzee_lab.md), published as an artifact.

The walk, as the seed's Yahtzee report describes it: start from ``initial``; propose alpha + r with r_i uniform in
[-step * SCALE_i, +step * SCALE_i]; keep the proposal when it improves the objective; "allow more
variation after an improvement" (step x ``widen``) and refine otherwise (step x ``narrow``, not below
``min_step``); stop at the first accepted proposal reaching ``target`` or after ``iterations`` proposals.

Objective: Perturbation's points rate against ``esperance``, (wins + draws / 2) / games (points: a draw
is half a win, since the seed counted draws apart), over ``games`` coupled games with a fixed seed. The
coupling (same dice for both, seed 5.2) and the common seed of every evaluation (common random numbers)
make two proposals' rates differ mostly by what the weights change, not by luck: with all weights 0
every game is a draw. The tournament then measures the tuned weights on other games (another seed).

Artifact ``yahtzee-perturbation-weights.zarr`` (schema ``yahtzee.perturbation_weights`` v1): ``alpha``
(the weights, ``perturbation.FEATURES`` order) and the walk (``walk_alpha``, ``walk_rate``,
``walk_accepted``); rules = the game's rules; params = the ``yahtzee_lab.perturbation`` section. Its
family (what it publishes, how it is computed) is in ``pipeline.yahtzee_lab.stage``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.store import default_artifacts_dir, open_artifact
from pipeline.yahtzee_lab.perturbation import FEATURES, N_FEATURES

NAME = "yahtzee-perturbation-weights"
SCHEMA, SCHEMA_VERSIONS = "yahtzee.perturbation_weights", (1,)
# Size of one step of the walk per weight, in the units of its f_i: pips for 0-4, counts for 6, 8, 9,
# indicators (0/1, +-1) for 5, 7, 10, 11. A step of 1 moves each weight by about one point of E.
SCALE = np.array([0.3, 0.3, 0.3, 0.3, 0.3, 3.0, 1.0, 3.0, 1.0, 1.0, 3.0, 3.0])
assert len(SCALE) == N_FEATURES
DEFAULTS: dict[str, Any] = {"rules": "hasbro", "iterations": 24, "games": 20000, "seed": 6, "step": 1.0,
                            "widen": 1.5, "narrow": 0.8, "min_step": 0.1, "max_step": 4.0, "target": 0.52,
                            "initial": [0.0] * N_FEATURES}


@dataclass
class Walk:
    """The walk: ``alpha[i]`` the i-th evaluated weights (row 0 the initial ones), ``rate[i]`` its
    objective, ``accepted[i]`` 1 if it became the current point; ``best`` the final weights."""

    alpha: np.ndarray
    rate: np.ndarray
    accepted: np.ndarray
    best: np.ndarray
    best_rate: float


def random_walk(objective: Callable[[np.ndarray], float], cfg: Mapping[str, Any],
                progress: Callable[[], None] | None = None) -> Walk:
    """Run the seed's random walk on ``objective`` (higher is better) with the settings ``cfg``."""
    rng = np.random.default_rng(int(cfg["seed"]))
    current = np.array(cfg["initial"], dtype=np.float64)
    if current.shape != (N_FEATURES,):
        raise ValueError(f"yahtzee_lab.perturbation.initial must hold {N_FEATURES} weights")
    best = objective(current)
    alphas, rates, accepted = [current.copy()], [best], [1]
    step = float(cfg["step"])
    for _ in range(int(cfg["iterations"])):
        proposal = current + rng.uniform(-step, step, size=N_FEATURES) * SCALE
        rate = objective(proposal)
        better = rate > best
        alphas.append(proposal)
        rates.append(rate)
        accepted.append(int(better))
        if progress is not None:
            progress()
        if better:
            current, best = proposal, rate
            step = min(step * float(cfg["widen"]), float(cfg["max_step"]))
            if best >= float(cfg["target"]):
                break
        else:
            step = max(step * float(cfg["narrow"]), float(cfg["min_step"]))
    return Walk(np.array(alphas), np.array(rates), np.array(accepted, dtype=np.uint8), current, best)


def points_rate(scores: np.ndarray) -> float:
    """(wins + draws / 2) / games of player 0 in ``scores[g, p]``."""
    a, b = scores[:, 0], scores[:, 1]
    return float(((a > b).sum() + 0.5 * (a == b).sum()) / len(a))


def settings(section: Mapping[str, Any]) -> dict[str, Any]:
    cfg = {**DEFAULTS, **dict(section.get("perturbation") or {})}
    unknown = set(cfg) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"yahtzee_lab.perturbation: unknown keys {sorted(unknown)}")
    return cfg


def load_weights(artifacts_dir: str | Path | None = None) -> tuple[float, ...]:
    """The tuned weights (``FEATURES`` order) from the verified artifact; ValueError if absent or stale."""
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = root / f"{NAME}.zarr"
    if not path.exists():
        raise not_built(f"{path}: Perturbation's weights are not built (or give the weights explicitly)",
                        "Perturbation's weights are not built on this server", build=NAME,
                        cost="about 25-50 s of CPU (docs/benchmarks.md, \"make run\"), after the seed's tables")
    with open_artifact(path, schema=SCHEMA, versions=SCHEMA_VERSIONS) as art:
        if art.meta["params"].get("features") != list(FEATURES):
            raise ValueError(f"{path}: built for other functions f_i; rebuild it")
        return tuple(float(a) for a in art.read("alpha"))
