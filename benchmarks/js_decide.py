"""The JavaScript advisor's answers once their chunks are read (clients/js, docs/js.md; goal: decide <= 1 ms), beside
Python's decision with its expected final score (the same turn computed, from the same tables) in the same run.

Node runs clients/js/bench/decide.mjs on random hasbro situations (random sheets as benchmarks/yahtzee_decide.py
makes them) and the dice race's first built game: medians and 99th percentiles per call after a warm pass (every chunk
read and checked once). ``decide`` is timed with the turn computed afresh each call (the turn cache cleared: its
expected final score needs the whole turn, about 15 value reads and the keep tree), and asked again (the turn cached).
Needs the hasbro tables (builds them if absent) and node with clients/js's packages (``npm ci``, run here when they
are absent); without node it says so and exits 0. Last line: `js_decide decide_us=<median> decide_p99_us=<>
decide_over_1ms=<calls over 1 ms>/<calls> decide_cpu_us=<mean CPU time per call, GC included> decide_same_us=<>
explain_us=<> values_only_us=<> race_seq_us=<> race_sim_us=<> first_decide_ms=<> py_decide_us=<the same decisions
in Python, expected_final computed, turn cache cleared> load=<1-min load average>`.
BENCH_QUICK=1 (tests/test_benchmarks.py): 100 situations, one round.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
JS = ROOT / "clients" / "js"
QUICK = os.environ.get("BENCH_QUICK") == "1"
ROUNDS = 1 if QUICK else 5

from lookup.store import default_artifacts_dir  # noqa: E402
from lookup.yahtzee.play import decide, turn_analysis  # noqa: E402
from lookup.yahtzee.sheet import Sheet  # noqa: E402


def situations(n: int, seed: int = 0) -> list[tuple[list[int], int, dict]]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        sheet = Sheet.empty("hasbro")
        for _ in range(rng.integers(0, 13)):
            dice = list(rng.integers(1, 7, 5))
            sheet.score(rng.choice(list(sheet.allowed(dice))), dice)
        out.append(([int(x) for x in rng.integers(1, 7, 5)], int(rng.integers(0, 3)), sheet.to_dict()))
    return out


def race_game(root: Path, n: int) -> dict | None:
    """The first dice-race game built in both modes, with n random states."""
    try:
        from lookup.dicerace.game import setups
    except ImportError:
        return None
    games = setups(root)
    if not games:
        return None
    dice, target = games[0]["dice"], games[0]["target"]
    rng = np.random.default_rng(2)
    return {"dice": dice, "target": target, "scores": rng.integers(0, target, (n, 2)).tolist()}


def python_us(cases: list) -> float:
    """Python's decide with its expected final score (the turn cache cleared before each call, as in the JS
    figure), median per call over ROUNDS rounds."""
    root = default_artifacts_dir()
    for case in cases:
        decide(*case, artifacts_dir=root).expected_final  # noqa: B018 (warm: chunks read once)
    per_call = []
    for _ in range(ROUNDS):
        for case in cases:
            turn_analysis.cache_clear()
            t = time.perf_counter()
            decide(*case, artifacts_dir=root).expected_final  # noqa: B018
            per_call.append(time.perf_counter() - t)
    return statistics.median(per_call) * 1e6


def main() -> int:
    if shutil.which("node") is None:
        print("js_decide: node is not installed; skipped")
        return 0
    root = default_artifacts_dir()
    if not (root / "yahtzee-hasbro-policy.zarr").exists():
        from pipeline.registry import build

        build(["yahtzee-hasbro"])
    if not (JS / "node_modules").exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=JS, check=True, capture_output=True)
    n = 100 if QUICK else 2000
    cases = situations(n)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "situations.json"
        path.write_text(json.dumps({"yahtzee": cases, "dicerace": race_game(root, n)}))
        done = subprocess.run(["node", "bench/decide.mjs", str(root), str(path), str(ROUNDS)], cwd=JS,
                              capture_output=True, text=True, check=False)
    if done.returncode:
        print(done.stdout, done.stderr)
        return 1
    js = json.loads(done.stdout)
    py = python_us(cases)
    rows = [(k, v) for k, v in js.items() if isinstance(v, dict)]
    for name, s in rows:
        cpu = f", mean CPU {s['cpu']:.1f} us" if "cpu" in s else ""
        print(f"{name}: median {s['median']:.1f} us, p99 {s['p99']:.1f} us, max {s['max']:.1f} us{cpu} over {s['n']} "
              f"calls, {s['over_1ms']} over 1 ms")
    print(f"fresh node process, open + first decision: {js['first_decide_ms']:.1f} ms; Python decide + "
          f"expected_final (turn cache cleared): median {py:.1f} us")
    race = {k: f"{js[k]['median']:.2f}" if k in js else "nan" for k in ("race_seq_us", "race_sim_us")}
    print(f"js_decide decide_us={js['decide_us']['median']:.1f} decide_p99_us={js['decide_us']['p99']:.1f} "
          f"decide_over_1ms={js['decide_us']['over_1ms']}/{js['decide_us']['n']} "
          f"decide_cpu_us={js['decide_us']['cpu']:.1f} "
          f"decide_same_us={js['decide_same_us']['median']:.2f} explain_us={js['explain_us']['median']:.1f} "
          f"values_only_us={js['values_only_us']['median']:.1f} race_seq_us={race['race_seq_us']} "
          f"race_sim_us={race['race_sim_us']} first_decide_ms={js['first_decide_ms']:.1f} py_decide_us={py:.1f} "
          f"load={os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
