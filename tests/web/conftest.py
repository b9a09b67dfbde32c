"""One small artifacts directory for the web app: hasbro Yahtzee, two dice-race games, 151 stated (shared: only
read; the hasbro tables are the run's one hasbro build, tests/shared.py)."""

from pathlib import Path

import pytest

from tests import shared


@pytest.fixture(scope="session")
def web_artifacts(tmp_path_factory) -> Path:
    return shared.shared_build(tmp_path_factory, shared.WEB,
                               ["yahtzee-hasbro", "dicerace-probabilities", "dicerace-strategies", "g151-stated"],
                               reuse=[shared.yahtzee(tmp_path_factory, "hasbro")])


@pytest.fixture(scope="session")
def client(web_artifacts):
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    return TestClient(create_app(web_artifacts))
