"""Shared fixture: the tic-tac-toe tables built once per run (tests/shared.py)."""

from pathlib import Path

import pytest

from tests import shared


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    """An artifacts directory holding tictactoe-tables (all five models), shared: only read."""
    return shared.tictactoe(tmp_path_factory)
