"""The numba equity kernels compiled ahead of any user's call: ``dicetables compile`` (run by ``make test``; the
poker game's ``WarmUp``, pipeline/warm.py) calls :func:`compile_kernels` and so fills numba's on-disk cache;
``dicetables poker equity`` uses the numba engine only when that cache holds every kernel, and the numpy engine
otherwise (compiling takes 25 to 75 s on this machine, far beyond a ``--budget`` of seconds; docs/poker.md,
"First call").

A module of its own, outside ``engine.py``: that file is part of the poker tables' fingerprint
(dvc.yaml), and nothing here changes what they compute.
"""

from __future__ import annotations

import time
from pathlib import Path

from pipeline.poker.engine import NumbaEngine
from pipeline.poker.kernels import _exact_counts_chunk, _monte_carlo_chunk, _preflop_known_chunk

# The compiled kernels an equity question runs (their numba helpers are linked into them and cached with them):
# the chunk kernels behind ``exact_counts``, ``preflop_known`` and ``monte_carlo``, which are Python functions.
EQUITY_KERNELS = (_exact_counts_chunk, _preflop_known_chunk, _monte_carlo_chunk)


def kernels_cached() -> bool:
    """True when every kernel of ``EQUITY_KERNELS`` is compiled in this process or in numba's on-disk cache
    (``NUMBA_CACHE_DIR``) for the current source: a first call then loads it in a fraction of a second.

    Reads numba's cache index, a private interface: any surprise there answers False, and the caller falls
    back to the numpy engine (slower, but within its budget)."""
    for kernel in EQUITY_KERNELS:
        if kernel.signatures:
            continue
        try:
            if not kernel._cache._cache_file._load_index():
                return False
        except Exception:  # noqa: BLE001 (numba's internals changed: treat the cache as cold)
            return False
    return True


def compile_kernels(artifacts_dir: str | Path | None = None) -> float:
    """Compile every kernel of ``EQUITY_KERNELS`` into numba's on-disk cache through ``NumbaEngine`` itself
    (so the signatures are those of real calls: the known-hands preflop count, the exact count with
    opponents, the Monte Carlo), and the multi-way counting kernels on a small deck; returns the seconds
    taken."""
    from lookup.poker.equity import equity

    start = time.perf_counter()
    engine = NumbaEngine(artifacts_dir)
    equity(["AsAh", "KdKc"], (), 0, budget=600, engine=engine, artifacts_dir=artifacts_dir, use_table=False)
    equity(["AsAh"], "2c7d9h", 1, budget=600, engine=engine, artifacts_dir=artifacts_dir)
    equity(["AsAh"], "2c7d9h", 2, budget=0, samples=1000, engine=engine, artifacts_dir=artifacts_dir)
    # The multi-way counting kernels (a build's tasks, its tests), on a deck of 12 cards.
    from pipeline.poker.board_types import task_counts
    from pipeline.poker.multiway import WARM_DECK

    task_counts(WARM_DECK, engine.tables, engine.last, engine.first6, 12, 12, 0, 1, 9)
    return time.perf_counter() - start
