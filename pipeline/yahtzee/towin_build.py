"""The play-to-win table families, built as Dask distributed tasks that write the Zarr artifact in place.

One family per rule set in ``yahtzee.towin.rule_sets`` (``yahtzee-towin-RULES``, '+' written '-'),
publishing one artifact per objective in ``yahtzee.towin.objectives``: ``yahtzee-RULES-goal`` (best
P(score >= t more)) and ``yahtzee-RULES-win`` (best P(score > t more) + P(= t) / 2, against a known final
score).

The build runs on Dask, layer by layer (``pipeline.yahtzee.layered``: each task writes whole shards, the
same bytes on any number of workers); a task computes its rows with ``pipeline.yahtzee.towin.solve_block``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.store import zarr_module
from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.states import layer_name
from lookup.yahtzee.towin import OBJECTIVE_SCHEMAS, SCHEMA_VERSIONS, towin_name
from pipeline.family import Family, nonempty_list
from pipeline.store import ArtifactSpec
from pipeline.yahtzee import duel_build, layered

CODE = (
    "lookup/yahtzee/encoding.py",
    "lookup/yahtzee/rules.py",
    "lookup/yahtzee/states.py",
    "pipeline/yahtzee/kernels.py",
    "pipeline/yahtzee/layered.py",
    "pipeline/yahtzee/solver.py",
    "pipeline/yahtzee/towin.py",
    "pipeline/yahtzee/towin_build.py",  # lays out what is stored
    "pipeline/yahtzee/towin_kernels.py",
)


def settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.towin`` checked: rule_sets, objectives, max_points (None = every t), rows_per_task."""
    towin = section.get("towin")
    if not isinstance(towin, Mapping):
        raise ValueError("yahtzee.towin must be a mapping (rule_sets, objectives, max_points, rows_per_task)")
    where = "yahtzee.towin"
    rule_sets = nonempty_list(towin, "rule_sets", f"{where}.rule_sets", "rule sets", get_rules)
    objectives = nonempty_list(towin, "objectives", f"{where}.objectives", "objectives (goal, win)")
    if not set(objectives) <= set(OBJECTIVE_SCHEMAS) or len(set(objectives)) != len(objectives):
        raise ValueError(f"{where}.objectives must list distinct objectives among {sorted(OBJECTIVE_SCHEMAS)}")
    max_points = towin.get("max_points")
    if max_points is not None and (type(max_points) is not int or max_points < 0):
        raise ValueError(f"{where}.max_points must be a non-negative integer or null (every t)")
    rows = layered.rows_per_task(towin, where, 8192)
    return {"rule_sets": rule_sets, "objectives": objectives, "max_points": max_points, "rows_per_task": rows}


def towin_specs(name: str, towin: Mapping[str, Any]) -> list[ArtifactSpec]:
    """One spec per objective of rule set ``name``."""
    rules = get_rules(name)
    return [ArtifactSpec(name=towin_name(rules, objective), schema=OBJECTIVE_SCHEMAS[objective],
                         schema_version=max(SCHEMA_VERSIONS), game="yahtzee", rules=rules.to_dict(),
                         params={"objective": objective, "max_points": towin["max_points"],
                                 "rows_per_task": towin["rows_per_task"]}, code=CODE)
            for objective in towin["objectives"]]


def _task(path: str, rules: Rules, max_points: int | None, threads: int | None, n: int, lo: int, hi: int) -> int:
    """Compute rows lo..hi-1 of layer ``n`` and write them (one whole shard); returns the row count."""
    from pipeline.yahtzee.towin import layout, solve_block

    layered.set_threads(threads)
    lay = layout(rules, max_points)
    block = solve_block(lay, n, lo, hi, layered.next_layer(path, layer_name(n + 1)))
    layered.write_rows(path, layer_name(n), lo - lay.layer(n)[0], block)
    return hi - lo


def build_store(path: Path, rules: Rules, objective: str, max_points: int | None, rows_per_task: int,
                client: Any, threads: int | None = None) -> dict[str, Any]:
    """Write the whole table of ``objective`` into a new Zarr group at ``path``; return its stats."""
    zarr = zarr_module()

    from pipeline.yahtzee.towin import layout, terminal

    lay = layout(rules, max_points)
    space = lay.space
    group = zarr.open_group(zarr.storage.LocalStore(str(path)), mode="w-", zarr_format=3)

    layered.state_arrays(group, space)
    layered.small_array(group, "bound", lay.bound.astype(np.int32), -1, "bound[row]: the last t stored for the "
                        "row (the most points the state can still score, capped at max_points); P = 0 above it")
    what = ("P(scoring at least t more points)" if objective == "goal"
            else "P(scoring more than t more points) + P(exactly t) / 2")
    for n in range(rules.n_boxes + 1):
        lo, hi = lay.layer(n)
        layered.layer_array(group, layer_name(n), hi - lo, lay.widths[n], rows_per_task,
                            f"{layer_name(n)}[row - layer_ptr[{n}], t]: the maximal {what} from the start of a "
                            f"turn, t = 0..bound[row]; 0 beyond; 1 for t < 0 (not stored)")
    group[layer_name(rules.n_boxes)][...] = terminal(lay, objective)
    layers = [(n, *lay.layer(n)) for n in range(rules.n_boxes - 1, -1, -1)]
    layered.run_layers(client, f"play to win ({rules.name}, {objective})", layers, rows_per_task, _task,
                       (str(path), rules, max_points, threads), lambda n: f" x {lay.widths[n]} columns")
    first = zarr.open_array(str(path / layer_name(0)), mode="r")[0]
    return {"rows": int(space.n_rows), "start_bound": int(lay.bound[0]), "start_reach": int(lay.reach[0]),
            "start": {str(t): float(first[t]) for t in range(0, int(lay.bound[0]) + 1, 50)}}


def _publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str) -> list[Path]:
    rules, params = get_rules(spec.rules["name"]), spec.params
    return layered.publish(spec, section, artifacts_dir, fingerprint, lambda tmp, client, threads: build_store(
        tmp, rules, params["objective"], params["max_points"], params["rows_per_task"], client, threads))


def _no_compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path):
    raise AssertionError("play-to-win tables are written in place (Family.publish)")


def family_name(rule_set: str) -> str:
    """``yahtzee-towin-RULES`` with '+' as '-': DVC stage names allow no other punctuation."""
    return f"yahtzee-towin-{rule_set.replace('+', '-')}"


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``yahtzee.towin.rule_sets`` (none when params have no ``towin``), then the
    forced-order duel's (``duel_build``: play to win against people; registered here rather than in
    ``stage.families`` so that adding it leaves the fingerprints of the value tables alone)."""
    duel = duel_build.families(section)
    if section.get("towin") is None:
        return duel
    towin = settings(section)
    return [Family(name=family_name(name), section="yahtzee", code=CODE,
                   artifacts=lambda sec, n=name: towin_specs(n, settings(sec)), compute=_no_compute,
                   publish=_publish)
            for name in towin["rule_sets"]] + duel
