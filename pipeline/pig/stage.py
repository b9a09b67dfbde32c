"""The Pig table family: ``pig-standard``, one artifact (Zarr + HDF5) with the optimal two-player tables of every
target in ``pig.targets`` (``lookup.pig.tables`` says what the arrays hold)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lookup.pig.rules import DEFAULT_RULES, check_target, get_rules
from lookup.pig.tables import SCHEMA, SCHEMA_VERSIONS, array_name, artifact_name
from pipeline.family import Computed, Family, nonempty_list
from pipeline.store import ArtifactSpec, StoredArray

_WHAT = {"roll": "[i, j, k]: probability that the player to move (banked i, the other j, turn total k) wins if it "
                 "rolls now, both optimal after (k = 0: the start of its turn); NaN = no such state",
         "hold": "[i, j, k]: the same if it holds now (banks k); NaN at k = 0 and where there is no such state"}


def targets_of(section: Mapping[str, Any]) -> list[int]:
    """The targets params ask for, sorted; ValueError naming ``pig.targets`` otherwise."""
    targets = nonempty_list(section, "targets", "pig.targets", "targets (integers 1..1000)", check_target)
    if len(set(targets)) != len(targets):
        raise ValueError(f"pig.targets lists a target twice: {targets}")
    return sorted(targets)


def _spec(section: Mapping[str, Any]) -> ArtifactSpec:
    rules = get_rules(DEFAULT_RULES)
    return ArtifactSpec(name=artifact_name(rules), schema=SCHEMA, schema_version=max(SCHEMA_VERSIONS), game="pig",
                        rules=rules.to_dict(), params={"targets": targets_of(section)}, code=(__name__,), hdf5=True)


def compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    """The tables of every target, each solved by ``pipeline.pig.solve``."""
    from pipeline.pig.solve import solve

    rules = get_rules(spec.rules["name"])
    arrays, stats = {}, {}
    for target in spec.params["targets"]:
        solution = solve(rules, target)
        for field in ("roll", "hold"):
            arrays[array_name(field, target)] = StoredArray(getattr(solution, field), _WHAT[field])
        stats[f"first_player_wins_{target}"] = solution.start
        stats[f"policy_iterations_{target}"] = solution.iterations
        stats[f"residual_{target}"] = solution.residual
    return arrays, stats


def families(section: Mapping[str, Any]) -> list[Family]:
    """The one family ``pig-standard`` (Pig has one rule set; its targets are a params list)."""
    return [Family(name=f"pig-{DEFAULT_RULES}", section="pig", artifacts=lambda sec: [_spec(sec)],
                   compute=compute)]
