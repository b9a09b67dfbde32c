"""Dominoes against opponent models, with the opponent's hand hidden: the rules as
the game API of ``lookup.opponents``, and a player's decision from what it has seen (no table needed; the
example runs as a doctest, tests/test_doctests.py):

    >>> from lookup.dominoes import decide, value
    >>> hand = ["3-6", "1-2", "3-5", "0-4", "2-2", "5-6", "1-1"]   # seat 1: the opponent opened with 6-6
    >>> decide(hand, "6-6", seat=1, player="realistic")
    '3-6L'
    >>> round(value(hand, "6-6", seat=1, player="realistic"), 3)   # expected result: +1 win, -1 loss
    -0.106
"""

from lookup.dominoes.game import GAME, Dominoes, Observation, State, deal
from lookup.dominoes.play import MAX_DEPTH, MODEL_NAMES, PLAYERS, View, decide, move_values, replay, value
from lookup.dominoes.rules import Rules, move_name, parse_move, parse_tile, tile_name
from lookup.dominoes.tables import Matchups, load_matchups

__all__ = ["GAME", "MAX_DEPTH", "MODEL_NAMES", "PLAYERS", "Dominoes", "Matchups", "Observation", "Rules", "State",
           "View", "deal", "decide", "load_matchups", "move_name", "move_values", "parse_move", "parse_tile", "replay",
           "tile_name", "value"]
