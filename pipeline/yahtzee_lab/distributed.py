"""Where batches of games run: here (numba threads) or on a Dask distributed cluster.

A match is cut into batches of consecutive game numbers; each batch is one task. Since game ``g``
depends only on (seed, mode, g) and the players, the results are identical whatever runs the batches,
in whatever order: the batches are gathered back in game order.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.yahtzee_lab.players import PlayerSpec


@dataclass(frozen=True)
class Batch:
    """Games ``first .. first + games - 1`` of a match (everything a worker needs; small and picklable)."""

    a: PlayerSpec
    b: PlayerSpec | None
    games: int
    first: int
    seed: int
    mode: str
    rules: str
    artifacts_dir: str | None


def run_batch(batch: Batch, parallel: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Play one batch: (scores int32 (games, 2), upper bonus uint8 (games, 2))."""
    from pipeline.yahtzee_lab.match import play_batch

    return play_batch(batch.a, batch.b, batch.games, seed=batch.seed, mode=batch.mode, rules=batch.rules,
                      first=batch.first, artifacts_dir=batch.artifacts_dir, parallel=parallel)


def batches(a: PlayerSpec, b: PlayerSpec | None, games: int, *, seed: int, mode: str, rules: str, size: int,
            artifacts_dir: str | Path | None) -> list[Batch]:
    """The batches of a match of ``games`` games, ``size`` games each (even, for antithetic sets)."""
    size = max(2, size - size % 2)
    where = None if artifacts_dir is None else str(artifacts_dir)
    return [Batch(a, b, min(size, games - lo), lo, seed, mode, rules, where) for lo in range(0, games, size)]


Runner = Callable[[Sequence[Batch], Callable[[int], None] | None], list[tuple[np.ndarray, np.ndarray]]]


def run_local(items: Sequence[Batch], progress: Callable[[int], None] | None = None):
    """Run batches one after the other, each on all numba threads."""
    out = []
    for item in items:
        out.append(run_batch(item, parallel=True))
        if progress is not None:
            progress(item.games)
    return out


def dask_runner(client: Any) -> Runner:
    """A runner that sends each batch to the cluster of ``client`` as one task (single-threaded numba in
    the task: the workers' threads are the parallelism)."""

    def run(items: Sequence[Batch], progress: Callable[[int], None] | None = None):
        from distributed import as_completed

        futures = client.map(run_batch, list(items), pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[Any] = [None] * len(futures)
        for future in as_completed(futures):
            results[index[future.key]] = future.result()
            if progress is not None:
                progress(items[index[future.key]].games)
        return results

    return run


@contextmanager
def runner(scheduler: str | None = None, local_cluster: int | None = None) -> Iterator[Runner]:
    """The runner for ``--scheduler ADDRESS`` (an existing cluster), ``--local-cluster N`` (N worker
    processes started here, one thread each) or neither (this process)."""
    if scheduler and local_cluster:
        raise ValueError("give either a scheduler address or a local cluster size, not both")
    if not scheduler and not local_cluster:
        yield run_local
        return
    from distributed import Client, LocalCluster

    if scheduler:
        with Client(scheduler) as client:
            yield dask_runner(client)
        return
    with LocalCluster(n_workers=int(local_cluster), threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        yield dask_runner(client)
