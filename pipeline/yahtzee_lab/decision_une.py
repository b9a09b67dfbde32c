"""Decision_Une: the hand-made strategy of the seed's Yahtzee report (docs/yahtzee_lab.md), compiled with numba.

Recognition (the report's ``Possib``). For each OPEN box the current dice either *reach* it (the
combination is formed) or make it *reachable* (worth chasing), each with the dice to keep:

==================  ==========================================  ====================================
box                 reached (keep)                              reachable (keep; dice missing)
==================  ==========================================  ====================================
upper box of face v at least one v (the v's)                    never (no v: not reachable)
three of a kind     3+ alike (the alike dice)                   a pair (the pair; 1)
four of a kind      4+ alike (the alike dice)                   3 alike (them; 1)
full house          3 + 2 (all dice)                            two pairs (both pairs; 1)
small straight      a run of 4 (one die per face of the run)    a run of 3 (one per face; 1)
large straight      a run of 5 (all dice)                       a run of 4 (one per face; 1)
yahtzee             5 alike (all)                               3 or 4 alike (them; 2 or 1)
==================  ==========================================  ====================================

"Alike" means the most frequent face (ties: the highest). As in the report, a straight is reachable only
from consecutive faces ([1, 2, 3, 5, 5] is no large-straight draw) and the full house only from a pair.
Chance is no combination (the report's example, [2, 2, 3, 3, 3] reaching (twos, threes, full house, three
of a kind), does not list it): it takes part in the final choice only.

Decision with rerolls left: every candidate (box, keep) gets ``poids1 + poids2`` (additive, as the
report recommends) and the best candidate's keep is played (ties: the first box in sheet order;
no candidate at all: reroll everything).

* poids1 (points hoped for): the box's fixed score (full house 25, straights 30 / 40, Yahtzee 50); the
  sum of the five dice for three/four of a kind and chance; for the upper box of face v the report only
  says "weighted up, big faces favoured, plus the bonus while it seems reachable": we take
  ``2 * v * count + 15`` while the bonus is playable (``features.bonus_playable``), ``2 * v * count``
  otherwise.
* poids2 (safety, 0..50): 50 for a reached box; for a reachable lower box, the
  report's formulas: ``50 - missing * p_fail * 10`` with one reroll left and a third of that penalty with two, where
  ``p_fail`` = 2/3 for full house and straights (two faces complete them) and 5/6 for the n-of-a-kinds
  and Yahtzee; for an upper box ``count * 10`` with one reroll left and ``count * 10 / 3`` with two (the
  report: more per die with one reroll left than with two).

Final roll (``calcul_point``): the allowed box that scores the most points now (ties: lowest index). When
every allowed box scores 0 the report says nothing; we sacrifice in ``SACRIFICE_ORDER`` (cheapest boxes
first).
"""

from __future__ import annotations

import numpy as np

from lookup.yahtzee.rules import (
    CHANCE,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    LARGE_STRAIGHT,
    N_CATEGORIES,
    SMALL_STRAIGHT,
    THREE_OF_A_KIND,
    UPPER,
    YAHTZEE,
)
from pipeline.jit import njit
from pipeline.yahtzee_lab.features import bonus_playable, keep_faces_mask, longest_run, modal_face

UPPER_P1_PER_PIP = 2.0  # poids1 of an upper box: 2 * face * count (+ UPPER_P1_BONUS while the bonus is playable)
UPPER_P1_BONUS = 15.0
UPPER_P2_PER_DIE = 10.0  # poids2 of an upper box per matching die with one reroll left (a third with two)
P_FAIL_TWO_FACES = 2.0 / 3.0  # full house, straights: two faces complete them
P_FAIL_ONE_FACE = 5.0 / 6.0  # three/four of a kind, Yahtzee: one face completes them
# Zeros are written, when unavoidable, in the first allowed box of this order (the least costly first).
SACRIFICE_ORDER = np.array([0, YAHTZEE, 1, LARGE_STRAIGHT, 2, FOUR_OF_A_KIND, SMALL_STRAIGHT, FULL_HOUSE, 3,
                            THREE_OF_A_KIND, 4, 5, CHANCE], dtype=np.int64)


@njit(cache=True, inline="always")
def _poids2(missing, p_fail, rerolls_left):
    if missing == 0:
        return 50.0
    penalty = missing * p_fail * 10.0
    return 50.0 - (penalty if rerolls_left == 1 else penalty / 3.0)


@njit(cache=True)
def _candidate(c, dice, counts, rerolls_left, filled_mask, upper, threshold, fixed_points):
    """(recognised, poids1 + poids2, reroll mask) of box ``c`` for these dice; see the module table."""
    total = 0
    for i in range(dice.shape[0]):
        total += dice[i] + 1
    face, n = modal_face(counts)
    run, start = longest_run(counts)
    if c < UPPER:
        k = counts[c]
        if k == 0:
            return False, 0.0, 0
        p1 = UPPER_P1_PER_PIP * (c + 1) * k
        if bonus_playable(filled_mask, upper, threshold):
            p1 += UPPER_P1_BONUS
        p2 = k * UPPER_P2_PER_DIE if rerolls_left == 1 else k * UPPER_P2_PER_DIE / 3.0
        return True, p1 + p2, keep_faces_mask(dice, 1 << c, False)
    if c == THREE_OF_A_KIND or c == FOUR_OF_A_KIND or c == YAHTZEE:
        need = 3 if c == THREE_OF_A_KIND else (4 if c == FOUR_OF_A_KIND else 5)
        lowest = 3 if c == YAHTZEE else need - 1  # a Yahtzee is chased from three alike
        if n < lowest:
            return False, 0.0, 0
        p1 = float(fixed_points[3]) if c == YAHTZEE else float(total)
        missing = max(0, need - n)
        return True, p1 + _poids2(missing, P_FAIL_ONE_FACE, rerolls_left), keep_faces_mask(dice, 1 << face, False)
    if c == FULL_HOUSE:
        pair, triple, second_pair = -1, False, -1
        for f in range(counts.shape[0]):
            if counts[f] == 2:
                if pair < 0:
                    pair = f
                else:
                    second_pair = f
            elif counts[f] == 3:
                triple = True
        if pair < 0:
            return False, 0.0, 0
        if triple:
            return True, fixed_points[0] + 50.0, 0
        if second_pair < 0:
            return False, 0.0, 0
        return (True, fixed_points[0] + _poids2(1, P_FAIL_TWO_FACES, rerolls_left),
                keep_faces_mask(dice, (1 << pair) | (1 << second_pair), False))
    if c == SMALL_STRAIGHT or c == LARGE_STRAIGHT:
        need = 4 if c == SMALL_STRAIGHT else 5
        if run < need - 1:
            return False, 0.0, 0
        length = min(run, need)
        faces = 0
        for f in range(start, start + length):
            faces |= 1 << f
        p1 = float(fixed_points[1] if c == SMALL_STRAIGHT else fixed_points[2])
        return True, p1 + _poids2(need - length, P_FAIL_TWO_FACES, rerolls_left), keep_faces_mask(dice, faces, True)
    return False, 0.0, 0  # chance: not a combination to chase


@njit(cache=True)
def une_reroll(dice, counts, rerolls_left, filled_mask, upper, threshold, fixed_points):
    """Reroll mask (over the sorted dice) of Decision_Une with ``rerolls_left`` (1 or 2) on this sheet.

    dice: sorted 0-based faces; counts: face counts; filled_mask: filled boxes; upper: upper total;
    fixed_points: [full house, small straight, large straight, Yahtzee] scores of the rules.
    """
    best, best_mask = -np.inf, (1 << dice.shape[0]) - 1
    for c in range(N_CATEGORIES):
        if (filled_mask >> c) & 1:
            continue
        ok, value, mask = _candidate(c, dice, counts, rerolls_left, filled_mask, upper, threshold, fixed_points)
        if ok and value > best:
            best, best_mask = value, mask
    return best_mask


@njit(cache=True)
def une_category(allowed, points):
    """Box of Decision_Une for the final roll: most points now among ``allowed`` (bitmask), ties the
    lowest index; when all allowed boxes score 0, the first allowed box of SACRIFICE_ORDER."""
    best, best_c = 0, -1
    for c in range(N_CATEGORIES):
        if (allowed >> c) & 1 and points[c] > best:
            best, best_c = points[c], c
    if best_c >= 0:
        return best_c
    for j in range(SACRIFICE_ORDER.shape[0]):
        c = SACRIFICE_ORDER[j]
        if (allowed >> c) & 1:
            return c
    return -1
