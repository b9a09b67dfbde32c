"""Tic-tac-toe through the protocol: the advisor's action values, best actions and values equal the exact players
of lookup.opponents (Fractions, an independent recomputation: minimax and best response by search), and the
answers today's decide / value / best_moves gave (the tables' rows, read directly), on random reachable boards."""

from __future__ import annotations

import random

import pytest

from lookup.games import get_spec, open_setup
from lookup.opponents import MODELS, Player
from lookup.tictactoe import best_moves, decide, value
from lookup.tictactoe.rules import GAME, START, board_code, format_board
from lookup.tictactoe.tables import load_tables

BUILT = ("random", "first", "last", "greedy", "perfect")  # the small tables' models (pipeline/tictactoe/game.py)


def _boards(seed: int, count: int) -> list[tuple[int, ...]]:
    """Random reachable positions that are not over (random play from the start)."""
    rng, out = random.Random(seed), []
    while len(out) < count:
        state = START
        for _ in range(rng.randrange(9)):
            if GAME.is_terminal(state):
                break
            state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
        if not GAME.is_terminal(state):
            out.append(state)
    return out


def test_setups_are_every_built_model_at_both_seats(built):
    found = get_spec("tictactoe").setups(built)
    assert sorted((s["model"], s["you"]) for s in found) == sorted((m, y) for m in BUILT for y in (0, 1))
    assert found[0] == {"model": "perfect", "you": 0}


def test_perfect_play_is_minimax_by_search(built):
    advisor = open_setup("tictactoe", {"model": "perfect"}, built)
    for state in _boards(1, 60):
        me = GAME.to_move(state)
        exact = dict(Player("perfect", GAME, me).move_values(state, None))
        assert advisor.action_values(state) == {m: float(v) for m, v in exact.items()}
        top = max(exact.values())
        assert advisor.best_actions(state) == tuple(m for m, v in exact.items() if v == top)
        assert advisor.value(state, me) == top and advisor.value(state, 1 - me) == -top
        board = format_board(state)
        assert decide(board, artifacts_dir=built) == advisor.decide(state) == advisor.best_actions(state)[0]
        assert value(board, artifacts_dir=built) == top


@pytest.mark.parametrize("model", [m for m in BUILT if m != "perfect"])
def test_best_response_equals_the_exact_predictive_player(built, model):
    """At ``you``'s turn: the exact best-response value of every move; at the model's turn: the model's
    distribution as the policy, and ``you``'s value the model's expectation (both against Player("predictive"),
    which searches the game with the model as the other seat, in exact fractions)."""
    for you in (0, 1):
        advisor = open_setup("tictactoe", {"model": model, "you": you}, built)
        player = Player("predictive", GAME, you, [MODELS[model]])
        for state in _boards(10 + you, 60):
            exact_value = player.value(state, 0)
            assert advisor.value(state, you) == pytest.approx(float(exact_value), abs=1e-12)
            assert advisor.value(state, 1 - you) == pytest.approx(-float(exact_value), abs=1e-12)
            if GAME.to_move(state) != you:
                assert advisor.policy(state) == {m: float(p) for m, p in
                                                 MODELS[model].distribution(GAME, state).items()}
                continue
            exact = dict(player.move_values(state, 0))
            got = advisor.action_values(state)
            assert list(got) == list(exact)
            assert all(got[m] == pytest.approx(float(v), abs=1e-12) for m, v in exact.items())
            top = max(exact.values())
            assert advisor.best_actions(state) == tuple(m for m, v in exact.items() if v == top)


def test_entry_points_answer_what_the_tables_hold(built):
    """decide, best_moves and value (now thin entry points over the advisor) give what they gave before: the
    tables' rows read directly (masks of best moves, minimax and best-response values)."""
    tables = load_tables(artifacts_dir=built)
    for state in _boards(3, 80):
        r, board = tables.row(board_code(state)), format_board(state)
        for model in (None, *BUILT):
            mask = int(tables.minimax_moves[r] if model is None else tables.best_moves[tables.model_index(model), r])
            cells = [m for m in range(9) if mask >> m & 1]
            assert best_moves(board, model, artifacts_dir=built) == cells
            assert decide(board, model, artifacts_dir=built) == cells[0]
            stored = tables.minimax[r] if model is None else tables.best_response[tables.model_index(model), r]
            assert value(board, model, artifacts_dir=built) == float(stored)


def test_best_response_to_the_perfect_model_is_minimax(built):
    """Why the setup "perfect" stands for both: the tables' best response to the perfect model is minimax play,
    value for value and mask for mask, at every position."""
    tables = load_tables(artifacts_dir=built)
    k = tables.model_index("perfect")
    assert (tables.best_response[k] == tables.minimax).all()
    assert (tables.best_moves[k] == tables.minimax_moves).all()


def test_the_unit_and_the_positions(built):
    advisor = open_setup("tictactoe", {"model": "random", "you": 1}, built)
    assert advisor.unit.name == "result" and GAME.name == "tictactoe" and GAME.seats == 2
    assert GAME.state_json(START) == "........." and GAME.parse_state("X.O......") == (1, 0, 2) + (0,) * 6
    assert not GAME.has_chance  # and every game with a chance node says it has chance (tests/test_protocol.py)
    assert GAME.state_text(GAME.parse_state("XXXOO....")) == "XXX/OO./..., X has won"
    assert GAME.action_text(START, 4) == "X in cell 4 (row 2, column 2)"
    assert advisor.value(GAME.parse_state("XXXOO...."), 1) == -1.0
    for junk in (None, 5, [0] * 9, "XXXOOO...", "x" * 30):
        with pytest.raises(ValueError, match=r"\S"):
            GAME.parse_state(junk)
