"""The poker artifacts, verified and kept in memory (both are small: ~4 MB and ~1 MB).

``poker-evaluator.zarr`` (schema ``poker.evaluator``): the hand-evaluator tables ``rank_next``,
``rank_value``, ``flush_value`` computed by the pipeline from ``lookup.poker.rules.hand_key``.
``poker-preflop.zarr`` (schema ``poker.preflop``, HDF5 mirror ``.h5``): preflop equities of the 169
starting-hand classes, heads-up and against random hands. ``poker-multiway.zarr`` (schema
``poker.multiway``, optional): the exact counts of every class against 1..9 random hands. Layouts in
``docs/poker.md``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.poker.rules import RULES
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, open_artifact

EVALUATOR = "poker-evaluator"
EVALUATOR_SCHEMA = "poker.evaluator"
EVALUATOR_VERSIONS = (1,)
EVALUATOR_ARRAYS = ("rank_next", "rank_value", "flush_value")

PREFLOP = "poker-preflop"
PREFLOP_SCHEMA = "poker.preflop"
PREFLOP_VERSIONS = (1,)
PREFLOP_ARRAYS = ("hu_win", "hu_tie", "hu_combos", "hu_equity", "random_win", "random_tie", "random_total",
                  "multi_equity", "multi_se", "multi_exact", "multi_samples")

MULTIWAY = "poker-multiway"
MULTIWAY_SCHEMA = "poker.multiway"
MULTIWAY_VERSIONS = (1,)
MULTIWAY_ARRAYS = ("counts", "deals", "equity", "built")
MULTIWAY_WORD = 62  # counts are stored as two int64 words: low + high x 2**62


@dataclass(frozen=True, eq=False)
class EvaluatorTables:
    """The evaluator tables (read-only); see ``pipeline/poker/ranking.py`` for what each entry means."""

    rank_next: np.ndarray
    rank_value: np.ndarray
    flush_value: np.ndarray


@dataclass(frozen=True, eq=False)
class PreflopTables:
    """The preflop arrays by name (read-only), the params they were built with, and the stage's stats."""

    arrays: dict[str, np.ndarray]
    params: dict[str, Any]
    stats: dict[str, Any]


@dataclass(frozen=True, eq=False)
class MultiwayTables:
    """The exact multi-way counts (``poker-multiway``): ``rows`` = the most opponents counted; see
    ``counts`` and ``deals`` for the integers of one class."""

    arrays: dict[str, np.ndarray]
    params: dict[str, Any]

    @property
    def rows(self) -> int:
        return int(self.arrays["counts"].shape[0])

    def has(self, x: int, opponents: int) -> bool:
        """Whether class ``x`` against ``opponents`` random hands was counted."""
        return 1 <= opponents <= self.rows and bool(self.arrays["built"][x] == 1)

    def counts(self, x: int, opponents: int) -> list[int]:
        """Deals in which class ``x`` is best and ties with j = 0..opponents of them (0: wins alone)."""
        words = self.arrays["counts"][opponents - 1, x, :opponents + 1]
        return [int(w[0]) + (int(w[1]) << MULTIWAY_WORD) for w in words]

    def deals(self, x: int, opponents: int) -> int:
        """All deals of class ``x`` against ``opponents`` random hands (its combinations x boards x ordered
        opponent hands)."""
        w = self.arrays["deals"][opponents - 1, x]
        return int(w[0]) + (int(w[1]) << MULTIWAY_WORD)


def _path(name: str, artifacts_dir: str | Path | None) -> Path:
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    return artifact_path(root, name)


def load_evaluator(artifacts_dir: str | Path | None = None) -> EvaluatorTables:
    """The verified evaluator tables; ValueError (ArtifactError) naming the file when not built."""
    path = _path(EVALUATOR, artifacts_dir)
    return _load_evaluator(path, artifact_stamp(path))


@lru_cache(maxsize=4)
def _load_evaluator(path: Path, stamp: int) -> EvaluatorTables:
    # ``stamp`` (the metadata file's mtime) makes a republished artifact a new cache entry.
    arrays = _read(path, stamp, EVALUATOR_SCHEMA, EVALUATOR_VERSIONS, EVALUATOR_ARRAYS, "poker-evaluator")[0]
    return EvaluatorTables(**arrays)


def load_preflop(artifacts_dir: str | Path | None = None) -> PreflopTables:
    """The verified preflop tables; ValueError (ArtifactError) naming the file when not built."""
    path = _path(PREFLOP, artifacts_dir)
    return _load_preflop(path, artifact_stamp(path))


def built_preflop(artifacts_dir: str | Path | None = None) -> PreflopTables | None:
    """The verified preflop tables, or None when they are not built (a corrupted or foreign artifact is still
    an ArtifactError: callers that can answer without the table decide what to do with it)."""
    path = _path(PREFLOP, artifacts_dir)
    stamp = artifact_stamp(path)
    return _load_preflop(path, stamp) if stamp else None


def built_multiway(artifacts_dir: str | Path | None = None) -> MultiwayTables | None:
    """The verified exact multi-way counts, or None when they are not built (an optional table: params
    ``poker.multiway``); a corrupted or foreign artifact is an ArtifactError."""
    path = _path(MULTIWAY, artifacts_dir)
    stamp = artifact_stamp(path)
    return _load_multiway(path, stamp) if stamp else None


@lru_cache(maxsize=4)
def _load_multiway(path: Path, stamp: int) -> MultiwayTables:
    arrays, meta = _read(path, stamp, MULTIWAY_SCHEMA, MULTIWAY_VERSIONS, MULTIWAY_ARRAYS, "poker-multiway")
    return MultiwayTables(arrays=arrays, params=dict(meta["params"]))


@lru_cache(maxsize=4)
def _load_preflop(path: Path, stamp: int) -> PreflopTables:
    arrays, meta = _read(path, stamp, PREFLOP_SCHEMA, PREFLOP_VERSIONS, PREFLOP_ARRAYS, "poker-preflop")
    return PreflopTables(arrays=arrays, params=dict(meta["params"]), stats=dict(meta.get("stats", {})))


# docs/benchmarks.md ("Poker"): what each family costs to build on the project's 2-core machine.
COSTS = {"poker-evaluator": "a few seconds",
         "poker-preflop": "about 1.5 minutes (70-90 s of CPU), after poker-evaluator",
         "poker-multiway": "about 35 minutes on 2 cores for every class to 9 opponents (poker.multiway)"}


def _read(path: Path, stamp: int, schema: str, versions: tuple[int, ...], names: tuple[str, ...],
          family: str) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    if not stamp:
        raise not_built(f"{path}: the poker tables ({family}) are not built", "the poker tables are not built on "
                        "this server", build=family, cost=COSTS[family])
    with open_artifact(path, schema=schema, versions=versions, rules=RULES) as art:
        arrays = {name: art.read(name) for name in names}
        meta = art.meta
    for arr in arrays.values():
        arr.setflags(write=False)
    return arrays, meta
