"""The dominoes experiment artifact (every player against every opponent model, both seats, seeded
games): its name, schema, and the verified loader."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from lookup.dominoes.rules import get_rules
from lookup.errors import not_built
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, open_artifact
from lookup.validate import integer, shown

MATCHUPS_NAME = "dominoes-matchups"
MATCHUPS_SCHEMA = "dominoes.matchups"
MATCHUPS_VERSIONS = (1,)
SEATS = ("first", "second")
OUTCOMES = ("win", "draw", "loss")


@dataclass(frozen=True, eq=False)
class Matchups:
    """counts[p, m, s, o]: games that player ``players[p]`` playing seat ``s`` (0 opens) against model
    ``models[m]`` ended in outcome ``o`` (win, draw, loss for the player); ``params`` the experiment's
    settings (games per pairing and seat, seed, depth, samples, max_exact)."""

    players: tuple[str, ...]
    models: tuple[str, ...]
    counts: np.ndarray
    params: dict[str, Any]

    def outcome(self, player: str, model: str, seat: int) -> tuple[int, int, int]:
        if type(player) is not str or player not in self.players:
            raise ValueError(f"unknown player {shown(player)}; the experiment holds: {', '.join(self.players)}")
        if type(model) is not str or model not in self.models:
            raise ValueError(f"unknown opponent model {shown(model)}; the experiment holds: {', '.join(self.models)}")
        c = self.counts[self.players.index(player), self.models.index(model), integer(seat, "seat", 0, 1)]
        return int(c[0]), int(c[1]), int(c[2])


def load_matchups(rules: str = "standard", artifacts_dir: str | Path | None = None) -> Matchups:
    """The verified experiment; ArtifactError (a ValueError) naming the file when missing, corrupted or
    not these rules."""
    get_rules(rules)
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, MATCHUPS_NAME)
    if not artifact_stamp(path):
        raise not_built(f"{path}: the dominoes experiment is not built",
                        "the dominoes experiment is not built on this server", build="dominoes-standard",
                        cost="about 15 s, and 40-60 s more the first time (compiling its kernels); the seed's full "
                             "experiment (dominoes.experiment.full: true) about 3.5 minutes on 2 cores")
    with open_artifact(path, schema=MATCHUPS_SCHEMA, versions=MATCHUPS_VERSIONS, rules=get_rules().to_dict()) as art:
        counts = art.read("counts")
        params = dict(art.meta["params"])
    counts.setflags(write=False)
    return Matchups(tuple(params["players"]), tuple(params["models"]), counts, params)
