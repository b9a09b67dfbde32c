"""151's entry points on random legal input and bad input: decide and value at random banked and turn totals, alone
and against an opponent, answer in range; every wrong argument is a ValueError with a message."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from lookup.g151 import decide, value
from tests.fuzz_inputs import JUNK_INTS, NAN, refusals
from tests.model_play import finite

TARGET = 300


def test_random_legal_inputs(g151_tables):
    rng = random.Random("conformance-g151")
    n = 0
    for _ in range(60):
        banked = 50 * rng.randrange(TARGET // 50)
        turn = 50 * rng.randint(0, (TARGET - banked) // 50)
        other = rng.choice([None, 50 * rng.randrange(TARGET // 50)])
        d = decide(banked, turn, other, TARGET, artifacts_dir=g151_tables)
        assert d in ("roll", "bank") and (turn > 0 or d == "roll")
        v = value(banked, turn, other, TARGET, artifacts_dir=g151_tables)
        assert finite(v) and (0 <= v <= 1 if other is not None else v >= 0)
        n += 2
    assert n >= 20


def _bad() -> list[tuple[str, Callable[[Path | None], Any]]]:
    t = TARGET
    bad: list[tuple[str, Callable[[Path | None], Any]]] = []
    for fn in (decide, value):
        name = fn.__name__
        for junk in (*JUNK_INTS, -50, 25, t, t + 50):
            bad.append((f"{name} banked={junk!r}", lambda a, j=junk, f=fn: f(j, 0, None, t, artifacts_dir=a)))
            bad.append((f"{name} other_banked={junk!r}", lambda a, j=junk, f=fn: f(0, 0, j, t, artifacts_dir=a)
                        if j is not None else f(0, 0, "x", t, artifacts_dir=a)))
        for junk in (*JUNK_INTS, -50, 25):
            bad.append((f"{name} turn_total={junk!r}", lambda a, j=junk, f=fn: f(0, j, None, t, artifacts_dir=a)))
        bad.append((f"{name} banked + turn_total over target", lambda a, f=fn: f(250, 100, None, t, artifacts_dir=a)))
        for junk in (*JUNK_INTS, 0, -300, 25, 2000):  # 2000: a target the small tables do not hold
            bad.append((f"{name} target={junk!r}", lambda a, j=junk, f=fn: f(0, 0, None, j, artifacts_dir=a)))
        for junk in ("nosuch", "", None, 3, NAN):
            bad.append((f"{name} rules={junk!r}", lambda a, j=junk, f=fn: f(0, 0, None, t, j, artifacts_dir=a)))
    return bad


def test_bad_inputs_are_value_errors(g151_tables):
    failures = refusals((label, partial(call, g151_tables)) for label, call in _bad())
    assert not failures, "bad inputs not refused cleanly:\n" + "\n".join(failures)
