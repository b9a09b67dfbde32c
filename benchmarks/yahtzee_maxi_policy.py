"""Maxi Yatzy's policy turn: the distinct-keep batched kernel against the one it replaced, side by side.

The exact law of Maxi's final score (``pipeline.yahtzee.distribution``) solves the policy of every one of its 33
million rows; that turn was the law build's largest cost (1,298 s of 2,122 s at ~60 us a row, issue 40). Today
``solver.policy_block`` batches rows by mask and looks only at each roll's distinct keeps
(``kernels.turn_policy_batch``); the kernel it replaced (every reroll mask scanned, one state at a time) is kept
as the tests' reference (``tests/yahtzee/policy_reference.py``, compared bitwise on every row there).

Both kernels run in one process on the same blocks of rows (one block at the start of each of three layers), warm,
alternated, median of ``BENCH_REPEATS`` (default 3). The values are a seeded random table: a turn's cost does not
depend on them (every keep and box is scored whatever they are), and no Maxi value table is needed. Prints each
block's microseconds a row, and the LAST line ``yahtzee_maxi_policy ours_us=<median us a row> reference_us=<...>
ratio=<reference/ours> rows=<rows timed>`` (medians over the blocks). The two kernels' tables are checked equal.
BENCH_QUICK=1 (what `make test` runs): the ``scandinavian`` rule set instead of ``maxi`` (its state space is
built in a second, Maxi's 57 million rows take most of a minute), 2,000 rows a block, one run.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import numpy as np  # noqa: E402

from lookup.yahtzee.rules import get_rules  # noqa: E402
from lookup.yahtzee.states import state_space  # noqa: E402
from pipeline.yahtzee.solver import policy_block  # noqa: E402
from tests.yahtzee.policy_reference import reference_policy_block  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
REPEATS = 1 if QUICK else int(os.environ.get("BENCH_REPEATS", "3"))
ROWS = 2_000 if QUICK else int(os.environ.get("BENCH_ROWS", "40000"))
RULES = "scandinavian" if QUICK else "maxi"


def _timed(kernel, rules, vrow, lo: int, hi: int) -> tuple[float, tuple[np.ndarray, np.ndarray]]:
    began = time.perf_counter()
    tables = kernel(rules, vrow, lo, hi)
    return time.perf_counter() - began, tables


def main() -> None:
    rules = get_rules(RULES)
    space = state_space(rules)
    vrow = np.random.default_rng(40).uniform(0.0, 300.0, space.n_rows)
    layers = rules.n_boxes
    starts = [int(space.layer_ptr[k]) for k in (2, layers // 2, layers - 3)]
    policy_block(rules, vrow, starts[0], starts[0] + 10)  # compile or load both kernels, untimed
    reference_policy_block(rules, vrow, starts[0], starts[0] + 10)
    ours_us, ref_us = [], []
    for lo in starts:
        hi = min(lo + ROWS, int(space.layer_ptr[layers]))
        ours, ref = [], []
        for _ in range(REPEATS):
            t_ours, a = _timed(policy_block, rules, vrow, lo, hi)
            t_ref, b = _timed(reference_policy_block, rules, vrow, lo, hi)
            if not all(x.tobytes() == y.tobytes() for x, y in zip(a, b, strict=True)):
                raise SystemExit(f"rows {lo}..{hi}: the two kernels' policies differ")
            ours.append(t_ours)
            ref.append(t_ref)
        ours_us.append(statistics.median(ours) / (hi - lo) * 1e6)
        ref_us.append(statistics.median(ref) / (hi - lo) * 1e6)
        print(f"rows {lo}..{hi}: ours {ours_us[-1]:.1f} us a row, reference {ref_us[-1]:.1f} us a row "
              f"(median of {REPEATS})")
    o, r = statistics.median(ours_us), statistics.median(ref_us)
    print(f"every row of {RULES} ({int(space.layer_ptr[layers])}): ours ~{o * space.layer_ptr[layers] / 1e6:.0f} s, "
          f"reference ~{r * space.layer_ptr[layers] / 1e6:.0f} s (both threads; load {os.getloadavg()[0]:.1f})")
    print(f"yahtzee_maxi_policy ours_us={o:.2f} reference_us={r:.2f} ratio={r / o:.2f} rows={ROWS * len(starts)}")


if __name__ == "__main__":
    main()
