"""One small artifacts directory for the web app: hasbro Yahtzee, two dice-race games, 151 stated."""

from pathlib import Path

import pytest

from pipeline import registry


@pytest.fixture(scope="session")
def web_artifacts(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("web") / "artifacts"
    params = root.parent / "params.yaml"
    params.write_text("dicerace:\n  max_dice: 5\n  grid: [[3, 20]]\nyahtzee:\n  rule_sets: [hasbro]\n"
                      "g151:\n  variants: [stated]\n  targets: [500]\n")
    registry.build(["yahtzee-hasbro", "dicerace-probabilities", "dicerace-strategies", "g151-stated"],
                   params_path=params, artifacts_dir=root)
    return root


@pytest.fixture(scope="session")
def client(web_artifacts):
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    return TestClient(create_app(web_artifacts))
