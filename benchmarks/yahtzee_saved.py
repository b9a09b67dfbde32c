"""Saved rolls: the CPU per row of ``kernels.solve_layer_batched`` as the cap grows (docs/benchmarks.md, "Saved rolls").

A turn with the cap at C does C + 1 final-roll passes and 2 + C keep-tree stages and gives the C + 1 values of its
row. This times the kernel on ``BENCH_ROWS`` rows (default 20,000) of one layer (``BENCH_LAYER``, default 10: the
largest) of ``BENCH_RULES`` (default ``maxi-se``) on one numba thread, for caps 0..``BENCH_MAX_CAP`` (default 3),
the next layer's values random (the time does not depend on them), the better of two runs, and fits
time = (C + 1) x final pass + (C + 2) x stage. Prints

``yahtzee_saved rules=<r> layer=<n> cap=<C> us_per_row=<t> load=<1-minute load>`` per cap, then
``yahtzee_saved_fit final_pass_us=<f> stage_us=<k>``. BENCH_QUICK=1 (what `make test` runs,
tests/test_benchmarks.py): scandinavian+forced, layer 4, 200 rows, caps 0 and 1.
"""

from __future__ import annotations

import dataclasses
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numba  # noqa: E402
import numpy as np  # noqa: E402

from lookup.yahtzee.rules import get_rules, kernel_params  # noqa: E402
from lookup.yahtzee.states import state_space  # noqa: E402
from pipeline.yahtzee import kernels  # noqa: E402
from pipeline.yahtzee.solver import kernel_tables, mask_batches  # noqa: E402


def main() -> None:
    quick = os.environ.get("BENCH_QUICK") == "1"
    base = get_rules(os.environ.get("BENCH_RULES", "scandinavian+forced" if quick else "maxi-se"))
    layer = int(os.environ.get("BENCH_LAYER", "4" if quick else "10"))
    rows = int(os.environ.get("BENCH_ROWS", "200" if quick else "20000"))
    space, kt = state_space(base), kernel_tables(base)
    lo = int(space.layer_ptr[layer])
    hi = min(int(space.layer_ptr[layer + 1]), lo + rows)
    nxt = slice(int(space.layer_ptr[layer + 1]), int(space.layer_ptr[layer + 2]))
    batch_lo, batch_n = mask_batches(space.row_mask, lo, hi, kernels.BATCH)
    state_index = np.ascontiguousarray(space.state_index)
    numba.set_num_threads(1)
    rng = np.random.default_rng(0)
    times = {}
    for cap in range(int(os.environ.get("BENCH_MAX_CAP", "1" if quick else "3")) + 1):
        rules = dataclasses.replace(base, saved_rolls_cap=cap)
        params = np.array(kernel_params(rules, saved_rolls=True), dtype=np.int64)
        vals = np.zeros((cap + 1, space.n_rows))  # pages never written are never allocated
        vals[:, nxt] = rng.uniform(0, 300, (cap + 1, nxt.stop - nxt.start))
        best = float("inf")
        for _ in range(3):  # the first run may compile
            start = time.process_time()
            kernels.solve_layer_batched(0, 0, len(batch_lo), batch_lo, batch_n, space.row_mask, space.row_upper,
                                        space.row_ybox, vals,
                                        state_index, kt.score_t, kt.joker_score, kt.counts_t, kt.yroll, params,
                                        kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset, kt.roll_prob)
            best = min(best, time.process_time() - start)
        times[cap] = best / (hi - lo) * 1e6
        print(f"yahtzee_saved rules={base.name} layer={layer} cap={cap} us_per_row={times[cap]:.2f} "
              f"load={os.getloadavg()[0]:.1f}", flush=True)
    caps = np.array(sorted(times))
    design = np.stack([caps + 1, caps + 2], axis=1)
    (final_pass, stage), *_ = np.linalg.lstsq(design, np.array([times[c] for c in caps]), rcond=None)
    print(f"yahtzee_saved_fit final_pass_us={final_pass:.2f} stage_us={stage:.2f}")


if __name__ == "__main__":
    main()
