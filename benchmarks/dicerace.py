"""Dice race: sequential and simultaneous solves, and the simultaneous solver against HiGHS at every state.

The baseline ("HiGHS loop") is the straightforward method: every state (i, j), rows i from N - 1 down,
gets its matrix game from the same matrix kernels as ours and is solved by ``linprog(method="highs")``;
no saddle points, no certified supports, no symmetry. Both give the same values (checked below).
Last line machine readable. BENCH_QUICK=1: small games, one run each (what `make test` runs,
tests/test_benchmarks.py: a broken benchmark fails the tests).
"""

from __future__ import annotations

import os
import statistics
import time
from pathlib import Path

os.environ.setdefault("NUMBA_CACHE_DIR", str(Path(__file__).resolve().parent.parent / ".numba_cache"))

import numpy as np  # noqa: E402

from pipeline.dicerace.certified import LOSE, WIN  # noqa: E402
from pipeline.dicerace.kernels import BUST_SCORE, RING, advance_rows, bust_powers, roll_rows, safe_powers  # noqa: E402
from pipeline.dicerace.matrix_game import solve_lp  # noqa: E402
from pipeline.dicerace.sequential import solve_sequential  # noqa: E402
from pipeline.dicerace.simultaneous import (  # noqa: E402
    LANES,
    MAX_FACE,
    _terminal_table,
    row_games,
    solve_simultaneous,
)

QUICK = os.environ.get("BENCH_QUICK") == "1"
BIG, SMALL = ((3, 20), (3, 12)) if QUICK else ((30, 1000), (10, 100))  # (dice, target) of the two games timed
RUNS = (1, 1) if QUICK else (5, 3)  # runs of the sequential / simultaneous timings (medians)


def highs_loop(dice: int, target: int) -> np.ndarray:
    """EG1 of every state with one HiGHS LP per state (the straightforward method)."""
    bust_pow, safe_pow = bust_powers(dice), safe_powers(dice)
    top = target - 1 + MAX_FACE * dice
    terminal = _terminal_table(target, top)
    table = terminal[WIN] - terminal[LOSE]  # EG1 where the game is over, NaN elsewhere
    width = table.shape[1]
    ring = np.zeros((RING, dice + 1, width))
    rolls = np.empty((dice, width - BUST_SCORE))
    games = np.empty((-(-target // LANES), dice, dice, LANES))  # row_games: state j at [j // LANES, :, :, j % LANES]
    for a in range(top, -1, -1):
        advance_rows(ring, a)
        if a < target:
            roll_rows(ring, a, table[a + BUST_SCORE, : width - BUST_SCORE], bust_pow, safe_pow, rolls)
            row_games(rolls, target, bust_pow, safe_pow, games)
            for j in range(target):
                table[a, j] = solve_lp(games[j // LANES, :, :, j % LANES]).value
        ring[a % RING, 0, :] = table[a]
    return table[:target, :target].copy()


def _median(runs: int, job) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        job()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    solve_sequential(3, 10)  # compile (or load the numba cache) outside the timings
    solve_simultaneous(5, 12)
    seq = _median(RUNS[0], lambda: solve_sequential(*BIG))
    sim = _median(RUNS[1], lambda: solve_simultaneous(*BIG))
    ours = _median(RUNS[0], lambda: solve_simultaneous(*SMALL))
    start = time.perf_counter()
    baseline = highs_loop(*SMALL)
    loop = time.perf_counter() - start
    diff = float(np.abs(baseline - solve_simultaneous(*SMALL).value).max())
    assert diff < 1e-9, f"HiGHS at every state and ours differ by {diff}"
    stats = solve_simultaneous(*BIG).stats
    big, small = "_".join(map(str, BIG)), "_".join(map(str, SMALL))
    print(f"sequential {BIG}: {seq:.3f} s (median of {RUNS[0]})")
    print(f"simultaneous {BIG}: {sim:.3f} s (median of {RUNS[1]}); {stats['saddle_states']} saddle-point states, "
          f"{stats['certified_states']} certified supports, {stats['lp_states']} HiGHS solves, "
          f"{stats['uniqueness_lps']} HiGHS uniqueness checks")
    print(f"simultaneous {SMALL}: ours {ours:.3f} s (median of {RUNS[0]}), HiGHS at every state {loop:.3f} s, "
          f"speedup {loop / ours:.1f}x, max |value difference| {diff:.2e}")
    print(f"dicerace seq_{big}_s={seq:.4f} sim_{big}_s={sim:.4f} ours_{small}_s={ours:.4f} "
          f"highs_loop_{small}_s={loop:.4f} speedup={loop / ours:.1f}")


if __name__ == "__main__":
    main()
