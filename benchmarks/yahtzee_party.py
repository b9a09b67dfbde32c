"""Forced-order Yatzy among players (``pipeline.yahtzee.party``): solve time, and the 3-player decide.

Goals (issue 25): the 2-player table in at most 30 s, the 3-player table in at most 15 minutes on this 2-core
machine. Prints one line per measurement:

* ``yahtzee_party players=2 wall_s=<median> cpu_s=<median> states=<n>`` (BENCH_REPEATS runs, default 3; the
  layout of canonical upper totals beside the difference that the 2-player table had before took 6.1x as long,
  docs/benchmarks.md);
* with BENCH_FULL=1, ``players=3`` (one run: about four minutes) and its peak memory;
* when ``$BENCH_ARTIFACTS`` (default ``artifacts/``) holds the 3-player table: ``yahtzee_party_decide`` = the
  median time of ``lookup.yahtzee.decide`` with two opponents on random positions, warm (chunks cached) and
  first (fresh chunks), in milliseconds.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import numpy as np  # noqa: E402

import pipeline  # noqa: E402,F401  (numba's cache directory before the kernels load)
from pipeline.yahtzee.party import solve_party  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "3"))
BOXES = (0, 13) if QUICK else None  # the boxes in play: two in quick mode, else the whole sheet
FORCED = "scandinavian+forced"


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    return own.ru_utime + own.ru_stime


def timed(solve, *args) -> tuple[float, float, int]:
    cpu, wall = _cpu(), time.perf_counter()
    sol = solve(*args)
    return time.perf_counter() - wall, _cpu() - cpu, sol.n_states()


def solve_times() -> None:
    solve_party(FORCED, (0, 13), 2)  # compile outside the timings
    runs = [timed(solve_party, FORCED, BOXES, 2) for _ in range(REPEATS)]
    print(f"yahtzee_party players=2 layout=party wall_s={statistics.median(r[0] for r in runs):.2f} "
          f"cpu_s={statistics.median(r[1] for r in runs):.2f} states={runs[0][2]} load={os.getloadavg()[0]:.1f}")
    if os.environ.get("BENCH_FULL"):
        wall, cpu, states = timed(solve_party, FORCED, None, 3)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"yahtzee_party players=3 layout=party wall_s={wall:.1f} cpu_s={cpu:.1f} states={states} "
              f"peak_mb={peak:.0f} load={os.getloadavg()[0]:.1f}")


def decide_times() -> None:
    from lookup import yahtzee
    from lookup.errors import NotBuiltError
    from lookup.yahtzee.sheet import possible_points

    root = Path(os.environ.get("BENCH_ARTIFACTS", ROOT / "artifacts"))
    rules = yahtzee.get_rules(FORCED)
    possible = possible_points(rules)
    rng = np.random.default_rng(3)
    first, warm = [], []
    for _ in range(5 if QUICK else 200):
        box, seat = int(rng.integers(0, 15)), int(rng.integers(0, 3))
        sheets = [[int(rng.choice(sorted(possible[c]))) if c < box + (j < seat) else None for c in range(15)]
                  for j in range(3)]
        args = ([int(x) for x in rng.integers(1, 7, 5)], 2, sheets[seat], FORCED)
        kw = {"opponents": [sheets[(seat + 1) % 3], sheets[(seat + 2) % 3]], "artifacts_dir": root}
        try:
            t = time.perf_counter()
            yahtzee.decide(*args, **kw)
            first.append(time.perf_counter() - t)
        except NotBuiltError:
            print(f"yahtzee_party_decide skipped: no 3-player table in {root}")
            return
        t = time.perf_counter()
        yahtzee.decide(*args, **kw)
        warm.append(time.perf_counter() - t)
    print(f"yahtzee_party_decide players=3 first_ms={1e3 * statistics.median(first):.2f} "
          f"warm_ms={1e3 * statistics.median(warm):.2f} positions={len(warm)}")


if __name__ == "__main__":
    solve_times()
    decide_times()
