"""The play-to-win table families, built as Dask distributed tasks that write the Zarr artifact in place.

One family per rule set in ``yahtzee.towin.rule_sets`` (``yahtzee-towin-RULES``, '+' written '-'),
publishing one artifact per objective in ``yahtzee.towin.objectives``: ``yahtzee-RULES-goal`` (best
P(score >= t more)) and ``yahtzee-RULES-win`` (best P(score > t more) + P(= t) / 2, against a known final
score).

The build: the driver lays out the artifact (``pipeline.store.write_zarr_in_place``: a temporary Zarr
group, verified and renamed at the end), writes the small arrays and the finished-game layer, then for
each layer from the last to the first submits one task per block of ``rows_per_task`` rows. A task reads
the next layer from the store (once per worker process and layer), computes its rows
(``pipeline.yahtzee.towin.solve_block``) and writes them: exactly one whole shard, so that no two tasks
ever touch the same file. The layer's tasks finish before the previous layer's start. A row's numbers do
not depend on the block it is computed in, so 1 worker, 2 workers or any cluster give the same bytes.

Where the tasks run: a ``distributed.LocalCluster`` of ``yahtzee.towin_cluster.workers`` processes by
default, or the scheduler at ``yahtzee.towin_cluster.scheduler`` / ``$DICETABLES_DASK_SCHEDULER`` (its
workers must see the artifacts directory at the same path: a shared filesystem; docs/yahtzee.md).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from lookup.store import zarr_module
from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.towin import OBJECTIVE_SCHEMAS, SCHEMA_VERSIONS, layer_name, towin_name
from pipeline import layout as storage
from pipeline.family import Family, nonempty_list
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, create_zarr_array, write_zarr_in_place
from pipeline.yahtzee import duel_build

CODE = (
    "lookup/yahtzee/encoding.py",
    "lookup/yahtzee/rules.py",
    "lookup/yahtzee/states.py",
    "pipeline/yahtzee/kernels.py",
    "pipeline/yahtzee/solver.py",
    "pipeline/yahtzee/towin.py",
    "pipeline/yahtzee/towin_build.py",  # lays out what is stored
    "pipeline/yahtzee/towin_kernels.py",
)
SCHEDULER_ENV = "DICETABLES_DASK_SCHEDULER"


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
    rows = towin.get("rows_per_task", 8192)
    if type(rows) is not int or rows < 1:
        raise ValueError(f"{where}.rows_per_task must be a positive integer")
    return {"rule_sets": rule_sets, "objectives": objectives, "max_points": max_points, "rows_per_task": rows}


def cluster_settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.towin_cluster`` (not in the fingerprint: where tasks run changes no byte): scheduler address
    (None: a LocalCluster; ``$DICETABLES_DASK_SCHEDULER`` overrides) and the LocalCluster's workers."""
    cluster = section.get("towin_cluster") or {}
    if not isinstance(cluster, Mapping):
        raise ValueError("yahtzee.towin_cluster must be a mapping (scheduler, workers)")
    scheduler = os.environ.get(SCHEDULER_ENV) or cluster.get("scheduler")
    if scheduler is not None and (type(scheduler) is not str or not scheduler):
        raise ValueError("yahtzee.towin_cluster.scheduler must be an address such as tcp://host:8786, or null")
    workers = cluster.get("workers", 2)
    if type(workers) is not int or workers < 1:
        raise ValueError("yahtzee.towin_cluster.workers must be a positive integer")
    return {"scheduler": scheduler, "workers": workers}


def towin_specs(name: str, towin: Mapping[str, Any]) -> list[ArtifactSpec]:
    """One spec per objective of rule set ``name``."""
    rules = get_rules(name)
    return [ArtifactSpec(name=towin_name(rules, objective), schema=OBJECTIVE_SCHEMAS[objective],
                         schema_version=max(SCHEMA_VERSIONS), game="yahtzee", rules=rules.to_dict(),
                         params={"objective": objective, "max_points": towin["max_points"],
                                 "rows_per_task": towin["rows_per_task"]}, code=CODE)
            for objective in towin["objectives"]]


@contextmanager
def dask_client(scheduler: str | None = None, workers: int = 2, processes: bool = True):
    """A ``distributed.Client``: to ``scheduler`` if given, else to a new LocalCluster of ``workers``
    single-threaded workers (separate processes unless ``processes`` is False), closed on exit."""
    from distributed import Client, LocalCluster

    if scheduler:
        with Client(scheduler) as client:
            yield client
        return
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes, dashboard_address=None,
                      silence_logs=40) as cluster, Client(cluster) as client:
        yield client


_cache_lock = threading.Lock()
_next_cache: dict[str, Any] = {}


def _next_layer(path: str, n: int) -> np.ndarray:
    """Layer ``n`` of the store at ``path``, read once per process (the tasks of a layer share it)."""
    zarr = zarr_module()

    key = f"{path}|{n}"
    with _cache_lock:
        if key not in _next_cache:
            _next_cache.clear()
            _next_cache[key] = zarr.open_array(str(Path(path) / layer_name(n)), mode="r")[...]
        return _next_cache[key]


def _task(path: str, rules: Rules, max_points: int | None, n: int, lo: int, hi: int, threads: int | None) -> int:
    """Compute rows lo..hi-1 of layer ``n`` and write them (one whole shard); returns the row count."""
    import numba
    zarr = zarr_module()

    from pipeline.yahtzee.towin import layout, solve_block

    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    lay = layout(rules, max_points)
    block = solve_block(lay, n, lo, hi, _next_layer(path, n + 1))
    first = lay.layer(n)[0]
    zarr.open_array(str(Path(path) / layer_name(n)), mode="r+")[lo - first:hi - first] = block
    return hi - lo


def build_store(path: Path, rules: Rules, objective: str, max_points: int | None, rows_per_task: int,
                client: Any, threads: int | None = None) -> dict[str, Any]:
    """Write the whole table of ``objective`` into a new Zarr group at ``path``; return its stats."""
    zarr = zarr_module()

    from pipeline.yahtzee.towin import layout, terminal

    lay = layout(rules, max_points)
    space = lay.space
    group = zarr.open_group(zarr.storage.LocalStore(str(path)), mode="w-", zarr_format=3)

    def small(name: str, data: np.ndarray, fill: int, description: str) -> None:
        create_zarr_array(group, name, data.shape, data.dtype, *storage.layout(data.shape, data.itemsize), fill,
                          {"description": description})[...] = data

    small("state_index", space.state_index.astype(np.int32), np.iinfo(np.int32).min,
          "row of each state (filled_mask, upper, ybox); -1 = unreachable")
    small("bound", lay.bound.astype(np.int32), -1, "bound[row]: the last t stored for the row (the most points "
          "the state can still score, capped at max_points); P = 0 above it")
    small("layer_ptr", np.asarray(space.layer_ptr, dtype=np.int64), -1,
          "rows with n filled boxes are layer_ptr[n]:layer_ptr[n + 1]")
    what = ("P(scoring at least t more points)" if objective == "goal"
            else "P(scoring more than t more points) + P(exactly t) / 2")
    for n in range(rules.n_boxes + 1):
        lo, hi = lay.layer(n)
        # Play-time chunks of about CHUNK_BYTES, a power of two of rows dividing a task's rows: every task
        # writes whole shards.
        row_bytes = lay.widths[n] * np.dtype(np.float64).itemsize
        chunk_rows = math.gcd(rows_per_task, 1 << max(0, (storage.CHUNK_BYTES // max(row_bytes, 1)).bit_length() - 1))
        create_zarr_array(group, layer_name(n), (hi - lo, lay.widths[n]), np.float64,
                          (chunk_rows, lay.widths[n]), (rows_per_task, lay.widths[n]), float("nan"),
                          {"description": f"{layer_name(n)}[row - layer_ptr[{n}], t]: the maximal {what} from "
                           f"the start of a turn, t = 0..bound[row]; 0 beyond; 1 for t < 0 (not stored)"})
    group[layer_name(rules.n_boxes)][...] = terminal(lay, objective)
    path_s = str(path)
    start = time.perf_counter()
    with progress(f"play to win ({rules.name}, {objective})", rules.n_boxes) as advance:
        for n in range(rules.n_boxes - 1, -1, -1):
            lo, hi = lay.layer(n)
            futures = [client.submit(_task, path_s, rules, max_points, n, a, min(hi, a + rows_per_task), threads,
                                     pure=False) for a in range(lo, hi, rows_per_task)]
            client.gather(futures)  # raises the first task's error; the layer is complete before the next
            advance()
            say(f"  layer {n}: {hi - lo} rows x {lay.widths[n]} columns, {len(futures)} tasks, "
                f"{time.perf_counter() - start:.1f} s so far")
    with _cache_lock:
        _next_cache.clear()  # in-process workers (threads) share this module: free the last layer read
    first = zarr.open_array(str(path / layer_name(0)), mode="r")[0]
    return {"rows": int(space.n_rows), "start_bound": int(lay.bound[0]), "start_reach": int(lay.reach[0]),
            "start": {str(t): float(first[t]) for t in range(0, int(lay.bound[0]) + 1, 50)}}


def _publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str) -> list[Path]:
    rules = get_rules(spec.rules["name"])
    cluster = cluster_settings(section)
    stats: dict[str, Any] = {}
    threads = None if cluster["scheduler"] else max(1, (os.cpu_count() or 1) // cluster["workers"])

    def write(tmp: Path) -> None:
        where = cluster["scheduler"] or f"a LocalCluster of {cluster['workers']} worker processes"
        say(f"  {spec.name}: tasks on {where}")
        with dask_client(cluster["scheduler"], cluster["workers"]) as client:
            stats.update(build_store(tmp, rules, spec.params["objective"], spec.params["max_points"],
                                     spec.params["rows_per_task"], client, threads))

    return [write_zarr_in_place(spec, artifacts_dir, write, stats=stats, fingerprint=fingerprint)]


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
