"""Shared fixture: a small dominoes experiment built once per run (tests/shared.py)."""

from pathlib import Path

import pytest

from tests import shared

PARAMS = shared.small_params("dominoes")


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """An artifacts directory holding dominoes-matchups (2 players x 2 models x 2 seats x 12 games), shared: only
    read."""
    return shared.dominoes(tmp_path_factory)
