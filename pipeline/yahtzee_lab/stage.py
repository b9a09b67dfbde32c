"""The strategy lab's table family: Perturbation's weights, tuned by the seed's random walk
(``pipeline.yahtzee_lab.tuning``) and published as ``yahtzee-perturbation-weights`` (params section
``yahtzee_lab``, key ``perturbation``). Reads the ``seed`` tables of the solver (its upstream artifacts).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.family import Computed, Family, build_family
from pipeline.store import ArtifactSpec, StoredArray
from pipeline.yahtzee import stage as tables_stage
from pipeline.yahtzee_lab.perturbation import FEATURES
from pipeline.yahtzee_lab.tuning import NAME, SCHEMA, SCHEMA_VERSIONS, points_rate, random_walk, settings


def _spec(section: Mapping[str, Any]) -> ArtifactSpec:
    from pipeline.yahtzee_lab.players import game_rules

    cfg = settings(section)
    return ArtifactSpec(name=NAME, schema=SCHEMA, schema_version=max(SCHEMA_VERSIONS), game="yahtzee",
                        rules=game_rules(cfg["rules"]).to_dict(), params={**cfg, "features": list(FEATURES)},
                        code=(__name__,))


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.progress import progress
    from pipeline.yahtzee_lab.match import play
    from pipeline.yahtzee_lab.players import get_player

    cfg = settings(section)
    artifacts = artifacts_dir
    ensure_tables(["seed"], artifacts)

    def objective(alpha: np.ndarray) -> float:
        games = play(get_player("perturbation", alpha=alpha), "esperance", int(cfg["games"]), seed=int(cfg["seed"]),
                     mode="coupled", rules=cfg["rules"], artifacts_dir=artifacts)
        return points_rate(games.scores)

    with progress("tuning Perturbation's weights (random walk)", int(cfg["iterations"])) as advance:
        walk = random_walk(objective, cfg, progress=advance)
    described = ", ".join(f"{i}: {n}" for i, n in enumerate(FEATURES))
    arrays = {
        "alpha": StoredArray(walk.best, f"alpha[i]: weight of Perturbation's function f_i ({described})"),
        "walk_alpha": StoredArray(walk.alpha, "walk_alpha[k, i]: the k-th weights evaluated (row 0: initial)"),
        "walk_rate": StoredArray(walk.rate, "walk_rate[k]: points rate ((wins + draws/2) / games) of walk_alpha[k] "
                                 "against esperance, coupled games"),
        "walk_accepted": StoredArray(walk.accepted, "walk_accepted[k]: 1 if walk_alpha[k] became the current point"),
    }
    stats = {"best_rate": walk.best_rate, "initial_rate": float(walk.rate[0]), "evaluations": int(len(walk.rate)),
             "games_per_evaluation": int(cfg["games"])}  # no timing: equal inputs give identical artifacts
    return arrays, stats


def ensure_tables(rule_sets: list[str], artifacts_dir: str | Path) -> None:
    """Build (or reuse, by fingerprint) the value and policy tables of ``rule_sets`` in ``artifacts_dir``.

    Under DVC the tables' stage has run first (they are this stage's upstream deps) and they are reused by
    fingerprint; ``dicetables build`` of this family alone builds them.
    """
    for family in tables_stage.families({"rule_sets": list(rule_sets)}):
        build_family(family, {"yahtzee": {"rule_sets": list(rule_sets)}}, artifacts_dir)


def families(section: Mapping[str, Any]) -> list[Family]:
    """The family that tunes and publishes Perturbation's weights (params: ``yahtzee_lab.perturbation``)."""
    upstream = tuple(f"{spec.name}.zarr" for spec in tables_stage.table_specs("seed"))
    return [Family(name=NAME, section="yahtzee_lab", artifacts=lambda sec: [_spec(sec)],
                   compute=_compute, upstream=upstream)]
