"""The 151 table families: one per variant in ``g151.variants``, each one artifact ``g151-VARIANT``
(Zarr + HDF5) with the exact roll law and the solitaire and two-player tables of every ``g151.targets``.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from lookup.g151.rules import RULE_SETS, UNIT, get_rules, roll_counts, roll_moments, target_units
from lookup.g151.tables import SCHEMA, SCHEMA_VERSIONS, array_name, artifact_name
from pipeline.family import Computed, Family, nonempty_list
from pipeline.store import ArtifactSpec, StoredArray

# Policy codes are 0, 1, 2; a missing chunk must read as something no entry holds.
POLICY_FILL = 255

_DESCRIPTIONS = {
    ("solitaire", "roll"): "[a, t]: expected number of counted turns (this one included) to reach the target "
                           "exactly if rolling now, optimal play after; NaN = no such choice",
    ("solitaire", "bank"): "[a, t]: the same if banking now; NaN at t = 0 (the first roll is forced)",
    ("solitaire", "policy"): "[a, t]: optimal action, 1 roll, 0 bank, 2 no decision (a + t > target or a = target)",
    ("duel", "roll"): "[a, b, t]: probability that the player to move (a banked, opponent b, turn total t) "
                      "wins if rolling now, both optimal after; NaN = no such choice",
    ("duel", "bank"): "[a, b, t]: the same if banking now; NaN at t = 0 (the first roll is forced)",
    ("duel", "policy"): "[a, b, t]: optimal action of the player to move, 1 roll, 0 bank, 2 no decision",
}


def targets_of(section: Mapping[str, Any]) -> list[int]:
    """The targets (points) params ask for; ValueError unless a non-empty list of multiples of 50."""
    targets = nonempty_list(section, "targets", "g151.targets", f"targets in points (multiples of {UNIT})",
                            target_units)
    if len(set(targets)) != len(targets):
        raise ValueError(f"g151.targets lists a target twice: {targets}")
    return sorted(targets)


def variants_of(section: Mapping[str, Any]) -> list[str]:
    """The variants params ask for; ValueError naming an unknown one."""
    return nonempty_list(section, "variants", "g151.variants", f"variants ({', '.join(RULE_SETS)})", get_rules)


def _spec(variant: str, section: Mapping[str, Any]) -> ArtifactSpec:
    rules = get_rules(variant)
    return ArtifactSpec(name=artifact_name(rules), schema=SCHEMA, schema_version=max(SCHEMA_VERSIONS), game="g151",
                        rules=rules.to_dict(), params={"targets": targets_of(section)}, code=(__name__,), hdf5=True)


def roll_arrays(variant: str) -> tuple[dict[str, StoredArray], dict[str, Any]]:
    """The exact roll law as arrays, and its moments as exact fractions (strings) and floats."""
    counts = roll_counts(variant)
    points = np.array(list(counts), dtype=np.int64)
    count = np.array(list(counts.values()), dtype=np.int64)
    mean, var = roll_moments(variant)
    arrays = {
        "roll_points": StoredArray(points, "roll_points[k]: a possible value of one roll, in points"),
        "roll_count": StoredArray(count, "roll_count[k]: ordered outcomes of the 216 scoring roll_points[k]; "
                                         "the exact probability is roll_count / 216"),
        "roll_probability": StoredArray(count / 216.0, "roll_probability[k]: roll_count[k] / 216 as float64"),
    }
    stats = {"roll_mean": str(mean), "roll_variance": str(var), "roll_mean_float": float(mean),
             "roll_std_float": float(var) ** 0.5, "roll_p_zero": str(Fraction(counts.get(0, 0), 216))}
    # No timings in stats: equal inputs must give byte-identical artifacts.
    return arrays, stats


def compute_tables(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    """Roll law plus the optimal solitaire and two-player tables of every target."""
    from pipeline.g151.solve import solve_duel, solve_solitaire

    variant = spec.rules["name"]
    arrays, stats = roll_arrays(variant)
    for target in spec.params["targets"]:
        n = target // UNIT
        solo = solve_solitaire(variant, n)
        duel = solve_duel(variant, n)
        for kind, sol in (("solitaire", solo), ("duel", duel)):
            for field in ("roll", "bank", "policy"):
                data = getattr(sol, field)
                arrays[array_name(kind, field, target)] = StoredArray(
                    data, _DESCRIPTIONS[(kind, field)], fill=POLICY_FILL if field == "policy" else None)
        stats[f"solitaire_start_{target}"] = float(solo.start[0])
        stats[f"solitaire_residual_{target}"] = solo.residual
        stats[f"duel_first_mover_win_{target}"] = float(duel.start[0, 0])
        stats[f"duel_residual_{target}"] = duel.residual
        stats[f"duel_fallbacks_{target}"] = duel.fallbacks
    return arrays, stats


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per variant in ``g151.variants``."""
    return [Family(name=f"g151-{variant}", section="g151",
                   artifacts=lambda sec, v=variant: [_spec(v, sec)], compute=compute_tables)
            for variant in variants_of(section)]
