"""A fresh process's first answer, and an answer that reads a chunk not read before.

For ``hasbro`` and ``scandinavian``: N fresh Python processes each import ``lookup.yahtzee``, open the
tables and answer one ``decide`` (the whole process is timed, interpreter start included, and its peak
resident memory read from ``wait4``). Then, in one process, the cost of a decision whose chunks are not in
the cache yet (the cache is emptied before each), and of a warm one. Finally the bytes written beside the
artifacts by all of this (none are expected: no runtime copies).

Needs the default tables (``make run``); BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): one
run, 20 cold decisions, and the rule sets whose tables are there. Last line: ``first_answer hasbro_s=<median>
hasbro_mb=<median peak> scandinavian_s=<> scandinavian_mb=<> cold_us=<median> warm_us=<median>
written_bytes=<n> load=<1-min>``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lookup.store import default_artifacts_dir  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
RUNS = 1 if QUICK else 7
CASES = 20 if QUICK else 400
FIRST = """
from lookup.yahtzee import decide
d = decide([1, 3, 3, 5, 6], 2, {{"ones": 3}}, {rules!r})
assert d.keep is not None
"""
COLD = """
import time, statistics
import numpy as np
from lookup import chunked
from lookup.yahtzee import decide
from lookup.yahtzee.sheet import Sheet
rng = np.random.default_rng(0)
cases = []
for _ in range({cases}):
    sheet = Sheet.empty("hasbro")
    for _ in range(rng.integers(0, 13)):
        dice = list(rng.integers(1, 7, 5))
        sheet.score(rng.choice(list(sheet.allowed(dice))), dice)
    cases.append((list(map(int, rng.integers(1, 7, 5))), int(rng.integers(0, 3)), sheet.to_dict()))
decide(*cases[0])  # imports and opens
cold, warm = [], []
for case in cases:
    chunked.CACHE.clear()
    t = time.perf_counter(); decide(*case); cold.append(time.perf_counter() - t)
    t = time.perf_counter(); decide(*case); warm.append(time.perf_counter() - t)
print(statistics.median(cold) * 1e6, statistics.median(warm) * 1e6)
"""


def files_bytes(root: Path) -> dict[str, int]:
    return {str(p.relative_to(root)): p.stat().st_size for p in root.rglob("*") if p.is_file()}


def fresh(code: str) -> tuple[float, float]:
    """(wall seconds, peak RSS MB) of one fresh interpreter running ``code``."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"the fresh process failed ({proc.returncode})")
    return wall, usage.ru_maxrss / 1024


def main() -> None:
    root = default_artifacts_dir()
    before = files_bytes(root)
    out = {}
    for rules in ("hasbro", "scandinavian"):
        if QUICK and not (root / f"yahtzee-{rules}-policy.zarr").exists():
            out[rules] = (float("nan"), float("nan"))
            continue
        runs = [fresh(FIRST.format(rules=rules)) for _ in range(RUNS)]
        out[rules] = (statistics.median(w for w, _ in runs), statistics.median(m for _, m in runs))
        print(f"{rules}: fresh process (interpreter, import, open, first decide): median {out[rules][0]:.3f} s "
              f"(min {min(w for w, _ in runs):.3f}, max {max(w for w, _ in runs):.3f}), peak RSS median "
              f"{out[rules][1]:.1f} MB over {RUNS} runs")
    cold = subprocess.run([sys.executable, "-c", COLD.format(cases=CASES)], cwd=ROOT, check=True,
                          capture_output=True, text=True)
    cold_us, warm_us = map(float, cold.stdout.split())
    print(f"hasbro decide with an empty chunk cache: median {cold_us:.1f} us; the same decision again "
          f"(warm): {warm_us:.2f} us")
    after = files_bytes(root)
    written = sum(size for name, size in after.items() if before.get(name) != size)
    print(f"bytes written beside the artifacts: {written} ({len(set(after) - set(before))} new files)")
    print(f"first_answer hasbro_s={out['hasbro'][0]:.3f} hasbro_mb={out['hasbro'][1]:.1f} "
          f"scandinavian_s={out['scandinavian'][0]:.3f} scandinavian_mb={out['scandinavian'][1]:.1f} "
          f"cold_us={cold_us:.1f} warm_us={warm_us:.2f} written_bytes={written} load={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
