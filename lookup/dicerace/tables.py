"""Verified access to the dice-race artifacts: the roll probabilities (in memory) and the strategy
tables (read chunk by chunk, each chunk checked on first use: ``lookup.chunked``)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from lookup.chunked import ChunkedArray
from lookup.dicerace.rules import rules_dict
from lookup.errors import not_built
from lookup.store import (
    ArtifactError,
    artifact_path,
    artifact_stamp,
    default_artifacts_dir,
    open_artifact,
    play_arrays,
    trusted_meta,
)
from lookup.validate import integer
from lookup.words import counted

PROBABILITIES_NAME = "dicerace-probabilities"
PROBABILITIES_SCHEMA = "dicerace.probabilities"
PROBABILITIES_VERSIONS = (1,)


@dataclass(frozen=True)
class RollDistribution:
    """Distribution of the points of one roll of ``dice`` dice.

    ``p[k]``: probability of scoring k points (k = 1 when any die shows 1, else the sum of the dice).
    ``q[k]``: probability that the dice sum to k given that none shows 1. Both indexed by k = 0..6*dice.
    """

    dice: int
    p: np.ndarray
    q: np.ndarray


@lru_cache(maxsize=4)
def _load_probabilities(path: Path, stamp: int) -> tuple[np.ndarray, np.ndarray, int]:
    # ``stamp`` (the metadata file's mtime) makes a rebuilt artifact a new cache entry.
    if not stamp:
        raise not_built(f"{path}: the dice-race roll probabilities are not built",
                        "the dice-race roll probabilities are not built on this server", build=PROBABILITIES_NAME,
                        cost="well under a second")
    with open_artifact(path, schema=PROBABILITIES_SCHEMA, versions=PROBABILITIES_VERSIONS,
                       rules=rules_dict()) as art:
        p, q = art.read("P"), art.read("Q")
        max_dice = int(art.meta["params"]["max_dice"])
    p.setflags(write=False)
    q.setflags(write=False)
    return p, q, max_dice


def probabilities(d: int, *, artifacts_dir: str | Path | None = None) -> RollDistribution:
    """Exact (float64) distribution of one roll of ``d`` dice, read from the verified artifact.

    Raises ValueError when ``d`` is not a positive integer or exceeds the built ``max_dice``.
    """
    d = integer(d, "d", low=1)
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, PROBABILITIES_NAME)
    p, q, max_dice = _load_probabilities(path, artifact_stamp(path))
    if d > max_dice:
        raise not_built(f"{path} holds d up to max_dice={max_dice}: d={d} is not built",
                        f"d={d} is not built on this server (rolls of up to {counted(max_dice, 'die')} are)",
                        params=f"dicerace.max_dice {d} or more", build="dicerace-probabilities",
                        cost="well under a second")
    width = 6 * d + 1
    return RollDistribution(dice=int(d), p=p[d, :width], q=q[d, :width])


# --- strategy tables (built by the `dicerace-strategies` family, see docs/artifacts.md) ---------------

SEQUENTIAL_NAME, SEQUENTIAL_SCHEMA = "dicerace-sequential", "dicerace.sequential"
SIMULTANEOUS_NAME, SIMULTANEOUS_SCHEMA = "dicerace-simultaneous", "dicerace.simultaneous"
ONESHOT_NAME, ONESHOT_SCHEMA = "dicerace-oneshot", "dicerace.oneshot"
MATCHUPS_NAME, MATCHUPS_SCHEMA = "dicerace-matchups", "dicerace.matchups"
STRATEGY_VERSIONS = (1,)
# docs/benchmarks.md ("make run", "Dice race"): the stage's CPU for the default grid; a (30, 1000) game adds ~25 s.
STRATEGIES_COST = "about 30-40 s of CPU for the default grid, ~25 s more for a game of 30 dice to 1000"
# Version 2 of the sequential schema: P(win) and P(lose) stored, optimal sets exact (docs/dicerace.md).
SEQUENTIAL_VERSIONS = (2,)
# Version 2 of the simultaneous schema: supports, "not unique" and "no saddle point" flags of the exact game,
# the smallest optimal d where a player has several optimal pure strategies (docs/dicerace.md).
SIMULTANEOUS_VERSIONS = (2,)
SEQUENTIAL_ARRAYS = ("value", "win", "lose", "optimal")
SIMULTANEOUS_ARRAYS = ("value", "pure", "mixed_row", "mixed", "flags")
# flags bits of the simultaneous table, for the player whose score is the first index.
MIXED, NOT_UNIQUE, NO_SADDLE = 1, 2, 4


def grid_key(dice: int, target: int) -> str:
    """Prefix of the arrays of one (dice, target) game in a strategy artifact: ``d{dice}_n{target}``."""
    return f"d{dice}_n{target}"


@dataclass(frozen=True, eq=False)
class SequentialTable:
    """Sequential race (dice, target), checked arrays (``lookup.chunked.ChunkedArray``) indexed
    [my score, other's score]:

    value: EG(i, j) = P(win) - P(loss) of the player about to move with i against j.
    win, lose: P(win) and P(loss) of that player, each with a small relative error (precise near 0).
    optimal: bit d-1 set for every optimal d: exactly the d whose exact value is the best.
    """

    dice: int
    target: int
    value: ChunkedArray
    win: ChunkedArray
    lose: ChunkedArray
    optimal: ChunkedArray


@dataclass(frozen=True, eq=False)
class SimultaneousTable:
    """Simultaneous race (dice, target), checked arrays (``lookup.chunked.ChunkedArray``) indexed
    [my score, other's score]:

    value: EG1(i, j) = P(win) - P(loss) of the player with i against j, both playing optimally.
    pure: that player's optimal d when its stored strategy is pure (the smallest optimal d when several
        are), else 0.
    mixed_row / mixed: else its strategy is mixed[mixed_row[i, j]] (probabilities, index d - 1).
    flags: MIXED | NOT_UNIQUE | NO_SADDLE bits, those of the exact game (certified, docs/dicerace.md).
    """

    dice: int
    target: int
    value: ChunkedArray
    pure: ChunkedArray
    mixed_row: ChunkedArray
    mixed: ChunkedArray
    flags: ChunkedArray

    def strategy(self, mine: int, other: int) -> np.ndarray:
        """Probabilities over d (index d - 1) of the stored optimal strategy at (mine, other)."""
        row = int(self.mixed_row[mine, other])
        if row >= 0:
            return np.array([self.mixed[row, d] for d in range(self.dice)], dtype=np.float64)
        out = np.zeros(self.dice)
        out[int(self.pure[mine, other]) - 1] = 1.0
        return out


def built_grid(meta: dict) -> list[tuple[int, int]]:
    """The (dice, target) pairs a strategy artifact holds."""
    return [(int(d), int(n)) for d, n in meta["params"]["grid"]]


def _strategy_arrays(name: str, schema: str, arrays: tuple[str, ...], dice: int, target: int,
                     artifacts_dir: str | Path | None) -> dict[str, np.ndarray]:
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, name)
    return _load_strategy(path, artifact_stamp(path), schema, arrays, dice, target)


@lru_cache(maxsize=32)
def _load_strategy(path: Path, stamp: int, schema: str, arrays: tuple[str, ...], dice: int,
                   target: int) -> dict[str, ChunkedArray]:
    # ``stamp`` makes a rebuilt artifact (or manifest) a new cache entry.
    if not stamp:
        raise not_built(f"{path}: the dice-race strategy tables are not built",
                        "the dice-race strategy tables are not built on this server", build="dicerace-strategies",
                        cost=STRATEGIES_COST)
    meta = trusted_meta(path)
    try:
        grid = built_grid(meta)
    except (KeyError, TypeError, ValueError) as exc:
        raise ArtifactError(f"{path}: malformed params.grid in its metadata") from exc
    if (dice, target) not in grid:
        built = ', '.join(f'({d}, {n})' for d, n in built_grid(meta))
        raise not_built(
            f"{path}: (dice={dice}, target={target}) is not built (built: {built})",
            f"the dice race with dice={dice}, target={target} is not built on this server (built: {built})",
            params=f"[{dice}, {target}] in dicerace.grid", build="dicerace-strategies", cost=STRATEGIES_COST)
    key = grid_key(dice, target)
    versions = {SEQUENTIAL_SCHEMA: SEQUENTIAL_VERSIONS, SIMULTANEOUS_SCHEMA: SIMULTANEOUS_VERSIONS}.get(
        schema, STRATEGY_VERSIONS)
    _, found = play_arrays(path, [f"{key}_{a}" for a in arrays], schema=schema, versions=versions,
                           rules=rules_dict())
    return {a: found[f"{key}_{a}"] for a in arrays}


def sequential_table(dice: int, target: int, *, artifacts_dir: str | Path | None = None) -> SequentialTable:
    """The verified sequential table of (dice, target); ValueError naming the file when not built."""
    dice, target = integer(dice, "dice", low=1), integer(target, "target", low=1)
    found = _strategy_arrays(SEQUENTIAL_NAME, SEQUENTIAL_SCHEMA, SEQUENTIAL_ARRAYS, dice, target, artifacts_dir)
    return SequentialTable(dice=dice, target=target, **found)


def simultaneous_table(dice: int, target: int, *,
                       artifacts_dir: str | Path | None = None) -> SimultaneousTable:
    """The verified simultaneous table of (dice, target); ValueError naming the file when not built."""
    dice, target = integer(dice, "dice", low=1), integer(target, "target", low=1)
    found = _strategy_arrays(SIMULTANEOUS_NAME, SIMULTANEOUS_SCHEMA, SIMULTANEOUS_ARRAYS, dice, target,
                             artifacts_dir)
    return SimultaneousTable(dice=dice, target=target, **found)
