"""The Pig artifact ``pig-RULES`` (schema ``pig.tables``, HDF5 mirror ``.h5``): for every target of
``pig.targets``, the probability that the player to move wins under optimal play by both, if it rolls now and if
it holds now. Arrays are read chunk by chunk, each chunk checked on first use (``lookup.chunked``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from lookup.errors import not_built
from lookup.pig.rules import Rules
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, play_arrays, trusted_meta

SCHEMA = "pig.tables"
SCHEMA_VERSIONS = (1,)
FIELDS = ("roll", "hold")
COST = "about 3 s for the target 100 (docs/pig.md)"  # what a build costs


def artifact_name(rules: Rules) -> str:
    return f"pig-{rules.name}"


def array_name(field: str, target: int) -> str:
    """Name of one table: ``roll_100`` or ``hold_100``."""
    return f"{field}_{target}"


@dataclass(frozen=True, eq=False)
class PigTable:
    """The table of one target, indexed [i, j, k]: i the mover's banked score, j the other's, k the turn total
    (all < target; i + k < target).

    roll[i, j, k]: probability that the mover wins if it rolls now (k = 0: the start of its turn, where it must
    roll), both playing optimally after; hold[i, j, k]: the same if it holds now (k >= 2: a turn total the
    die can make). NaN where the state cannot occur (k = 1, i + k >= target) or the choice does not exist.
    """

    rules: Rules
    target: int
    roll: Any
    hold: Any


def built_targets(rules: Rules, artifacts_dir: str | Path | None = None) -> tuple[int, ...]:
    """The targets the built artifact of ``rules`` holds (() when it is not built)."""
    path = _path(rules, artifacts_dir)
    if not artifact_stamp(path):
        return ()
    return tuple(int(t) for t in trusted_meta(path)["params"]["targets"])


def load_table(rules: Rules, target: int, artifacts_dir: str | Path | None = None) -> PigTable:
    """The verified table of ``target``; NotBuiltError (a ValueError) naming what to build when it is not."""
    path = _path(rules, artifacts_dir)
    return _load(rules, target, path, artifact_stamp(path))


def _path(rules: Rules, artifacts_dir: str | Path | None) -> Path:
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    return artifact_path(root, artifact_name(rules))


@lru_cache(maxsize=8)
def _load(rules: Rules, target: int, path: Path, stamp: int) -> PigTable:
    # ``stamp`` (the metadata file's mtime) makes a rebuilt artifact a new cache entry.
    if not stamp:
        raise not_built(f"{path}: the Pig tables are not built", "the Pig tables are not built on this server",
                        build=f"pig-{rules.name}", cost=COST)
    targets = built_targets(rules, path.parent)
    if target not in targets:
        raise not_built(f"{path}: target {target} is not built (built: {list(targets)})",
                        f"Pig to {target} is not built on this server (built: {list(targets)})",
                        params=f"{target} in pig.targets", build=f"pig-{rules.name}", cost=COST)
    _, arrays = play_arrays(path, [array_name(f, target) for f in FIELDS], schema=SCHEMA, versions=SCHEMA_VERSIONS,
                            rules=rules.to_dict())
    return PigTable(rules, target, *(arrays[array_name(f, target)] for f in FIELDS))
