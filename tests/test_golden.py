"""Each compiled engine and its plain reference reproduce the committed golden file tests/golden/<game>.json
exactly (every output is an integer: results, move logs, scores, enumeration counts). The files hold the
plain reference's outputs, written once by tests/golden/make_golden.py."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

GOLDEN = Path(__file__).resolve().parent / "golden"
_spec = importlib.util.spec_from_file_location("make_golden", GOLDEN / "make_golden.py")
G = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(G)  # the cases' runners: one definition for writing and checking


def _cases(game: str) -> list[dict]:
    data = json.loads((GOLDEN / f"{game}.json").read_text())
    assert data["game"] == game and data["cases"]
    return data["cases"]


@pytest.fixture(scope="module")
def poker_artifacts(tmp_path_factory) -> Path:
    from pipeline import registry

    root = tmp_path_factory.mktemp("golden-poker")
    (root / "params.yaml").write_text("poker:\n  preflop: {}\n")
    registry.build(["poker-evaluator"], params_path=root / "params.yaml", artifacts_dir=root / "artifacts")
    return root / "artifacts"


def test_every_golden_file_has_its_check():
    assert {p.stem for p in GOLDEN.glob("*.json")} == {"dominoes", "poker", "yahtzee_lab"}


@pytest.mark.parametrize("compiled", [False, True], ids=["plain", "numba"])
def test_dominoes_engine(compiled):
    if compiled:
        from pipeline.dominoes.kernels import engine
    else:
        from lookup.dominoes import engine
    for case in _cases("dominoes"):
        assert G.dominoes_game(engine, case["input"]) == case["output"], case["input"]


@pytest.mark.parametrize("compiled", [False, True], ids=["numpy", "numba"])
def test_poker_engine(compiled, poker_artifacts):
    engine = None
    if compiled:
        from pipeline.poker.engine import NumbaEngine

        engine = NumbaEngine(poker_artifacts)
    for case in _cases("poker"):
        assert G.poker_counts(case["input"], engine, poker_artifacts) == case["output"], case["input"]


@pytest.mark.parametrize("compiled", [False, True], ids=["python", "numba"])
def test_yahtzee_lab_engine(compiled):
    if compiled:
        from pipeline.yahtzee_lab.match import play_batch as play
    else:
        from pipeline.yahtzee_lab.pyengine import play_python as play
    for case in _cases("yahtzee_lab"):
        assert G.yahtzee_lab_games(case["input"], play) == case["output"], case["input"]
