"""The 151 artifact of one variant, verified and kept in memory (the tables are small: < 2 MB each).

``g151-VARIANT.zarr`` (schema ``g151.tables``, HDF5 mirror ``.h5``) holds the exact roll law and, for
every target of ``params.targets`` (points), the solitaire and two-player tables; names and layouts in
``docs/artifacts.md``. Scores index the tables in units of 50 points.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.g151.rules import Rules
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, open_artifact

SCHEMA = "g151.tables"
SCHEMA_VERSIONS = (1,)
KINDS = ("solitaire", "duel")  # duel = two players
FIELDS = ("roll", "bank", "policy")
COST = "about a second for the default targets (docs/benchmarks.md)"  # what a build costs


def artifact_name(rules: Rules) -> str:
    return f"g151-{rules.name}"


def array_name(kind: str, field: str, target: int) -> str:
    """Name of one table: e.g. ``duel_policy_1000`` (target in points)."""
    return f"{kind}_{field}_{target}"


@dataclass(frozen=True, eq=False)
class G151Tables:
    """The tables of one variant, read-only, by target (points).

    tables[(kind, target)] = {"roll": ..., "bank": ..., "policy": ...}: solitaire arrays are [a, t],
    two-player ("duel") arrays [a, b, t], with a = own banked, b = opponent's banked, t = turn total, all in
    units of 50 points. ``roll``/``bank``: value of rolling / banking now (expected counted turns alone;
    win probability of the player to move in a duel), NaN where that choice does not exist. ``policy``:
    1 roll, 0 bank, 2 no decision.
    """

    rules: Rules
    targets: tuple[int, ...]
    tables: dict[tuple[str, int], dict[str, np.ndarray]]
    stats: dict[str, Any]


def load_tables(rules: Rules, artifacts_dir: str | Path | None = None) -> G151Tables:
    """The verified tables of ``rules``; ValueError (ArtifactError) naming the file when not built."""
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, artifact_name(rules))
    return _load(rules, path, artifact_stamp(path))


@lru_cache(maxsize=8)
def _load(rules: Rules, path: Path, stamp: int) -> G151Tables:
    # ``stamp`` (the metadata file's mtime) makes a republished artifact a new cache entry.
    if not stamp:
        raise not_built(f"{path}: the {rules.name!r} 151 tables are not built",
                        f"the 151 variant {rules.name!r} is not built on this server",
                        params=f"{rules.name!r} in g151.variants", build=f"g151-{rules.name}", cost=COST)
    with open_artifact(path, schema=SCHEMA, versions=SCHEMA_VERSIONS, rules=rules.to_dict()) as art:
        targets = tuple(int(t) for t in art.meta["params"]["targets"])
        tables = {}
        for kind in KINDS:
            for target in targets:
                arrays = {f: art.read(array_name(kind, f, target)) for f in FIELDS}
                for arr in arrays.values():
                    arr.setflags(write=False)
                tables[(kind, target)] = arrays
        stats = dict(art.meta.get("stats", {}))
    return G151Tables(rules=rules, targets=targets, tables=tables, stats=stats)
