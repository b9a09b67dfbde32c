"""Farkle: the cost of a state in each pass of the two-player solver, and ``lookup.farkle.decide``'s latency.

1. Per-state costs on a reduced game (``BENCH_SIZE``, default 4000,-1000,6: 27.4 M states): one value-iteration
   sweep (plain sums), one certification sweep (two bounds, pairwise sums), one pass writing every state's value
   (``block_values``), with 1 and 2 threads; CPU and wall nanoseconds per state. Multiplied by the full game's
   423,765,000 states and the sweeps it needs, they predict its build (docs/farkle.md, "Cost").
2. ``decide`` and ``value`` over a built table (``--artifacts DIR``, default the project's artifacts; the largest
   size built there): random positions before a roll and after one, each asked once cold (its chunks decoded and
   checked on first use) and then warm; medians in milliseconds.

    .venv/bin/python benchmarks/farkle.py [--artifacts DIR] [--skip-solver]

BENCH_QUICK=1 (what `make test` runs): the reduced game 1000,-500,6 unless ``BENCH_SIZE`` says otherwise (the
passes run as they do on a larger game, in a fraction of the time), 20 positions each for ``decide``.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import numpy as np  # noqa: E402

from lookup.farkle.rules import FULL, Size, get_rules, keeps, roll_outcomes, state_count  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"


def solver_costs(size: Size) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from pipeline.farkle.solve import Solver

    rules = get_rules()
    states = state_count(size, rules)
    print(f"reduced game {size.text()}: {states:,} states")
    for threads in (1, 2):
        s = Solver(rules, size, threads)
        X = np.full((s.NB, s.FL, s.NB, s.FL), 0.5)
        with ThreadPoolExecutor(threads) as pool:
            rows = _passes(s, X, pool if threads > 1 else None)
        for name, cpu, wall in rows:
            print(f"  {threads} thread(s), {name}: {cpu / states * 1e9:.1f} ns CPU, {wall / states * 1e9:.1f} ns "
                  f"wall a state ({wall:.2f} s)")
    print(f"  full game: {state_count(FULL):,} states, {state_count(FULL) / states:.1f} times these")


def _passes(s, X: np.ndarray, pool) -> list[tuple[str, float, float]]:
    """(pass, CPU seconds, wall seconds) of one sweep of each kind, after one warm-up sweep."""
    from pipeline.farkle import kernels

    s.sweep(pool, kernels.slab_plain, X, X.copy())  # warm: the kernels are loaded
    rows = []
    for name, run in (("value-iteration sweep", lambda: s.sweep(pool, kernels.slab_plain, X, X.copy())),
                      ("certification sweep", lambda: _interval(s, pool, X)),
                      ("writing pass (values only)", lambda: _block_pass(s, X, pool))):
        c0, t0 = time.process_time(), time.perf_counter()
        run()
        rows.append((name, time.process_time() - c0, time.perf_counter() - t0))
    return rows


def _interval(s, pool, X) -> None:
    from pipeline.farkle import kernels

    low, high = X - 1e-13, X + 1e-13
    s.sweep(pool, kernels.slab_interval, low, high, low.copy(), high.copy())


def _block_pass(s, X, pool) -> None:
    from lookup.farkle.tables import Layout
    from pipeline.farkle import kernels

    lay = Layout.of(s.rules, s.size)
    rows = lay.FL * lay.NB * lay.FL

    def one(i: int) -> None:
        kernels.block_values(X, i, 0, rows, *s.args, np.empty(rows * lay.row_width(i)))

    list(pool.map(one, range(s.NB)) if pool else map(one, range(s.NB)))


def decide_latency(artifacts: Path) -> None:
    from lookup.farkle import decide, value
    from lookup.farkle.tables import built_sizes

    rules = get_rules()
    sizes = built_sizes(rules, artifacts)
    if not sizes:
        print(f"decide: no Farkle table built in {artifacts}")
        return
    size = sizes[0]
    setup = {"target": size.target, "floor": size.floor, "dice": size.dice}
    rng = random.Random(5)
    scores = range(size.floor, size.target, rules.unit)
    rolls = [r for r, _ in roll_outcomes(size.dice) if keeps(r, rules)]
    value(0, 0, setup=setup, artifacts_dir=artifacts)  # opens and checks the table once
    for label, make in (
            ("before a roll", lambda: {"turn_total": rng.randrange(6, 30) * rules.unit,
                                       "dice": rng.randint(1, size.dice)}),
            ("after a roll", lambda: {"roll": list(rng.choice(rolls))})):
        cold, warm = [], []
        for _ in range(20 if QUICK else 200):
            args = (rng.choice(scores), rng.choice(scores))
            kw = make()
            t0 = time.perf_counter()
            decide(*args, **kw, setup=setup, artifacts_dir=artifacts)
            cold.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            decide(*args, **kw, setup=setup, artifacts_dir=artifacts)
            warm.append(time.perf_counter() - t0)
        print(f"decide {label} ({size.text()}): median {statistics.median(cold) * 1e3:.3f} ms first time, "
              f"{statistics.median(warm) * 1e3:.3f} ms again; worst first {max(cold) * 1e3:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--artifacts", type=Path, default=ROOT / "artifacts")
    parser.add_argument("--skip-solver", action="store_true")
    args = parser.parse_args()
    if not args.skip_solver:
        default = "1000,-500,6" if QUICK else "4000,-1000,6"
        size = Size(*(int(x) for x in os.environ.get("BENCH_SIZE", default).split(",")))
        solver_costs(size)
    decide_latency(args.artifacts)


if __name__ == "__main__":
    main()
