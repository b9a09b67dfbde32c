from pathlib import Path

import pytest

from pipeline import stages


@pytest.fixture(scope="session")
def poker_artifacts(tmp_path_factory) -> Path:
    """An artifacts directory with the evaluator tables, built once per session (~4 s)."""
    root = tmp_path_factory.mktemp("poker") / "artifacts"
    params = root.parent / "params.yaml"
    params.write_text("poker:\n  preflop: {}\n")
    stages.build(["poker-evaluator"], params_path=params, artifacts_dir=root, manifest=False)
    return root


@pytest.fixture(scope="session")
def evaluator(poker_artifacts):
    from lookup.poker.tables import load_evaluator

    return load_evaluator(poker_artifacts)
