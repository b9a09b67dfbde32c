"""The exact score-distribution pass (``pipeline.yahtzee.distribution``) per rule set; goal: < 10 s each.

The policy tables come from an untimed solve; the pass is timed warm (an untimed first pass loads the numba
cache). Wall time and CPU time (all threads; the figure a loaded machine does not inflate as much) are
medians of BENCH_REPEATS (default 3) runs (a public Rust solver's published time is beside ours in
docs/benchmarks.md). Prints one line per rule set:
``yahtzee_distribution rules=<name> pass_s=<median> cpu_s=<median> peak_mib=<two layers of laws>
mean=<law mean> start=<value table> load=<1-min load average>``. BENCH_RULES: comma-separated rule sets
(default hasbro,verhoeff,scandinavian). BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py):
scandinavian+forced, one run.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))

import numpy as np  # noqa: E402

from pipeline.yahtzee.distribution import score_distribution  # noqa: E402
from pipeline.yahtzee.solver import solve  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "3"))


def main() -> None:
    names = os.environ.get("BENCH_RULES", "scandinavian+forced" if QUICK else "hasbro,verhoeff,scandinavian").split(",")
    for name in names:
        sol = solve(name, policy=True)
        score_distribution(name, sol.state_index, sol.reroll, sol.category)  # untimed: numba cache
        walls, cpus = [], []
        for _ in range(REPEATS):
            w, c = time.perf_counter(), time.process_time()
            law = score_distribution(name, sol.state_index, sol.reroll, sol.category)
            walls.append(time.perf_counter() - w)
            cpus.append(time.process_time() - c)
        mean = float(np.arange(len(law.pmf)) @ law.pmf)
        print(f"yahtzee_distribution rules={name} pass_s={statistics.median(walls):.2f} "
              f"cpu_s={statistics.median(cpus):.2f} peak_mib={law.peak_bytes / 2**20:.0f} mean={mean:.9f} "
              f"start={sol.start_value:.9f} load={os.getloadavg()[0]:.1f}", flush=True)


if __name__ == "__main__":
    main()
