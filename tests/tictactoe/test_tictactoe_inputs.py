"""Tic-tac-toe's entry points on random legal play and bad input: decide and value at every turn of games against
every opponent model, from both seats, with every assumed model; the exact players of lookup.opponents through
the game API; and bad boards and models, each a ValueError with a message."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from lookup.opponents import MODELS, models_for
from lookup.tictactoe import GAME, decide, format_board, value
from lookup.tictactoe.rules import START
from tests.fuzz_inputs import HUGE, NAN, refusals
from tests.model_play import finite, play_models, sample

MODEL_NAMES = ("random", "first", "last", "greedy", "perfect")


def test_random_legal_play(built):
    rng = random.Random("conformance-tictactoe")
    assert {m.name for m in models_for(GAME)} == set(MODEL_NAMES)  # a new model must be built and played
    n = play_models(GAME, lambda _: START, rng, 8, ("perfect", "predictive", "realistic", "bayesian"))
    for assumed in (None, *MODEL_NAMES):  # the player's model (None: perfect play)
        for opponent in MODEL_NAMES:
            for seat in (0, 1):
                for _ in range(2):
                    state, moves = START, 0
                    while not GAME.is_terminal(state):
                        board = format_board(state)
                        if GAME.to_move(state) == seat:
                            move = decide(board, assumed, artifacts_dir=built)
                            v = value(board, assumed, artifacts_dir=built)
                            assert type(move) is int and move in GAME.legal_actions(state), (board, move)
                            assert finite(v) and -1 <= v <= 1
                            n += 2
                        else:
                            move = sample(rng, MODELS[opponent].distribution(GAME, state))
                        state = GAME.apply(state, move)
                        moves += 1
                        assert moves <= 9
                    result = value(format_board(state), assumed, artifacts_dir=built)
                    assert result == GAME.returns(state)[GAME.to_move(state)]
                    if assumed is None and opponent == "perfect":  # perfect against perfect: a draw
                        assert GAME.returns(state) == (0, 0)
                    n += 1
    assert n >= 20


def _bad() -> list[tuple[str, Callable[[Path | None], Any]]]:
    boards = (None, "", "X", "X" * 9, "XO.......A", "XO......", "OO.......", "XXXOOO...", "XXXOO....", "XXXOOO.XO",
              "x" * 10, (0,) * 8, (1, 1, 1, 2, 2, 2, 0, 0, 0), (3,) + (0,) * 8, [0] * 9, (0.0,) + (0,) * 8,
              (True,) + (0,) * 8, 5, NAN, HUGE, b"X........")
    bad: list[tuple[str, Callable[[Path | None], Any]]] = []
    for fn in (decide, value):
        for junk in boards:
            if fn is value and junk == "XXXOO....":
                continue  # a finished game: value answers its result
            bad.append((f"{fn.__name__} board={junk!r}", lambda a, j=junk, f=fn: f(j, artifacts_dir=a)))
        for junk in ("nosuch", "", "strong", 5, NAN, ["random"]):
            bad.append((f"{fn.__name__} model={junk!r}", lambda a, j=junk, f=fn: f("X........", j, artifacts_dir=a)))
    return bad


def test_bad_inputs_are_value_errors(built):
    failures = refusals((label, partial(call, built)) for label, call in _bad())
    assert not failures, "bad inputs not refused cleanly:\n" + "\n".join(failures)
