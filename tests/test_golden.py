"""Each compiled engine and its plain reference reproduce the committed golden file tests/golden/<game>.json
exactly (results, move logs, scores, enumeration counts, exact fractions; the compiled dominoes engine's
floating-point values within 1e-9). The files hold the plain reference's outputs, written once by
tests/golden/make_golden.py. (The web client holds no game logic, so no JavaScript test reads them.)"""

from __future__ import annotations

import importlib.util
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
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
    """The evaluator tables the engines read: the run's shared build (tests/shared.py), not one of this module's own."""
    from tests import shared

    return shared.poker_evaluator(tmp_path_factory)


def test_every_golden_file_has_its_check():
    assert {p.stem for p in GOLDEN.glob("*.json")} == {"dominoes", "poker", "yahtzee_lab"}


def _dominoes(kind: str) -> list[dict]:
    return [c for c in _cases("dominoes") if c["kind"] == kind]


def _dominoes_engine(compiled: bool):
    if compiled:
        from pipeline.dominoes.kernels import engine
    else:
        from lookup.dominoes import engine
    return engine


@pytest.mark.parametrize("compiled", [False, True], ids=["plain", "numba"])
def test_dominoes_engine_games(compiled):
    engine = _dominoes_engine(compiled)
    for case in _dominoes("game"):
        assert G.dominoes_game(engine, case["input"]) == case["output"], case["input"]


def test_dominoes_plain_reference():
    """The game API and the models and exact players of lookup.opponents (which wrote the file) still
    give every position's and decision's output."""
    positions, decisions = _dominoes("position"), _dominoes("decision")
    assert len(positions) >= 10 and {c["input"]["player"] for c in decisions} == {"predictive", "realistic",
                                                                                   "bayesian"}
    for case in positions:
        assert G.dominoes_position(case["input"]) == case["output"], case["input"]
    for case in decisions:
        assert G.dominoes_decision(case["input"], case["output"]["history"]) == case["output"], case["input"]


@pytest.mark.parametrize("compiled", [False, True], ids=["plain", "numba"])
def test_dominoes_engine_positions_and_decisions(compiled):
    """The engine's rules (legal moves, placing and passing, results), its models (``model_probs``) and its
    players (``move_values``, searching to the end with every hand listed) give the golden outputs."""
    E = _dominoes_engine(compiled)
    moves, probs = np.empty(E.MAX_MOVES, np.int64), np.empty(E.MAX_MOVES)
    for case in _dominoes("position"):
        out = case["output"]
        h0, h1, bone, left, right, to_move, passes, drawn = out["position"]
        hand, unseen = (h0, h1)[to_move], (h1, h0)[to_move] | sum(1 << t for t in bone)
        n = E.legal_into(hand, left, right, drawn, len(bone), moves)
        assert [int(m) for m in moves[:n]] == out["legal"], case["input"]
        for name, dist in out["models"].items():
            E.model_probs(E.MODEL_CODES[name], moves, n, hand, unseen, left, right, probs)
            want = [float(Fraction(dist.get(str(m), "0"))) for m in out["legal"]]
            assert list(probs[:n]) == pytest.approx(want, rel=0, abs=1e-12), (case["input"], name)
        for move, after in zip(out["legal"], out["after"], strict=True):
            if move == E.DRAW:  # the engine draws inside play_game (the "game" cases): only the tile moves
                assert after[:2] == [h0 | (1 << bone[0]) if to_move == 0 else h0,
                                     h1 | (1 << bone[0]) if to_move == 1 else h1] and after[6] == bone[0]
                continue
            got = [int(x) for x in E.step(h0, h1, left, right, to_move, passes, move)]
            r = E.result(0, got[0], got[1], got[5])
            assert [*got, -1, len(bone), None if r == 2.0 else int(r)] == after, (case["input"], move)
    for case in _dominoes("decision"):
        out = case["output"]
        got_moves, got_values = G.dominoes_engine_decision(E, case["input"], out["history"])
        exact = [Fraction(v) for v in out["values"]]
        assert got_moves == out["moves"], case["input"]
        assert got_values == pytest.approx([float(v) for v in exact], rel=0, abs=1e-9), case["input"]
        top = sorted(exact, reverse=True)
        if len(top) < 2 or top[0] - top[1] > 1e-9:  # (an exact tie may round either way)
            assert got_moves[int(np.argmax(got_values))] == out["choice"], case["input"]


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
