"""Tic-tac-toe routes: a game against an opponent model, stateless (the page sends every move so far): the
model's replies and, for the player to move, every legal move's value against that model
(``lookup.tictactoe``'s best-response tables) and the advised move."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from fastapi import APIRouter, Depends

from lookup.opponents import get_model
from lookup.tictactoe import GAME, best_moves, format_board, load_tables, value
from lookup.tictactoe.rules import START, Board
from lookup.validate import seed as validate_seed
from webapp.common import StrictModel, artifacts_dir
from webapp.opponent import model_move

router = APIRouter(prefix="/api/tictactoe", tags=["tictactoe"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]
SIDES = "XO"


class Game(StrictModel):
    """moves: the cells played so far (0..8, row by row from the top left; X first); model: how the
    opponent plays (one of the built models, GET /models); you: the side the player plays; seed: the model's
    draws among moves it plays with equal probability."""

    moves: list[int]
    model: str
    you: Literal["X", "O"] = "X"
    seed: int = 0


def replay(moves: list[int]) -> Board:
    """The board after ``moves``; ValueError naming the first move the rules refuse."""
    if len(moves) > 9:
        raise ValueError(f"moves: a game has at most 9 moves, got {len(moves)}")
    state = START
    for i, m in enumerate(moves):
        if GAME.is_terminal(state):
            raise ValueError(f"move {i + 1} (cell {m}): the game is already over")
        if not 0 <= m <= 8 or state[m]:
            raise ValueError(f"move {i + 1}: cell {m} is not an empty cell 0..8 of {format_board(state)}")
        state = GAME.apply(state, m)
    return state


def move_values(state: Board, model: str, root: Path) -> dict[int, float]:
    """{cell: expected return (win +1, draw 0, loss -1) of the player to move at ``state`` after playing
    there}, when it then best responds to an opponent playing ``model``: the model's reply distribution
    over the tables' values of the positions after it (the same player to move again)."""
    me = GAME.to_move(state)
    out = {}
    for m in GAME.legal_actions(state):
        child = GAME.apply(state, m)
        if GAME.is_terminal(child):
            out[m] = float(GAME.returns(child)[me])
            continue
        dist = get_model(model).distribution(GAME, child)
        out[m] = float(sum(p * value(GAME.apply(child, a), model, artifacts_dir=root) for a, p in dist.items()))
    return out


def square(cell: int) -> dict[str, int]:
    """A cell as a player names it: square 1..9 row by row from the top left, row and column 1..3."""
    return {"cell": cell, "square": cell + 1, "row": cell // 3 + 1, "column": cell % 3 + 1}


@router.get("/models")
def models_route(root: Artifacts) -> dict[str, list[str]]:
    """The opponent models whose best-response tables are built."""
    return {"models": list(load_tables(artifacts_dir=root).models)}


@router.post("/play")
def play_route(q: Game, root: Artifacts) -> dict[str, object]:
    """The game after ``moves`` and the model's replies (played while it is the model's turn): the board,
    every move with its side (X moves first), whose turn, the result when over; on the player's turn every
    legal move's value for the player (+1 win, 0 draw, -1 loss, expected, against the model) and the advised
    moves (``lookup.tictactoe``)."""
    models = load_tables(artifacts_dir=root).models
    if q.model not in models:
        raise ValueError(f"unknown opponent model {q.model!r}; built here: {', '.join(models)}")
    seed = validate_seed(q.seed)
    state = replay(q.moves)
    moves = list(q.moves)
    replies = []
    while not GAME.is_terminal(state) and SIDES[GAME.to_move(state)] != q.you:
        m = model_move(GAME, state, q.model, seed, len(moves))
        replies.append(m)
        moves.append(m)
        state = GAME.apply(state, m)
    out: dict[str, object] = {"moves": moves, "replies": [square(m) for m in replies], "board": format_board(state),
                              "log": [{"side": SIDES[i % 2], **square(m)} for i, m in enumerate(moves)],
                              "over": GAME.is_terminal(state), "you": q.you, "model": q.model}
    if GAME.is_terminal(state):
        r = GAME.returns(state)[SIDES.index(q.you)]
        out["result"] = "win" if r > 0 else "loss" if r < 0 else "draw"
        return out
    values = move_values(state, q.model, root)
    best = best_moves(state, q.model, artifacts_dir=root)
    out["to_move"] = SIDES[GAME.to_move(state)]
    out["value"] = value(state, q.model, artifacts_dir=root)
    out["options"] = [{**square(m), "value": v, "best": m in best} for m, v in values.items()]
    out["advice"] = square(best[0])
    return out
