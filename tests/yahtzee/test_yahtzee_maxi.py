"""Maxi Yatzy's rules (six dice, 20 boxes; lookup.yahtzee.rules, rule sets ``maxi`` and ``maxi-se``).

* The box maker's worked examples, one per box (docs/yahtzee.md, "Maxi Yatzy").
* Every box on every roll of six dice against a definition written here from scratch: the best choice of
  dice (subsets of the six) that forms the box's pattern, scored as the rules say.
* A reduced Maxi (six dice; the six upper boxes with the bonus 100 at 84, and in make test-full three pairs)
  solved by the numba solver equals a plain recursion over its states that values each turn with the play-time keep tree
  (``lookup.yahtzee.turn``, numpy: another implementation), at every reachable state.
* The generalised full house (``parts``) scores every five-dice roll as the 5-dice rule did (exactly a
  triple and a pair), for every rule set that has one, so existing tables keep their numbers.
"""

from __future__ import annotations

import dataclasses
import itertools
from functools import cache

import numpy as np
import pytest

from lookup.yahtzee.rules import RULE_SETS, Box, get_rules, score_roll, scoring_tables

EXAMPLES = [  # (dice, box, points): the box maker's examples
    ([3, 1, 1, 6, 1, 4], "ones", 3), ([6, 4, 2, 6, 5, 1], "one_pair", 12), ([2, 1, 3, 3, 5, 5], "two_pairs", 16),
    ([2, 2, 5, 5, 6, 6], "three_pairs", 26), ([4, 5, 3, 5, 5, 4], "three_of_a_kind", 15),
    ([2, 4, 2, 2, 5, 2], "four_of_a_kind", 8), ([3, 3, 2, 3, 3, 3], "five_of_a_kind", 15),
    ([1, 2, 3, 4, 5, 3], "small_straight", 15), ([2, 3, 4, 5, 6, 6], "large_straight", 20),
    ([1, 2, 3, 4, 5, 6], "full_straight", 21), ([3, 4, 4, 6, 6, 6], "full_house", 26),
    ([2, 2, 2, 5, 5, 5], "villa", 21), ([3, 3, 6, 6, 6, 6], "tower", 30), ([3, 4, 2, 6, 5, 4], "chance", 24),
    ([4, 4, 4, 4, 4, 4], "maxi_yatzy", 100), ([4, 4, 4, 4, 4, 3], "maxi_yatzy", 0),
]


@pytest.mark.parametrize("name", ["maxi", "maxi-se"])
def test_worked_examples(name):
    rules = get_rules(name)
    assert rules.n_dice == 6 and rules.n_boxes == 20 and rules.joker == "none" and rules.yahtzee_bonus == 0
    for dice, box, points in EXAMPLES:
        assert score_roll(rules, dice, rules.categories.index(box)) == points, (dice, box)
    assert (rules.upper_threshold, rules.upper_bonus) == ((84, 100) if name == "maxi" else (75, 50))


def _groups(dice: tuple[int, ...], sizes: tuple[int, ...]) -> list[int]:
    """Sums of every way to pick disjoint groups of dice of these sizes, each group all alike, the groups'
    faces all different."""
    sums = []
    for picks in itertools.permutations(range(len(dice)), sum(sizes)):
        groups, start = [], 0
        for n in sizes:
            groups.append([dice[i] for i in picks[start:start + n]])
            start += n
        faces = [g[0] for g in groups]
        if all(len(set(g)) == 1 for g in groups) and len(set(faces)) == len(faces):
            sums.append(sum(sum(g) for g in groups))
    return sums


def _plain(box: str, dice: tuple[int, ...]) -> int:
    """Maxi Yatzy's boxes, from their definitions."""
    if box in ("ones", "twos", "threes", "fours", "fives", "sixes"):
        face = ("ones", "twos", "threes", "fours", "fives", "sixes").index(box) + 1
        return face * dice.count(face)
    sizes = {"one_pair": (2,), "two_pairs": (2, 2), "three_pairs": (2, 2, 2), "three_of_a_kind": (3,),
             "four_of_a_kind": (4,), "five_of_a_kind": (5,), "full_house": (3, 2), "villa": (3, 3),
             "tower": (4, 2)}
    if box in sizes:
        return max(_groups(dice, sizes[box]), default=0)
    runs = {"small_straight": ({1, 2, 3, 4, 5}, 15), "large_straight": ({2, 3, 4, 5, 6}, 20),
            "full_straight": ({1, 2, 3, 4, 5, 6}, 21)}
    if box in runs:
        need, points = runs[box]
        return points if need <= set(dice) else 0
    if box == "chance":
        return sum(dice)
    assert box == "maxi_yatzy"
    return 100 if len(set(dice)) == 1 else 0


def test_every_box_on_every_roll_equals_its_definition():
    rules = get_rules("maxi")
    st = scoring_tables(rules)
    enc = rules.encoding
    assert st.score.shape == (462, 20)
    for r, roll in enumerate(enc.rolls):
        dice = tuple(int(f) + 1 for f in roll)
        for c, box in enumerate(rules.categories):
            assert st.score[r, c] == _plain(box, dice), (dice, box)


def test_five_dice_full_house_is_unchanged():
    """Exactly a triple and a pair (or five alike with fh5), scoring the fixed points or the sum."""
    for rules in RULE_SETS.values():
        if rules.n_dice != 5:
            continue
        st = scoring_tables(rules)
        for c, box in enumerate(rules.boxes):
            if box.kind != "full_house":
                continue
            for r, roll in enumerate(rules.encoding.rolls):
                counts = sorted(list(roll).count(f) for f in set(roll))
                fits = counts == [2, 3] or (box.five_alike and counts == [5])
                assert st.score[r, c] == ((box.fixed or sum(int(f) + 1 for f in roll)) if fits else 0)


def test_box_parts_are_checked_and_stored():
    with pytest.raises(ValueError, match="parts"):
        Box("odd", "full_house", parts=(3,))
    assert Box("villa", "full_house", parts=(3, 3)).to_dict() == {"name": "villa", "kind": "full_house",
                                                                  "parts": [3, 3]}
    assert "parts" not in Box("full_house", "full_house").to_dict()


# make test keeps the six upper boxes (six dice, the bonus 100 at 84: 5,440 states); make test-full adds three pairs.
@pytest.mark.parametrize("extra", [(), pytest.param((8,), marks=pytest.mark.full)])
def test_reduced_maxi_equals_a_plain_recursion(extra):
    from lookup.yahtzee.states import state_space
    from lookup.yahtzee.turn import analyse_final, final_outcomes
    from pipeline.yahtzee.solver import solve

    base = get_rules("maxi")
    boxes = base.boxes[:6] + tuple(base.boxes[c] for c in extra)
    rules = dataclasses.replace(base, name=f"maxi-{len(boxes)}-boxes", boxes=boxes)
    assert rules.n_boxes == 6 + len(extra) and rules.n_dice == 6
    sol = solve(rules)

    @cache
    def plain(mask: int, upper: int) -> float:
        if mask == rules.all_filled:
            return 0.0
        final = final_outcomes(rules, mask, upper, 0, lambda reward, nxt: reward + plain(nxt[0], nxt[1]))
        return analyse_final(rules, (mask, upper, 0), final).start_value

    space = state_space(rules)
    reachable = np.argwhere(space.reachable[:, :, 0])
    for mask, upper in reachable:
        assert abs(sol.value[mask, upper, 0] - plain(int(mask), int(upper))) < 1e-9, (mask, upper)
    assert len(reachable) > 400
    assert sol.value[0, 0, 0] > 0
