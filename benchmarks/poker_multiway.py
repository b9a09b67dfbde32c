"""Poker: per-task costs of the exact multi-way counts (``dicetables build poker-multiway``, docs/poker.md).

``python benchmarks/poker_multiway.py``: a sample of tasks (one board block of 32 for every 9th pair of ranks,
pairs and non-pairs) timed at kmax = 5 and 9 (process CPU seconds, the kernels loaded first), and the whole
build's CPU extrapolated from them (91 pairs x 32 blocks).
``python benchmarks/poker_multiway.py PARTS_DIR``: the CPU seconds every task of a build recorded in its part
(``artifacts/poker-multiway.parts/<key>``): count, total, median, 90th percentile, largest, by kind of pair.

Lines ``poker_multiway <case> key=value ...``. The machine is shared: CPU seconds are the work, wall times
depend on the load.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

from pipeline import registry  # noqa: E402
from pipeline.progress import set_quiet  # noqa: E402

BLOCKS = 32


def summarize(parts: Path) -> None:
    """The recorded CPU seconds of a build's parts."""
    rows = [json.loads(p.read_text())["payload"] for p in sorted(parts.glob("r*.json"))]
    for label, keep in (("all", lambda r: True), ("pairs", lambda r: r["task"][1:3] == r["task"][4:6]),
                        ("non-pairs", lambda r: r["task"][1:3] != r["task"][4:6])):
        cpu = sorted(r["cpu_seconds"] for r in rows if keep(r))
        hands = sum(r["hands"] for r in rows if keep(r))
        if not cpu:
            continue
        print(f"poker_multiway parts={label} kmax={rows[0]['kmax']} tasks={len(cpu)} cpu_total_s={sum(cpu):.0f} "
              f"median_s={statistics.median(cpu):.2f} p90_s={cpu[int(0.9 * (len(cpu) - 1))]:.2f} "
              f"max_s={cpu[-1]:.2f} hands={hands} ms_per_hand={1000 * sum(cpu) / max(hands, 1):.3f}")


def sample(artifacts: Path) -> None:
    """A sample of tasks timed at kmax 5 and 9, and the whole build extrapolated."""
    from lookup.poker.tables import load_evaluator
    from pipeline.poker.board_types import FULL_DECK, task_counts
    from pipeline.poker.kernels import fused_table
    from pipeline.poker.multiway import WARM_DECK

    tables = load_evaluator(artifacts)
    fused = fused_table(tables.rank_next, tables.rank_value)
    pairs = FULL_DECK.rank_pairs()
    chosen = pairs[::9]
    for kmax in (5, 9):
        task_counts(WARM_DECK, tables, *fused, 12, 12, 0, 1, kmax)  # load the kernels
        cpu = {}
        for x, y in chosen:
            start = time.process_time()
            task_counts(FULL_DECK, tables, *fused, x, y, 0, BLOCKS, kmax)
            cpu[(x, y)] = time.process_time() - start
        pair_s = [s for (x, y), s in cpu.items() if x == y]
        other_s = [s for (x, y), s in cpu.items() if x != y]
        n_pairs = sum(1 for x, y in pairs if x == y)
        total = BLOCKS * (n_pairs * statistics.mean(pair_s) + (len(pairs) - n_pairs) * statistics.mean(other_s))
        print(f"poker_multiway sample kmax={kmax} tasks={len(cpu)} pair_task_s={statistics.mean(pair_s):.2f} "
              f"nonpair_task_s={statistics.mean(other_s):.2f} build_cpu_estimate_min={total / 60:.1f}")


def main() -> None:
    set_quiet(True)
    print(f"poker_multiway load_average={' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if len(sys.argv) > 1:
        summarize(Path(sys.argv[1]))
        return
    with tempfile.TemporaryDirectory() as tmp:
        params = Path(tmp) / "params.yaml"
        params.write_text("poker:\n  preflop: {}\n")
        registry.build(["poker-evaluator"], params_path=params, artifacts_dir=Path(tmp))
        sample(Path(tmp))


if __name__ == "__main__":
    main()
