"""The dominoes family: the experiment artifact (every player of ``dominoes.experiment.players`` against
every model of ``.models``, both seats, ``games`` seeded games each), one per rule set."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.dominoes.rules import get_rules
from lookup.dominoes.tables import MATCHUPS_NAME, MATCHUPS_SCHEMA, MATCHUPS_VERSIONS
from pipeline.family import Computed, Family, nonempty_list
from pipeline.store import ArtifactSpec, StoredArray


def _specs(section: Mapping[str, Any], rules_name: str) -> list[ArtifactSpec]:
    from pipeline.dominoes.experiment import Settings

    return [ArtifactSpec(name=MATCHUPS_NAME, schema=MATCHUPS_SCHEMA, schema_version=max(MATCHUPS_VERSIONS),
                         game="dominoes", rules=get_rules(rules_name).to_dict(),
                         params=Settings.from_params(section).to_dict(), code=(__name__,))]


def _compute(spec: ArtifactSpec, section: Mapping[str, Any], artifacts_dir: Path) -> Computed:
    from pipeline.dominoes.experiment import Settings, counts, play
    from pipeline.progress import progress

    settings = Settings.from_params(section)
    out = np.zeros((len(settings.players), len(settings.models), 2, 3), np.int64)
    with progress("dominoes experiment", len(settings.players) * len(settings.models) * 2) as advance:
        for p, player in enumerate(settings.players):
            for m, model in enumerate(settings.models):
                for seat in (0, 1):
                    out[p, m, seat] = counts(play(settings, player, model, seat))
                    advance()
    arrays = {"counts": StoredArray(out, "counts[p, m, s, o]: games of player p (seat s: 0 opens, 1 second) "
                                    "against model m ending in outcome o (0 win, 1 draw, 2 loss for the player)")}
    stats = {"games_per_pairing_and_seat": settings.games, "total_games": int(out.sum())}
    return arrays, stats


def families(section: Mapping[str, Any]) -> list[Family]:
    """One family per rule set in ``dominoes.rule_sets``."""
    return [Family(name=f"dominoes-{name}", section="dominoes",
                   artifacts=lambda s, n=name: _specs(s, n), compute=_compute)
            for name in nonempty_list(section, "rule_sets", "dominoes.rule_sets", "rule sets")]
