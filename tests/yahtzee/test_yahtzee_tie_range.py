"""The range of the final score's sd over the optimal policies (``pipeline.yahtzee.tie_range``).

Checked against exact rationals (``tie_exact.ExactTies``: ties are exact equalities there) on the last
turns of ``scandinavian+forced``, where tied keeps with different second moments exist; against the
backward moment recursion of our own policy (``solver.exact_statistics``); for independence of the tie
tolerance. The published ``verhoeff`` sd is checked in test_yahtzee_distribution.py (slow).
"""

import numpy as np
import pytest

from lookup.yahtzee import get_rules
from lookup.yahtzee.states import state_space
from pipeline.yahtzee.solver import exact_statistics, solve
from pipeline.yahtzee.tie_range import TIE_RULES, rounding_bound, tie_range
from tests.yahtzee.tie_exact import ExactTies

FORCED = get_rules("scandinavian+forced")
OURS, MOST = TIE_RULES[0][0], TIE_RULES[2][0]


@pytest.fixture(scope="module")
def forced():
    sol = solve(FORCED, policy=True)
    return sol, tie_range(FORCED, value=sol.value)


def test_last_turns_equal_exact_rationals(forced):
    sol, tr = forced
    space, exact = state_space(FORCED), ExactTies(FORCED)
    spread = 0
    for n_open in (1, 2, 3):
        for i in range(space.layer_ptr[FORCED.n_boxes - n_open], space.layer_ptr[FORCED.n_boxes - n_open + 1]):
            v, qmax, qmin = exact.moments(int(space.row_mask[i]), int(space.row_upper[i]), int(space.row_ybox[i]))
            got = tr.row_moments[i]
            for x, want in zip(got[:3], (v, qmax, qmin), strict=True):
                assert abs(x - float(want)) <= 1e-12 * max(1.0, float(want))
            spread = max(spread, qmax - qmin)
    # Tied keeps with different second moments exist there, so the range is not trivially one point.
    assert spread > 1e-3


def test_our_policy_lies_in_the_range(forced):
    sol, tr = forced
    stats = exact_statistics(FORCED, sol)
    assert tr.mean == sol.start_value
    assert abs(tr.rule_sd[OURS] - stats["std"]) < 1e-9
    assert tr.sd_min <= tr.rule_sd[OURS] <= tr.sd_max and tr.sd_min <= tr.rule_sd[MOST] <= tr.sd_max
    assert tr.sd_max - tr.sd_min > 1e-5 and tr.tie_decisions > 0


def test_ties_do_not_depend_on_the_tolerance(forced):
    """Computed gaps of exact ties stay below 1e-13; every other gap is far above the rounding bound."""
    sol, tr = forced
    assert tr.tol == pytest.approx(2 * rounding_bound(FORCED, float(np.nanmax(np.abs(sol.value)))))
    assert tr.tol < 1e-9
    tight = tie_range(FORCED, value=sol.value, tol=1e-12)
    assert (tight.sd_min, tight.sd_max, tight.rule_sd) == (tr.sd_min, tr.sd_max, tr.rule_sd)
    labels = dict(tr.gap_table())
    assert all(not label.startswith(("[1e-13", "[1e-12", "[1e-11", "[1e-10")) for label in labels)


def test_bad_input(forced):
    sol, _ = forced
    for bad in (-1.0, float("nan"), 1):
        with pytest.raises(ValueError, match="tol must be"):
            tie_range(FORCED, value=sol.value, tol=bad)
    with pytest.raises(ValueError, match="upper bonus"):
        tie_range("seed")
    with pytest.raises(ValueError, match="tie_rules"):
        tie_range(FORCED, value=sol.value, tie_rules=(("x", "sideways", "lowest"),))
    with pytest.raises(ValueError, match="shape"):
        tie_range(FORCED, value=sol.value[:2])
