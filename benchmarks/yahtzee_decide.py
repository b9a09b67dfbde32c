"""Play-time speed of lookup.yahtzee: one decision, the batch form, and a fresh process's first answer.

Needs the hasbro tables (builds them if absent). Last line:
`yahtzee_decide single_us=<median> batch_per_s=<n> first_decision_s=<s>`.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lookup.store import default_artifacts_dir  # noqa: E402
from lookup.yahtzee.play import decide, decide_batch  # noqa: E402
from lookup.yahtzee.rules import get_rules  # noqa: E402
from lookup.yahtzee.sheet import Sheet  # noqa: E402

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


def main() -> None:
    if not (default_artifacts_dir() / "yahtzee-hasbro-policy.zarr").exists():
        from pipeline.registry import build

        build(["yahtzee-hasbro"])
    cases = situations(2000)
    for case in cases[:50]:
        decide(*case)  # warm: runtime copies, caches
    per_call = []
    for dice, rerolls, sheet in cases:
        t = time.perf_counter()
        decide(dice, rerolls, sheet)
        per_call.append(time.perf_counter() - t)
    single_us = statistics.median(per_call) * 1e6

    rng = np.random.default_rng(1)
    states = np.array([Sheet.parse(c[2], "hasbro").state for c in cases])
    n = 1_000_000
    pick = rng.integers(0, len(cases), n)
    dice = rng.integers(1, 7, (n, 5))
    rerolls = rng.integers(0, 3, n)
    batch = []
    for _ in range(5):
        t = time.perf_counter()
        decide_batch(dice, rerolls, states[pick, 0], states[pick, 1], states[pick, 2], get_rules("hasbro"))
        batch.append(time.perf_counter() - t)
    batch_per_s = n / statistics.median(batch)

    firsts = []
    for _ in range(5):
        out = subprocess.run([sys.executable, "-c", FIRST], cwd=ROOT, capture_output=True, text=True, check=True)
        firsts.append(float(out.stdout.strip()))
    first = statistics.median(firsts)
    print(f"decide(): median {single_us:.1f} us over {len(cases)} random situations; "
          f"decide_batch: {batch_per_s / 1e6:.2f} M situations/s (median of 5 x 1M); "
          f"fresh process import + first decision: median {first:.3f} s")
    print(f"yahtzee_decide single_us={single_us:.2f} batch_per_s={batch_per_s:.0f} first_decision_s={first:.4f}")


if __name__ == "__main__":
    main()
