from pathlib import Path

import pytest

from tests import shared


@pytest.fixture(scope="session")
def farkle_tables(tmp_path_factory) -> Path:
    """The small Farkle tables (the declaration's ``small`` params), built once per run (shared: only read)."""
    return shared.small(tmp_path_factory, "farkle")
