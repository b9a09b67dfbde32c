"""Shared fixtures: small dice-race games built once per session into a temporary artifacts directory."""

from pathlib import Path

import pytest

from pipeline import registry

SMALL_GRID = [[3, 20], [5, 30]]


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """An artifacts directory holding the roll probabilities and the strategy tables of SMALL_GRID."""
    root = tmp_path_factory.mktemp("dicerace")
    params = root / "params.yaml"
    params.write_text(f"dicerace:\n  max_dice: 10\n  grid: {SMALL_GRID}\n  report:\n"
                      "    simulation_games: 2000\n    seed: 3\n")
    artifacts = root / "artifacts"
    registry.build(["dicerace-probabilities", "dicerace-strategies"], params_path=params, artifacts_dir=artifacts)
    return artifacts
