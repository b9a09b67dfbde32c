from pathlib import Path

import pytest

from tests import shared


@pytest.fixture(scope="session")
def poker_artifacts(tmp_path_factory) -> Path:
    """An artifacts directory with the evaluator tables, built once per run (~4 s; shared: only read)."""
    return shared.poker_evaluator(tmp_path_factory)


@pytest.fixture(scope="session")
def evaluator(poker_artifacts):
    from lookup.poker.tables import load_evaluator

    return load_evaluator(poker_artifacts)


@pytest.fixture(scope="session")
def preflop_artifacts(poker_artifacts, tmp_path_factory):
    """The evaluator and the preflop tables, the row against two random hands by Monte Carlo with the fewest
    deals (the heads-up part is always complete), shared: only read."""
    return shared.poker_preflop(tmp_path_factory)


@pytest.fixture(scope="session")
def numba_engine(poker_artifacts):
    """The numba engine over the shared evaluator tables (its kernels compiled or loaded once a run)."""
    from pipeline.poker.engine import NumbaEngine

    return NumbaEngine(poker_artifacts)


@pytest.fixture(scope="session")
def numpy_engine(evaluator):
    """lookup's numpy engine over the shared evaluator tables."""
    from lookup.poker.equity import NumpyEngine

    return NumpyEngine(evaluator)
