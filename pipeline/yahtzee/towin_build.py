"""The play-to-win table families, built as Dask distributed tasks that write the Zarr artifact in place.

One family per rule set in ``yahtzee.towin.rule_sets`` (``yahtzee-towin-RULES``, '+' written '-'),
publishing one artifact per objective in ``yahtzee.towin.objectives``: ``yahtzee-RULES-goal`` (best
P(score >= t more)), ``yahtzee-RULES-win`` (best P(score > t more) + P(= t) / 2, against a known final
score) and ``yahtzee-RULES-law`` (P(score >= t more) under the expected-score policy: the law of an
expected-score opponent's remaining points, for heads-up advice). With both ``win`` and ``law`` and
``yahtzee.towin.headsup_games`` > 0 it also publishes ``yahtzee-RULES-headsup-games`` (schema
``yahtzee.headsup_games``): that many seeded games of the heads-up player against an expected-score player
(``pipeline.yahtzee.headsup_sim``), played from the two tables just built.

The build runs on Dask, layer by layer (``pipeline.yahtzee.layered``: each task writes whole shards, the
same bytes on any number of workers); a task computes its rows with ``pipeline.yahtzee.towin.solve_block``.
For ``law`` the driver solves the expected values once and sends them to every worker; each task derives
its rows' expected-score policy from them (``solver.policy_block``) and evaluates it.
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
from pipeline.family import Computed, Family, nonempty_list
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, StoredArray, Written, write_artifact
from pipeline.yahtzee import layered, party_build

GAMES_SCHEMA, GAMES_VERSIONS = "yahtzee.headsup_games", (1,)


def settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.towin`` checked: rule_sets, objectives, max_points (None = every t), rows_per_task."""
    towin = section.get("towin")
    if not isinstance(towin, Mapping):
        raise ValueError("yahtzee.towin must be a mapping (rule_sets, objectives, max_points, rows_per_task)")
    where = "yahtzee.towin"
    rule_sets = nonempty_list(towin, "rule_sets", f"{where}.rule_sets", "rule sets", get_rules)
    objectives = nonempty_list(towin, "objectives", f"{where}.objectives", "objectives (goal, win, law)")
    if not set(objectives) <= set(OBJECTIVE_SCHEMAS) or len(set(objectives)) != len(objectives):
        raise ValueError(f"{where}.objectives must list distinct objectives among {sorted(OBJECTIVE_SCHEMAS)}")
    max_points = towin.get("max_points")
    if max_points is not None and (type(max_points) is not int or max_points < 0):
        raise ValueError(f"{where}.max_points must be a non-negative integer or null (every t)")
    rows = layered.rows_per_task(towin, where, 8192)
    games, seed = towin.get("headsup_games", 0), towin.get("seed", 0)
    if type(games) is not int or not 0 <= games <= 10**8 or type(seed) is not int or seed < 0:
        raise ValueError(f"{where}.headsup_games must be an integer in 0..10^8 and {where}.seed a non-negative "
                         "integer")
    if games and (max_points is not None or not {"win", "law"} <= set(objectives)):
        raise ValueError(f"{where}.headsup_games needs the win and law objectives with max_points: null")
    return {"rule_sets": rule_sets, "objectives": objectives, "max_points": max_points, "rows_per_task": rows,
            "headsup_games": games, "seed": seed}


def towin_specs(name: str, towin: Mapping[str, Any]) -> list[ArtifactSpec]:
    """One spec per objective of rule set ``name``, then its heads-up games when params ask for some."""
    rules = get_rules(name)
    tables = {objective: ArtifactSpec(
        name=towin_name(rules, objective), schema=OBJECTIVE_SCHEMAS[objective], schema_version=max(SCHEMA_VERSIONS),
        game="yahtzee", rules=rules.to_dict(), params={"objective": objective, "max_points": towin["max_points"],
                                                       "rows_per_task": towin["rows_per_task"]}, code=(__name__,))
        for objective in towin["objectives"]}
    if not towin["headsup_games"]:
        return list(tables.values())
    games = ArtifactSpec(name=f"yahtzee-{rules.name}-headsup-games", schema=GAMES_SCHEMA,
                         schema_version=max(GAMES_VERSIONS), game="yahtzee", rules=rules.to_dict(), code=(__name__,),
                         params={"games": towin["headsup_games"], "seed": towin["seed"],
                                 "win_fingerprint": tables["win"].fingerprint(),
                                 "law_fingerprint": tables["law"].fingerprint()})
    return [*tables.values(), games]


def _task(path: str, rules: Rules, max_points: int | None, vrow: np.ndarray | None, threads: int | None, n: int,
          lo: int, hi: int) -> tuple[str, int, np.ndarray]:
    """Compute rows lo..hi-1 of layer ``n`` and write them (one whole shard); returns the digests of the chunks
    written (``layered.write_rows``). ``vrow``
    (the expected values of every row) asks for the expected-score policy's probabilities (``law``)."""
    from pipeline.yahtzee.solver import policy_block
    from pipeline.yahtzee.towin import layout, solve_block

    layered.set_threads(threads)
    lay = layout(rules, max_points)
    policy = None if vrow is None else policy_block(rules, vrow, lo, hi)
    block = solve_block(lay, n, lo, hi, layered.next_layer(path, layer_name(n + 1)), policy)
    return layered.write_rows(path, layer_name(n), lo - lay.layer(n)[0], block)


WHAT = {"goal": "the maximal P(scoring at least t more points)",
        "win": "the maximal P(scoring more than t more points) + P(exactly t) / 2",
        "law": "P(scoring at least t more points) under the expected-score policy"}


def build_store(path: Path, rules: Rules, objective: str, max_points: int | None, rows_per_task: int,
                client: Any, threads: int | None = None, written: Written | None = None) -> dict[str, Any]:
    """Write the whole table of ``objective`` into a new Zarr group at ``path``, recording what is written in
    ``written`` (``pipeline.store.Written``; None: not recorded); return its stats."""
    zarr = zarr_module()

    from pipeline.yahtzee.solver import row_values, solve
    from pipeline.yahtzee.towin import layout, terminal

    lay = layout(rules, max_points)
    space = lay.space
    vrow = None
    if objective == "law":  # sent once to each worker, not with every task
        vrow = client.scatter(row_values(solve(rules)), broadcast=True)
    group = zarr.open_group(zarr.storage.LocalStore(str(path)), mode="w-", zarr_format=3)

    layered.state_arrays(group, space, written)
    layered.small_array(group, "bound", lay.bound.astype(np.int32), -1, "bound[row]: the last t stored for the "
                        "row (the most points the state can still score, capped at max_points); P = 0 above it",
                        written)
    for n in range(rules.n_boxes + 1):
        lo, hi = lay.layer(n)
        layered.layer_array(group, layer_name(n), hi - lo, lay.widths[n], rows_per_task,
                            f"{layer_name(n)}[row - layer_ptr[{n}], t]: {WHAT[objective]} from the start of a "
                            f"turn, t = 0..bound[row]; 0 beyond; 1 for t < 0 (not stored)")
    layered.write_array(group[layer_name(rules.n_boxes)], terminal(lay, objective), written)
    layers = [(n, *lay.layer(n)) for n in range(rules.n_boxes - 1, -1, -1)]
    layered.run_layers(client, f"play to win ({rules.name}, {objective})", layers, rows_per_task, _task,
                       (str(path), rules, max_points, vrow, threads), lambda n: f" x {lay.widths[n]} columns",
                       written)
    first = zarr.open_array(str(path / layer_name(0)), mode="r")[0]
    stats = {"rows": int(space.n_rows), "start_bound": int(lay.bound[0]), "start_reach": int(lay.reach[0]),
             "start": {str(t): float(first[t]) for t in range(0, int(lay.bound[0]) + 1, 50)}}
    if objective == "law" and max_points is None:
        # The law's mean, sum over t >= 1 of P(>= t): the expected-score value of a game.
        stats["start_mean"] = float(np.sum(first[1:int(lay.bound[0]) + 1], dtype=np.float64))
    return stats


def _publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str) -> list[Path]:
    rules, params = get_rules(spec.rules["name"]), spec.params
    if spec.schema == GAMES_SCHEMA:
        arrays, stats = _headsup_games(rules, spec, artifacts_dir)
        return write_artifact(spec, arrays, artifacts_dir, stats=stats, fingerprint=fingerprint)
    return layered.publish(spec, section, artifacts_dir, fingerprint, lambda tmp, client, threads, written: build_store(
        tmp, rules, params["objective"], params["max_points"], params["rows_per_task"], client, threads, written))


def _headsup_games(rules: Rules, spec: ArtifactSpec, artifacts_dir: Path) -> Computed:
    """The seeded heads-up games, played from the win and law tables this family just published."""
    from lookup.store import open_artifact
    from pipeline.yahtzee.headsup_sim import flat_table, simulate
    from pipeline.yahtzee.solver import row_values, solve

    flat = {}
    for objective in ("win", "law"):
        # Published by this family a moment ago (the manifest is written after the build): held to its checksums.
        with open_artifact(artifacts_dir / f"{towin_name(rules, objective)}.zarr", schema=OBJECTIVE_SCHEMAS[objective],
                           versions=SCHEMA_VERSIONS, rules=rules.to_dict(), verify=False, trust="artifact") as art:
            if art.meta["fingerprint"] != spec.params[f"{objective}_fingerprint"]:
                raise ValueError(f"{art.path}: not the table these games are to be played from; rebuild it")
            flat[objective] = flat_table([art.read(layer_name(n)) for n in range(rules.n_boxes + 1)],
                                         art.read("bound"), art.read("layer_ptr"))
    games, seed = spec.params["games"], spec.params["seed"]
    with progress(f"heads-up: {games:,} games against an expected-score player ({rules.name})", 1) as advance:
        played = simulate(rules, row_values(solve(rules)), flat["win"], flat["law"], games, seed)
        advance()
    summary = played.summary()
    a = summary["all"]
    say(f"  heads-up player's share {a['share']:.5f} +- {1.96 * a['share_standard_error']:.5f} (95 %), "
        f"expected-score A's {a['expected_score_share']:.5f}")
    return {"scores": StoredArray(played.scores.astype(np.int16), "scores[g, j]: final scores of game g (seed, "
                                  "game number g; the heads-up A moves first in even games), j = 0: A playing "
                                  "heads-up, 1: A playing for expected score on the same dice streams, 2: B, the "
                                  "expected-score opponent")}, {**summary, "seed": seed}


def _no_compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path):
    raise AssertionError("play-to-win tables are written in place (Family.publish)")


def family_name(rule_set: str) -> str:
    """``yahtzee-towin-RULES`` with '+' as '-': DVC stage names allow no other punctuation."""
    return f"yahtzee-towin-{rule_set.replace('+', '-')}"


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``yahtzee.towin.rule_sets`` (none when params have no ``towin``), then the
    forced-order tables of play between players (``party_build``: play to win against people; registered here
    rather than in ``stage.families`` so that adding them leaves the fingerprints of the value tables alone)."""
    duel = party_build.families(section)
    if section.get("towin") is None:
        return duel
    towin = settings(section)
    return [Family(name=family_name(name), section="yahtzee",
                   artifacts=lambda sec, n=name: towin_specs(n, settings(sec)), compute=_no_compute,
                   publish=_publish)
            for name in towin["rule_sets"]] + duel
