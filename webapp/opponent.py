"""The opponent's move in a game played on the page (tic-tac-toe, dominoes): a seeded draw from an opponent
model's distribution (``lookup.opponents``), so that the server keeps no game: the page sends the moves so far
and the same seed, and every reply is drawn again the same way."""

from __future__ import annotations

import random

from lookup.opponents import Game, Move, State, get_model


def model_move(game: Game, state: State, model: str, seed: int, ply: int) -> Move:
    """The move ``model`` plays at ``state`` (the ``ply``-th move of the game): a draw from its distribution
    over the legal moves (in the game's documented order), the same for the same seed and ply."""
    dist = get_model(model).distribution(game, state)
    moves = [m for m in game.legal_actions(state) if m in dist]
    rng = random.Random(seed * 64 + ply)
    return rng.choices(moves, weights=[float(dist[m]) for m in moves])[0]
