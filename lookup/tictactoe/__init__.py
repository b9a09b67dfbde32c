"""Tic-tac-toe: perfect play and best response to an opponent model, by indexing
the exact tables of every reachable position.

    from lookup.tictactoe import decide, value
    decide("X.O......", model="random")      # cell 0..8 (row by row) for the player to move
"""

from lookup.tictactoe.play import best_moves, decide, value
from lookup.tictactoe.rules import GAME, TicTacToe, format_board, parse_board
from lookup.tictactoe.tables import Tables, load_tables

__all__ = ["GAME", "Tables", "TicTacToe", "best_moves", "decide", "format_board", "load_tables", "parse_board",
           "value"]
