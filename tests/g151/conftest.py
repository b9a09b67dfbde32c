from pathlib import Path

import pytest

from pipeline import registry


@pytest.fixture(scope="session")
def g151_tables(tmp_path_factory) -> Path:
    """An artifacts directory with the stated and notebook tables for targets 300 and 1000, built once."""
    root = tmp_path_factory.mktemp("g151") / "artifacts"
    params = root.parent / "params.yaml"
    params.write_text("g151:\n  variants: [stated, notebook]\n  targets: [300, 1000]\n")
    registry.build(["g151-stated", "g151-notebook"], params_path=params, artifacts_dir=root)
    return root
