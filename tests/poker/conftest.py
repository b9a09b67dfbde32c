from pathlib import Path

import pytest

from pipeline import registry


@pytest.fixture(scope="session")
def poker_artifacts(tmp_path_factory) -> Path:
    """An artifacts directory with the evaluator tables, built once per session."""
    root = tmp_path_factory.mktemp("poker") / "artifacts"
    params = root.parent / "params.yaml"
    params.write_text("poker:\n  preflop: {}\n")
    registry.build(["poker-evaluator"], params_path=params, artifacts_dir=root, manifest=True)
    return root


@pytest.fixture(scope="session")
def evaluator(poker_artifacts):
    from lookup.poker.tables import load_evaluator

    return load_evaluator(poker_artifacts)


@pytest.fixture(scope="session")
def preflop_artifacts(poker_artifacts):
    """The preflop tables, the row against two random hands by Monte Carlo with the fewest deals (the
    heads-up part is always complete: the costly part)."""
    params = poker_artifacts.parent / "params-preflop.yaml"
    params.write_text("poker:\n  preflop:\n    max_opponents: 2\n    exact_opponents: 1\n    multiway_deals: 2\n"
                      "    seed: 5\n")
    registry.build(["poker-preflop"], params_path=params, artifacts_dir=poker_artifacts, manifest=True)
    return poker_artifacts
