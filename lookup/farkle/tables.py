"""Farkle's artifacts (docs/farkle.md, "Artifacts") and how a position is found in them.

``farkle-RULES`` (schema ``farkle.tables``): the two-player tables of every size (``Size``) of ``farkle.games``,
each under its key ``tTARGET_fFLOOR_dDICE`` (the floor without its sign): ``roll_KEY`` holds R(t, n), the
probability that the mover wins if it rolls n dice now with turn total t, for every state of the size
(``Layout``); ``start_KEY`` the probability that the mover wins from the start of its turn; ``low_KEY`` /
``high_KEY`` the certified bounds around it; ``offsets_KEY`` where each mover score's values begin.
``farkle-RULES-points`` (schema ``farkle.points``): for each number of dice D, the expected points a turn banks
from each turn total and dice to roll, playing for points (``points_D``).

Arrays are read chunk by chunk, each chunk checked on first use (``lookup.chunked``); ``start`` (4.5 MB for the
full game) and ``offsets`` are read whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.farkle.rules import Rules, Size
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, play_arrays, trusted_meta

SCHEMA = "farkle.tables"
SCHEMA_VERSIONS = (1,)
POINTS_SCHEMA = "farkle.points"
POINTS_VERSIONS = (1,)
FIELDS = ("roll", "start", "low", "high", "offsets")


def artifact_name(rules: Rules) -> str:
    return f"farkle-{rules.name}"


def size_key(size: Size) -> str:
    """``t10000_f2500_d6``: the floor without its sign (it is never above 0)."""
    return f"t{size.target}_f{-size.floor}_d{size.dice}"


def array_name(field: str, size: Size) -> str:
    return f"{field}_{size_key(size)}"


def points_name(rules: Rules) -> str:
    return f"farkle-{rules.name}-points"


def points_array(dice: int) -> str:
    return f"points_{dice}"


@dataclass(frozen=True)
class Layout:
    """Where the states of one size are stored (in units of ``rules.unit``).

    Score index i = (banked - floor) / unit, 0 .. NB - 1, for both players; farkles in a row 0 .. FL - 1. A mover
    of index i holds turn totals t = 0 .. rows(i) - 1: those below the target, and every total below min_bank.
    ``roll[offsets[i] + (((f * NB + j) * FL + g) * rows(i) + t) * D + n - 1]`` is R(t, n) of the mover (i, f)
    against (j, g).
    """

    NB: int
    M: int
    D: int
    FL: int

    @classmethod
    def of(cls, rules: Rules, size: Size) -> Layout:
        return cls((size.target - size.floor) // rules.unit, rules.min_bank // rules.unit, size.dice,
                   rules.farkle_limit)

    def rows(self, i: int) -> int:
        return max(self.NB - i, self.M)

    def offsets(self) -> np.ndarray:
        """offsets[i]: where mover index i's values begin (offsets[NB]: how many values there are)."""
        per = np.array([self.FL * self.NB * self.FL * self.rows(i) * self.D for i in range(self.NB)], np.int64)
        return np.concatenate([[0], np.cumsum(per)]).astype(np.int64)

    def row_width(self, i: int) -> int:
        """Values of one position's turn: rows(i) x D."""
        return self.rows(i) * self.D

    def position_row(self, f: int, j: int, g: int) -> int:
        return (f * self.NB + j) * self.FL + g


def _root(artifacts_dir: str | Path | None) -> Path:
    return Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()


def built_sizes(rules: Rules, artifacts_dir: str | Path | None = None) -> list[Size]:
    """The sizes the built two-player tables of ``rules`` hold ([] when they are not built)."""
    path = artifact_path(_root(artifacts_dir), artifact_name(rules))
    if not artifact_stamp(path):
        return []
    return [Size(*g) for g in trusted_meta(path)["params"]["games"]]


@dataclass(frozen=True, eq=False)
class FarkleTable:
    """The verified two-player table of one size: ``roll`` (chunked, read on demand), ``start[i, f, j, g]`` (in
    memory), ``offsets`` and the certified ``bound``: every stored value is within it of the exact one."""

    rules: Rules
    size: Size
    layout: Layout
    roll: Any
    start: np.ndarray
    offsets: np.ndarray
    bound: float
    stats: dict[str, Any]

    def roll_value(self, i: int, f: int, j: int, g: int, t: int, n: int) -> float:
        """R(t, n) (t in units, t < rows(i))."""
        lay = self.layout
        rows = lay.rows(i)
        return float(self.roll[int(self.offsets[i]) + (lay.position_row(f, j, g) * rows + t) * lay.D + n - 1])

    def turn_values(self, i: int, f: int, j: int, g: int) -> np.ndarray:
        """R[t, n - 1] of one position's whole turn (rows(i) x D)."""
        lay = self.layout
        width = lay.row_width(i)
        lo = int(self.offsets[i]) + lay.position_row(f, j, g) * width
        return span(self.roll, lo, lo + width).reshape(lay.rows(i), lay.D)


def span(array: Any, lo: int, hi: int) -> np.ndarray:
    """Elements lo .. hi - 1 of a 1-D chunked array, from the chunks holding them only (not the whole array)."""
    c = int(array.chunks[0])
    parts = [array.chunk(k) for k in range(lo // c, (hi - 1) // c + 1)]
    whole = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return whole[lo - (lo // c) * c:hi - (lo // c) * c]


def load_table(rules: Rules, size: Size, artifacts_dir: str | Path | None = None) -> FarkleTable:
    """The verified table of ``size``; NotBuiltError (a ValueError) naming what to build when it is not."""
    path = artifact_path(_root(artifacts_dir), artifact_name(rules))
    return _load(rules, size, path, artifact_stamp(path))


@lru_cache(maxsize=4)
def _load(rules: Rules, size: Size, path: Path, stamp: int) -> FarkleTable:
    # ``stamp`` (the metadata file's mtime) makes a rebuilt artifact a new cache entry.
    built = built_sizes(rules, path.parent) if stamp else []
    if size not in built:
        raise not_built(f"{path}: the Farkle table of {size.text()} is not built (built: "
                        f"{[s.text() for s in built] or 'none'})",
                        f"Farkle with {size.text()} is not built on this server",
                        params=f"[{size.target}, {size.floor}, {size.dice}] in farkle.games",
                        build=f"farkle-{rules.name}",
                        cost="about a minute for the default [3000, -1000, 6], about 15 minutes, 2 GB of memory and "
                             "3 GB on disk for the published [10000, -2500, 6] on 2 cores")
    meta, arrays = play_arrays(path, [array_name(f, size) for f in ("roll", "start", "offsets")], schema=SCHEMA,
                               versions=SCHEMA_VERSIONS, rules=rules.to_dict())
    layout = Layout.of(rules, size)
    offsets = np.asarray(arrays[array_name("offsets", size)].array())
    start = np.asarray(arrays[array_name("start", size)].array())
    stats = meta.get("stats", {})[size_key(size)]
    return FarkleTable(rules, size, layout, arrays[array_name("roll", size)], start, offsets,
                       float(stats["error_bound"]), stats)


def load_points(rules: Rules, dice: int, artifacts_dir: str | Path | None = None) -> np.ndarray:
    """The solitaire table of ``dice`` dice: E[t, n] in points (t in units; column 0 unused), read whole."""
    path = artifact_path(_root(artifacts_dir), points_name(rules))
    return _load_points(rules, dice, path, artifact_stamp(path))


@lru_cache(maxsize=4)
def _load_points(rules: Rules, dice: int, path: Path, stamp: int) -> np.ndarray:
    if not stamp:
        raise not_built(f"{path}: the Farkle points table is not built", "the Farkle points table is not built on "
                        "this server", build="farkle-points", cost="a few seconds")
    _, arrays = play_arrays(path, [points_array(dice)], schema=POINTS_SCHEMA, versions=POINTS_VERSIONS,
                            rules=rules.to_dict())
    return np.asarray(arrays[points_array(dice)].array())
