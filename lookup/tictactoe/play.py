"""Play-time answers by indexing the tables: the move to play and the value of a board, perfect play or
best response to one opponent model."""

from __future__ import annotations

from pathlib import Path

from lookup.opponents import MODELS
from lookup.tictactoe.rules import GAME, Board, board_code, format_board, parse_board
from lookup.tictactoe.tables import Tables, load_tables
from lookup.validate import shown

PERFECT = None  # model=None: perfect play (minimax), the opponent assumed perfect too


def _lookup(board: str | Board, model: str | None, artifacts_dir: str | Path | None) -> tuple[Tables, Board, int, int]:
    state = parse_board(board)
    tables = load_tables(artifacts_dir=artifacts_dir)
    if model is not None and (type(model) is not str or model not in MODELS):
        raise ValueError(f"unknown opponent model {shown(model)}; known: {', '.join(tables.models)}")
    k = -1 if model is None else tables.model_index(model)
    return tables, state, tables.row(board_code(state)), k


def best_moves(board: str | Board, model: str | None = PERFECT, *,
               artifacts_dir: str | Path | None = None) -> list[int]:
    """Every move (cell 0..8) of highest value for the player to move on ``board``: minimax when
    ``model`` is None, else best response to ``model``. ValueError for an impossible or finished board, or
    an unknown model."""
    tables, state, r, k = _lookup(board, model, artifacts_dir)
    if GAME.is_terminal(state):
        raise ValueError(f"board {format_board(state)}: the game is over")
    mask = int(tables.minimax_moves[r] if k < 0 else tables.best_moves[k, r])
    return [m for m in range(9) if mask >> m & 1]


def decide(board: str | Board, model: str | None = PERFECT, *, artifacts_dir: str | Path | None = None) -> int:
    """The cell (0..8, row by row) to play on ``board``: the first of ``best_moves`` (exact ties go to the
    lowest cell)."""
    return best_moves(board, model, artifacts_dir=artifacts_dir)[0]


def value(board: str | Board, model: str | None = PERFECT, *, artifacts_dir: str | Path | None = None) -> float:
    """Expected return (win 1, draw 0, loss -1) of the player to move on ``board``: under perfect play
    by both (model None), or when it best responds to an opponent playing ``model``. A finished board
    gives its result for the player who would move."""
    tables, _, r, k = _lookup(board, model, artifacts_dir)
    return float(tables.minimax[r]) if k < 0 else float(tables.best_response[k, r])
