"""Seeded play and simulation for every game, through the protocol: who plays each seat (the tables, an
opponent model, a uniform random player), chance drawn exactly from ``chance_outcomes``.

A game is one seeded ``random.Random``: game g of a simulation with seed s draws from ``Random(f"{s}:{g}")``,
so a game can be replayed alone, and two simulations that differ only in the players see the same dice in the
same order as long as they ask for them in the same order (common random numbers). With two seats, ``swap``
plays every game a second time with the seats exchanged on the same seed, which cancels the first player's
advantage from the difference of two strategies (the variance reduction of ``simulate``).

This is the plain-Python simulation every game gets; a game whose engine is compiled (the Yahtzee lab, the dice
race, 151, dominoes) has its own fast one in ``pipeline``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from lookup.naming import by_name
from lookup.opponents import MODELS
from lookup.protocol import CHANCE, Action, Advisor, Game, State
from lookup.records import MAX_EVENTS, Step
from lookup.validate import integer
from lookup.words import counted

Player = Callable[[State, random.Random], Action]  # the action a seat plays at ``state`` (its turn)


def draw(distribution: dict[Action, float | Fraction] | Sequence[tuple[Action, float | Fraction]],
         rng: random.Random) -> Action:
    """One draw from a distribution ({action: probability} or (action, probability) pairs), by one uniform."""
    items = list(distribution.items()) if isinstance(distribution, dict) else list(distribution)
    u, acc = rng.random(), 0.0
    for action, p in items:
        acc += float(p)
        if u < acc:
            return action
    return items[-1][0]  # rounding: the last outcome of positive probability


def table_player(advisor: Advisor) -> Player:
    """Plays the tables' strategy (a draw from it when it is mixed)."""
    return lambda state, rng: draw(advisor.policy(state), rng)


def model_player(game: Game, name: str) -> Player:
    """Plays an opponent model of ``lookup.opponents`` (random, first, last, ...) that applies to ``game``."""
    model = by_name(MODELS, name, "opponent model")
    if not model.applies_to(game):
        raise ValueError(f"opponent model {name!r} does not apply to {game.name} (it has no {model.needs!r})")
    return lambda state, rng: draw(model.distribution(game, state), rng)


PLAYERS = ("table", *MODELS)


def player(advisor: Advisor, name: str) -> Player:
    """The player called ``name``: "table" (the tables' play) or an opponent model's name. ValueError for "table"
    where the tables do not play the other seats (``Advisor.plays_others``: a game seen from one seat, whose other
    seats' moves are entered)."""
    if name == "table" and not advisor.plays_others:
        raise ValueError(f"the tables do not play the other seats of this {advisor.game.name} setup: their moves are "
                         "entered as seen at the table (opponent none), or played by an opponent model")
    return table_player(advisor) if name == "table" else model_player(advisor.game, name)


def play(game: Game, players: Sequence[Player], rng: random.Random, start: State | None = None,
         chance: Callable[[State, random.Random], Action] | None = None) -> tuple[list[Step], State]:
    """One game from ``start`` (default: the initial state) to its end: ``players[seat]`` acts for each seat,
    chance draws from the exact outcomes (or ``chance(state, rng)``, e.g. dice typed in at a table)."""
    state = game.initial_state() if start is None else start
    steps: list[Step] = []
    while not game.is_terminal(state):
        if len(steps) >= MAX_EVENTS:
            raise ValueError(f"{game.name}: no end after {MAX_EVENTS} events")
        mover = game.to_move(state)
        if mover == CHANCE:
            action = chance(state, rng) if chance else draw(game.chance_outcomes(state), rng)
        else:
            action = players[mover](state, rng)
        after = game.apply(state, action)
        steps.append(Step(len(steps) + 1, state, mover, action, after))
        state = after
    return steps, state


@dataclass(frozen=True)
class Simulation:
    """``games`` seeded games: each seat's mean return (in the game's unit), its standard error and 95 %
    interval half-width; with ``swap``, every seed was played twice, seats exchanged (``games`` counts both)."""

    games: int
    seed: int
    players: tuple[str, ...]
    mean: tuple[float, ...]
    se: tuple[float, ...]
    swapped: bool

    @property
    def half_width(self) -> tuple[float, ...]:
        return tuple(1.959963984540054 * s for s in self.se)

    def as_dict(self) -> dict[str, object]:
        return {"games": self.games, "seed": self.seed, "players": list(self.players), "mean": list(self.mean),
                "se": list(self.se), "half_width_95": list(self.half_width), "swapped": self.swapped}


def simulate(advisor: Advisor, names: Sequence[str], games: int = 1000, seed: int = 0,
             swap: bool = False, budget: float | None = None) -> Simulation:
    """``games`` games of ``names[seat]`` (see ``player``) at each seat; with ``swap`` (two seats) each seed is
    also played with the two players exchanged, and each player's return is counted as the player's, whichever
    seat it sat in. The means are per player (``names`` order). ``budget``: seconds of play allowed (a
    ``ValueError`` once they are spent, naming how many games fit: a game costs microseconds in one game and
    seconds in another, so a count alone cannot bound a request)."""
    game = advisor.game
    games = integer(games, "games", 1, 10**7)
    seed = integer(seed, "seed", 0, 2**63 - 1)
    if len(names) != game.seats:
        raise ValueError(f"{game.name} has {counted(game.seats, 'seat')}: give {counted(game.seats, 'player')}, got "
                         f"{len(names)}")
    if swap and game.seats != 2:
        raise ValueError("swap exchanges the two seats of a two-player game")
    chosen = [player(advisor, n) for n in names]
    totals = [[0.0, 0.0] for _ in names]  # per player: sum and sum of squares of its result per seed
    began = time.perf_counter()
    for g in range(games):
        spent = time.perf_counter() - began
        if budget is not None and spent > budget:
            raise ValueError(f"games={games}: {counted(g, 'game')} took {spent:.1f} s, over the {budget:g} s one "
                             f"run may take here; ask for at most about {max(1, int(g * budget / spent))} games")
        orders = [(0, 1), (1, 0)] if swap else [tuple(range(game.seats))]
        results = [0.0] * len(names)
        for order in orders:  # order[seat] = the player sitting there
            _, final = play(game, [chosen[p] for p in order], random.Random(f"{seed}:{g}"))
            for seat, r in enumerate(game.returns(final)):
                results[order[seat]] += float(r) / len(orders)
        for p, r in enumerate(results):
            totals[p][0] += r
            totals[p][1] += r * r
    mean = tuple(s / games for s, _ in totals)
    var = [max(0.0, q / games - m * m) * games / max(1, games - 1) for (_, q), m in zip(totals, mean, strict=True)]
    return Simulation(games * (2 if swap else 1), seed, tuple(names), mean,
                      tuple(math.sqrt(v / games) for v in var), swap)
