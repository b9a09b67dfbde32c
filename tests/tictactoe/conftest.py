"""Shared fixture: the tic-tac-toe tables built once per session into a temporary artifacts directory."""

from pathlib import Path

import pytest

from pipeline import registry

PARAMS = ("tictactoe:\n  rule_sets: [standard]\n  models: [random, first, last, greedy, perfect]\n"
          "  report:\n    players: [perfect, predictive]\n")


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """An artifacts directory holding tictactoe-tables (all five models)."""
    root = tmp_path_factory.mktemp("tictactoe")
    params = root / "params.yaml"
    params.write_text(PARAMS)
    artifacts = root / "artifacts"
    registry.build(["tictactoe-standard"], params_path=params, artifacts_dir=artifacts)
    return artifacts
