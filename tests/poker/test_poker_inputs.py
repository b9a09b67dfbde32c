"""Poker's entry points on random legal input and bad input: decide on random hands and boards, value on random
classes and hands, answer in range; every wrong argument is a ValueError with a message."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from lookup.poker import CallDecision, class_name, decide, value
from lookup.poker.cards import RANKS, SUITS
from tests.fuzz_inputs import INF, JUNK_INTS, NAN, refusals
from tests.model_play import finite


def _deck(rng: random.Random) -> list[str]:
    cards = [r + s for r in RANKS for s in SUITS]
    rng.shuffle(cards)
    return cards


def test_random_legal_inputs(poker_artifacts):
    rng = random.Random("conformance-poker")
    for _ in range(20):
        cards = _deck(rng)
        board_size = rng.choice([3, 4, 4, 5, 5])
        hand, board = "".join(cards[:2]), cards[2:2 + board_size]
        opponents = 1 if board_size == 3 else rng.choice([1, 2])
        pot, to_call = rng.choice([10, 2.5, 100]), rng.choice([1, 5.5, 40])
        d = decide(hand, pot=pot, to_call=to_call, board=board, opponents=opponents, budget=0.3,
                   artifacts_dir=poker_artifacts)
        assert isinstance(d, CallDecision) and d.action in ("call", "fold") and type(d.exact) is bool
        assert finite(d.equity) and 0 <= d.equity <= 1 and finite(d.gain)
        assert d.break_even == to_call / (pot + to_call) and (d.action == "call") == (d.gain > 0)


@pytest.mark.slow
def test_random_values(preflop_artifacts):
    rng = random.Random("conformance-poker-slow")
    for _ in range(20):
        # A class against 1 or 2 opponents (read from the table), or one time in four a specific hand heads-up
        # (counted over every board: ~1 s each, so a few are enough to cover that path).
        specific = rng.random() < 0.25
        hand = "".join(_deck(rng)[:2]) if specific else class_name(rng.randrange(169))
        v = value(hand, 1 if specific else rng.choice([1, 2]), artifacts_dir=preflop_artifacts)
        assert finite(v) and 0 <= v <= 1


def _bad() -> list[tuple[str, Callable[[Path | None], Any]]]:
    ok = {"pot": 10, "to_call": 5, "board": ["2c", "7d", "Jh"]}
    bad: list[tuple[str, Callable[[Path | None], Any]]] = []
    hands = (None, "", "As", "AsAs", "AsKsQs", "XxYy", 5, NAN, ["As"], "AKx", "AAs", "2c7d" * 3)
    for junk in hands:
        bad.append((f"decide hand={junk!r}", lambda a, j=junk: decide(j, artifacts_dir=a, **ok)))
        bad.append((f"value hand={junk!r}", lambda a, j=junk: value(j, 1, artifacts_dir=a)))
    for key in ("pot", "to_call"):
        for junk in (None, True, 0, -1, NAN, INF, -INF, "10", [10], object()):
            bad.append((f"decide {key}={junk!r}", lambda a, j=junk, k=key: decide("AsKs", artifacts_dir=a,
                                                                                  **{**ok, k: j})))
    for junk in ("Zz", ["As"], ["2c", "7d"], ["2c", "7d", "Jh", "Qs", "Kd", "3c"], ["As", "7d", "Jh"],
                 ["2c", "2c", "Jh"], 5, NAN, [NAN, "7d", "Jh"]):
        bad.append((f"decide board={junk!r}", lambda a, j=junk: decide("AsKs", artifacts_dir=a, **{**ok, "board": j})))
    for junk in (*JUNK_INTS, -1, 0, 23):
        bad.append((f"decide opponents={junk!r}", lambda a, j=junk: decide("AsKs", opponents=j, artifacts_dir=a, **ok)))
    for junk in (*JUNK_INTS, -1, 0, 10):
        bad.append((f"value opponents={junk!r}", lambda a, j=junk: value("AKs", j, artifacts_dir=a)))
    for junk in ("Zz", ["As"], ["2c"], 5, NAN):
        bad.append((f"decide dead={junk!r}", lambda a, j=junk: decide("AsKs", dead=j, artifacts_dir=a, **ok)))
    for junk in (None, -1, NAN, "2", -INF):
        bad.append((f"decide budget={junk!r}", lambda a, j=junk: decide("AsKs", budget=j, artifacts_dir=a, **ok)))
    return bad


def test_bad_inputs_are_value_errors(poker_artifacts):
    failures = refusals((label, partial(call, poker_artifacts)) for label, call in _bad())
    assert not failures, "bad inputs not refused cleanly:\n" + "\n".join(failures)
