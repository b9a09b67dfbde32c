"""Scoring, Joker rules, rule sets and encodings of Yahtzee (docs/yahtzee.md, "Rules"), by hand-written cases."""

import itertools
import json
import math
from collections import Counter

import numpy as np
import pytest

from lookup.yahtzee import CATEGORIES, RULE_SETS, get_rules
from lookup.yahtzee.encoding import get_encoding
from lookup.yahtzee.rules import (
    ALL_FILLED,
    CHANCE,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    LARGE_STRAIGHT,
    SMALL_STRAIGHT,
    THREE_OF_A_KIND,
    YAHTZEE,
    box_outcome,
    score_roll,
    scoring_options,
    scoring_tables,
)
from lookup.yahtzee.sheet import Sheet
from lookup.yahtzee.states import state_space

HASBRO = get_rules("hasbro")


def bits(*cats: int) -> int:
    return sum(1 << c for c in cats)


def allowed_set(rules, filled: int, dice) -> tuple[set[int], bool]:
    face = dice[0] - 1 if len(set(dice)) == 1 else -1
    allowed, joker = scoring_options(rules.joker_code, filled, face)
    return {c for c in range(13) if (allowed >> c) & 1}, bool(joker)


# ------------------------------------------------------------------------------------------ categories


@pytest.mark.parametrize(
    "dice, expected",
    [
        ((1, 1, 1, 1, 1), dict(ones=5, three_of_a_kind=5, four_of_a_kind=5, yahtzee=50, chance=5)),
        ((6, 6, 6, 6, 6), dict(sixes=30, three_of_a_kind=30, four_of_a_kind=30, yahtzee=50, chance=30)),
        ((2, 2, 3, 3, 3), dict(twos=4, threes=9, three_of_a_kind=13, full_house=25, chance=13)),
        ((4, 4, 4, 4, 2), dict(twos=2, fours=16, three_of_a_kind=18, four_of_a_kind=18, chance=18)),
        ((1, 2, 3, 4, 6), dict(ones=1, twos=2, threes=3, fours=4, sixes=6, small_straight=30, chance=16)),
        ((3, 4, 5, 6, 6), dict(threes=3, fours=4, fives=5, sixes=12, small_straight=30, chance=24)),
        ((2, 3, 4, 5, 6), dict(twos=2, threes=3, fours=4, fives=5, sixes=6, small_straight=30,
                               large_straight=40, chance=20)),
        ((1, 2, 3, 4, 5), dict(ones=1, twos=2, threes=3, fours=4, fives=5, small_straight=30,
                               large_straight=40, chance=15)),
        ((1, 2, 3, 5, 6), dict(ones=1, twos=2, threes=3, fives=5, sixes=6, chance=17)),
        ((1, 1, 2, 2, 3), dict(ones=2, twos=4, threes=3, chance=9)),
        ((5, 5, 5, 1, 2), dict(ones=1, twos=2, fives=15, three_of_a_kind=18, chance=18)),
    ],
)
def test_scores_every_category(dice, expected):
    for order in (dice, dice[::-1]):
        got = {CATEGORIES[c]: score_roll(HASBRO, order, c) for c in range(13)}
        assert got == {name: expected.get(name, 0) for name in CATEGORIES}


def test_joker_values_only_change_five_alike_in_fh_and_straights():
    assert [score_roll(HASBRO, (3,) * 5, c, joker=True) for c in range(6, 13)] == [15, 15, 25, 30, 40, 50, 15]
    assert score_roll(HASBRO, (2, 2, 3, 3, 3), FULL_HOUSE, joker=True) == 25
    assert score_roll(HASBRO, (2, 2, 3, 3, 4), FULL_HOUSE, joker=True) == 0


def test_score_tables_match_score_roll():
    enc = get_encoding(5, 6)
    st = scoring_tables(HASBRO)
    for r in range(enc.n_rolls):
        pips = [int(f) + 1 for f in enc.rolls[r]]
        for c in range(13):
            assert st.score[r, c] == score_roll(HASBRO, pips, c)
            assert st.joker_score[r, c] == score_roll(HASBRO, pips, c, joker=True)
    assert (st.yahtzee_face >= 0).sum() == 6


# ------------------------------------------------------------------------------------------ Joker rules

LOWER = {6, 7, 8, 9, 10, 11, 12}


@pytest.mark.parametrize("name", ["hasbro", "seed"])
def test_forced_joker(name):
    rules = get_rules(name)
    fours = (4, 4, 4, 4, 4)
    # Yahtzee box open: normal scoring, any open box.
    assert allowed_set(rules, bits(0, 1), fours) == (set(range(13)) - {0, 1}, False)
    # The options as the kernels see them (filled boxes and the face; the Yahtzee box's points are not an input).
    assert allowed_set(rules, bits(YAHTZEE), fours) == ({3}, False)
    assert allowed_set(rules, bits(YAHTZEE, 3, FULL_HOUSE), fours) == (LOWER - {YAHTZEE, FULL_HOUSE}, True)
    assert allowed_set(rules, ALL_FILLED & ~bits(0, 5), fours) == ({0, 5}, False)
    lowest = {name: 5 if name == "chance" else 0 for name in CATEGORIES}  # chance holds at least 5
    for ybox_filled_with in (50, 0):  # the Joker applies whether the box holds 50 or 0; only the +100 differs
        bonus = rules.yahtzee_bonus if ybox_filled_with == 50 else 0
        # Yahtzee box filled, matching upper box (fours) open: it must go there.
        sheet = Sheet.parse({"yahtzee": ybox_filled_with}, rules)
        assert sheet.allowed(fours) == {"fours": 20}
        assert sheet.score("fours", fours) == 20 + bonus and sheet.yahtzee_bonus == bonus
        # Matching upper box filled: any open lower box, at Joker values (25 / 30 / 40, else the sum).
        sheet = Sheet.parse({"yahtzee": ybox_filled_with, "fours": 12, "full_house": 25}, rules)
        assert sheet.allowed(fours) == {"three_of_a_kind": 20, "four_of_a_kind": 20, "small_straight": 30,
                                        "large_straight": 40, "chance": 20}
        assert sheet.score("large_straight", fours) == 40 + bonus and sheet.yahtzee_bonus == bonus
        # Every lower box filled: a zero in an open upper box.
        sheet = Sheet.parse({**lowest, "yahtzee": ybox_filled_with, "ones": None, "sixes": None}, rules)
        assert sheet.allowed(fours) == {"ones": 0, "sixes": 0}
        assert sheet.score("sixes", fours) == bonus and sheet.yahtzee_bonus == bonus
        with pytest.raises(ValueError, match="box chance is filled"):
            sheet.score("chance", fours)
    # Not five alike: never a Joker.
    assert allowed_set(rules, bits(YAHTZEE, 3), (4, 4, 4, 4, 5)) == (set(range(13)) - {3, YAHTZEE}, False)


def test_free_joker_verhoeff():
    rules = get_rules("verhoeff")
    twos = (2, 2, 2, 2, 2)
    open_all = set(range(13))
    # Yahtzee box open, or matching upper box open: normal scoring in any open box.
    assert allowed_set(rules, bits(1), twos) == (open_all - {1}, False)
    assert allowed_set(rules, bits(YAHTZEE), twos) == (open_all - {YAHTZEE}, False)
    # Both filled: anywhere, lower boxes at Joker values.
    assert allowed_set(rules, bits(YAHTZEE, 1), twos) == (open_all - {YAHTZEE, 1}, True)


@pytest.mark.parametrize("name", ["no-joker", "plain"])
def test_no_joker(name):
    rules = get_rules(name)
    for filled in (0, bits(YAHTZEE), bits(YAHTZEE, 2), ALL_FILLED & ~bits(FULL_HOUSE, 2)):
        opened = {c for c in range(13) if not (filled >> c) & 1}
        assert allowed_set(rules, filled, (3,) * 5) == (opened, False)


def test_yahtzee_bonus_and_upper_bonus_bookkeeping():
    for name, bonus in [("hasbro", 100), ("verhoeff", 100), ("seed", 100), ("no-joker", 100), ("plain", 0)]:
        r = get_rules(name)
        args = (r.upper_threshold, r.upper_bonus, r.yahtzee_bonus)
        assert r.yahtzee_bonus == bonus
        # A Yahtzee rolled while the box holds 50 earns the bonus wherever it is scored.
        assert box_outcome(CHANCE, 30, 0, 1, 1, *args) == (30 + bonus, 0, 1)
        assert box_outcome(3, 20, 10, 1, 1, *args) == (20 + bonus, 30, 1)
        # ... not while it holds 0, and not for other rolls.
        assert box_outcome(CHANCE, 30, 0, 0, 1, *args) == (30, 0, 0)
        assert box_outcome(CHANCE, 29, 0, 1, 0, *args) == (29, 0, 1)
        # Scoring 50 in the Yahtzee box sets the flag; a zero there does not.
        assert box_outcome(YAHTZEE, 50, 5, 0, 1, *args) == (50, 5, 1)
        assert box_outcome(YAHTZEE, 0, 5, 0, 0, *args) == (0, 5, 0)
        # Upper bonus in the turn the total reaches 63, once; the total is capped.
        assert box_outcome(5, 18, 45, 0, 0, *args) == (18 + 35, 63, 0)
        assert box_outcome(5, 24, 60, 0, 0, *args) == (24 + 35, 63, 0)
        assert box_outcome(5, 24, 63, 0, 0, *args) == (24, 63, 0)
        assert box_outcome(5, 12, 50, 0, 0, *args) == (12, 62, 0)
        assert box_outcome(THREE_OF_A_KIND, 12, 62, 0, 0, *args) == (12, 62, 0)
    assert get_rules("seed").optimised_upper_bonus == 0 and get_rules("seed").upper_bonus == 35
    assert get_rules("hasbro").optimised_upper_bonus == 35


# ------------------------------------------------------------------------------------------ rule sets


AMERICAN = ["hasbro", "verhoeff", "seed", "no-joker", "plain"]


def test_rule_sets_and_lookup():
    assert list(RULE_SETS)[:5] == AMERICAN
    assert get_rules() is RULE_SETS["hasbro"]
    assert [RULE_SETS[n].joker for n in AMERICAN] == ["forced", "free", "forced", "none", "none"]
    with pytest.raises(ValueError, match=r"'yatzy'.*hasbro.*verhoeff.*seed.*no-joker.*plain"):
        get_rules("yatzy")
    for rules in map(RULE_SETS.get, AMERICAN):
        d = json.loads(json.dumps(rules.to_dict()))
        assert d["name"] == rules.name and d["categories"] == list(CATEGORIES)
        assert d["upper_threshold"] == 63 and d["upper_bonus"] == 35
    assert CATEGORIES[SMALL_STRAIGHT] == "small_straight" and CATEGORIES[LARGE_STRAIGHT] == "large_straight"
    assert CATEGORIES[FOUR_OF_A_KIND] == "four_of_a_kind"


# ------------------------------------------------------------------------------------------ encodings


@pytest.mark.parametrize("n_dice, n_faces", [(5, 6), (3, 4), (2, 6)])
def test_encoding_counts_and_probabilities(n_dice, n_faces):
    enc = get_encoding(n_dice, n_faces)
    assert enc.n_rolls == math.comb(n_dice + n_faces - 1, n_dice)
    assert enc.n_keeps == sum(math.comb(m + n_faces - 1, m) for m in range(n_dice + 1))
    # Probabilities from brute force over ordered throws.
    counts = Counter(tuple(sorted(t)) for t in itertools.product(range(n_faces), repeat=n_dice))
    for key, n in counts.items():
        assert enc.roll_prob[enc.roll_index(key)] == pytest.approx(n / n_faces**n_dice, rel=1e-12)
    assert enc.roll_prob.sum() == pytest.approx(1.0, abs=1e-14)
    for k, keep in enumerate(enc.keeps):
        for f in range(n_faces):
            if len(keep) < n_dice:
                assert enc.keeps[enc.add_die[k, f]] == tuple(sorted(keep + (f,)))
            if f in keep:
                assert Counter(enc.keeps[enc.remove_die[k, f]]) + Counter([f]) == Counter(keep)


def test_reroll_masks_over_sorted_dice():
    enc = get_encoding(5, 6)
    r = enc.roll_index([4, 0, 2, 2, 5])  # sorted 0 2 2 4 5
    assert enc.keeps[enc.keep_of_mask[r, 0]] == (0, 2, 2, 4, 5)
    assert enc.keeps[enc.keep_of_mask[r, 0b00001]] == (2, 2, 4, 5)
    assert enc.keeps[enc.keep_of_mask[r, 0b11000]] == (0, 2, 2)
    assert enc.keeps[enc.keep_of_mask[r, 0b11111]] == ()
    assert enc.mask_for_keep(r, enc.keep_index([2, 4, 5])) == 0b00011
    order = list(enc.mask_order)
    assert order[0] == 0 and order[1:6] == [1, 2, 4, 8, 16] and order[-1] == 31


def test_state_space_reachability():
    space = state_space(HASBRO)
    reach = space.reachable
    # Independent count: per filled upper set, the distinct capped sums of (f+1)*k.
    n_upper = {}
    for m in range(64):
        faces = [f for f in range(6) if (m >> f) & 1]
        sums = {min(63, sum((f + 1) * k for f, k in zip(faces, ks, strict=True)))
                for ks in itertools.product(range(6), repeat=len(faces))}
        n_upper[m] = len(sums)
    # 2^7 lower masks; ybox doubles the states where the Yahtzee box is filled (2^6 of them).
    expected = sum(n_upper[m] for m in range(64)) * (2**6 * 1 + 2**6 * 2)
    assert reach.sum() == expected == 536448
    assert not reach[0, 1, 0] and reach[0, 0, 0] and not reach[0, 0, 1]
    assert reach[1 << YAHTZEE, 0, 1] and not reach[1, 6, 0] and reach[1, 5, 0]
    assert space.state_index[0, 0, 0] == 0
    assert np.array_equal(space.state_index >= 0, reach)
