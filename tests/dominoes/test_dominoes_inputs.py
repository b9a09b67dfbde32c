"""Dominoes' entry points on random legal play and bad input: whole games with ``decide`` choosing every move of one
seat and a model the other, the opponent models and the exact players on the game API (lookup.opponents, the
smallest reduced instance), and every wrong argument a ValueError with a message."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from lookup.dominoes import GAME, MODEL_NAMES, PLAYERS, deal, decide, move_name, tile_name, value
from lookup.dominoes import engine as E
from lookup.dominoes.game import Dominoes
from lookup.opponents import MODELS
from tests.fuzz_inputs import HUGE, JUNK_INTS, NAN, refusals
from tests.model_play import finite, play_models, sample

DOMINOES_OPTIONS = {"depth": 2, "samples": 3, "max_exact": 50, "endgame": 0}


def test_random_legal_play():
    rng = random.Random("conformance-dominoes")
    # the game API: the standard game at random, and the exact players on the smallest reduced instance
    n = play_models(GAME, lambda g: deal(2000 + g), rng, 6)
    small = Dominoes(max_pip=2, hand=2)
    n += play_models(small, lambda g: small.deal(g), rng, 8, ("perfect", "predictive", "realistic", "bayesian"))
    for game, (opponent, player) in enumerate((m, p) for m in MODEL_NAMES for p in PLAYERS):
        seat = game % 2
        state = deal(1000 + game)
        hand = [tile_name(t) for t in range(E.N_TILES) if state.hands[seat] >> t & 1]
        options = {"player": player, **DOMINOES_OPTIONS,
                   **({"model": opponent} if player == "predictive" else {"models": list(MODEL_NAMES)})}
        history: list[str] = []
        while not GAME.is_terminal(state):
            legal = GAME.legal_actions(state)
            if state.to_move == seat:
                written = decide(hand, history, seat, seed=game, **options)
                names = [move_name(m) for m in legal]
                assert written in names, (written, names)
                if rng.random() < 0.2:
                    v = value(hand, history, seat, seed=game, **options)
                    assert finite(v) and -1 <= v <= 1
                    n += 1
                move = legal[names.index(written)]
                state = GAME.apply(state, move)
                history.append(f"draw:{tile_name(state.drawn)}" if move == E.DRAW else written)
                n += 1
            else:
                move = sample(rng, MODELS[opponent].distribution(GAME, state))
                state = GAME.apply(state, move)
                history.append(move_name(move))
            assert len(history) <= 4 * E.N_TILES, "the game does not end"
        assert GAME.returns(state) in ((1, -1), (0, 0), (-1, 1))
    assert n >= 20



def _bad() -> list[tuple[str, Callable[[Path | None], Any]]]:
    hand = ["6-6", "1-2", "3-5", "0-4", "2-2", "5-6", "1-1"]
    bad: list[tuple[str, Callable[[Path | None], Any]]] = []
    for fn in (decide, value):
        f = fn.__name__
        hands = (None, [], "6-6", hand[:6], [*hand, "0-0"], ["6-6"] * 7, ["7-7", *hand[1:]], ["6-6x", *hand[1:]],
                 [1.5, *hand[1:]], [NAN, *hand[1:]], [HUGE, *hand[1:]], [True, *hand[1:]], [28, *hand[1:]], 5, NAN)
        for junk in hands:
            bad.append((f"{f} hand={junk!r}", lambda a, j=junk, fn=fn: fn(j, [], 0)))
        histories = ("bogus", "6-6 6-6", ["6-6", "6-6L"], ["pass"], ["draw"], ["6-6", "0-0L"], 5, NAN, None,
                     ["6-6", "draw", "draw"], "1-2 " * 30)
        for junk in histories:
            bad.append((f"{f} history={junk!r}", lambda a, j=junk, fn=fn: fn(hand, j, 0)))
        for junk in (*JUNK_INTS, -1, 2):
            bad.append((f"{f} seat={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], j)))
        bad.append((f"{f} seat 1 before player 0 opened", lambda a, fn=fn: fn(hand, [], 1)))
        for junk in ("nosuch", "", None, 5, NAN, "perfect"):
            bad.append((f"{f} player={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], 0, player=j)))
        bad.append((f"{f} predictive without model", lambda a, fn=fn: fn(hand, [], 0, player="predictive")))
        for junk in ("nosuch", "", 5, NAN, "perfect"):
            bad.append((f"{f} model={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], 0, player="predictive", model=j)))
        for junk in ([], ["nosuch"], "random", [5], 5, NAN):
            bad.append((f"{f} models={junk!r}", lambda a, j=junk, fn=fn: fn(hand, [], 0, models=j)))
        for key, junk_values in (("depth", (*JUNK_INTS, 0, 13)), ("samples", (*JUNK_INTS, 0)),
                                 ("max_exact", (*JUNK_INTS, -1)), ("endgame", (*JUNK_INTS, -2)),
                                 ("budget", (*JUNK_INTS, -1)), ("seed", (*JUNK_INTS, -1, 2**62 + 1))):
            for junk in junk_values:
                bad.append((f"{f} {key}={junk!r}", lambda a, j=junk, k=key, fn=fn: fn(hand, [], 0, **{k: j})))
        bad.append((f"{f} unknown option", lambda a, fn=fn: fn(hand, [], 0, nosuch=1)))
    return bad


def test_bad_inputs_are_value_errors():
    failures = refusals((label, partial(call, None)) for label, call in _bad())
    assert not failures, "bad inputs not refused cleanly:\n" + "\n".join(failures)
