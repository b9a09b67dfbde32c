"""151 rules: the exact roll law of every variant against plain enumeration, and the notebook's examples."""

from fractions import Fraction
from itertools import product

import numpy as np
import pytest

from lookup.g151.rules import (
    RULE_SETS,
    UNIT,
    get_rules,
    kernel_roll_law,
    points_by_dice,
    roll_distribution,
    roll_moments,
    roll_points,
    target_units,
    to_units,
)

from .reference import enumerated_law, notebook_points


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_roll_law_equals_plain_enumeration_of_the_216_outcomes(name):
    rules = get_rules(name)
    for dice in product(range(1, 7), repeat=3):
        assert roll_points(dice, rules) == notebook_points(dice, bool(rules.straights)), dice
    law = {v * UNIT: p for v, p in enumerated_law(rules).items()}
    assert roll_distribution(rules) == law
    assert sum(law.values()) == 1


@pytest.mark.parametrize("name", list(RULE_SETS))
def test_kernel_law_and_dice_table_agree_with_the_exact_law(name):
    steps, probs, p0 = kernel_roll_law(name)
    law = roll_distribution(name)
    assert p0 == float(law[0])
    assert {int(s) * UNIT: float(p) for s, p in zip(steps, probs, strict=True)} == {
        v: float(p) for v, p in law.items() if v}
    table = points_by_dice(name)
    counts = np.bincount(table.ravel())
    for v, p in law.items():
        assert Fraction(int(counts[v // UNIT]), 216) == p


def test_moments_exact():
    assert roll_moments("stated") == (Fraction(1025, 12), Fraction(3723125, 432))
    assert roll_moments("notebook") == roll_moments("stated")
    mean, var = roll_moments("straights")
    assert mean == Fraction(3475, 36)
    # The notebook's 10**6 simulated rolls: 85.32 +- 92.73; with straights 96.56; P(0) 27.81 % and 25.00 %.
    assert float(roll_moments("stated")[0]) == pytest.approx(85.32, abs=0.3)
    assert float(roll_moments("stated")[1]) ** 0.5 == pytest.approx(92.73, abs=0.3)
    assert float(mean) == pytest.approx(96.56, abs=0.3)
    assert roll_distribution("stated")[0] == Fraction(5, 18)
    assert roll_distribution("straights")[0] == Fraction(1, 4)


def test_notebook_examples():
    cases = {(1, 1, 1): 700, (2, 2, 2): 200, (6, 6, 6): 600, (2, 3, 6): 0, (1, 3, 6): 100, (1, 1, 6): 200,
             (5, 3, 6): 50, (5, 5, 6): 100, (1, 5, 2): 150, (1, 2, 3): 100, (2, 3, 4): 0, (3, 4, 5): 50}
    for dice, pts in cases.items():
        assert roll_points(dice) == pts
    straights = {(3, 1, 2): 200, (4, 2, 3): 100, (5, 3, 4): 150, (6, 4, 5): 150, (1, 1, 1): 700}
    for dice, pts in straights.items():
        assert roll_points(dice, "straights") == pts


def test_bad_input():
    with pytest.raises(ValueError, match="unknown 151 variant"):
        get_rules("nope")
    with pytest.raises(ValueError, match="die face 7 outside 1..6"):
        roll_points((1, 2, 7))
    with pytest.raises(ValueError, match="expected 3 dice, got 2"):
        roll_points((1, 2))
    for bad in (-50, 75):
        with pytest.raises(ValueError, match=f"score must be a non-negative multiple of 50 points, got {bad}"):
            to_units(bad, "score")
    for bad in (1.0, True, "100"):
        with pytest.raises(ValueError, match="score must be an integer"):
            to_units(bad, "score")
    with pytest.raises(ValueError, match="target must be a positive multiple of 50 points, got 0"):
        target_units(0)
    assert target_units(1000) == 20
