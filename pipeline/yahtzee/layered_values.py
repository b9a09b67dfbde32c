"""The layered value tables: rule sets too large for a policy table (Maxi Yatzy), built on Dask.

One family per rule set in ``yahtzee.layered.rule_sets`` (``yahtzee-layered-RULES``, '+' written '-'),
publishing ``yahtzee-RULES-layered`` (schema ``yahtzee.layered``): for every turn-start row (rows of
``lookup.yahtzee.states``) four numbers,

* ``value``: expected remaining points under optimal play (what the solver's value table holds);
* ``second_moment``: E[X^2], X the remaining points under the optimal policy (its tie rule: the solver's);
* ``p_upper_bonus``: the probability that the upper bonus is earned from here;
* ``p_yahtzee``: the probability that the Yahtzee (Maxi Yatzy) box ends holding its points, from here;

in ``layer_NN[row - layer_ptr[NN], j]`` (j in that order), with ``state_index`` and ``layer_ptr``. No
policy is stored: play solves the turn from the values (``lookup.yahtzee.turn``), and so does the build,
which evaluates that policy on the way (``pipeline.yahtzee.kernels.solve_rows_with_moments``). Maxi's policy
table would be 33,472,512 rows x 2 x 462 rolls: 31 GB.

The tasks run on Dask layer by layer (``pipeline.yahtzee.layered``): the same bytes on any number of workers.

With ``yahtzee.layered.games`` > 0 the family also publishes ``yahtzee-RULES-layered-games`` (schema
``yahtzee.simulated_games``): that many seeded games played by the table (``pipeline.yahtzee.layered_sim``),
``score_counts[score]`` and their summary, checked against the exact numbers in its stats.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.store import zarr_module
from lookup.yahtzee.rules import Rules, get_rules, kernel_params
from lookup.yahtzee.states import layer_name, state_space
from lookup.yahtzee.tables import LAYERED_SCHEMA, LAYERED_VERSIONS, layered_name
from pipeline.family import Computed, Family
from pipeline.jit import run_chunks
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, StoredArray, Written, write_artifact
from pipeline.yahtzee import kernels, layered
from pipeline.yahtzee.solver import kernel_tables, reroll_candidates_of

COLUMNS = ("value", "second_moment", "p_upper_bonus", "p_yahtzee")
GAMES_SCHEMA, GAMES_VERSIONS = "yahtzee.simulated_games", (1,)
# 2^18 rows (8 MiB of float64 x 4 per shard): Maxi's largest layer (6.3 million rows) in 25 tasks.
DEFAULT_ROWS_PER_TASK = 1 << 18


def settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.layered`` checked: rule_sets (a list, possibly empty), rows_per_task, games (simulated per rule
    set; 0 = none) and seed."""
    section = section.get("layered")
    if not isinstance(section, Mapping):
        raise ValueError("yahtzee.layered must be a mapping (rule_sets, rows_per_task)")
    rule_sets = section.get("rule_sets")
    if not isinstance(rule_sets, list):
        raise ValueError("yahtzee.layered.rule_sets must be a list of rule sets (maxi, maxi-se, ...), maybe empty")
    for name in rule_sets:
        check_rules(get_rules(name))
    games, seed = section.get("games", 0), section.get("seed", 0)
    if type(games) is not int or not 0 <= games <= 10**8 or type(seed) is not int or seed < 0:
        raise ValueError("yahtzee.layered.games must be an integer in 0..10^8 and yahtzee.layered.seed a "
                         "non-negative integer")
    return {"rule_sets": rule_sets, "games": games, "seed": seed,
            "rows_per_task": layered.rows_per_task(section, "yahtzee.layered", DEFAULT_ROWS_PER_TASK)}


def check_rules(rules: Rules) -> Rules:
    """``rules`` if a layered table can hold them; ValueError otherwise: its rows merge upper totals by the
    optimised bonus, so a rule set whose optimisation ignores the real bonus (seed) has no P(bonus) there."""
    if rules.saved_rolls_cap:
        raise ValueError(f"rule set {rules.name!r} saves unused rolls: its values are built by "
                         "yahtzee.saved.rule_sets (a layered table's kernel plays turns of three rolls)")
    if rules.optimised_upper_bonus != rules.upper_bonus:
        raise ValueError(f"rule set {rules.name!r} optimises without its upper bonus; a layered table holds "
                         "P(upper bonus) per row and cannot be built for it")
    return rules


def specs(name: str, chosen: Mapping[str, Any]) -> list[ArtifactSpec]:
    """The artifacts of rule set ``name``: its layered table, and its simulated games when params ask for some."""
    rules = check_rules(get_rules(name))
    table = ArtifactSpec(name=layered_name(rules), schema=LAYERED_SCHEMA, schema_version=max(LAYERED_VERSIONS),
                         game="yahtzee", rules=rules.to_dict(), params={"rows_per_task": chosen["rows_per_task"]},
                         code=(__name__,))
    if not chosen["games"]:
        return [table]
    games = ArtifactSpec(name=f"{layered_name(rules)}-games", schema=GAMES_SCHEMA, schema_version=max(GAMES_VERSIONS),
                         game="yahtzee", rules=rules.to_dict(), code=(__name__,),
                         params={"games": chosen["games"], "seed": chosen["seed"],
                                 "values_fingerprint": table.fingerprint()})
    return [table, games]


def _next_rows(rules: Rules, n: int, stored: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(values by global row, only layer ``n``'s filled; layer ``n``'s four columns) for the kernel."""
    space = state_space(rules)
    vrow = np.zeros(space.n_rows)
    lo = int(space.layer_ptr[n])
    vrow[lo:lo + len(stored)] = stored[:, 0]
    return vrow, np.ascontiguousarray(stored)


def solve_rows(rules: Rules, n: int, lo: int, hi: int, vrow: np.ndarray, nxt: np.ndarray) -> np.ndarray:
    """The four columns of rows lo..hi-1 (all in layer ``n``) from the next layer's values ``vrow`` (by
    global row) and columns ``nxt`` (by row within layer n + 1)."""
    space, kt = state_space(rules), kernel_tables(rules)
    cand_keep, cand_mask = reroll_candidates_of(rules)
    out = np.empty((hi - lo, len(COLUMNS)))
    run_chunks(kernels.solve_rows_with_moments, hi - lo, kernels._n_chunks(hi - lo), lo, hi, space.row_mask,
               space.row_upper, space.row_ybox, vrow, nxt, int(space.layer_ptr[n + 1]),
               np.ascontiguousarray(space.state_index), kt.score_t, kt.joker_score, kt.counts_t, kt.yroll, kt.yface,
               np.array(kernel_params(rules), dtype=np.int64), kt.add_die, kt.sub_pad, kt.size_offset,
               kt.roll_offset, kt.roll_prob, kt.keep_of_mask, cand_keep, cand_mask, out)
    return out


def _task(path: str, rules: Rules, threads: int | None, n: int, lo: int, hi: int) -> tuple[str, int, np.ndarray]:
    """Compute rows lo..hi-1 of layer ``n`` and write them (one whole shard); returns the digests of the chunks
    written (``layered.write_rows``)."""
    layered.set_threads(threads)
    vrow, nxt = layered.next_layer(path, layer_name(n + 1), lambda a: _next_rows(rules, n + 1, a))
    block = solve_rows(rules, n, lo, hi, vrow, nxt)
    return layered.write_rows(path, layer_name(n), lo - int(state_space(rules).layer_ptr[n]), block)


def build_store(path: Path, rules: Rules, rows_per_task: int, client: Any, threads: int | None = None,
                written: Written | None = None) -> dict[str, Any]:
    """Write the whole layered table of ``rules`` into a new Zarr group at ``path``, recording what is written in
    ``written`` (``pipeline.store.Written``; None: not recorded); return its stats: the start
    state's value (= mean final score), the final score's standard deviation, P(upper bonus), P(Yahtzee)."""
    zarr = zarr_module()
    rules = check_rules(rules)
    space = state_space(rules)
    group = zarr.open_group(zarr.storage.LocalStore(str(path)), mode="w-", zarr_format=3)
    layered.state_arrays(group, space, written)
    ptr = [int(x) for x in space.layer_ptr]
    for n in range(rules.n_boxes + 1):
        layered.layer_array(group, layer_name(n), ptr[n + 1] - ptr[n], len(COLUMNS), rows_per_task,
                            f"{layer_name(n)}[row - layer_ptr[{n}], j]: from the start of a turn with {n} boxes "
                            f"filled, j = {', '.join(f'{j}: {c}' for j, c in enumerate(COLUMNS))} (remaining "
                            "points under optimal play: mean and second moment; probabilities of earning the "
                            "upper bonus and of filling the Yahtzee box from here)")
    layered.write_array(group[layer_name(rules.n_boxes)], np.zeros((ptr[-1] - ptr[-2], len(COLUMNS))), written)
    layers = [(n, ptr[n], ptr[n + 1]) for n in range(rules.n_boxes - 1, -1, -1)]
    layered.run_layers(client, f"values ({rules.name})", layers, rows_per_task, _task, (str(path), rules, threads),
                       written=written)
    value, m2, p_bonus, p_yahtzee = (float(x) for x in zarr.open_array(str(path / layer_name(0)), mode="r")[0])
    return {"rows": int(space.n_rows), "start_value": value, "std": math.sqrt(max(0.0, m2 - value * value)),
            "p_upper_bonus": p_bonus, "p_yahtzee": p_yahtzee}


def _publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str) -> list[Path]:
    rules = get_rules(spec.rules["name"])
    if spec.schema == GAMES_SCHEMA:
        arrays, stats = _games(rules, spec, artifacts_dir)
        return write_artifact(spec, arrays, artifacts_dir, stats=stats, fingerprint=fingerprint)
    return layered.publish(spec, section, artifacts_dir, fingerprint, lambda tmp, client, threads, written: build_store(
        tmp, rules, spec.params["rows_per_task"], client, threads, written))


def _games(rules: Rules, spec: ArtifactSpec, artifacts_dir: Path) -> Computed:
    """The simulated games of the built table, with the exact numbers they are checked against."""
    from lookup.store import open_artifact
    from pipeline.yahtzee.layered_sim import simulate

    games, seed = spec.params["games"], spec.params["seed"]
    # The table this family just published (the manifest is written after the build): held to its own checksums.
    with open_artifact(artifacts_dir / f"{layered_name(rules)}.zarr", schema=LAYERED_SCHEMA, versions=LAYERED_VERSIONS,
                       rules=rules.to_dict(), verify=False, trust="artifact") as art:
        if art.meta["fingerprint"] != spec.params["values_fingerprint"]:
            raise ValueError(f"{art.path}: not the table these games are to be played from; rebuild it")
        vrow = np.concatenate([art.read(layer_name(n))[:, 0] for n in range(rules.n_boxes + 1)])
        exact = dict(art.meta["stats"])
    with progress(f"simulating {games:,} games ({rules.name})", 1) as advance:
        played = simulate(rules, vrow, games, seed)
        advance()
    summary = played.summary()
    summary["mean_minus_value_in_standard_errors"] = (summary["mean"] - exact["start_value"]) / summary[
        "standard_error"]
    say("  " + ", ".join(f"{k} {v}" for k, v in summary.items()))
    counts = np.bincount(played.scores, minlength=1).astype(np.int64)
    return {"score_counts": StoredArray(counts, "score_counts[s]: how many of the simulated games ended with s "
                                        "points (upper bonus included)")}, {**summary, "seed": seed, "exact": exact}


def _no_compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path):
    raise AssertionError("layered tables are published by Family.publish")


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``yahtzee.layered.rule_sets`` (none when params have no ``layered``)."""
    if section.get("layered") is None:
        return []
    chosen = settings(section)
    return [Family(name=f"yahtzee-layered-{name.replace('+', '-')}", section="yahtzee",
                   artifacts=lambda sec, n=name: specs(n, settings(sec)), compute=_no_compute,
                   publish=_publish)
            for name in chosen["rule_sets"]]
