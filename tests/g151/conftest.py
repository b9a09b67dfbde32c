from pathlib import Path

import pytest

from tests import shared


@pytest.fixture(scope="session")
def g151_tables(tmp_path_factory) -> Path:
    """An artifacts directory with the stated and notebook tables for targets 300 and 1000, built once per run
    (shared: only read)."""
    return shared.g151(tmp_path_factory)
