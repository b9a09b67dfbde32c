"""Side by side: our full Yahtzee value table vs the PyPI solver ``yatzy-solver`` (same rules: verhoeff).

Both build the complete table of turn-start values several times in one run; ours is timed warm (the
numba cache compiled and loaded by an untimed first solve). Prints the medians; the LAST line is
``yahtzee_solve ours_s=<median> peer_s=<median> ratio=<ours/peer>``.

The peer is imported from this interpreter if installed (``pip install yatzy-solver==1.0.0``), else run
in a subprocess with the interpreter named by $YATZY_SOLVER_PYTHON; without either it is skipped.
BENCH_QUICK=1 (what `make test` runs, tests/test_benchmarks.py): scandinavian+forced once, no peer.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))

from pipeline.yahtzee.solver import solve  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "5"))
RULES = "scandinavian+forced" if QUICK else "verhoeff"
PEER_LOOP = (
    "import time, yatzy_solver as y\n"
    "for _ in range({n}):\n"
    "    t = time.perf_counter(); y.Solver.build(y.Variant('american')); print(time.perf_counter() - t)\n"
)


def time_ours(n: int) -> list[float]:
    first = solve(RULES)  # untimed: loads (or compiles) the numba kernels
    print(f"ours: {RULES} start value {first.start_value:.7f} (verhoeff's published: 254.5896095)")
    times = []
    for _ in range(n):
        t = time.perf_counter()
        solve(RULES)
        times.append(time.perf_counter() - t)
    return times


def time_peer(n: int) -> list[float] | None:
    if QUICK:
        return None
    try:
        import yatzy_solver as y  # noqa: PLC0415
    except ImportError:
        python = os.environ.get("YATZY_SOLVER_PYTHON")
        if not python:
            print("peer: yatzy_solver is not installed (pip install yatzy-solver==1.0.0, or set "
                  "YATZY_SOLVER_PYTHON to an interpreter that has it); skipping the peer")
            return None
        out = subprocess.run([python, "-c", PEER_LOOP.format(n=n)], capture_output=True, text=True, check=True)
        return [float(x) for x in out.stdout.split()]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        y.Solver.build(y.Variant("american"))
        times.append(time.perf_counter() - t)
    return times


def main() -> None:
    ours = time_ours(REPEATS)
    print("ours  s:", " ".join(f"{t:.3f}" for t in ours))
    peer = time_peer(REPEATS)
    if peer is not None:
        print("peer  s:", " ".join(f"{t:.3f}" for t in peer))
    ours_s = statistics.median(ours)
    if peer is None:
        print(f"yahtzee_solve ours_s={ours_s:.3f} peer_s=nan ratio=nan")
    else:
        peer_s = statistics.median(peer)
        print(f"yahtzee_solve ours_s={ours_s:.3f} peer_s={peer_s:.3f} ratio={ours_s / peer_s:.3f}")


if __name__ == "__main__":
    main()
