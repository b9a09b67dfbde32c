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


# Hypothesis: the public-API fuzz tests run at least 10,000 examples per API in CI (CI=true), a few
# hundred locally. Tests that set max_examples themselves keep their own count.
from hypothesis import HealthCheck, settings  # noqa: E402

settings.register_profile("ci", max_examples=10_000, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.register_profile("dev", max_examples=300, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "dev")
