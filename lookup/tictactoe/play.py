"""Play-time answers, thin entry points over the protocol's advisor (``lookup.tictactoe.game``): the move to play
and the value of a board, perfect play or best response to one opponent model, for the player to move."""

from __future__ import annotations

from pathlib import Path

from lookup.opponents import MODELS
from lookup.tictactoe.game import PERFECT, TicTacToeAdvisor
from lookup.tictactoe.rules import GAME, Board, format_board, parse_board
from lookup.tictactoe.tables import load_tables
from lookup.validate import shown


def _advisor(board: str | Board, model: str | None,
             artifacts_dir: str | Path | None) -> tuple[TicTacToeAdvisor, Board, int]:
    """The advisor of the player to move on ``board`` (its seat ``you``), the board and that seat. ``model``
    None and "perfect" are the same play: best response to the perfect model is minimax play (game.py)."""
    state = parse_board(board)
    tables = load_tables(artifacts_dir=artifacts_dir)
    if model is not None and (type(model) is not str or model not in MODELS):
        raise ValueError(f"unknown opponent model {shown(model)}; known: {', '.join(tables.models)}")
    me = GAME.to_move(state)
    return TicTacToeAdvisor(tables, None if model in (None, PERFECT) else MODELS[model], me), state, me


def best_moves(board: str | Board, model: str | None = None, *,
               artifacts_dir: str | Path | None = None) -> list[int]:
    """Every move (cell 0..8) of highest value for the player to move on ``board``: minimax when
    ``model`` is None, else best response to ``model``. ValueError for an impossible or finished board, or
    an unknown model."""
    advisor, state, _ = _advisor(board, model, artifacts_dir)
    if GAME.is_terminal(state):
        raise ValueError(f"board {format_board(state)}: the game is over")
    return list(advisor.best_actions(state))


def decide(board: str | Board, model: str | None = None, *, artifacts_dir: str | Path | None = None) -> int:
    """The cell (0..8, row by row) to play on ``board``: the first of ``best_moves`` (exact ties go to the
    lowest cell)."""
    return best_moves(board, model, artifacts_dir=artifacts_dir)[0]


def value(board: str | Board, model: str | None = None, *, artifacts_dir: str | Path | None = None) -> float:
    """Expected return (win 1, draw 0, loss -1) of the player to move on ``board``: under perfect play
    by both (model None), or when it best responds to an opponent playing ``model``. A finished board
    gives its result for the player who would move."""
    advisor, state, me = _advisor(board, model, artifacts_dir)
    return advisor.value(state, me)
