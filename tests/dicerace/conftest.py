"""Shared fixtures: small dice-race games built once per run (tests/shared.py)."""

from pathlib import Path

import pytest

from tests import shared

SMALL_GRID = [[3, 20], [5, 30]]


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """An artifacts directory holding the roll probabilities and the strategy tables of SMALL_GRID (shared: only
    read)."""
    assert f"grid: {SMALL_GRID}" in shared.small_params("dicerace")
    return shared.dicerace(tmp_path_factory)
