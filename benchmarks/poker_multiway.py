"""Poker: per-task costs of the exact multi-way counts (``dicetables build poker-multiway``, docs/poker.md).

``python benchmarks/poker_multiway.py``: a sample of tasks (one board block of 32 for every 9th pair of ranks,
pairs and non-pairs) timed at kmax = 5 and 9 (process CPU seconds, the kernels loaded first), and the whole
build's CPU extrapolated from them (91 pairs x 32 blocks).
``python benchmarks/poker_multiway.py PARTS_DIR``: the CPU seconds every task of a build recorded in its part
(``artifacts/poker-multiway.parts/<key>``): count, total, median, 90th percentile, largest, by kind of pair.
``python benchmarks/poker_multiway.py table ARTIFACTS_DIR...``: the exact counts of AA, KK, AKs, 72o and 22
against 2, 5 and 9 random hands, read from the first of the ``poker-multiway`` artifacts that holds each (the
Markdown of docs/poker.md; a (hand, k) no artifact holds is left out; two artifacts holding the same must agree),
and for an artifact of every class, whether the mean share of the 1326 hands is 1 / (k + 1) exactly.

Lines ``poker_multiway <case> key=value ...``. The machine is shared: CPU seconds are the work, wall times
depend on the load. BENCH_QUICK=1 (what `make test` runs): a sample of three pairs of ranks instead of eleven.
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

QUICK = os.environ.get("BENCH_QUICK") == "1"
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
    chosen = pairs[::45] if QUICK else pairs[::9]
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


TABLE_HANDS = ("AA", "KK", "AKs", "72o", "22")
TABLE_OPPONENTS = (2, 5, 9)


def table(artifact_dirs: list[Path]) -> None:
    """The exact counts of ``TABLE_HANDS`` against ``TABLE_OPPONENTS`` from the built artifacts (verified on
    reading), as Markdown: a summary table, then every split count and the equity as a reduced fraction."""
    from fractions import Fraction

    from lookup.poker.cards import class_name, parse_class
    from lookup.poker.play import preflop
    from lookup.poker.tables import built_multiway

    found = [(d, t) for d in artifact_dirs if (t := built_multiway(d)) is not None]
    rows = []
    for k in TABLE_OPPONENTS:
        for hand in TABLE_HANDS:
            x = parse_class(hand)
            held = [(d, t) for d, t in found if t.has(x, k)]
            if not held:
                continue
            d, t = held[0]
            splits, deals = t.counts(x, k), t.deals(x, k)
            # Two builds of different K hold the same integers (the counts of k come out of one run up to K).
            assert all(o.counts(x, k) == splits and o.deals(x, k) == deals for _, o in held[1:]), (hand, k)
            frac = sum((Fraction(c, j + 1) for j, c in enumerate(splits)), Fraction(0)) / deals
            answer = preflop(hand, k, artifacts_dir=d)  # the public answer: the same integers, marked exact
            assert answer.exact and answer.fraction == frac and tuple(answer.splits) == tuple(splits), hand
            rows.append((class_name(x), k, deals, splits, frac, t.rows, int(t.arrays["built"].sum())))
    for d, t in found:
        if t.arrays["built"].all():  # every class: the k + 1 players' shares sum to the pot, exactly
            ok = all(sum((sum((Fraction(c, j + 1) for j, c in enumerate(t.counts(x, k))), Fraction(0))
                          for x in range(169)), Fraction(0)) == Fraction(sum(t.deals(x, k) for x in range(169)), k + 1)
                     for k in range(1, t.rows + 1))
            print(f"<!-- {d}: the mean share of all 1326 hands is 1 / (k + 1) exactly, k = 1..{t.rows}: {ok} -->")
    print("| hand | k | equity | wins alone | split 2..k+1 ways (sum) | deals | from |")
    print("|---|---|---|---|---|---|---|")
    for name, k, deals, splits, frac, kmax, classes in rows:
        print(f"| {name} | {k} | {float(frac):.10f} | {splits[0]:,} | {sum(splits[1:]):,} | {deals:,} | "
              f"K = {kmax}, {classes} classes |")
    print()
    print("```")
    for name, k, deals, splits, frac, _, _ in rows:
        print(f"{name} vs {k}: deals {deals}")
        print(f"  wins alone {splits[0]}")
        for j in range(1, k + 1):
            print(f"  split {j + 1} ways {splits[j]}")
        print(f"  equity {frac.numerator}/{frac.denominator}")
    print("```")


def main() -> None:
    set_quiet(True)
    if len(sys.argv) > 1 and sys.argv[1] == "table":
        table([Path(a) for a in sys.argv[2:]])
        return
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
