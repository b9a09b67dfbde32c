"""Value tables of every rule set beside ``hasbro``'s, and the peer ``yatzy-solver`` on the same variant.

The goal: each new rule set's value table within hasbro's time + 50 %. Ours are timed warm (an
untimed first solve loads the numba cache); the peer (``pip install yatzy-solver==1.0.0``) builds the
same variant in one run. Prints one line per rule set:
``yahtzee_rulesets rules=<name> ours_s=<median> hasbro_s=<median> vs_hasbro=<ratio> peer_s=<median>
start=<value> peer_start=<value>``. BENCH_REPEATS (default 3) runs per table; BENCH_RULES limits the rule sets
(comma-separated). BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): scandinavian+forced once, no
hasbro nor peer.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))

from lookup.yahtzee.rules import RULE_SETS  # noqa: E402
from pipeline.yahtzee.solver import solve  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "3"))
PEER_NAME = {"verhoeff": "american", "hasbro": "american+forced-joker", "no-joker": "american+no-joker",
             "plain": "american+no-bonus", **{n: f"yatzy-{n}" for n in RULE_SETS if n.startswith("scandinavian")}}


def median_time(fn, n: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(n):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def main() -> None:
    names = os.environ.get("BENCH_RULES", "scandinavian+forced" if QUICK else
                           ",".join(n for n in RULE_SETS if n.startswith("scandinavian")))
    try:
        import yatzy_solver as ys  # noqa: PLC0415
    except ImportError:
        ys = None
        print("peer: yatzy_solver is not installed (pip install yatzy-solver==1.0.0); peer columns are nan")
    if QUICK:
        ys, hasbro_s = None, float("nan")
    else:
        solve("hasbro")  # untimed: loads (or compiles) the numba kernels
        hasbro_s, _ = median_time(lambda: solve("hasbro"), REPEATS)
    for name in names.split(","):
        solve(name)
        ours_s, sol = median_time(lambda n=name: solve(n), REPEATS)
        peer_s = peer_start = float("nan")
        if ys is not None and name in PEER_NAME:
            peer_s, peer = median_time(lambda n=name: ys.Solver.build(ys.Variant(PEER_NAME[n])), 1)
            peer_start = peer.state_value("upper 0 | filled -")
        print(f"yahtzee_rulesets rules={name} ours_s={ours_s:.3f} hasbro_s={hasbro_s:.3f} "
              f"vs_hasbro={ours_s / hasbro_s:.2f} peer_s={peer_s:.3f} start={sol.start_value:.7f} "
              f"peer_start={peer_start:.7f}", flush=True)


if __name__ == "__main__":
    main()
