"""The strategy lab's game engine compiled by ``dicetables compile`` (the ``then`` of Yahtzee's ``WarmUp``,
pipeline/warm.py), before any stage or test plays a game.

Why: the engine's kernels (``engine.play_games_parallel`` and what it calls) take ~40 s of CPU to compile, and
its first callers in ``make test`` (the golden file's check, the lab's shared tables) run on both pytest
workers at about the same time: each compiled it, since numba's cache only helps a process that starts after
another finished writing it. Compiled here, once, every later call loads it.

No table is needed: the players that read none (``random``, ``decision_une``) call the engine with the same
argument types as the table players (a compiled player is a record of arrays either way), so this compiles the
kernels every player uses. A module of its own: the lab's table family and report list their code files, and
nothing here changes what they compute.
"""

from __future__ import annotations

import time
from pathlib import Path


def compile_engine(artifacts_dir: str | Path | None = None) -> float:
    """Play a few games on both entry points of the compiled engine (the numba thread pool, as a stage or a
    test plays; and the calling thread only, as a Dask task plays); returns the seconds taken.
    ``artifacts_dir`` is unused (the players here read no table)."""
    from pipeline.yahtzee_lab.match import play_batch
    from pipeline.yahtzee_lab.players import game_rules, get_player

    start = time.perf_counter()
    rules = game_rules("hasbro")
    a, b = get_player("random"), get_player("decision_une")
    for parallel in (True, False):
        play_batch(a, b, 4, seed=1, mode="antithetic", rules=rules, parallel=parallel)
    play_batch(b, None, 2, seed=1, mode="solo", rules=rules)
    return time.perf_counter() - start
