"""The solitaire table (expected points of a turn, ``farkle-facebook-points``) against a plain recursion over
every outcome and every keep: in exact rationals for up to four dice, in floats for five and six, the recursion
starting well past the table's end so that it checks, too, that banking is best from there."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from lookup.farkle import expected_points
from lookup.farkle.rules import dice_after, get_rules, keeps, may_bank, roll_outcomes
from lookup.farkle.tables import load_points
from pipeline.farkle.stage import banking_threshold

RULES = get_rules()
MARGIN = 1500  # points past the table's end where the recursion still solves the turn (and banks, it must find)


def reference(dice: int, one: object):
    """E(t, n) by recursion: banking allowed from min_bank, t itself banked once t >= the table's end + MARGIN."""
    cap = banking_threshold(RULES, dice) * RULES.unit + MARGIN

    @cache
    def choose(t: int, n: int):
        if t >= cap:
            return t * one
        rolled = roll(t, n)
        return max(t * one, rolled) if may_bank(t, RULES) else rolled

    @cache
    def roll(t: int, n: int):
        total = 0 * one
        for outcome, p in roll_outcomes(n):
            options = keeps(outcome, RULES)
            if options:
                p = p if isinstance(one, Fraction) else float(p)
                total += p * max(choose(t + k.points, dice_after(n, len(k.dice), _size(dice))) for k in options)
        return total

    return choose, cap


def _size(dice: int):
    from lookup.farkle.rules import Size

    return Size(10_000, -2_500, dice)


@pytest.mark.parametrize("dice", [1, 2, 3, 4, pytest.param(5, marks=pytest.mark.full),
                                  pytest.param(6, marks=pytest.mark.full)])
def test_the_table_is_the_recursion(farkle_tables, dice):
    table = load_points(RULES, dice, farkle_tables)
    exact = dice <= 4
    choose, cap = reference(dice, Fraction(1) if exact else 1.0)
    rows = len(table)
    assert rows * RULES.unit == banking_threshold(RULES, dice) * RULES.unit
    for t in range(cap - RULES.unit, -1, -RULES.unit):  # from the top: the recursion's depth stays small
        for n in range(1, dice + 1):
            if t == 0 and n != dice:
                continue
            want = choose(t, n)
            k = t // RULES.unit
            if k >= rows:
                assert want == t, (t, n)  # past the table, banking is best (docs/farkle.md: the proof)
                continue
            got = table[k, n]
            # Exact: the table's only error is its float64 rounding; the float recursion adds in another order.
            assert abs(got - float(want)) <= (1e-12 if exact else 1e-10) * float(want), (t, n, got, want)


def test_the_answers(farkle_tables):
    a = farkle_tables
    six = expected_points(0, 6, artifacts_dir=a)
    assert 500 < six < 600
    assert expected_points(300, 1, artifacts_dir=a) == 300.0  # one die at 300: bank
    assert expected_points(20_000, 6, artifacts_dir=a) == 20_000.0  # past the table
    assert expected_points(300, 6, artifacts_dir=a) > 300
    for junk in ((25, 6), (-50, 6), (0, 5), (300, 7), (300, 0), (True, 6), (300.0, 6), ("300", 6)):
        with pytest.raises(ValueError):
            expected_points(*junk, artifacts_dir=a)
