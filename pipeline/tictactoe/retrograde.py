"""Exact retrograde analysis of every reachable tic-tac-toe position, in ``Fraction``s.

Not numba: the values are exact rationals (a best response to the random model is a fraction with
denominators up to 9!), and the whole job is 5,478 positions x 5 models (well under a second). The
positions are visited by number of marks, from full boards down to the empty one (retrograde), which is
a different method from the recursive search of ``lookup.opponents.Player``, so the tests compare them.
"""

from __future__ import annotations

from fractions import Fraction

from lookup.opponents import Model
from lookup.tictactoe.rules import EMPTY, GAME, START, Board, board_code


def reachable() -> list[Board]:
    """Every position reachable from the empty board (play stops at a win or a full board), sorted by
    base-3 code."""
    seen = {START}
    frontier = [START]
    while frontier:
        nxt = []
        for board in frontier:
            for move in GAME.legal_actions(board):
                child = GAME.apply(board, move)
                if child not in seen:
                    seen.add(child)
                    nxt.append(child)
        frontier = nxt
    return sorted(seen, key=board_code)


def _by_marks(boards: list[Board]) -> list[Board]:
    return sorted(boards, key=lambda b: -sum(c != EMPTY for c in b))


def solve_minimax(boards: list[Board]) -> dict[Board, int]:
    """Value (+1 / 0 / -1) of each board for the player to move, perfect play by both (retrograde)."""
    value: dict[Board, int] = {}
    for board in _by_marks(boards):
        if GAME.is_terminal(board):
            value[board] = GAME.returns(board)[GAME.to_move(board)]
        else:
            value[board] = max(-value[GAME.apply(board, m)] for m in GAME.legal_actions(board))
    return value


def solve_best_response(boards: list[Board], model: Model) -> tuple[dict[Board, Fraction], dict[Board, Fraction]]:
    """Against ``model`` (the opponent): ``respond[b]``, the exact expected return of the best response
    for the player to move at b (the responder); ``follow[b]``, the responder's exact expected return when
    the model is to move at b. Terminal boards: both are the returns of the player each names."""
    respond: dict[Board, Fraction] = {}
    follow: dict[Board, Fraction] = {}
    for board in _by_marks(boards):
        mover = GAME.to_move(board)
        if GAME.is_terminal(board):
            r = GAME.returns(board)
            respond[board], follow[board] = Fraction(r[mover]), Fraction(r[1 - mover])
            continue
        respond[board] = max(follow[GAME.apply(board, m)] for m in GAME.legal_actions(board))
        follow[board] = sum((p * respond[GAME.apply(board, m)] for m, p in model.distribution(GAME, board).items()),
                            Fraction(0))
    return respond, follow


def best_mask(board: Board, score: dict[Board, object], sign: int = 1) -> int:
    """Bit m set for every legal move m of highest ``sign * score[child]`` (exact comparison)."""
    moves = GAME.legal_actions(board)
    if not moves:
        return 0
    values = [sign * score[GAME.apply(board, m)] for m in moves]
    top = max(values)
    return sum(1 << m for m, v in zip(moves, values, strict=True) if v == top)
