"""Dominoes: throughput of the compiled engine in the seed's experiment (every player of params.yaml against
every model, both seats), the projected time of the full experiment (10,000 games per pairing and seat), and
the plain-Python decision of ``lookup.dominoes`` beside the compiled one on the same positions.

Usage: ``benchmarks/dominoes.py [GAMES]`` (games per pairing and seat, default 300; BENCH_QUICK=1: 2 games and
3 positions, what `make test` runs, tests/test_benchmarks.py). The compilation is timed apart (first call). The
LAST line is ``dominoes games_per_s=... full_experiment_s=... ...``.
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

from pipeline.family import load_params  # noqa: E402


def main() -> None:
    from lookup.dominoes import engine as E
    from pipeline.dominoes.experiment import Settings, player_setup, seeds
    from pipeline.dominoes.kernels import engine as J
    from pipeline.dominoes.kernels import run_games

    quick = os.environ.get("BENCH_QUICK") == "1"
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2 if quick else 300
    section = dict(load_params(ROOT / "params.yaml")["dominoes"])
    section["experiment"] = {**section["experiment"], "games": games, "full": False}
    s = Settings.from_params(section)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; settings {s.to_dict()}")
    start = time.perf_counter()
    kind, mk, w = player_setup("realistic", "random", s.models)
    run_games(np.arange(2, dtype=np.int64), kind, 0, 0, mk, w, s.depth, s.samples, s.max_exact, s.rollouts,
              s.endgame, s.budget)
    compile_s = time.perf_counter() - start
    per_player = {}
    total_s = 0.0
    cpu0 = time.process_time()
    for player in s.players:
        t0 = time.perf_counter()
        for model in s.models:
            kind, mk, w = player_setup(player, model, s.models)
            for seat in (0, 1):
                run_games(seeds(s), kind, seat, E.MODEL_CODES[model], mk, w, s.depth, s.samples, s.max_exact,
                          s.rollouts, s.endgame, s.budget)
        dt = time.perf_counter() - t0
        total_s += dt
        per_player[player] = 2 * len(s.models) * games / dt
        print(f"{player}: {2 * len(s.models) * games} games in {dt:.1f} s = {per_player[player]:.0f} games/s")
    n_games = 2 * len(s.models) * len(s.players) * games
    cpu_s = time.process_time() - cpu0  # both threads: on an idle 2-core machine the wall time is about half
    full_s = total_s * 10_000 / games
    full_cpu_s = cpu_s * 10_000 / games
    # One decision, plain Python (lookup) and compiled, on the same replayed positions.
    plain, compiled = [], []
    for seed in range(3 if quick else 20):
        log = np.full((200, 2), -9, np.int64)
        kind, mk, w = player_setup("realistic", "random", s.models)
        E.play_game(seed, kind, 1, E.RANDOM, mk, w, 1, 2, 20.0, 0, -1, 0, log)
        args = _first_choice(E, seed)
        if args is None:
            continue
        for engine, out in ((E, plain), (J, compiled)):
            moves, values = np.empty(E.MAX_MOVES, np.int64), np.zeros(E.MAX_MOVES)
            t0 = time.perf_counter()
            engine.move_values(*args, kind, w, mk, s.depth, s.samples, float(s.max_exact), s.rollouts,
                               s.endgame, s.budget, E.seed_rng(seed), moves, values, False)
            out.append(time.perf_counter() - t0)
    print(f"decision (realistic, depth {s.depth}, {s.samples} samples): plain Python median "
          f"{statistics.median(plain) * 1e3:.1f} ms, compiled {statistics.median(compiled) * 1e3:.2f} ms "
          f"({len(plain)} positions)")
    print(f"dominoes games_per_s={n_games / total_s:.0f} games={n_games} experiment_s={total_s:.1f} "
          f"full_experiment_s={full_s:.0f} experiment_cpu_s={cpu_s:.1f} full_experiment_cpu_s={full_cpu_s:.0f} "
          f"compile_s={compile_s:.1f} "
          + " ".join(f"{p}_games_per_s={v:.0f}" for p, v in per_player.items())
          + f" decide_plain_ms={statistics.median(plain) * 1e3:.1f}"
          + f" decide_compiled_ms={statistics.median(compiled) * 1e3:.2f}"
          + f" load={os.getloadavg()[0]:.1f}")


def _first_choice(E, seed: int):  # noqa: ANN001, ANN202
    """The arguments of ``move_values`` (up to the player's settings) at the second player's first decision
    with a choice in the deal of ``seed`` (the opponent opening with its first tile)."""
    from lookup.dominoes.game import GAME, deal

    state = deal(seed)
    ev = np.zeros((64, 6), np.int64)
    board, n_ev = 0, 0
    while not GAME.is_terminal(state):
        moves = GAME.legal_actions(state)
        if state.to_move == 1 and len(moves) > 1 and n_ev:
            return (1, state.hands[1], E.popcount(state.hands[0]), E.ALL_TILES & ~state.hands[1] & ~board,
                    len(state.boneyard), state.left, state.right, state.passes, state.drawn, ev, n_ev)
        move = moves[0]
        if state.to_move == 0:
            E.record(ev, n_ev, move, state.drawn, state.left, state.right, board, len(state.boneyard))
            n_ev += 1
        if move < E.DRAW:
            board |= 1 << (move >> 1)
        state = GAME.apply(state, move)
    return None


if __name__ == "__main__":
    main()
