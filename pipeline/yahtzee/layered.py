"""Tables built layer by layer as Dask distributed tasks that write a Zarr group in place.

A layer is the rows of the turn-start states with n filled boxes (``lookup.yahtzee.states``); a layer's
numbers read only the next layer's. The driver lays out the group, writes the finished-game layer, then for
each layer from the last to the first submits one task per block of ``rows_per_task`` rows. A task reads
the next layer from the store (once per worker process and layer: :func:`next_layer`), computes its rows
and writes them: exactly one whole shard, so that no two tasks ever touch the same file. It returns the
digests of the chunks it wrote, computed from its rows in memory, which the publisher compares with the
chunks it reads back (``pipeline.store.Written``). A layer's tasks finish before the previous layer's
start. A row's numbers do not depend on the block it is computed in, so 1 worker, 2 workers or any cluster
give the same bytes.

Where the tasks run (``yahtzee.cluster``, in no fingerprint: it changes no byte): a
``distributed.LocalCluster`` of ``workers`` single-threaded processes by default, or the scheduler at
``scheduler`` / ``$DICETABLES_DASK_SCHEDULER`` (its workers must see the artifacts directory at the same
path: a shared filesystem; docs/yahtzee.md).
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from lookup.store import zarr_module
from pipeline import layout as storage
from pipeline.progress import progress, say
from pipeline.store import ArtifactSpec, Written, create_zarr_array, rows_digests, write_zarr_in_place

SCHEDULER_ENV = "DICETABLES_DASK_SCHEDULER"


def cluster_settings(section: Mapping[str, Any]) -> dict[str, Any]:
    """``yahtzee.cluster`` checked: scheduler address (None: a LocalCluster; ``$DICETABLES_DASK_SCHEDULER``
    overrides) and the LocalCluster's workers."""
    cluster = section.get("cluster") or {}
    if not isinstance(cluster, Mapping):
        raise ValueError("yahtzee.cluster must be a mapping (scheduler, workers)")
    scheduler = os.environ.get(SCHEDULER_ENV) or cluster.get("scheduler")
    if scheduler is not None and (type(scheduler) is not str or not scheduler):
        raise ValueError("yahtzee.cluster.scheduler must be an address such as tcp://host:8786, or null")
    workers = cluster.get("workers", 2)
    if type(workers) is not int or workers < 1:
        raise ValueError("yahtzee.cluster.workers must be a positive integer")
    return {"scheduler": scheduler, "workers": workers}


def rows_per_task(section: Mapping[str, Any], where: str, default: int) -> int:
    """The positive ``rows_per_task`` of a params mapping; ValueError naming ``where`` otherwise."""
    rows = section.get("rows_per_task", default)
    if type(rows) is not int or rows < 1:
        raise ValueError(f"{where}.rows_per_task must be a positive integer")
    return rows


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


def task_threads(cluster: Mapping[str, Any]) -> int | None:
    """Numba threads per task: the cores shared among the LocalCluster's workers; None (numba's default) on a
    cluster whose machines this one cannot see."""
    return None if cluster["scheduler"] else max(1, (os.cpu_count() or 1) // cluster["workers"])


_cache_lock = threading.Lock()
_next_cache: dict[str, Any] = {}


def next_layer(path: str, name: str, load: Callable[[np.ndarray], Any] = lambda a: a) -> Any:
    """``load`` of array ``name`` of the store at ``path``, read once per process (the tasks of a layer share
    it); the previous layer read is dropped."""
    zarr = zarr_module()

    key = f"{path}|{name}"
    with _cache_lock:
        if key not in _next_cache:
            _next_cache.clear()
            _next_cache[key] = load(zarr.open_array(str(Path(path) / name), mode="r")[...])
        return _next_cache[key]


def write_rows(path: str, name: str, start: int, block: np.ndarray) -> tuple[str, int, np.ndarray]:
    """Write ``block`` as rows ``start ..`` of array ``name`` (a task's whole shards); return ``name`` and the
    digests of the chunks written, computed from ``block`` (``pipeline.store.rows_digests``), for
    ``Written.add``."""
    array = zarr_module().open_array(str(Path(path) / name), mode="r+")
    array[start:start + len(block)] = block
    return name, *rows_digests(start, block, tuple(array.chunks))


def write_array(array: Any, data: np.ndarray, written: Written | None) -> None:
    """Fill the Zarr ``array`` with ``data`` (from the driver), recorded in ``written`` (None: not recorded)."""
    array[...] = data
    if written is not None:
        written.rows(array, 0, data)


def small_array(group: Any, name: str, data: np.ndarray, fill: Any, description: str,
                written: Written | None = None) -> None:
    """Array ``name`` of ``group`` holding ``data``, laid out by ``pipeline.layout`` (recorded in ``written``)."""
    write_array(create_zarr_array(group, name, data.shape, data.dtype, *storage.layout(data.shape, data.itemsize),
                                  fill, {"description": description}), data, written)


def state_arrays(group: Any, space: Any, written: Written | None = None) -> None:
    """The rows of the states (``lookup.yahtzee.states.StateSpace``): ``state_index`` and ``layer_ptr``."""
    small_array(group, "state_index", space.state_index.astype(np.int32), np.iinfo(np.int32).min,
                "row of each state (filled_mask, upper, ybox); -1 = unreachable", written)
    small_array(group, "layer_ptr", np.asarray(space.layer_ptr, dtype=np.int64), -1,
                "rows with n filled boxes are layer_ptr[n]:layer_ptr[n + 1]", written)


def layer_array(group: Any, name: str, rows: int, width: int | None, rows_per_task: int, description: str) -> Any:
    """An empty float64 array of ``rows`` rows (of ``width`` columns, or 1-D for None) whose shards are
    ``rows_per_task`` rows, so that every task writes whole shards; play-time chunks of about
    ``pipeline.layout.CHUNK_BYTES``, a power of two of rows dividing a task's rows."""
    row_bytes = (width or 1) * np.dtype(np.float64).itemsize
    chunk_rows = math.gcd(rows_per_task, 1 << max(0, (storage.CHUNK_BYTES // row_bytes).bit_length() - 1))
    tail = () if width is None else (width,)
    return create_zarr_array(group, name, (rows, *tail), np.float64, (chunk_rows, *tail), (rows_per_task, *tail),
                             float("nan"), {"description": description})


def run_layers(client: Any, title: str, layers: list[tuple[int, int, int]], rows_per_task: int,
               task: Callable[..., tuple[str, int, np.ndarray]], args: tuple,
               describe: Callable[[int], str] = lambda n: "", written: Written | None = None) -> None:
    """Submit ``task(*args, n, lo, hi)`` for every block of at most ``rows_per_task`` rows of each layer
    ``(n, first row, end row)`` in the order given, a layer's tasks finishing before the next layer's start;
    each task returns what ``write_rows`` does, recorded in ``written`` (None: not recorded)."""
    start = time.perf_counter()
    with progress(title, len(layers)) as advance:
        for n, lo, hi in layers:
            futures = [client.submit(task, *args, n, a, min(hi, a + rows_per_task), pure=False)
                       for a in range(lo, hi, rows_per_task)]
            # Raises the first task's error; the layer is complete before the next.
            for name, first, digests in client.gather(futures):
                if written is not None:
                    written.add(name, first, digests)
            advance()
            say(f"  layer {n}: {hi - lo} rows{describe(n)}, {len(futures)} tasks, "
                f"{time.perf_counter() - start:.1f} s so far")
    with _cache_lock:
        _next_cache.clear()  # in-process workers (threads) share this module: free the last layer read


def set_threads(threads: int | None) -> None:
    """Numba threads of this worker process (None leaves numba's default)."""
    import numba

    if threads:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))


def publish(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path, fingerprint: str,
            build: Callable[[Path, Any, int | None, Written], Mapping[str, Any]]) -> list[Path]:
    """Publish ``spec`` (``Family.publish``): ``build(tmp_path, client, threads, written)`` writes the Zarr
    group on the cluster of ``yahtzee.cluster``, records what it wrote in ``written``, and returns the stats
    to record."""
    cluster = cluster_settings(section)
    stats: dict[str, Any] = {}

    def write(tmp: Path, written: Written) -> None:
        where = cluster["scheduler"] or f"a LocalCluster of {cluster['workers']} worker processes"
        say(f"  {spec.name}: tasks on {where}")
        with dask_client(cluster["scheduler"], cluster["workers"]) as client:
            stats.update(build(tmp, client, task_threads(cluster), written))

    return [write_zarr_in_place(spec, artifacts_dir, write, stats=stats, fingerprint=fingerprint)]
