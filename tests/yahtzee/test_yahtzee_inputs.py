"""Yahtzee's entry points (decide, value) on the smallest built game: random legal questions get answers of the
documented type and range, and bad input is a ValueError with a message (tests/fuzz_inputs.py ``refusals``)."""

from __future__ import annotations

import math
import random
from typing import Any

from lookup.yahtzee import Decision, Sheet, decide, get_rules, value
from tests.fuzz_inputs import HUGE, JUNK_INTS, NAN, refusals

RULES = "scandinavian+forced"  # the smallest built game: 16 sheets masks


def _sheet(rng: random.Random) -> Sheet:
    r = get_rules(RULES)
    sheet = Sheet.empty(r)
    for _ in range(rng.randrange(r.n_boxes)):
        dice = [rng.randint(1, r.n_faces) for _ in range(r.n_dice)]
        sheet.score(rng.choice(sorted(sheet.allowed(dice))), dice)
    return sheet


def _finite(x: Any) -> bool:
    return type(x) is float and math.isfinite(x)


def test_random_legal_questions(forced_tables):
    r, rng = get_rules(RULES), random.Random("yahtzee-inputs")
    for _ in range(12):
        sheet = _sheet(rng)
        form = rng.choice(["sheet", "dict", "list"])
        arg = sheet if form == "sheet" else sheet.to_dict() if form == "dict" else list(sheet.boxes)
        dice = [rng.randint(1, r.n_faces) for _ in range(r.n_dice)]
        rerolls = rng.randint(0, 2)
        d = decide(dice, rerolls, arg, RULES, artifacts_dir=forced_tables)
        assert isinstance(d, Decision) and d.dice == tuple(dice) and d.rerolls == rerolls
        if rerolls:
            assert d.category is None and len(d.reroll) == r.n_dice and all(type(x) is bool for x in d.reroll)
            assert sorted(d.keep) == sorted(p for p, again in zip(dice, d.reroll, strict=True) if not again)
        else:
            assert d.reroll is None and d.keep is None and d.category in sheet.allowed(dice)
        v = value(arg, RULES, artifacts_dir=forced_tables)
        assert _finite(v) and sheet.total <= v <= sheet.total + 400, v
        assert _finite(d.expected_final) and d.expected_final >= sheet.total


def test_bad_inputs_are_value_errors(forced_tables):
    a, dice, rules = forced_tables, [1, 2, 3, 4, 5], RULES
    calls: list = []
    for junk in (None, "12345", 12345, [], [1, 2, 3, 4], [1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4], [1, 2, 3, 4, 7],
                 [1.0, 2, 3, 4, 5], [NAN, 2, 3, 4, 5], [HUGE, 2, 3, 4, 5], [True, 2, 3, 4, 5], ["1", 2, 3, 4, 5]):
        calls.append((f"decide dice={junk!r}", lambda j=junk: decide(j, 2, {}, rules, artifacts_dir=a)))
    for junk in (*JUNK_INTS, -1, 3):
        calls.append((f"decide rerolls={junk!r}", lambda j=junk: decide(dice, j, {}, rules, artifacts_dir=a)))
    sheets = (None, "ones", 5, NAN, {"nosuch": 3}, {"ones": 7}, {"ones": NAN}, {"ones": HUGE}, {"ones": -1},
              {"ones": 2.0}, {"ones": "3"}, {"sixes": 6}, [None] * 3, [3] * 15, {"yahtzee_bonus": -100})
    for junk in sheets:
        calls.append((f"decide sheet={junk!r}", lambda j=junk: decide(dice, 2, j, rules, artifacts_dir=a)))
        calls.append((f"value sheet={junk!r}", lambda j=junk: value(j, rules, artifacts_dir=a)))
    for junk in ("nosuch", "", None, 3, NAN):
        calls.append((f"decide rules={junk!r}", lambda j=junk: decide(dice, 2, {}, j, artifacts_dir=a)))
        calls.append((f"value rules={junk!r}", lambda j=junk: value({}, j, artifacts_dir=a)))
    calls.append(("value hasbro (tables not built)", lambda: value({}, "hasbro", artifacts_dir=a)))
    calls.append(("decide goal and beat", lambda: decide(dice, 2, {}, rules, goal=100, beat=100, artifacts_dir=a)))
    failures = refusals(calls)
    assert not failures, f"{len(failures)} of {len(calls)} bad inputs not refused cleanly:\n" + "\n".join(failures)
