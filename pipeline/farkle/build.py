"""Publishing the two-player Farkle tables (``lookup.farkle.tables``): for each size, the certified solve in this
process (``pipeline.farkle.solve``), then every state's value written in place by Dask tasks, one shard of its
``roll`` array each (``pipeline.store.write_zarr_in_place``).

A task computes R(t, n) of the positions whose values fall in its shard (``kernels.block_values``: the turn of
each position solved again from the certified midpoints of the turn-start values, sums added pairwise), writes the
shard and returns the digests of its chunks and the R(0, D) of the positions whose turn starts in it: those are
the ``start`` array, so that a turn start and the bank that leads to it read the same number. A position's values
do not depend on the task that computes them: any number of workers gives the same bytes.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.farkle.rules import Rules, Size, get_rules, state_count
from lookup.farkle.tables import Layout, array_name, size_key
from lookup.store import zarr_module
from pipeline import layout as storage
from pipeline.farkle import kernels
from pipeline.farkle.solve import Solution, solve
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, Written, create_zarr_array, rows_digests, write_zarr_in_place

ROLL_WHAT = ("roll[offsets[i] + (((f * NB + j) * FL + g) * rows(i) + t) * D + n - 1]: the probability that the "
             "mover (score index i, f farkles in a row) wins against (j, g) if it rolls n dice now with a turn total "
             "of t units, both playing to win (rows(i) = max(NB - i, min_bank / unit))")


def solve_threads() -> int:
    """Threads of the solve: score sums up to min_bank / unit apart run at once (6), on the cores there are."""
    return max(1, min(os.cpu_count() or 1, 6))


def _task(path: str, rules: Rules, size: Size, X: np.ndarray, lo: int, hi: int) -> tuple[int, np.ndarray,
                                                                                           np.ndarray, np.ndarray]:
    """Compute elements lo .. hi - 1 of ``roll`` (one whole shard) and write them; returns (first chunk, chunk
    digests, flat indices and values of the turn starts among them)."""
    lay = Layout.of(rules, size)
    table = kernels.roll_table(rules, size.dice)
    NB, M, P, _ = kernels.sizes(rules, size)
    args = (NB, M, P, size.dice, *table.arrays(), table.terms)
    offsets = lay.offsets()
    block = np.empty(hi - lo)
    starts_at, starts = [], []
    i = int(np.searchsorted(offsets, lo, side="right")) - 1
    while i < NB and offsets[i] < hi:
        width = lay.row_width(i)
        first = max(lo, int(offsets[i]))
        last = min(hi, int(offsets[i + 1]))
        r_lo, r_hi = (first - int(offsets[i])) // width, (last - int(offsets[i]) - 1) // width + 1
        R = np.empty((r_hi - r_lo) * width)
        kernels.block_values(X, i, r_lo, r_hi, *args, R)
        base = int(offsets[i]) + r_lo * width
        block[first - lo:last - lo] = R[first - base:last - base]
        for r in range(r_lo, r_hi):
            k = int(offsets[i]) + r * width + size.dice - 1  # R(0, D): the turn's start
            if first <= k < last:
                starts_at.append(i * (NB * lay.FL * lay.FL) + r)
                starts.append(R[k - base])
        i += 1
    array = zarr_module().open_array(str(Path(path) / array_name("roll", size)), mode="r+")
    array[lo:hi] = block
    first_chunk, digests = rows_digests(lo, block, tuple(array.chunks))
    return first_chunk, digests, np.array(starts_at, np.int64), np.array(starts)


def build_store(path: Path, rules: Rules, sizes: list[Size], client: Any, written: Written) -> dict[str, Any]:
    """Solve every size and write its table into a new Zarr group at ``path``, recording what is written in
    ``written``; return the stats of each (by size key)."""
    group = zarr_module().open_group(zarr_module().storage.LocalStore(str(path)), mode="w-", zarr_format=3)
    return {size_key(size): write_size(group, path, rules, size, client, written) for size in sizes}


def write_size(group: Any, path: Path, rules: Rules, size: Size, client: Any, written: Written,
               solution: Solution | None = None) -> dict[str, Any]:
    """Solve ``size`` (unless ``solution`` is given) and write its arrays into ``group``; return its stats."""
    start = time.perf_counter()
    solution = solution or solve(rules, size, threads=solve_threads(), say=say)
    say(f"  solved in {time.perf_counter() - start:.1f} s: {solution.stats['sweeps']} sweeps, certified gap "
        f"{solution.stats['gap']:.1e}")
    lay = Layout.of(rules, size)
    offsets = lay.offsets()
    n = int(offsets[-1])
    chunks, shards = storage.layout((n,), 8)
    create_zarr_array(group, array_name("roll", size), (n,), np.float64, chunks, shards, float("nan"),
                      {"description": ROLL_WHAT})
    X = client.scatter(solution.mid, broadcast=True)
    futures = [client.submit(_task, str(path), rules, size, X, a, min(n, a + shards[0]), pure=False)
               for a in range(0, n, shards[0])]
    start_flat = np.full(lay.NB * lay.FL * lay.NB * lay.FL, np.nan)
    with progress(f"Farkle {size.text()}: {n:,} states", len(futures)) as advance:
        for future in futures:  # in order: the same record whatever finishes first
            first, digests, at, values = future.result()
            written.add(array_name("roll", size), first, digests)
            start_flat[at] = values
            advance()
    say(f"  {n:,} states written in {time.perf_counter() - start:.1f} s so far")
    start_table = start_flat.reshape(lay.NB, lay.FL, lay.NB, lay.FL)
    shape = start_table.shape
    what = "[i, f, j, g]: the probability that the mover (score index i, f farkles in a row) wins against (j, g) "
    for name, data, text in (
            ("start", start_table, what + "from the start of its turn (R(0, D) of roll)"),
            ("low", solution.low, what + "from the start of its turn: a certified lower bound"),
            ("high", solution.high, what + "from the start of its turn: a certified upper bound"),
            ("offsets", offsets, "offsets[i]: the index in roll of mover score index i's first value")):
        a_chunks, a_shards = storage.layout(tuple(data.shape), data.itemsize)
        array = create_zarr_array(group, array_name(name, size), tuple(data.shape), data.dtype, a_chunks, a_shards,
                                  float("nan") if data.dtype == np.float64 else -1, {"description": text})
        array[...] = data
        written.rows(array, 0, data)
    assert shape == solution.low.shape
    return stats_of(solution, start_table)


def stats_of(solution: Solution, start_table: np.ndarray) -> dict[str, Any]:
    """What the artifact records of its solve (no timings: equal inputs give equal bytes)."""
    rules, size = solution.rules, solution.size
    i0 = -size.floor // rules.unit
    table = kernels.roll_table(rules, size.dice)
    level = kernels.level_error(table)
    NB, M, _, _ = kernels.sizes(rules, size)
    worst = max(float(kernels.rounding_bounds(rows, M, size.dice, *table.arrays(), level).max())
                for rows in sorted({max(NB - i, M) for i in range(NB)}))
    half_gap = float(np.max(solution.high - solution.low)) / 2
    s = solution.stats
    return {"states": state_count(size, rules), "first_player_wins": float(start_table[i0, 0, i0, 0]),
            "first_player_low": float(solution.low[i0, 0, i0, 0]),
            "first_player_high": float(solution.high[i0, 0, i0, 0]),
            "error_bound": half_gap + kernels.U + worst * 1.01, "certified_gap": s["gap"],
            "rounding_bound_turn_start": s["rounding_bound"], "rounding_bound_stored": worst * 1.01,
            "sweeps": s["sweeps"], "extrapolations": s["extrapolations"],
            "certification_sweeps": s["certification_sweeps"], "certification_delta": s["delta"],
            "largest_changes": [float(c) for c in s["changes"]]}


def cluster_of(section: Mapping[str, Any]) -> tuple[str | None, int]:
    """``farkle.cluster`` checked: (scheduler address or None for a LocalCluster, its worker processes);
    ``$DICETABLES_DASK_SCHEDULER`` names a scheduler too."""
    cluster = section.get("cluster") or {}
    if not isinstance(cluster, Mapping):
        raise ValueError("farkle.cluster must be a mapping (scheduler, workers)")
    scheduler = os.environ.get("DICETABLES_DASK_SCHEDULER") or cluster.get("scheduler")
    workers = cluster.get("workers", 2)
    if scheduler is not None and (type(scheduler) is not str or not scheduler):
        raise ValueError("farkle.cluster.scheduler must be an address such as tcp://host:8786, or null")
    if type(workers) is not int or not 1 <= workers <= 256:
        raise ValueError("farkle.cluster.workers must be an integer in 1..256")
    return scheduler, workers


def publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str) -> list[Path]:
    """Publish the table of ``spec`` (``Family.publish``): the tasks run on ``farkle.cluster`` (its workers must
    see the artifacts directory at the same path)."""
    from distributed import Client, LocalCluster

    scheduler, workers = cluster_of(section)
    rules, sizes = get_rules(spec.rules["name"]), [Size(*g) for g in spec.params["games"]]
    stats: dict[str, Any] = {}

    def write(tmp: Path, written: Written) -> None:
        say(f"  {spec.name}: tasks on {scheduler or f'a LocalCluster of {workers} worker processes'}")
        if scheduler:
            with Client(scheduler) as client:
                stats.update(build_store(tmp, rules, sizes, client, written))
            return
        with LocalCluster(n_workers=workers, threads_per_worker=1, dashboard_address=":0", silence_logs=40) as lc, \
                Client(lc) as client:
            stats.update(build_store(tmp, rules, sizes, client, written))

    return [write_zarr_in_place(spec, artifacts_dir, write, stats=stats, fingerprint=fingerprint)]
