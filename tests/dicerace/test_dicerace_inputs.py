"""The dice race's entry points on random legal input and bad input: decide and value at random scores in both
modes answer in range, and every wrong argument is a ValueError with a message."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from lookup.dicerace import decide, value
from tests.fuzz_inputs import JUNK_INTS, NAN, refusals
from tests.model_play import finite

GAME = {"dice": 3, "target": 20}


def test_random_legal_inputs(built):
    rng = random.Random("conformance-dicerace")
    n = 0
    for _ in range(60):
        mine, other = rng.randrange(20), rng.randrange(20)
        mode = rng.choice(["sequential", "simultaneous"])
        d = decide(mine, other, mode=mode, rng=rng.randrange(1000), artifacts_dir=built, **GAME)
        assert type(d) is int and 1 <= d <= GAME["dice"]
        v = value(mine, other, mode=mode, artifacts_dir=built, **GAME)
        assert finite(v) and -1 <= v <= 1
        n += 2
    assert n >= 20


def _bad() -> list[tuple[str, Callable[[Path | None], Any]]]:
    bad: list[tuple[str, Callable[[Path | None], Any]]] = []
    for fn in (decide, value):
        name = fn.__name__
        for junk in (*JUNK_INTS, -1, 20):
            bad.append((f"{name} my_score={junk!r}", lambda a, j=junk, f=fn: f(j, 0, artifacts_dir=a, **GAME)))
            bad.append((f"{name} other_score={junk!r}", lambda a, j=junk, f=fn: f(0, j, artifacts_dir=a, **GAME)))
        for junk in (*JUNK_INTS, 0, -3, 4):
            bad.append((f"{name} dice={junk!r}", lambda a, j=junk, f=fn: f(0, 0, dice=j, target=20, artifacts_dir=a)))
        for junk in (*JUNK_INTS, 0, -5, 21):
            bad.append((f"{name} target={junk!r}", lambda a, j=junk, f=fn: f(0, 0, dice=3, target=j, artifacts_dir=a)))
        for junk in ("nosuch", "", None, 1, NAN):
            bad.append((f"{name} mode={junk!r}", lambda a, j=junk, f=fn: f(0, 0, mode=j, artifacts_dir=a, **GAME)))
    for junk in (-1, 1.5, NAN, "7"):
        bad.append((f"decide rng={junk!r}", lambda a, j=junk: decide(5, 5, mode="simultaneous", rng=j,
                                                                      artifacts_dir=a, **GAME)))
    return bad


def test_bad_inputs_are_value_errors(built):
    failures = refusals((label, partial(call, built)) for label, call in _bad())
    assert not failures, "bad inputs not refused cleanly:\n" + "\n".join(failures)
