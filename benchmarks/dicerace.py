"""Dice race: sequential and simultaneous solves, and the simultaneous solver against HiGHS at every state.

The baseline ("HiGHS loop") is the straightforward method: every state (i, j), rows i from N - 1 down,
gets its matrix game from the same matrix kernels as ours and is solved by ``linprog(method="highs")``;
no saddle points, no certified supports, no symmetry. Both give the same values (checked below).
Last line machine readable.
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
from pipeline.dicerace.simultaneous import MAX_FACE, _terminal_table, row_games, solve_simultaneous  # noqa: E402


def highs_loop(dice: int, target: int) -> np.ndarray:
    """EG1 of every state with one HiGHS LP per state (the straightforward method)."""
    bust_pow, safe_pow = bust_powers(dice), safe_powers(dice)
    top = target - 1 + MAX_FACE * dice
    terminal = _terminal_table(target, top)
    table = terminal[WIN] - terminal[LOSE]  # EG1 where the game is over, NaN elsewhere
    width = table.shape[1]
    ring = np.zeros((RING, dice + 1, width))
    rolls = np.empty((dice, width - BUST_SCORE))
    games = np.empty((target, dice, dice))
    for a in range(top, -1, -1):
        advance_rows(ring, a)
        if a < target:
            roll_rows(ring, a, table[a + BUST_SCORE, : width - BUST_SCORE], bust_pow, safe_pow, rolls)
            row_games(rolls, target, bust_pow, safe_pow, games)
            for j in range(target):
                table[a, j] = solve_lp(games[j]).value
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
    seq = _median(5, lambda: solve_sequential(30, 1000))
    sim = _median(3, lambda: solve_simultaneous(30, 1000))
    ours = _median(5, lambda: solve_simultaneous(10, 100))
    start = time.perf_counter()
    baseline = highs_loop(10, 100)
    loop = time.perf_counter() - start
    diff = float(np.abs(baseline - solve_simultaneous(10, 100).value).max())
    stats = solve_simultaneous(30, 1000).stats
    print(f"sequential (30, 1000): {seq:.3f} s (median of 5)")
    print(f"simultaneous (30, 1000): {sim:.3f} s (median of 3); {stats['saddle_states']} saddle-point states, "
          f"{stats['certified_states']} certified supports, {stats['lp_states']} HiGHS solves, "
          f"{stats['uniqueness_lps']} HiGHS uniqueness checks")
    print(f"simultaneous (10, 100): ours {ours:.3f} s (median of 5), HiGHS at every state {loop:.3f} s, "
          f"speedup {loop / ours:.1f}x, max |value difference| {diff:.2e}")
    print(f"dicerace seq_30_1000_s={seq:.4f} sim_30_1000_s={sim:.4f} ours_10_100_s={ours:.4f} "
          f"highs_loop_10_100_s={loop:.4f} speedup={loop / ours:.1f}")


if __name__ == "__main__":
    main()
