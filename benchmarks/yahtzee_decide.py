"""Play-time speed of lookup.yahtzee: one decision per sheet form, the batch form, a fresh process's first
answer, the cost of the checked reads, and the PyPI peer ``yatzy-solver``'s ``best_action`` on the same
situations in the same run.

Needs the hasbro tables (builds them if absent). The peer (the ``bench`` extra) solves the American rules
(same as hasbro) once and caches its table under ``.dicetables_cache/``; without it the peer is skipped.
Last line: `yahtzee_decide single_us=<median, mapping> list_us=<> sheet_us=<> peer_us=<median> ratio=<ours
mapping / peer> checked_read_us=<> batch_per_s=<n> first_decision_s=<s> cpu_us=<mean CPU time per call, mapping>
peer_cpu_us=<the same for the peer> load=<1-min load average>`. BENCH_QUICK=1 (what `make test` runs,
tests/test_benchmarks.py): 100 situations, one round, a batch of 10,000, one fresh process, no peer.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PEER_TABLE = ROOT / ".dicetables_cache" / "yatzy-solver-american.tbl"
QUICK = os.environ.get("BENCH_QUICK") == "1"
ROUNDS = 1 if QUICK else 5

from lookup.store import default_artifacts_dir  # noqa: E402
from lookup.yahtzee.play import decide, decide_batch  # noqa: E402
from lookup.yahtzee.rules import CATEGORIES, UPPER, YAHTZEE, get_rules  # noqa: E402
from lookup.yahtzee.sheet import Sheet  # noqa: E402
from lookup.yahtzee.tables import load_tables  # noqa: E402

FIRST = """
import time
t = time.perf_counter()
from lookup.yahtzee import decide
decide([1, 3, 3, 5, 6], 2, [None] * 13)
print(time.perf_counter() - t)
"""


def situations(n: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        sheet = Sheet.empty("hasbro")
        for _ in range(rng.integers(0, 13)):
            dice = list(rng.integers(1, 7, 5))
            sheet.score(rng.choice(list(sheet.allowed(dice))), dice)
        out.append((list(map(int, rng.integers(1, 7, 5))), int(rng.integers(0, 3)), sheet.to_dict()))
    return out


def peer_notation(dice: list[int], rerolls: int, sheet: Sheet) -> str:
    """The peer's situation notation (its American rules name the Yahtzee box five_of_a_kind)."""
    names = ["five_of_a_kind" if c == YAHTZEE else name for c, name in enumerate(CATEGORIES)]
    filled = ",".join(n for n, b in zip(names, sheet.boxes, strict=True) if b is not None) or "-"
    upper = min(sum(b for b in sheet.boxes[:UPPER] if b is not None), 63)
    text = f"dice {' '.join(map(str, sorted(dice)))} | rolls {rerolls} | upper {upper} | filled {filled}"
    if sheet.boxes[YAHTZEE] is not None:
        text += f" | five_of_a_kind {sheet.boxes[YAHTZEE]}"
    return text


def peer_solver():
    if QUICK:
        return None
    try:
        import yatzy_solver as ys  # noqa: PLC0415
    except ImportError:
        print("peer: yatzy_solver is not installed (pip install yatzy-solver==1.0.0); skipping the peer")
        return None
    variant = ys.Variant("american")
    if not PEER_TABLE.is_file():
        PEER_TABLE.parent.mkdir(exist_ok=True)
        ys.Solver.build_table(variant, str(PEER_TABLE))
    return ys.Solver.load(str(PEER_TABLE), variant)


def median_us(fn, cases) -> float:
    per_call = []
    for case in cases:
        t = time.perf_counter()
        fn(*case)
        per_call.append(time.perf_counter() - t)
    return statistics.median(per_call) * 1e6


def cpu_us(fn, cases) -> float:
    """Mean CPU time per call (the process's CPU seconds over all the calls): on a shared machine, less
    dependent on the other processes than wall-clock medians."""
    t = time.process_time()
    for case in cases:
        fn(*case)
    return (time.process_time() - t) / len(cases) * 1e6


def main() -> None:
    if not (default_artifacts_dir() / "yahtzee-hasbro-policy.zarr").exists():
        from pipeline.registry import build

        build(["yahtzee-hasbro"])
    cases = situations(100 if QUICK else 2000)
    for case in cases[:50]:
        decide(*case)  # warm: the chunks these decisions read, caches
    sheets = [Sheet.parse(c[2], "hasbro") for c in cases]
    forms = {
        "mapping": cases,
        "list": [(d, r, sh.boxes) for (d, r, _), sh in zip(cases, sheets, strict=True)],
        "Sheet": [(d, r, sh) for (d, r, _), sh in zip(cases, sheets, strict=True)],
    }
    # Interleaved rounds, medians of the per-call medians: the machine's load drifts during a run.
    rounds: dict[str, list[float]] = {name: [] for name in (*forms, "peer", "checked_read", "cpu", "peer_cpu")}
    peer = peer_solver()
    notations = [(peer_notation(d, r, sh),) for (d, r, _), sh in zip(cases, sheets, strict=True)]
    state_index = load_tables(get_rules("hasbro")).policy["state_index"]
    reads = [(int(np.ravel_multi_index(Sheet.parse(c[2], "hasbro").state, state_index.shape)),) for c in cases]
    for _ in range(ROUNDS):
        for name, form in forms.items():
            rounds[name].append(median_us(decide, form))
        if peer is not None:
            rounds["peer"].append(median_us(peer.best_action, notations))
        rounds["checked_read"].append(median_us(state_index.flat, reads))
        rounds["cpu"].append(cpu_us(decide, forms["mapping"]))
        if peer is not None:
            rounds["peer_cpu"].append(cpu_us(peer.best_action, notations))
    med = {name: statistics.median(v) if v else float("nan") for name, v in rounds.items()}

    rng = np.random.default_rng(1)
    states = np.array([sh.state for sh in sheets])
    n = 10_000 if QUICK else 1_000_000
    pick = rng.integers(0, len(cases), n)
    dice = rng.integers(1, 7, (n, 5))
    rerolls = rng.integers(0, 3, n)
    batch = []
    for _ in range(ROUNDS):
        t = time.perf_counter()
        decide_batch(dice, rerolls, states[pick, 0], states[pick, 1], states[pick, 2], get_rules("hasbro"))
        batch.append(time.perf_counter() - t)
    batch_per_s = n / statistics.median(batch)

    firsts = []
    for _ in range(ROUNDS):
        out = subprocess.run([sys.executable, "-c", FIRST], cwd=ROOT, capture_output=True, text=True, check=True)
        firsts.append(float(out.stdout.strip()))
    first = statistics.median(firsts)
    ratio = med["mapping"] / med["peer"]
    print(f"decide(): median us over {len(cases)} random situations (median of {ROUNDS} interleaved rounds): "
          f"mapping {med['mapping']:.2f}, 13-list {med['list']:.2f}, Sheet {med['Sheet']:.2f}; "
          f"peer yatzy-solver best_action {med['peer']:.2f} (ours/peer {ratio:.3f}); one checked read "
          f"(its chunk, checked when first read, from the in-process cache) {med['checked_read']:.2f} us, "
          "two per decision")
    print(f"decide_batch: {batch_per_s / 1e6:.2f} M situations/s (median of {ROUNDS} x {n:,}); "
          f"fresh process import + first decision: median {first:.3f} s")
    print(f"yahtzee_decide single_us={med['mapping']:.2f} list_us={med['list']:.2f} sheet_us={med['Sheet']:.2f} "
          f"peer_us={med['peer']:.2f} ratio={ratio:.3f} checked_read_us={med['checked_read']:.3f} "
          f"batch_per_s={batch_per_s:.0f} first_decision_s={first:.4f} cpu_us={med['cpu']:.2f} "
          f"peer_cpu_us={med['peer_cpu']:.2f} load={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
