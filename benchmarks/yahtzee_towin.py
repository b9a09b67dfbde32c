"""Play-to-win tables built as Dask tasks (``pipeline.yahtzee.towin_build``): wall and CPU time.

The goal: the full ``hasbro`` goal table (every t up to 1575) in at most 15 minutes on a 2-core
machine; the default build (``scandinavian+forced``, goal and win, every t) quick enough for ``make run``.
Each build runs in a fresh temporary artifacts directory on a LocalCluster of BENCH_WORKERS (default 2)
worker processes; CPU time counts every process of the build (its workers included). Prints one line per
build: ``yahtzee_towin rules=<name> objectives=<...> wall_s=<median> cpu_s=<median> load=<1-min load>``.
BENCH_FULL=1 adds the full hasbro goal table (one run: minutes); BENCH_REPEATS (default 3) runs of the small one.
BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): the goal table once, on one worker.
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

from pipeline import registry  # noqa: E402
from pipeline.yahtzee.towin_build import family_name  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "3"))
WORKERS = 1 if QUICK else int(os.environ.get("BENCH_WORKERS", "2"))


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def build_once(rules: str, objectives: list[str]) -> tuple[float, float]:
    with tempfile.TemporaryDirectory() as tmp:
        params = Path(tmp) / "params.yaml"
        params.write_text(f"yahtzee:\n  rule_sets: [hasbro]\n  towin:\n    rule_sets: [{rules}]\n"
                          f"    objectives: [{', '.join(objectives)}]\n    max_points: null\n"
                          f"    rows_per_task: 8192\n  cluster:\n    workers: {WORKERS}\n")
        cpu, wall = _cpu(), time.perf_counter()
        registry.build([family_name(rules)], params_path=params, artifacts_dir=Path(tmp) / "art", manifest=False)
        return time.perf_counter() - wall, _cpu() - cpu


def report(rules: str, objectives: list[str], repeats: int) -> None:
    runs = [build_once(rules, objectives) for _ in range(repeats)]
    print(f"yahtzee_towin rules={rules} objectives={'+'.join(objectives)} workers={WORKERS} "
          f"wall_s={statistics.median(r[0] for r in runs):.1f} cpu_s={statistics.median(r[1] for r in runs):.1f} "
          f"runs={' '.join(f'{r[0]:.1f}' for r in runs)} load={os.getloadavg()[0]:.1f}", flush=True)


def main() -> None:
    report("scandinavian+forced", ["goal"] if QUICK else ["goal", "win"], REPEATS)
    if os.environ.get("BENCH_FULL") == "1":
        report("hasbro", ["goal"], 1)


if __name__ == "__main__":
    main()
