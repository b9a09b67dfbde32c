"""The coach's exact probabilities against brute-force enumeration of every ordered outcome of the dice,
with the reroll choices of ``decide`` (policy table) and a pattern check written here."""

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product

from lookup.yahtzee import CATEGORIES, decide
from lookup.yahtzee.coach import coach

SHEET = {"ones": 2, "chance": 21, "yahtzee": 50}


def made(dice: tuple[int, ...]) -> set[str]:
    """Boxes the final dice score more than 0 in (normal scoring), checked by their patterns."""
    counts, faces = Counter(dice), set(dice)
    out = {CATEGORIES[f - 1] for f in faces} | {"chance"}
    if max(counts.values()) >= 3:
        out.add("three_of_a_kind")
    if max(counts.values()) >= 4:
        out.add("four_of_a_kind")
    if sorted(counts.values()) == [2, 3]:
        out.add("full_house")
    if any(set(run) <= faces for run in ((1, 2, 3, 4), (2, 3, 4, 5), (3, 4, 5, 6))):
        out.add("small_straight")
    if faces in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}):
        out.add("large_straight")
    if len(faces) == 1:
        out.add("yahtzee")
    return out


def brute(keep: tuple[int, ...], rerolls: int, artifacts) -> tuple[Counter, Counter]:
    """(made, scored) probabilities: every ordered outcome of the rerolled dice equally likely."""

    @cache
    def final(dice: tuple[int, ...], left: int) -> tuple[Counter, Counter]:
        if left == 0:
            return Counter(dict.fromkeys(made(dice), Fraction(1))), Counter(
                {decide(dice, 0, SHEET, artifacts_dir=artifacts).category: Fraction(1)})
        return spread(tuple(decide(dice, left, SHEET, artifacts_dir=artifacts).keep), left - 1)

    def spread(kept: tuple[int, ...], left: int) -> tuple[Counter, Counter]:
        m, s = Counter(), Counter()
        outcomes = list(product(range(1, 7), repeat=5 - len(kept)))
        for rolled in outcomes:
            mm, ss = final(tuple(sorted(kept + rolled)), left)
            m.update(mm)
            s.update(ss)
        return (Counter({k: v / len(outcomes) for k, v in m.items()}),
                Counter({k: v / len(outcomes) for k, v in s.items()}))

    return spread(keep, rerolls - 1)


def test_coach_matches_enumeration(web_artifacts):
    cases = (([1, 3, 3, 5, 6], 1, None), ([2, 2, 4, 5, 5], 2, {(2, 2, 5, 5), (2, 4, 5), (5, 5, 5)}))
    for dice, rerolls, keeps in cases:
        outlooks = coach(dice, rerolls, SHEET, artifacts_dir=web_artifacts)
        checked = 0
        for o in outlooks:
            if keeps is not None and o.keep not in keeps:
                continue
            m, s = brute(o.keep, rerolls, web_artifacts)
            assert o.made == {c: m[c] for c in CATEGORIES}, o.keep
            assert o.scored == {c: s[c] for c in CATEGORIES}, o.keep
            checked += 1
        assert checked == (len(outlooks) if keeps is None else 2)  # (5, 5, 5) is not a keep of the roll
    assert outlooks[0].regret == 0 and all(o.regret >= 0 for o in outlooks)
