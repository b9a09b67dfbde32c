"""Shared fixture: a small dominoes experiment built once per session into a temporary artifacts directory."""

from pathlib import Path

import pytest

from pipeline import registry

PARAMS = ("dominoes:\n  rule_sets: [standard]\n  experiment:\n    players: [predictive, realistic]\n"
          "    models: [random, strong]\n    games: 12\n    seed: 5\n    depth: 2\n    samples: 3\n"
          "    max_exact: 50\n    endgame: 0\n    budget: 300\n  report: {}\n")


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """An artifacts directory holding dominoes-matchups (2 players x 2 models x 2 seats x 12 games)."""
    root = tmp_path_factory.mktemp("dominoes")
    params = root / "params.yaml"
    params.write_text(PARAMS)
    artifacts = root / "artifacts"
    registry.build(["dominoes-standard"], params_path=params, artifacts_dir=artifacts)
    return artifacts
