"""Verified, in-memory access to the dice-race artifacts."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from lookup.dicerace.rules import rules_dict
from lookup.store import artifact_stamp, default_artifacts_dir, open_artifact

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
    if isinstance(d, bool) or not isinstance(d, int | np.integer):
        raise ValueError(f"number of dice must be an integer, got {d!r}")
    if d < 1:
        raise ValueError(f"number of dice must be at least 1, got {d}")
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = (root / f"{PROBABILITIES_NAME}.zarr").resolve()
    p, q, max_dice = _load_probabilities(path, artifact_stamp(path))
    if d > max_dice:
        raise ValueError(
            f"{root / PROBABILITIES_NAME}.zarr holds d up to max_dice={max_dice}, asked for d={d}; "
            "raise dicerace.max_dice in params.yaml and rebuild"
        )
    width = 6 * d + 1
    return RollDistribution(dice=int(d), p=p[d, :width], q=q[d, :width])
