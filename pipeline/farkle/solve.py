"""Two-player Farkle solved to a certified error bound (docs/farkle.md, "How the table is built").

``solve`` finds the probability that the mover wins from the start of every turn, X[i, f, j, g]
(``pipeline.farkle.kernels`` for the notation), in two phases:

1. **Value iteration**, Gauss-Seidel by score sum: positions are updated from the highest sum of the two banked
   scores down and, within a sum, the most farkles in a row first. A bank raises the sum (by at least
   min_bank), a farkle keeps it and adds a farkle to the count: both read values already updated in the sweep.
   Only the penalty (a third farkle: the sum falls by 500) reads a value of the previous sweep, so an error
   shrinks about tenfold a sweep (measured; docs/farkle.md). Sweeps stop when the largest change is below
   ``tolerance``.
2. **Certification**, interval iteration from the box ``X - delta .. X + delta`` with sums added pairwise: the
   new low bound of a position is its turn solved against the high bounds of the exits minus the rounding
   bound of the pass, the new high bound against the low bounds plus it. When no bound moved outward in a
   sweep, the final box (L, H) satisfies L <= T(H) and T(L) <= H for the exact one-turn operator T, and the
   game's value, the unique fixed point of T, lies inside it (docs/farkle.md, "The error bound": the proof).

Score sums S, S - 1, ..., S - min_bank + 1 read nothing of each other, so ``threads`` of them run at once (the
same numbers for any number of threads).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lookup.farkle.rules import Rules, Size
from pipeline.farkle import kernels

TOLERANCE = 1e-14  # value iteration stops when no position changed by more than this in a sweep
DELTA = 1e-13  # half-width of the box the certification starts from
MAX_SWEEPS = 2000
CERTIFY_SWEEPS = 4  # interval sweeps from one box before a box ten times wider is tried
CERTIFY_WIDTHS = 5  # boxes tried: delta, 10 delta, ...


@dataclass
class Solution:
    """The certified turn-start values: ``low[i, f, j, g] <= P(mover wins) <= high[i, f, j, g]``, their
    midpoint ``mid``, and what the solve measured (``stats``: sweeps, largest changes, the final gap, the
    rounding bound of the passes, seconds)."""

    rules: Rules
    size: Size
    low: np.ndarray
    high: np.ndarray
    mid: np.ndarray
    rho: np.ndarray  # rho[i]: rounding bound of a turn of mover score index i (exact passes)
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def bound(self) -> float:
        """The largest distance from ``mid`` to the true value: half the widest box, plus the midpoint's
        rounding."""
        return float(np.max(self.high - self.low)) / 2 + float(np.max(np.abs(self.mid))) * kernels.U


class Solver:
    """The roll table, the unit sizes and the thread pool of one (rules, size)."""

    def __init__(self, rules: Rules, size: Size, threads: int = 1) -> None:
        self.rules, self.size = rules, size
        self.table = kernels.roll_table(rules, size.dice)
        self.NB, self.M, self.P, self.FL = kernels.sizes(rules, size)
        self.threads = max(1, threads)
        self.level = kernels.level_error(self.table)
        self.args = (self.NB, self.M, self.P, size.dice, *self.table.arrays(), self.table.terms)
        self.rho = self._rho()

    def _rho(self) -> np.ndarray:
        """rho[i]: the rounding bound of R(0, D) of mover score index i (``kernels.rounding_bounds``)."""
        rho = np.empty(self.NB)
        cache: dict[int, float] = {}
        for i in range(self.NB):
            rows = max(self.NB - i, self.M)
            if rows not in cache:
                e = kernels.rounding_bounds(rows, self.M, self.size.dice, *self.table.arrays(), self.level)
                cache[rows] = float(e[0, self.size.dice]) * 1.01
            rho[i] = cache[rows]
        return rho

    def sweep(self, pool: ThreadPoolExecutor | None, kernel: Callable[..., Any], *arrays: np.ndarray) -> list[Any]:
        """``kernel(*arrays, S, ...)`` (``kernels.slab_plain`` or ``slab_interval``) for every score sum S, highest
        first, ``threads`` consecutive sums at a time."""
        top = 2 * self.NB - 2
        step = min(self.threads, self.M)
        rest = (*self.args, self.rho) if kernel is kernels.slab_interval else self.args

        def slab(S: int) -> Any:
            return kernel(*arrays, S, *rest)

        out = []
        for s in range(top, -1, -step):
            sums = list(range(s, max(-1, s - step), -1))
            out.extend(pool.map(slab, sums) if pool and len(sums) > 1 else map(slab, sums))
        return out


def solve(rules: Rules, size: Size, threads: int = 1, tolerance: float = TOLERANCE, delta: float = DELTA,
          say: Callable[[str], None] = lambda s: None) -> Solution:
    """The certified turn-start values of two-player Farkle of ``size`` under ``rules``. RuntimeError if value
    iteration does not settle or the certification finds no box."""
    solver = Solver(rules, size, threads)
    NB, FL = solver.NB, solver.FL
    X = np.full((NB, FL, NB, FL), 0.5)
    stats: dict[str, Any] = {"sweeps": 0, "changes": []}
    start = time.perf_counter()
    with ThreadPoolExecutor(solver.threads) if solver.threads > 1 else _NoPool() as pool:
        ratios: list[float] = []
        extrapolated = 0
        step = None
        said = start
        for sweep in range(1, MAX_SWEEPS + 1):
            before = X.copy()
            change = max(solver.sweep(pool, kernels.slab_plain, X, before))
            stats["changes"].append(change)
            if change <= tolerance or time.perf_counter() - said > 5:  # a line every few seconds
                said = time.perf_counter()
                say(f"  sweep {sweep}: largest change {change:.2e} ({said - start:.1f} s)")
            if change <= tolerance:
                break
            last, step = step, X - before
            if last is not None:
                ratios.append(float(np.vdot(step, last) / max(np.vdot(last, last), 1e-300)))
            # A steady rate r of the last steps (the sign tells whether they alternate): jump to the limit,
            # X + step r / (1 - r) (Aitken). Only speed depends on it: the certification holds from any X.
            if len(ratios) >= 3 and abs(ratios[-1]) < 0.999 and max(ratios[-3:]) - min(ratios[-3:]) < 0.005:
                r = ratios[-1]
                X += step * (r / (1 - r))
                np.clip(X, 0.0, 1.0, out=X)
                ratios.clear()
                step = None
                extrapolated += 1
        else:
            raise RuntimeError(f"Farkle {size.text()}: value iteration did not settle in {MAX_SWEEPS} sweeps")
        stats["sweeps"] = sweep
        stats["extrapolations"] = extrapolated
        stats["iteration_seconds"] = round(time.perf_counter() - start, 3)
        attempt = 0
        for width in (delta * 10 ** k for k in range(CERTIFY_WIDTHS)):
            low, high = X - width, X + width
            for _ in range(CERTIFY_SWEEPS):
                attempt += 1
                low0, high0 = low.copy(), high.copy()
                results = solver.sweep(pool, kernels.slab_interval, low, high, low0, high0)
                outward = sum(r[0] for r in results)
                gap = max(r[1] for r in results)
                say(f"  certification sweep {attempt} (from +-{width:.0e}): gap {gap:.2e}, {outward} bounds moved "
                    f"outward ({time.perf_counter() - start:.1f} s)")
                if not outward:
                    break
            if not outward:
                break
        else:
            raise RuntimeError(f"Farkle {size.text()}: no certified box after {attempt} interval sweeps")
        delta = width
    mid = (low + high) / 2
    stats.update({"certification_sweeps": attempt, "gap": float(np.max(high - low)), "delta": delta,
                  "tolerance": tolerance, "rounding_bound": float(solver.rho.max()),
                  "seconds": round(time.perf_counter() - start, 3)})
    return Solution(rules, size, low, high, mid, solver.rho, stats)


class _NoPool:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None
