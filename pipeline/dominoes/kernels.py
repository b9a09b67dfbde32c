"""The dominoes engine compiled: a copy of ``lookup.dominoes.engine`` with every function under
``numba.njit``, and the parallel loop over the games of a pairing.

Why numba: the experiment is millions of decisions, each a search over tens of candidate opponent hands;
in plain Python one decision takes tens of milliseconds, compiled about a hundred times less. The copy is
made by loading the engine's source file as a second module and replacing each of its functions by its
compiled form before any is called, so that compiled functions call compiled functions and the rules
stay written once (``lookup.dominoes.engine``). Every compiled function, the loop over games included,
lives in that one file: numba's cache is keyed on the file of each function, so a change anywhere in it
recompiles all of them (a loop compiled here would keep a stale copy of the engine from the cache).
"""

from __future__ import annotations

import importlib.util
import inspect
import sys
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType

import numpy as np

import lookup.dominoes.engine as _source
from pipeline.jit import njit


def _compiled_copy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("pipeline.dominoes._engine_jit", _source.__file__)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # numba links recursive calls through the function's module
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    for name, obj in list(vars(module).items()):
        if inspect.isfunction(obj) and obj.__module__ == module.__name__ and not name.startswith("_tile"):
            setattr(module, name, njit(cache=True, nogil=True)(obj))
    return module


engine = _compiled_copy()


def run_games(seeds: np.ndarray, kind: int, seat: int, model: int, mk: np.ndarray, w_init: np.ndarray, depth: int,
              samples: int, max_exact: float, rollouts: int = 0, endgame: int = -1, budget: int = 0,
              threads: int = 2) -> np.ndarray:
    """Result (+1 / 0 / -1 for the player) of one game per seed, the player in seat ``seat``. The seeds are
    split among ``threads`` threads (the compiled loop releases the GIL); each game depends on its seed
    only, so the results do not depend on the thread count."""
    seeds = np.ascontiguousarray(seeds, dtype=np.int64)
    out = np.empty(len(seeds))
    chunks = np.array_split(np.arange(len(seeds)), max(1, threads))
    args = (kind, seat, model, mk, w_init, depth, samples, float(max_exact), rollouts, endgame, budget)
    if len(chunks) == 1:
        engine.play_games(seeds, *args, out)
        return out.astype(np.int8)
    with ThreadPoolExecutor(len(chunks)) as pool:
        parts = [np.empty(len(c)) for c in chunks]
        list(pool.map(lambda cp: engine.play_games(seeds[cp[0]], *args, cp[1]), zip(chunks, parts, strict=True)))
    for c, part in zip(chunks, parts, strict=True):
        out[c] = part
    return out.astype(np.int8)
