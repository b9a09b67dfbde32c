"""Tic-tac-toe: time to compute all the tables (every reachable position, minimax and best response to each
model of params.yaml, exact rationals), and decide() latency over the built tables; the exact match-ups
of the report (every player against every model, both seats). Medians of REPEATS runs in one process.
The LAST line is ``tictactoe all_tables_s=... decide_us=... matchups_s=...``. BENCH_QUICK=1: one run, two
models, 200 decisions (what `make test` runs, tests/test_benchmarks.py).
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import yaml  # noqa: E402

from pipeline import registry  # noqa: E402
from pipeline.family import load_params  # noqa: E402
from pipeline.progress import set_quiet  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "3"))


def all_tables(section: dict, root: Path) -> tuple[float, float]:
    """(wall, CPU) seconds to compute the tables (no writing), fresh caches (the perfect model's minimax
    included). CPU time is this process's: on a shared machine it is the better estimate of idle wall time."""
    from lookup.tictactoe.rules import _minimax
    from pipeline.tictactoe.stage import families

    _minimax.cache_clear()
    start, cpu = time.perf_counter(), time.process_time()
    for family in families(section):
        for spec in family.artifacts(section):
            family.compute(spec, section, root)
    return time.perf_counter() - start, time.process_time() - cpu


def main() -> None:
    set_quiet(True)
    section = load_params()["tictactoe"]
    if QUICK:
        section = {**section, "models": ["random", "first"], "report": {**section["report"], "players": ["perfect"]}}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        runs = [all_tables(section, root) for _ in range(REPEATS)]
        times, cpus = [w for w, _ in runs], [c for _, c in runs]
        print(f"all tables: median {statistics.median(times):.3f} s wall ({' '.join(f'{t:.3f}' for t in times)}), "
              f"{statistics.median(cpus):.3f} s CPU")
        params = root / "params.yaml"
        params.write_text(yaml.safe_dump({"tictactoe": section}))
        registry.build(["tictactoe-standard"], params_path=params, artifacts_dir=root / "artifacts")
        from lookup.tictactoe import decide

        boards = ["X.O......", "XX..O.O..", ".........", "X...O...."]
        decide(boards[0], "random", artifacts_dir=root / "artifacts")  # load once
        n = 200 if QUICK else 2000
        start = time.perf_counter()
        for i in range(n):
            decide(boards[i % 4], "random", artifacts_dir=root / "artifacts")
        decide_us = (time.perf_counter() - start) / n * 1e6
        print(f"decide: {decide_us:.1f} us per call (tables in memory)")
    from pipeline.tictactoe.matchups import matchups

    start = time.perf_counter()
    matchups(section["models"], tuple(section["report"]["players"]))
    match_s = time.perf_counter() - start
    print(f"exact match-ups ({len(section['report']['players'])} players x {len(section['models'])} models x 2 "
          f"seats): {match_s:.2f} s")
    print(f"tictactoe all_tables_s={statistics.median(times):.3f} all_tables_cpu_s={statistics.median(cpus):.3f} "
          f"decide_us={decide_us:.1f} matchups_s={match_s:.2f}")


if __name__ == "__main__":
    main()
