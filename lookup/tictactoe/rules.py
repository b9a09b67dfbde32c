"""Rules of tic-tac-toe (stated in docs/tictactoe.md, "Rules"), as a game of the protocol (``lookup.protocol``),
which the opponent models and players of ``lookup.opponents`` read.

3x3 board, cells numbered 0..8 row by row; X (player 0) moves first, O (player 1) second; three in a row
wins; a full board without a line is a draw. A state is a tuple of 9 cells (0 empty, 1 X, 2 O); legal
moves are the empty cells in increasing order (the order the "first" and "last" models read). Written
boards: 9 characters from ``X``, ``O``, ``.``, row by row (``X.O......``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from lookup.naming import by_name
from lookup.protocol import JSON, Game, Unit

EMPTY, X, O = 0, 1, 2  # noqa: E741 (the game names its marks X and O)
SYMBOLS = ".XO"
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
CENTER = 4
Board = tuple[int, ...]
START: Board = (EMPTY,) * 9
# The seed's evaluation (the `greedy` model of docs/tictactoe.md), for the mover: a won line +10 (lost
# -10); per line without the other side's marks, two marks +3 and one +1; the same negated for the other
# side; the center +2.
WIN_SCORE, TWO_SCORE, ONE_SCORE, CENTER_SCORE = 10, 3, 1, 2


@dataclass(frozen=True)
class Rules:
    """Tic-tac-toe's one rule set (the constants above): a name and ``to_dict()`` for the artifacts."""

    name: str = "standard"

    def to_dict(self) -> dict[str, Any]:
        return {"size": 3, "first": "X", "lines": [list(line) for line in LINES]}


RULE_SETS: dict[str, Rules] = {"standard": Rules()}
DEFAULT_RULES = "standard"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules passes through); ValueError for an unknown one."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "tic-tac-toe rule set")


def winner(board: Board) -> int:
    """X or O when that side has a line, else EMPTY (assumes at most one side has one)."""
    for a, b, c in LINES:
        if board[a] != EMPTY and board[a] == board[b] == board[c]:
            return board[a]
    return EMPTY


def parse_board(text: str | Board) -> Board:
    """A board from its 9-character text (or a 9-tuple of 0/1/2); ValueError naming what is impossible:
    a bad character or length, wrong counts (X moves first: #X is #O or #O + 1), two winners, or a line
    that cannot have been completed with those counts."""
    if isinstance(text, str):
        if len(text) != 9 or any(ch not in "XO." for ch in text.upper()):
            raise ValueError(f"board {text!r}: expected 9 characters from X, O and '.' (row by row)")
        board = tuple(SYMBOLS.index(ch) for ch in text.upper())
    elif isinstance(text, tuple) and len(text) == 9 and all(type(c) is int and c in (0, 1, 2) for c in text):
        board = text
    else:
        raise ValueError(f"board {text!r}: expected a 9-character string or a 9-tuple of 0, 1, 2")
    xs, os = board.count(X), board.count(O)
    shown = format_board(board)
    if xs not in (os, os + 1):
        raise ValueError(f"impossible board {shown}: {xs} X and {os} O (X moves first: #X must be #O or #O + 1)")
    wins = {board[a] for a, b, c in LINES if board[a] != EMPTY and board[a] == board[b] == board[c]}
    if len(wins) == 2:
        raise ValueError(f"impossible board {shown}: both X and O have three in a row")
    if X in wins and xs != os + 1:
        raise ValueError(f"impossible board {shown}: X has a line but O moved after it")
    if O in wins and xs != os:
        raise ValueError(f"impossible board {shown}: O has a line but X moved after it")
    return board


def board_code(board: Board) -> int:
    """The base-3 code of a board: sum of cell * 3**index (cells 0 empty, 1 X, 2 O); the tables' key."""
    return sum(c * 3**i for i, c in enumerate(board))


def format_board(board: Board) -> str:
    return "".join(SYMBOLS[c] for c in board)


# What values and returns mean; the tables' best-response values are exact fractions rounded once to float64,
# and an expectation over a model's moves adds a few of them: ties are judged within 1e-12.
UNIT = Unit("result", "the expected result for the player: +1 a win, 0 a draw, -1 a loss", tie=1e-12)


class TicTacToe(Game):
    """Tic-tac-toe as a game of the protocol, without chance nodes: states are boards (``Board``), actions
    cells 0..8; the JSON of a board is its 9-character text."""

    name = "tictactoe"
    seats = 2
    unit = UNIT

    def initial_state(self) -> Board:
        return START

    def to_move(self, state: Board) -> int:
        """0 (X) when the counts are equal, else 1 (O)."""
        return 0 if state.count(X) == state.count(O) else 1

    def legal_actions(self, state: Board) -> tuple[int, ...]:
        """The empty cells in increasing order (none once the game is over)."""
        return () if self.is_terminal(state) else tuple(i for i, c in enumerate(state) if c == EMPTY)

    def apply(self, state: Board, move: int) -> Board:
        if type(move) is not int and not (hasattr(move, "dtype") and move.dtype.kind in "iu"):
            raise ValueError(f"move {move!r}: expected a cell number 0..8")
        if not 0 <= move <= 8 or state[move] != EMPTY or self.is_terminal(state):
            raise ValueError(f"move {move!r} is not legal on {format_board(state)}")
        return state[:move] + (X if self.to_move(state) == 0 else O,) + state[move + 1:]

    def is_terminal(self, state: Board) -> bool:
        return winner(state) != EMPTY or EMPTY not in state

    def returns(self, state: Board) -> tuple[int, int]:
        """(+1, -1) when X has a line, (-1, +1) when O has, (0, 0) otherwise."""
        w = winner(state)
        return (1, -1) if w == X else (-1, 1) if w == O else (0, 0)

    def observation(self, state: Board, player: int) -> Board:
        """Complete information: both players see the board."""
        return state

    def action_text(self, state: Board, action: int) -> str:
        return f"{SYMBOLS[X if self.to_move(state) == 0 else O]} in cell {action} (row {action // 3 + 1}, " \
               f"column {action % 3 + 1})"

    def state_text(self, state: Board) -> str:
        rows = "/".join(format_board(state)[i:i + 3] for i in (0, 3, 6))
        if not self.is_terminal(state):
            return f"{rows}, {SYMBOLS[X if self.to_move(state) == 0 else O]} to move"
        w = winner(state)
        return f"{rows}, {SYMBOLS[w]} has won" if w != EMPTY else f"{rows}, a draw"

    def state_json(self, state: Board) -> str:
        return format_board(state)

    def parse_state(self, data: JSON) -> Board:
        """A board from its text (``parse_board``); ValueError for anything else or an impossible board."""
        if not isinstance(data, str):
            raise ValueError(f"a tic-tac-toe position is a 9-character board such as 'X.O......', "
                             f"got {type(data).__name__}")
        return parse_board(data)

    def heuristic(self, state: Board, player: int) -> int:
        """The seed's evaluation of ``state`` for ``player`` (see WIN_SCORE ...)."""
        mine, theirs = (X, O) if player == 0 else (O, X)
        w = winner(state)
        if w != EMPTY:
            return WIN_SCORE if w == mine else -WIN_SCORE
        score = CENTER_SCORE if state[CENTER] == mine else 0
        for line in LINES:
            cells = [state[i] for i in line]
            m, t = cells.count(mine), cells.count(theirs)
            if t == 0 and m:
                score += TWO_SCORE if m == 2 else ONE_SCORE
            elif m == 0 and t:
                score -= TWO_SCORE if t == 2 else ONE_SCORE
        return score

    def minimax(self, state: Board) -> int:
        """Value (+1, 0, -1) for the player to move at ``state`` under perfect play by both."""
        return _minimax(state)


@cache
def _minimax(state: Board) -> int:
    game = GAME
    if game.is_terminal(state):
        return game.returns(state)[game.to_move(state)]
    return max(-_minimax(game.apply(state, m)) for m in game.legal_actions(state))


GAME = TicTacToe()
