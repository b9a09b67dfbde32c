import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("NUMBA_CACHE_DIR", str(ROOT / ".numba_cache"))


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The run's shared tables (tests/shared.py) are only read: fail the run if a test changed them."""
    factory = getattr(session.config, "_tmp_path_factory", None)
    if factory is None or os.environ.get("PYTEST_XDIST_WORKER"):
        return  # checked once, by the controller (or the only process), after every worker finished
    from tests.shared import changed_shared_builds

    changed = changed_shared_builds(factory)
    if changed:
        session.config.get_terminal_writer().line(f"shared tables changed by a test: {changed}", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture(scope="module")
def built_demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo artifact of test_store (float64 3-D, uint8 with a partial last chunk, int32) and its
    manifest, built once per module; tests damage copies of it (``demo``)."""
    from test_store import _arrays, _spec

    from pipeline.store import write_artifact, write_manifest

    root = tmp_path_factory.mktemp("chunked") / "artifacts"
    write_artifact(_spec(hdf5=False), _arrays(), root)
    write_manifest(root)
    return root


@pytest.fixture
def demo(built_demo: Path, tmp_path: Path) -> Path:
    """A private copy of the demo artifact (``.../artifacts/demo.zarr``) with its manifest."""
    import shutil

    root = tmp_path / "artifacts"
    shutil.copytree(built_demo, root)
    return root / "demo.zarr"


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
