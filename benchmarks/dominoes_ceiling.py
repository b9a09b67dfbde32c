"""Dominoes: the ceiling against one model, measured with a clairvoyant player (measurement only).

The clairvoyant player is the predictive player told the truth: it knows the opponent's model and its
actual hand (variant ``hand``), or its hand and the boneyard's order too (variant ``order``: a draw is the
next tile, not a chance node), and searches ``depth`` placements after each move with the engine's search,
leaf estimate and exact endgame (``endgame`` as in params.yaml: to the end once the boneyard holds at most
that many tiles). No hidden-information player with the same search can beat it on average, so its win
rate bounds what more inference (better hand weights) could buy at that depth. It is not part of the
shipped API: it lives here, on top of the compiled engine (``pipeline.dominoes.kernels``).

Games are the evaluation's deals (game g from seed ``seed * 1_000_003 + g``, base seed 3 by default), the
same deals as ``dicetables dominoes match``; the script also plays the realistic player of params.yaml on
them, so every figure is paired with it (the difference's standard error is printed).

Usage: ``benchmarks/dominoes_ceiling.py [--model greedy] [--games 2000] [--seed 3] [--depths 3,5]
[--variants hand,order]`` (BENCH_QUICK=1: 4 games, depth 1, the first seat: what `make test` runs). The LAST
line is machine-readable:
``dominoes_ceiling model=... games=... realistic_seat0=... hand_d3_seat0=... ... load=...`` (win % per
variant, depth and seat).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))

import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from pipeline.dominoes.kernels import engine as J  # noqa: E402

N_TILES, HAND_SIZE, DRAW, PASS, MAX_MOVES, ALL_TILES = J.N_TILES, J.HAND_SIZE, J.DRAW, J.PASS, J.MAX_MOVES, J.ALL_TILES
PREDICTIVE, NO_TILE = J.PREDICTIVE, J.NO_TILE
result, legal_into, step, model_probs, leaf_value = J.result, J.legal_into, J.step, J.model_probs, J.leaf_value
search, search_depth, seed_rng, deal, pick, popcount = J.search, J.search_depth, J.seed_rng, J.deal, J.pick, J.popcount


@njit(nogil=True, cache=True)
def tiles_mask(order, lo, hi):
    """The mask of the tiles ``order[lo:hi]``."""
    m = 0
    for i in range(lo, hi):
        m |= 1 << order[i]
    return m


@njit(nogil=True, cache=True)
def search_order(me, h0, h1, order, pos, left, right, to_move, passes, drawn, depth, model):
    """:func:`engine.search` with the boneyard's order known (``order[pos:]``, drawn from the front): a
    draw takes the next tile instead of a chance node; the opponent moves by ``model``."""
    r = result(me, h0, h1, passes)
    if r != 2.0:
        return r
    bone_n = N_TILES - pos
    if depth <= 0:
        return leaf_value(me, h0, h1, left, right, to_move, bone_n)
    hand = h0 if to_move == 0 else h1
    unseen = (h1 if to_move == 0 else h0) | tiles_mask(order, pos, N_TILES)
    moves = np.empty(MAX_MOVES, np.int64)
    n = legal_into(hand, left, right, drawn, bone_n, moves)
    if moves[0] == DRAW:
        y = order[pos]
        bit = 1 << y
        if to_move == 0:
            return search_order(me, h0 | bit, h1, order, pos + 1, left, right, to_move, passes, y, depth, model)
        return search_order(me, h0, h1 | bit, order, pos + 1, left, right, to_move, passes, y, depth, model)
    if to_move == me:
        best = -2.0
        for i in range(n):
            a0, a1, nl, nr, nt, npas = step(h0, h1, left, right, to_move, passes, moves[i])
            v = search_order(me, a0, a1, order, pos, nl, nr, nt, npas, NO_TILE, depth - 1, model)
            if v > best:
                best = v
        return best
    probs = np.zeros(n)
    model_probs(model, moves, n, hand, unseen, left, right, probs)
    total = 0.0
    for i in range(n):
        if probs[i] > 0:
            a0, a1, nl, nr, nt, npas = step(h0, h1, left, right, to_move, passes, moves[i])
            total += probs[i] * search_order(me, a0, a1, order, pos, nl, nr, nt, npas, NO_TILE, depth - 1, model)
    return total


@njit(nogil=True, cache=True)
def clairvoyant_game(seed, seat, model, depth, endgame, knows_order):
    """One game (deal of ``seed``, as ``engine.play_game``) of the clairvoyant player in ``seat`` against
    ``model``; returns +1 / 0 / -1 for the player."""
    rng = seed_rng(seed)
    order = np.empty(N_TILES, np.int64)
    deal(rng, order)
    h = np.array([tiles_mask(order, 0, HAND_SIZE), tiles_mask(order, HAND_SIZE, 2 * HAND_SIZE)], np.int64)
    pos = 2 * HAND_SIZE
    left, right, to_move, passes, drawn, board = -1, -1, 0, 0, -1, 0
    mk = np.array([model], np.int64)
    w = np.ones(1)
    nodes = np.zeros(1, np.int64)
    moves = np.empty(MAX_MOVES, np.int64)
    probs = np.empty(MAX_MOVES)
    while True:
        r = result(seat, h[0], h[1], passes)
        if r != 2.0:
            return r
        bone_n = N_TILES - pos
        mover = to_move
        n = legal_into(h[mover], left, right, drawn, bone_n, moves)
        if mover == seat:
            move = moves[0]
            if n > 1:
                d = search_depth(depth, endgame, bone_n)
                bone = ALL_TILES & ~h[0] & ~h[1] & ~board
                best = -3.0
                for i in range(n):
                    a0, a1, nl, nr, nt, npas = step(h[0], h[1], left, right, mover, passes, moves[i])
                    if knows_order:
                        v = search_order(seat, a0, a1, order, pos, nl, nr, nt, npas, NO_TILE, d - 1, model)
                    else:
                        v = search(seat, a0, a1, bone, bone_n, nl, nr, nt, npas, NO_TILE, d - 1, PREDICTIVE, w, mk,
                                   0, rng, nodes)
                    if v > best:
                        best = v
                        move = moves[i]
        else:
            model_probs(model, moves, n, h[mover], ALL_TILES & ~h[mover] & ~board, left, right, probs)
            move = moves[pick(rng, probs, n)]
        if move == DRAW:
            y = order[pos]
            pos += 1
            h[mover] |= 1 << y
            drawn = y
            continue
        if move != PASS:
            board |= 1 << (move >> 1)
        h[0], h[1], left, right, to_move, passes = step(h[0], h[1], left, right, mover, passes, move)
        drawn = -1


@njit(nogil=True, cache=True)
def clairvoyant_games(seeds, seat, model, depth, endgame, knows_order, out):
    for g in range(len(seeds)):
        out[g] = clairvoyant_game(seeds[g], seat, model, depth, endgame, knows_order)


def run_clairvoyant(seeds: np.ndarray, seat: int, model: int, depth: int, endgame: int, knows_order: bool,
                    threads: int = 2) -> np.ndarray:
    chunks = np.array_split(np.arange(len(seeds)), threads)
    parts = [np.empty(len(c)) for c in chunks]
    with ThreadPoolExecutor(threads) as pool:
        list(pool.map(lambda cp: clairvoyant_games(seeds[cp[0]], seat, model, depth, endgame, knows_order, cp[1]),
                      zip(chunks, parts, strict=True)))
    out = np.empty(len(seeds))
    for c, part in zip(chunks, parts, strict=True):
        out[c] = part
    return out


def wins(results: np.ndarray) -> str:
    """Win % with its 95 % Wilson interval."""
    from pipeline.dominoes.experiment import wilson

    k, n = int((results == 1).sum()), len(results)
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.2f} [{100 * lo:.2f}, {100 * hi:.2f}]"


def paired(a: np.ndarray, b: np.ndarray) -> str:
    """Paired difference of win rates (a - b) in points, with its standard error."""
    d = (a == 1).astype(float) - (b == 1).astype(float)
    return f"{100 * d.mean():+.2f} ({100 * d.std(ddof=1) / math.sqrt(len(d)):.2f})"


def main() -> None:
    from lookup.dominoes import engine as E
    from pipeline.dominoes.experiment import Settings, player_setup
    from pipeline.dominoes.kernels import run_games
    from pipeline.family import load_params

    quick = os.environ.get("BENCH_QUICK") == "1"  # what `make test` runs (tests/test_benchmarks.py)
    ap = argparse.ArgumentParser()
    ap.add_argument("--model", default="greedy")
    ap.add_argument("--games", type=int, default=4 if quick else 2000)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--depths", default="1" if quick else "3,5")
    ap.add_argument("--variants", default="hand,order")
    ap.add_argument("--seats", default="0" if quick else "0,1")
    a = ap.parse_args()
    s = Settings.from_params(load_params(ROOT / "params.yaml")["dominoes"])
    model = E.MODEL_CODES[a.model]
    seeds = a.seed * 1_000_003 + np.arange(a.games, dtype=np.int64)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; model {a.model}, {a.games} games, "
          f"seed {a.seed}; realistic: depth {s.depth}, {s.samples} samples, endgame {s.endgame}")
    last = {}
    for seat in (int(x) for x in a.seats.split(",")):
        kind, mk, w = player_setup("realistic", a.model, s.models)
        t0 = time.perf_counter()
        base = run_games(seeds, kind, seat, model, mk, w, s.depth, s.samples, s.max_exact, s.rollouts, s.endgame,
                         s.budget).astype(float)
        print(f"seat {seat} realistic: {wins(base)} ({time.perf_counter() - t0:.1f} s)", flush=True)
        last[f"realistic_seat{seat}"] = 100 * float((base == 1).mean())
        for variant in a.variants.split(","):
            for depth in (int(x) for x in a.depths.split(",")):
                t0 = time.perf_counter()
                res = run_clairvoyant(seeds, seat, model, depth, s.endgame, variant == "order")
                print(f"seat {seat} clairvoyant ({variant}) depth {depth}: {wins(res)}, paired vs realistic "
                      f"{paired(res, base)} ({time.perf_counter() - t0:.1f} s, load {os.getloadavg()[0]:.1f})",
                      flush=True)
                last[f"{variant}_d{depth}_seat{seat}"] = 100 * float((res == 1).mean())
    print(f"dominoes_ceiling model={a.model} games={a.games} seed={a.seed} "
          + " ".join(f"{k}={v:.2f}" for k, v in last.items()) + f" load={os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
