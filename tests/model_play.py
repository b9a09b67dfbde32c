"""Random legal play of a two-seat game through the opponent models and exact players of ``lookup.opponents``
(tic-tac-toe's and dominoes' input tests), and ``finite`` for answers in range."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any


def finite(x: Any) -> bool:
    return type(x) is float and math.isfinite(x)


def sample(rng: random.Random, dist: dict) -> Any:
    moves = list(dist)
    return rng.choices(moves, [float(p) for p in dist.values()])[0]


def play_models(game: Any, start: Callable[[int], Any], rng: random.Random, games: int,
                players: tuple[str, ...] = ()) -> int:
    """``games`` games from ``start(g)`` through the game API alone: every model of ``models_for(game)``
    gives a distribution over legal moves summing to 1, observations are hashable, every move played is
    legal, the game ends with returns (1, -1), (0, 0) or (-1, 1). With ``players``, game g has the exact
    player ``players[g % len]`` of lookup.opponents in seat g % 2 (against every model), its beliefs
    updated on every move; the other seat plays a random model. Returns the answers checked."""
    from lookup.opponents import Player, models_for

    models, n = models_for(game), 0
    for g in range(games):
        state, seat = start(g), g % 2
        player = None
        if players:
            kind = players[g % len(players)]
            assumed = () if kind == "perfect" else models[:1] if kind == "predictive" else models
            player = Player(kind, game, seat, assumed)
            belief = player.initial_belief(state) if player.hidden else player.initial_belief()
        opponent = rng.choice(models)
        for _ in range(1000):
            if game.is_terminal(state):
                break
            legal = game.legal_actions(state)
            assert legal and len(set(legal)) == len(legal)
            hash(game.observation(state, 0)), hash(game.observation(state, 1))
            for model in models:
                dist = model.distribution(game, state)
                assert set(dist) <= set(legal) and sum(dist.values()) == 1 and min(dist.values()) > Fraction(0)
                n += 1
            if player is not None and game.to_move(state) == seat:
                move = player.choose(state, belief)
                n += 1
            else:
                move = sample(rng, opponent.distribution(game, state) if player else {m: 1 for m in legal})
            assert move in legal
            if player is not None:
                belief = player.observe(belief, state, move)
            state = game.apply(state, move)
        else:
            raise AssertionError(f"{game.name}: a game did not end in 1000 moves")
        assert game.returns(state) in ((1, -1), (0, 0), (-1, 1))
        n += 1
    return n
