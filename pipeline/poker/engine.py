"""The numba engine behind ``lookup.poker.equity(..., engine=NumbaEngine())``: same method and result as
the numpy engine, all numbers of opponents, compiled and much faster (pipeline/poker/kernels.py)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import numba
import numpy as np

from lookup.poker.equity import work_units
from lookup.poker.problem import Problem
from lookup.poker.tables import load_evaluator
from pipeline.poker.kernels import exact_counts, fused_table, monte_carlo, preflop_known

MC_TASKS = 64
# Counts needing fewer evaluations than this (work_units; a heads-up preflop matchup is 5e6) run on one
# thread: waiting for a second thread costs more than it saves there, and on a shared machine it may be
# descheduled (measured with numba's OpenMP threads, before the kernels ran on run_chunks' threads:
# docs/benchmarks.md, "Poker").
SERIAL_WORK = 3e7


@contextmanager
def threads_for(work: float) -> Iterator[None]:
    """Run the numba kernels inside on one thread when ``work`` (evaluations) is below SERIAL_WORK."""
    threads = numba.get_num_threads()
    if work < SERIAL_WORK:
        numba.set_num_threads(1)
    try:
        yield
    finally:
        numba.set_num_threads(threads)


_FUSED: dict[int, tuple[object, tuple[np.ndarray, int]]] = {}


def _fused(tables: object) -> tuple[np.ndarray, int]:
    """The fused last-card table of these evaluator tables, made once per tables object."""
    key = id(tables)
    if key not in _FUSED or _FUSED[key][0] is not tables:
        _FUSED[key] = (tables, fused_table(tables.rank_next, tables.rank_value))
    return _FUSED[key][1]


def interleaved(n: int) -> np.ndarray:
    """0, n-1, 1, n-2, ...: first-card indices with decreasing work alternate with cheap ones, so that the
    two halves of a parallel loop get similar work."""
    out = np.empty(n, dtype=np.int64)
    out[0::2] = np.arange((n + 1) // 2)
    out[1::2] = np.arange(n - 1, (n + 1) // 2 - 1, -1)
    return out


class NumbaEngine:
    """Exact counts and Monte Carlo with the numba kernels; ``rate`` = pair evaluations per second assumed
    by the time budget (half the measured rate, docs/benchmarks.md "Poker": deliberately pessimistic)."""

    name = "numba"
    rate = 1.5e8

    def __init__(self, artifacts_dir: str | Path | None = None) -> None:
        self.tables = load_evaluator(artifacts_dir)
        self.last, self.first6 = _fused(self.tables)

    def _args(self, problem: Problem) -> tuple:
        t = self.tables
        return (t.rank_next, self.last, self.first6, t.flush_value, problem.hands_array(),
                np.array(problem.board, dtype=np.int64), problem.rem, problem.k, problem.opponents)

    def exact(self, problem: Problem, perms: np.ndarray, budget: int,
              method: int = 0) -> tuple[np.ndarray, np.ndarray, int]:
        """Counts of ``kernels.exact_counts`` (``method``: 0 auto, 1 direct, 2 inclusion-exclusion)."""
        if problem.opponents == 0 and problem.k == 5 and len(problem.hands) > 0:
            t = self.tables
            with threads_for(work_units(problem, 1)):
                d = preflop_known(t.rank_next, self.last, self.first6, t.flush_value, problem.hands_array(),
                                  problem.rem, interleaved(len(problem.rem) - 4))
            return d, np.zeros((len(problem.hands), len(problem.hands) + 1, 1, 1), dtype=np.int64), 0
        order = interleaved(max(len(problem.rem) - problem.k + 1, 1)) if problem.k else np.zeros(1, np.int64)
        with threads_for(work_units(problem, len(perms))):
            d, a, failed = exact_counts(*self._args(problem), perms, order, int(budget), method)
        return d, a, int(failed)

    def monte_carlo(self, problem: Problem, samples: int, seed: int) -> np.ndarray:
        return monte_carlo(*self._args(problem), samples, MC_TASKS, seed)
