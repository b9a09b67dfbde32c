"""One artifacts directory for the web app, every game in it (shared: only read): hasbro Yahtzee, two dice-race
games, 151 stated (one build, reusing the run's hasbro tables), and copies of the run's shared builds of
scandinavian+forced Yahtzee with its play-to-win tables, the small poker preflop tables, tic-tac-toe and
dominoes (tests/shared.py)."""

from pathlib import Path

import pytest

from tests import shared


@pytest.fixture(scope="session")
def web_artifacts(tmp_path_factory) -> Path:
    base = shared.shared_build(tmp_path_factory, shared.WEB,
                               ["yahtzee-hasbro", "dicerace-probabilities", "dicerace-strategies", "g151-stated"],
                               reuse=[shared.yahtzee(tmp_path_factory, "hasbro")])
    return shared.union(tmp_path_factory, "web", base,
                        shared.yahtzee(tmp_path_factory, "scandinavian+forced"),
                        shared.shared_build(tmp_path_factory, shared.TOWIN, ["yahtzee-towin-scandinavian-forced"]),
                        shared.poker_preflop(tmp_path_factory), shared.tictactoe(tmp_path_factory),
                        shared.dominoes(tmp_path_factory))


@pytest.fixture(scope="session")
def client(web_artifacts):
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    return TestClient(create_app(web_artifacts))
