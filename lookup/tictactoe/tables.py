"""The tic-tac-toe tables artifact: its name, schema, and the verified in-memory loader."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from lookup.errors import not_built
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, open_artifact
from lookup.tictactoe.rules import get_rules

TABLES_NAME = "tictactoe-tables"
TABLES_SCHEMA = "tictactoe.tables"
TABLES_VERSIONS = (1,)


@dataclass(frozen=True, eq=False)
class Tables:
    """Every reachable position (row r, sorted by base-3 board code ``code[r]``):

    minimax[r]: value (+1 / 0 / -1) for the player to move, perfect play by both.
    minimax_moves[r]: bit m set for every move m that keeps that value (0 at terminal positions).
    best_response[k, r]: expected return (win 1, draw 0, loss -1) of the player to move when it best
      responds to an opponent playing ``models[k]`` (exact fraction, rounded once to float64).
    best_moves[k, r]: bit m set for every move m of exactly highest best-response value.
    """

    models: tuple[str, ...]
    code: np.ndarray
    minimax: np.ndarray
    minimax_moves: np.ndarray
    best_response: np.ndarray
    best_moves: np.ndarray

    def row(self, code: int) -> int:
        r = int(np.searchsorted(self.code, code))
        if r >= len(self.code) or int(self.code[r]) != code:
            raise ValueError(f"board code {code} is not a reachable position")
        return r

    def model_index(self, name: str) -> int:
        if name not in self.models:
            raise ValueError(f"unknown opponent model {name!r}; the tables hold: {', '.join(self.models)}")
        return self.models.index(name)


@lru_cache(maxsize=4)
def _load(path: Path, stamp: int) -> Tables:
    # ``stamp`` (the metadata file's mtime) makes a rebuilt artifact a new cache entry.
    if not stamp:
        raise not_built(f"{path}: the tic-tac-toe tables are not built",
                        "the tic-tac-toe tables are not built on this server", build="tictactoe-standard",
                        cost="about a second")
    with open_artifact(path, schema=TABLES_SCHEMA, versions=TABLES_VERSIONS,
                       rules=get_rules().to_dict()) as art:
        arrays = {k: art.read(k) for k in ("code", "minimax", "minimax_moves", "best_response", "best_moves")}
        models = tuple(art.meta["params"]["models"])
    for a in arrays.values():
        a.setflags(write=False)
    return Tables(models=models, **arrays)


def load_tables(rules: str = "standard", artifacts_dir: str | Path | None = None) -> Tables:
    """The verified tables (kept in memory); ArtifactError (a ValueError) naming the file when missing,
    corrupted or not these rules."""
    get_rules(rules)
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, TABLES_NAME)
    return _load(path, artifact_stamp(path))
