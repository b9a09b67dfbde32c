"""The batched, distinct-keep turn (``kernels.turn_policy_batch``: ``solver.policy_block`` and the pass of
``distribution.optimal_score_law``) against the policy kernel it replaced (tests/yahtzee/policy_reference.py: one
state at a time, every reroll mask scanned), bitwise, on every row of reduced rule sets; make test-full on every
8th block of Maxi Yatzy's rows (every row with DICETABLES_MAXI_STRIDE=1). The values the law's pass solves on
the way are ``solve``'s, bitwise."""

from __future__ import annotations

import dataclasses
import os

import numpy as np
import pytest

from lookup.yahtzee.rules import AMERICAN_BOXES, Rules, get_rules
from lookup.yahtzee.states import state_space
from pipeline.yahtzee import distribution
from pipeline.yahtzee.solver import policy_block, row_values, solve
from tests.yahtzee.policy_reference import reference_policy_block

MAXI = get_rules("maxi")


def _american(name: str, joker: str) -> Rules:
    """Five dice, the upper boxes, three of a kind, full house, Yahtzee and chance: the Joker rule (forced or free)
    and the Yahtzee bonus of hasbro's code paths on a sheet of ten boxes."""
    return Rules(name, "test game", upper_threshold=40, upper_bonus=35, yahtzee_bonus=100, joker=joker,
                 boxes=AMERICAN_BOXES[:7] + AMERICAN_BOXES[8:9] + AMERICAN_BOXES[11:])


REDUCED = {
    "maxi-upper-yatzy": dataclasses.replace(MAXI, name="maxi-upper-yatzy", upper_threshold=70,
                                            boxes=MAXI.boxes[:6] + MAXI.boxes[19:]),
    # Six dice with two pairs, a straight, a villa and Maxi Yatzy: keeps of every kind are the best somewhere.
    "maxi-ten": dataclasses.replace(MAXI, name="maxi-ten", upper_threshold=40,
                                    boxes=MAXI.boxes[:6] + tuple(MAXI.boxes[c] for c in (7, 12, 16, 19))),
    "american-forced-joker": _american("american-forced-joker", "forced"),
    "american-free-joker": _american("american-free-joker", "free"),
    "scandinavian+forced": get_rules("scandinavian+forced"),
}


def _assert_same_policy(rules: Rules, vrow: np.ndarray, lo: int, hi: int) -> None:
    new_reroll, new_category = policy_block(rules, vrow, lo, hi)
    old_reroll, old_category = reference_policy_block(rules, vrow, lo, hi)
    assert new_reroll.tobytes() == old_reroll.tobytes(), (rules.name, lo, hi)
    assert new_category.tobytes() == old_category.tobytes(), (rules.name, lo, hi)


@pytest.mark.parametrize("name", list(REDUCED))
def test_every_row_has_the_policy_of_the_scalar_turn_over_all_masks(name):
    rules = REDUCED[name]
    vrow = row_values(solve(rules))
    hi = int(state_space(rules).layer_ptr[rules.n_boxes])
    # Some rows hold exact ties between keeps (the same value by two roads): the tie rule decides there.
    _assert_same_policy(rules, vrow, 0, hi)
    # A block starting mid-layer and mid-mask: rows are batched by mask within the block.
    _assert_same_policy(rules, vrow, hi // 3 + 1, hi - 7)


@pytest.mark.parametrize("name", ["maxi-upper-yatzy", "american-forced-joker"])
def test_the_law_pass_solves_the_values_of_solve_bitwise(name):
    rules = REDUCED[name]
    vrow = np.zeros(state_space(rules).n_rows)
    law = distribution._law_pass(rules, vrow, 97, "memory", None, None)
    assert vrow.tobytes() == row_values(solve(rules)).tobytes()
    assert law.pmf.tobytes() == distribution.optimal_score_law(rules).pmf.tobytes()


# Maxi Yatzy's values (~3 min), then both kernels on blocks of 2**18 rows of every layer: every row takes ~25 min on
# 2 cores, more than CI's 90 minutes leave beside the other full checks, so make test-full compares every
# MAXI_STRIDE-th block (every layer is crossed; 1/8 of the rows by default) and DICETABLES_MAXI_STRIDE=1 every row.
MAXI_STRIDE = int(os.environ.get("DICETABLES_MAXI_STRIDE", "8"))


@pytest.mark.full
def test_the_rows_of_maxi_have_the_policy_of_the_scalar_turn_over_all_masks():
    vrow = row_values(solve(MAXI))
    hi = int(state_space(MAXI).layer_ptr[MAXI.n_boxes])
    for lo in range(0, hi, MAXI_STRIDE << 18):
        _assert_same_policy(MAXI, vrow, lo, min(hi, lo + (1 << 18)))
