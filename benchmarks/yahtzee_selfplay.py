"""Self-play speed of the Yahtzee strategy lab: games per second of each player, and the plain-Python engine.

Each player plays coupled games against itself on the compiled engine (all cores); ``optimal`` plays
1,000,000 games (target: within 20 s on 2 cores). The plain-Python engine plays the same optimal games
(the first ones of the same seed) for the speed-up. Builds the tables it needs if absent.

Solo games (one sheet, how public solvers count games/s) are also timed in CPU seconds of the process
(all threads): on a shared machine the wall-clock rate depends on the other processes, the rate per CPU
second much less. Last line: `yahtzee_selfplay optimal_games_per_s=<n> optimal_solo_games_per_s=<n>
solo_per_thread=<n> solo_games_per_cpu_s=<n> python_engine_games_per_s=<n> load=<1-min load average>`
(with `optimal_games_per_cpu_s` after the first figure). BENCH_QUICK=1 (what `make test` runs,
tests/test_benchmarks.py): 2,000 games per player (those whose tables are there: hasbro's, and the seed's and
Perturbation's if built), one solo run, 10 games of the plain-Python engine.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import numba
import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lookup.store import default_artifacts_dir  # noqa: E402
from pipeline.yahtzee_lab.match import play, play_batch  # noqa: E402
from pipeline.yahtzee_lab.players import game_rules, get_player  # noqa: E402
from pipeline.yahtzee_lab.pyengine import play_python  # noqa: E402

QUICK = os.environ.get("BENCH_QUICK") == "1"
GAMES = {"optimal": 1_000_000, "esperance": 400_000, "decision_une": 400_000, "random": 400_000,
         "perturbation": 100_000}
if QUICK:
    GAMES = {name: 2_000 for name in GAMES}
PYTHON_GAMES = 10 if QUICK else 400
WARM = 200 if QUICK else 2000
SEED = 1


def ensure_artifacts() -> None:
    """The tables the players read: built when absent (with the manifest, which lookup holds them to); in quick
    mode, the players whose tables are absent are left out instead."""
    root = default_artifacts_dir()
    if QUICK:
        for name, needs in (("esperance", "seed-policy"), ("perturbation", "perturbation-weights")):
            if not (root / f"yahtzee-{needs}.zarr").exists():
                GAMES.pop(name)
        return
    wanted = ["yahtzee-hasbro-policy.zarr", "yahtzee-seed-policy.zarr", "yahtzee-perturbation-weights.zarr"]
    if not all((root / w).exists() for w in wanted):
        from pipeline.registry import build

        build(["yahtzee-hasbro", "yahtzee-seed", "yahtzee-perturbation-weights"], artifacts_dir=root)


def main() -> None:
    ensure_artifacts()
    rates, cpu_rates = {}, {}
    for name, games in GAMES.items():
        play(name, name, WARM, seed=SEED)  # warm: compiled code, memory-mapped tables
        start, cpu = time.perf_counter(), time.process_time()
        result = play(name, name, games, seed=SEED)
        elapsed = time.perf_counter() - start
        rates[name] = games / elapsed
        cpu_rates[name] = games / (time.process_time() - cpu)
        print(f"{name:<13} {games:>9,} self-play games in {elapsed:6.2f} s: {rates[name]:>9,.0f} games/s "
              f"({cpu_rates[name]:,.0f} per CPU second; mean {result.scores[:, 0].mean():.2f})")
    # One-player games, as public solvers count them ("games/s" of optimal play of one sheet).
    play("optimal", None, WARM, seed=SEED)
    solo, solo_cpu = [], []
    for _ in range(1 if QUICK else 5):
        start, cpu = time.perf_counter(), time.process_time()
        result = play("optimal", None, GAMES["optimal"], seed=SEED)
        solo.append(GAMES["optimal"] / (time.perf_counter() - start))
        solo_cpu.append(GAMES["optimal"] / (time.process_time() - cpu))
    solo_rate, cpu_rate = float(np.median(solo)), float(np.median(solo_cpu))
    cores = numba.get_num_threads()
    print(f"optimal solo games (one sheet each): {solo_rate:,.0f} games/s, median of 5, on {cores} threads "
          f"({solo_rate / cores:,.0f} per thread); {cpu_rate:,.0f} games per CPU second (mean "
          f"{result.scores[:, 0].mean():.4f})")
    spec, rules = get_player("optimal"), game_rules("hasbro")
    start = time.perf_counter()
    slow = play_python(spec, spec, PYTHON_GAMES, seed=SEED, mode="coupled", rules=rules)
    python_rate = PYTHON_GAMES / (time.perf_counter() - start)
    fast = play_batch(spec, spec, PYTHON_GAMES, seed=SEED, mode="coupled", rules=rules)
    assert np.array_equal(slow[0], fast[0]), "the two engines must play the same games"
    print(f"plain-Python engine, optimal self-play: {python_rate:,.0f} games/s "
          f"(the same games as the compiled engine); speed-up x{rates['optimal'] / python_rate:,.0f}")
    print(f"yahtzee_selfplay optimal_games_per_s={rates['optimal']:.0f} "
          f"optimal_games_per_cpu_s={cpu_rates['optimal']:.0f} optimal_solo_games_per_s={solo_rate:.0f} "
          f"solo_per_thread={solo_rate / cores:.0f} solo_games_per_cpu_s={cpu_rate:.0f} "
          f"python_engine_games_per_s={python_rate:.0f} load={os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
