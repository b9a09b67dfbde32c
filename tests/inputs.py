"""What the games' input tests share (``tests/<game>/test_<game>_inputs.py``, tests/test_conformance.py): the junk
values every integer argument must refuse, the check that each bad call is a ValueError with a message, and
random legal play of a two-seat game through the opponent models and players of ``lookup.opponents``."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

NAN, INF = float("nan"), float("inf")
HUGE = 2**70
# Wrong types and values every integer argument must refuse with a ValueError.
JUNK_INTS = (None, True, 1.5, NAN, INF, -INF, HUGE, -HUGE, "2", "", [1], object())

Artifacts = Path | None
BadCall = Callable[[Artifacts], Any]


def finite(x: Any) -> bool:
    return type(x) is float and math.isfinite(x)


def assert_refused(game: str, bad: list[tuple[str, BadCall]], artifacts: Artifacts) -> None:
    """Every ``(label, call)`` of ``bad`` raises a ValueError with a message (not a TypeError, KeyError or
    IndexError that is also one); the failures are listed together."""
    assert len(bad) >= 10, f"{game}: declare its bad inputs"
    failures = []
    for label, call in bad:
        try:
            got = call(artifacts)
        except ValueError as exc:
            if not str(exc).strip():
                failures.append(f"{label}: ValueError without a message")
            elif isinstance(exc, TypeError | KeyError | IndexError):
                failures.append(f"{label}: {type(exc).__name__} (also a ValueError): {exc}")
        except Exception as exc:  # noqa: BLE001 (what escapes is the finding)
            failures.append(f"{label}: {type(exc).__name__}: {exc}")
        else:
            failures.append(f"{label}: no error, answered {got!r}")
    assert not failures, f"{game}: {len(failures)} of {len(bad)} bad inputs not refused cleanly:\n" + \
        "\n".join(failures)


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
