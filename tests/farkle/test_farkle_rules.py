"""Farkle's rules (lookup/farkle/rules.py) against brute force and published numbers: every way to read a set of
dice as scoring combinations, every scoring sub-multiset of every roll, every ordered roll of up to six dice, the
farkle odds and the published state count."""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest

from lookup.farkle.rules import (
    FULL,
    Rules,
    Size,
    after_farkle,
    best_keeps,
    check_size,
    dice_after,
    farkle_probability,
    get_rules,
    keeps,
    may_bank,
    parse_roll,
    points,
    roll_outcomes,
    state_count,
)

RULES = get_rules()


def peel(dice: tuple[int, ...], rules: Rules) -> int | None:
    """Independent scorer: the most points of reading ``dice`` (sorted) as combinations, found by taking one
    combination off at a time (singles, n of a kind, the straight, three pairs), every order tried."""
    if not dice:
        return 0
    best = None
    c = Counter(dice)
    options = []
    for face, single in ((1, rules.one), (5, rules.five)):
        if c[face]:
            options.append(((face,), single))
    for face, k in c.items():
        for n in range(3, k + 1):
            options.append(((face,) * n, (n - 2) * rules.triples[face - 1]))
    if len(dice) == 6 and len(c) == 6:
        options.append((dice, rules.straight))
    shape = sorted(c.values())
    if len(dice) == 6 and (shape == [2, 2, 2] or (rules.quad_pair and shape == [2, 4])):
        options.append((dice, rules.three_pairs))
    for combo, pts in options:
        rest = list(dice)
        for d in combo:
            rest.remove(d)
        more = peel(tuple(rest), rules)
        if more is not None and (best is None or pts + more > best):
            best = pts + more
    return best


@pytest.mark.parametrize("rules", [RULES, replace(RULES, name="quads", quad_pair=True)])
def test_points_equal_brute_force_on_every_set_of_up_to_six_dice(rules):
    for n in range(1, 7):
        for dice in itertools.combinations_with_replacement(range(1, 7), n):
            assert points(dice, rules) == peel(dice, rules), dice


def test_published_scoring_examples():
    # The scoring as the source states it (docs/farkle.md): singles, kinds adding the triple again, specials.
    assert points([1]) == 100 and points([5]) == 50 and points([2]) is None
    assert points([1, 1, 1]) == 1000 and points([4, 4, 4]) == 400 and points([3, 3, 3, 3]) == 600
    assert points([3] * 5) == 900 and points([3] * 6) == 1200 and points([1] * 6) == 4000
    assert points([1, 2, 3, 4, 5, 6]) == 1500 and points([2, 2, 4, 4, 6, 6]) == 750
    assert points([2, 2, 2, 2, 3, 3]) is None and points([2, 2, 2, 2]) == 400  # four and a pair: not three pairs
    assert points([2, 2, 2, 2, 3, 3], replace(RULES, quad_pair=True)) == 750  # where a variant counts them
    assert points([2] * 5, replace(RULES, kinds="double")) == 800 and points([2] * 5) == 600
    assert points([3, 3, 3, 6, 6, 6]) == 900  # two triples score separately
    assert points([1, 1, 5]) == 250 and points([1, 1, 1, 1, 5, 5]) == 2100


def test_keeps_are_every_scoring_submultiset():
    for n in range(1, 7):
        for roll in itertools.combinations_with_replacement(range(1, 7), n):
            subs = {tuple(sorted(s)) for k in range(1, n + 1) for s in itertools.combinations(roll, k)}
            expected = {s: peel(s, RULES) for s in subs if peel(s, RULES) is not None}
            got = keeps(roll)
            assert {k.dice: k.points for k in got} == expected, roll
            assert [len(k.dice) for k in got] == sorted((len(k.dice) for k in got), reverse=True)
            best = best_keeps(roll)
            assert set(best) == {len(s) for s in expected}
            for size, keep in best.items():
                assert keep.points == max(p for s, p in expected.items() if len(s) == size)


def test_roll_outcomes_are_every_ordered_roll():
    for n in range(1, 7):
        counted = Counter(tuple(sorted(r)) for r in itertools.product(range(1, 7), repeat=n))
        got = dict(roll_outcomes(n))
        assert got == {r: Fraction(k, 6 ** n) for r, k in counted.items()}
        assert sum(got.values()) == 1


def test_farkle_odds_are_the_published_ones():
    # "Farkle Odds" (ggraham412, 2009), for the Facebook scoring: 66.67 %, 44.44 %, 27.78 %, 15.74 %, 7.72 %,
    # 2.31 % with 1 to 6 dice.
    published = [66.67, 44.44, 27.78, 15.74, 7.72, 2.31]
    for n, percent in enumerate(published, start=1):
        assert round(float(farkle_probability(n)) * 100, 2) == percent
    assert farkle_probability(6) == Fraction(5, 216) and farkle_probability(1) == Fraction(2, 3)


def test_the_published_state_count():
    assert state_count(FULL) == 423_765_000  # M. Busche, "Maximizing Win Probability in the Game of Farkle" (2016)
    # The count by brute force on a small board: every (scores, farkles, turn total, dice) the table holds.
    size = Size(600, -100, 2)
    u = RULES.unit
    count = 0
    for a in range(size.floor, size.target, u):
        totals = [t for t in range(0, 20_000, u) if a + t < size.target or t < RULES.min_bank]
        count += len(totals) * size.dice * 9 * ((size.target - size.floor) // u)
    assert state_count(size) == count


def test_the_turn_and_the_penalty():
    assert [may_bank(t, RULES) for t in (0, 250, 300)] == [False, False, True]
    assert dice_after(6, 6, FULL) == 6 and dice_after(6, 1, FULL) == 5 and dice_after(2, 2, Size(600, -100, 2)) == 2
    assert after_farkle(1000, 0, RULES, FULL) == (1000, 1)
    assert after_farkle(1000, 1, RULES, FULL) == (1000, 2)
    assert after_farkle(1000, 2, RULES, FULL) == (500, 0)  # the third in a row costs 500
    assert after_farkle(-2200, 2, RULES, FULL) == (-2500, 0)  # never below the floor
    assert after_farkle(-2500, 2, RULES, FULL) == (-2500, 0)


@pytest.mark.parametrize("args", [(0, -2500, 6), (10_025, -2500, 6), (10_000, 50, 6), (10_000, -2510, 6),
                                  (10_000, -2500, 0), (10_000, -2500, 7), (True, -2500, 6), (1.5e4, -2500, 6),
                                  ("10000", -2500, 6), (10_000, None, 6), (10**30, -2500, 6)])
def test_bad_sizes_are_value_errors(args):
    with pytest.raises(ValueError, match=r"target|floor|dice"):
        check_size(*args)


def test_bad_rolls_and_rule_sets():
    for junk in (None, "123", 5, [], [0], [7], [1.0], [True], [1] * 7):
        with pytest.raises(ValueError, match="dice|die"):
            parse_roll(junk)
    with pytest.raises(ValueError, match="3 are rolled"):
        parse_roll([1, 2], 3)
    with pytest.raises(ValueError, match="unknown Farkle rule set"):
        get_rules("zilch")
