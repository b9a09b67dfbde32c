import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))


@pytest.fixture
def artifacts(tmp_path: Path) -> Path:
    """An empty artifacts directory."""
    path = tmp_path / "artifacts"
    path.mkdir()
    return path
