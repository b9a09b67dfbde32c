"""The clairvoyant player of benchmarks/dominoes_ceiling.py (measurement only): its known-order search
must equal the engine's search wherever knowing the boneyard's order tells nothing more (a boneyard of 0
or 1 tile), searched to the end, and its games must be the engine's deals."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

from lookup.dominoes import engine as E

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def ceiling():
    spec = importlib.util.spec_from_file_location("dominoes_ceiling", ROOT / "benchmarks" / "dominoes_ceiling.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _endgames(count: int, max_bone: int):
    """Positions of random self-play (both players uniform) once the boneyard holds at most ``max_bone``
    tiles: (h0, h1, order, pos, left, right, to_move, passes)."""
    found = 0
    seed = 0
    while found < count:
        seed += 1
        rng = E.seed_rng(seed)
        order = np.empty(E.N_TILES, np.int64)
        E.deal(rng, order)
        h = [0, 0]
        for i in range(E.HAND_SIZE):
            h[0] |= 1 << int(order[i])
            h[1] |= 1 << int(order[E.HAND_SIZE + i])
        pos, left, right, to_move, passes, drawn = 2 * E.HAND_SIZE, -1, -1, 0, 0, -1
        moves = np.empty(E.MAX_MOVES, np.int64)
        while E.result(0, h[0], h[1], passes) == 2.0:
            if E.N_TILES - pos <= max_bone and drawn < 0:
                found += 1
                yield h[0], h[1], order.copy(), pos, left, right, to_move, passes
                break
            n = E.legal_into(h[to_move], left, right, drawn, E.N_TILES - pos, moves)
            move = int(moves[E.rand_below(rng, n)])
            if move == E.DRAW:
                drawn = int(order[pos])
                h[to_move] |= 1 << drawn
                pos += 1
                continue
            h[0], h[1], left, right, to_move, passes = E.step(h[0], h[1], left, right, to_move, passes, move)
            drawn = -1


@pytest.mark.parametrize("max_bone", [0, 1])
@pytest.mark.parametrize("model", [E.GREEDY, E.RANDOM, E.STRONG])
def test_known_order_search_equals_engine_search_when_order_tells_nothing(ceiling, model, max_bone):
    J = ceiling.J
    checked = 0
    for h0, h1, order, pos, left, right, to_move, passes in _endgames(40, max_bone):
        bone = 0
        for i in range(pos, E.N_TILES):
            bone |= 1 << int(order[i])
        for me in (0, 1):
            want = J.search(me, h0, h1, bone, E.N_TILES - pos, left, right, to_move, passes, E.NO_TILE,
                            E.DEPTH_TO_END, E.PREDICTIVE, np.ones(1), np.array([model], np.int64), 0,
                            E.seed_rng(1), np.zeros(1, np.int64))
            got = ceiling.search_order(me, h0, h1, order, pos, left, right, to_move, passes, E.NO_TILE,
                                       E.DEPTH_TO_END, model)
            assert got == pytest.approx(want, abs=1e-12)
            checked += 1
    assert checked == 80

