"""The dominoes engine compiled: a copy of ``lookup.dominoes.engine`` with every function under
``numba.njit``, and the parallel loop over the games of a pairing.

Why numba: the experiment is millions of decisions, each a search over tens of candidate opponent hands;
in plain Python one decision takes tens of milliseconds, compiled about a hundred times less. The copy is
made by loading the engine's source file as a second module and replacing each of its functions by its
compiled form before any is called, so that compiled functions call compiled functions and the rules
stay written once (``lookup.dominoes.engine``).
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import numpy as np
from numba import njit

import lookup.dominoes.engine as _source


def _compiled_copy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pipeline.dominoes._engine_jit", _source.__file__)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba links recursive calls through the function's module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    for name, obj in list(vars(module).items()):
        if inspect.isfunction(obj) and obj.__module__ == module.__name__ and not name.startswith("_tile"):
            setattr(module, name, njit(cache=True)(obj))
    return module


engine = _compiled_copy()
play_game = engine.play_game


@njit(cache=True, nogil=True)
def _run_chunk(seeds, kind, seat, model, mk, w_init, depth, samples, max_exact, rollouts, out):
    log = np.empty((0, 2), np.int64)
    for g in range(len(seeds)):
        out[g] = np.int8(play_game(seeds[g], kind, seat, model, mk, w_init, depth, samples, max_exact, rollouts, log))


def run_games(seeds: np.ndarray, kind: int, seat: int, model: int, mk: np.ndarray, w_init: np.ndarray, depth: int,
              samples: int, max_exact: float, rollouts: int = 0, threads: int = 2) -> np.ndarray:
    """Result (+1 / 0 / -1 for the player) of one game per seed, the player in seat ``seat``. The seeds are
    split among ``threads`` threads (the compiled loop releases the GIL); each game depends on its seed
    only, so the results do not depend on the thread count. (Not ``prange``: numba cannot link the
    recursive search inside a parallel loop.)"""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    out = np.empty(len(seeds), np.int8)
    chunks = np.array_split(np.arange(len(seeds)), max(1, threads))
    args = (kind, seat, model, mk, w_init, depth, samples, float(max_exact), rollouts)
    if len(chunks) == 1:
        _run_chunk(seeds, *args, out)
        return out
    with ThreadPoolExecutor(len(chunks)) as pool:
        parts = [np.empty(len(c), np.int8) for c in chunks]
        list(pool.map(lambda cp: _run_chunk(seeds[cp[0]], *args, cp[1]), zip(chunks, parts, strict=True)))
    for c, part in zip(chunks, parts, strict=True):
        out[c] = part
    return out
