"""Play games: ``play`` (a match between two players, or solo games) and ``simulate`` (solo).

Both pick the engine: numba when both players are compiled (built-in), the plain-Python engine when a
player is a Python callable. Games are numbered; game ``g`` depends only on (seed, mode, g) and the
players, so any split of ``first .. first + games`` over batches, threads or Dask workers gives the same
games (see ``pipeline.yahtzee.streams``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np

from lookup.yahtzee.rules import Rules
from pipeline.yahtzee.streams import MODE_CODES, MODES
from pipeline.yahtzee_lab import engine
from pipeline.yahtzee_lab.players import NO_PLAYER, PlayerSpec, compile_player, game_rules, get_player

__all__ = ["Games", "play", "simulate", "play_batch"]


@dataclass
class Games:
    """Results of games ``first .. first + n - 1``.

    scores[g, p]: real final score (points) of player p (0 = A, 1 = B; column 1 is 0 in solo mode);
    upper_bonus[g, p]: 1 if player p earned the upper bonus. In antithetic mode rows 2s and 2s + 1 are set s.
    """

    players: tuple[str, ...]
    mode: str
    seed: int
    first: int
    rules: str
    scores: np.ndarray
    upper_bonus: np.ndarray

    @property
    def n(self) -> int:
        return int(self.scores.shape[0])


def _check(games: int, mode: str, first: int) -> None:
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if mode == "antithetic" and (games % 2 or first % 2):
        raise ValueError("antithetic games come in sets of two: games and first must be even")


def play_batch(a: PlayerSpec, b: PlayerSpec | None, games: int, *, seed: int, mode: str, rules: Rules,
               first: int = 0, artifacts_dir: str | Path | None = None,
               parallel: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """One batch of games on the right engine: (scores int32 (games, 2), upper_bonus uint8 (games, 2)).

    ``parallel=False`` runs the compiled engine on the calling thread only (what Dask tasks use: the
    workers are the parallelism, and numba's thread pool must not be entered from several threads).
    """
    rules = game_rules(rules)
    if not a.compiled or (b is not None and not b.compiled):
        from pipeline.yahtzee_lab.pyengine import play_python

        return play_python(a, b, games, seed=seed, mode=mode, rules=rules, first=first, artifacts_dir=artifacts_dir)
    where = None if artifacts_dir is None else str(artifacts_dir)
    pa = compile_player(a, rules, where)
    pb = compile_player(b, rules, where) if b is not None else NO_PLAYER
    g = engine.game_tables(rules)
    scores = np.zeros((games, 2), dtype=np.int32)
    bonus = np.zeros((games, 2), dtype=np.uint8)
    errors = np.zeros(games, dtype=np.uint8)
    code = MODE_CODES[mode]
    if parallel:
        engine.play_games_parallel(first, first + games, seed, code, pa, pb, g, scores, bonus, errors,
                                   engine.n_chunks(games))
    else:
        engine.play_games(first, first + games, first, seed, code, pa, pb, g, scores, bonus, errors)
    if errors.any():
        bad = int(np.flatnonzero(errors)[0]) + first
        raise ValueError(f"game {bad}: a player chose a box the rules do not allow "
                         f"({a.name} vs {b.name if b else '-'}, mode {mode}, seed {seed})")
    return scores, bonus


def play(a, b=None, games: int = 1000, *, seed: int = 0, mode: str = "coupled", rules: str | Rules = "hasbro",
         first: int = 0, artifacts_dir: str | Path | None = None, threads: int | None = None,
         batch: int = 1 << 16, progress: Callable[[int], None] | None = None) -> Games:
    """Play ``games`` games of ``a`` against ``b`` (None: solo games of ``a``; mode forced to "solo").

    Players are names, specs or plain callables (``pipeline.yahtzee_lab.players.get_player``). ``threads``
    sets numba's thread count for the run; ``progress(n)`` is called after each batch of n games.
    """
    a = get_player(a)
    b = None if b is None else get_player(b)
    mode = "solo" if b is None else mode
    if b is not None and mode == "solo":
        raise ValueError("solo mode has one player")
    _check(games, mode, first)
    rules = game_rules(rules)
    old = numba.get_num_threads()
    if threads is not None:
        numba.set_num_threads(threads)
    try:
        scores = np.zeros((games, 2), dtype=np.int32)
        bonus = np.zeros((games, 2), dtype=np.uint8)
        step = max(2, batch - batch % 2)
        for lo in range(0, games, step):
            n = min(step, games - lo)
            scores[lo:lo + n], bonus[lo:lo + n] = play_batch(a, b, n, seed=seed, mode=mode, rules=rules,
                                                             first=first + lo, artifacts_dir=artifacts_dir)
            if progress is not None:
                progress(n)
    finally:
        numba.set_num_threads(old)
    names = (a.name,) if b is None else (a.name, b.name)
    return Games(names, mode, seed, first, rules.name, scores, bonus)


def simulate(player, games: int, *, seed: int = 0, rules: str | Rules = "hasbro", **kwargs) -> Games:
    """Solo games of ``player`` (``play(player, None, ...)``)."""
    return play(player, None, games, seed=seed, rules=rules, **kwargs)
