"""Yahtzee rules as data: the rule sets of GUIDE 3.1, the score of a roll in a box, Joker rules.

This module is the single definition of every rule. The numba kernels in ``pipeline.yahtzee`` use the
precomputed tables of :func:`scoring_tables` and compile the plain-integer helpers
:func:`scoring_options` and :func:`box_outcome` with ``numba.njit``; the query API calls the same
functions directly. Keep those two helpers numba-compatible (ints and bit operations only).

Conventions: categories are numbered in sheet order (``CATEGORIES``); a *filled mask* is a 13-bit
integer, bit ``c`` set when box ``c`` is filled; faces are 0-based in the encodings (face ``f`` shows
``f + 1`` pips); all scores are in points.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Any

import numpy as np

from lookup.naming import by_name
from lookup.yahtzee.encoding import DiceEncoding, get_encoding

__all__ = [
    "CATEGORIES", "N_CATEGORIES", "UPPER", "THREE_OF_A_KIND", "FOUR_OF_A_KIND", "FULL_HOUSE",
    "SMALL_STRAIGHT", "LARGE_STRAIGHT", "YAHTZEE", "CHANCE", "ALL_FILLED", "UPPER_MASK", "LOWER_MASK",
    "JOKER_CODES", "Rules", "RULE_SETS", "DEFAULT_RULES", "get_rules", "ScoringTables", "scoring_tables",
    "scoring_options", "box_outcome", "score_roll",
]

CATEGORIES: tuple[str, ...] = (
    "ones", "twos", "threes", "fours", "fives", "sixes",
    "three_of_a_kind", "four_of_a_kind", "full_house", "small_straight", "large_straight",
    "yahtzee", "chance",
)
N_CATEGORIES = 13
UPPER = 6  # categories 0..5 are the upper boxes, category f scores face f
THREE_OF_A_KIND, FOUR_OF_A_KIND, FULL_HOUSE = 6, 7, 8
SMALL_STRAIGHT, LARGE_STRAIGHT, YAHTZEE, CHANCE = 9, 10, 11, 12
ALL_FILLED = (1 << N_CATEGORIES) - 1
UPPER_MASK = (1 << UPPER) - 1
LOWER_MASK = ALL_FILLED & ~UPPER_MASK

# Joker modes as the small integers the kernels take.
JOKER_NONE, JOKER_FORCED, JOKER_FREE = 0, 1, 2
JOKER_CODES = {"none": JOKER_NONE, "forced": JOKER_FORCED, "free": JOKER_FREE}


@dataclass(frozen=True)
class Rules:
    """One Yahtzee rule set (immutable, hashable). All amounts are points.

    joker: ``"forced"`` (Hasbro: a Yahtzee rolled while the Yahtzee box is filled, with 50 or 0, must go
        in the matching upper box if open, else any open lower box at Joker values, else a zero in an open
        upper box), ``"free"`` (Verhoeff: only when both the Yahtzee box and the matching upper box are
        filled may the Yahtzee be scored in any open box, lower boxes at Joker values; otherwise normal
        scoring) or ``"none"`` (a Yahtzee always scores normally).
    yahtzee_bonus: points for each further Yahtzee rolled while the Yahtzee box holds 50 (0 = no bonus).
    bonus_in_optimisation: False when the solver must ignore the upper bonus (``seed``); the value
        tables then exclude it, although a real game still pays it.
    joker_scores: the Joker values of full house, small and large straight (others score the sum).
    """

    name: str
    description: str = ""
    n_dice: int = 5
    n_faces: int = 6
    categories: tuple[str, ...] = CATEGORIES
    upper_threshold: int = 63
    upper_bonus: int = 35
    yahtzee_bonus: int = 100
    joker: str = "forced"
    bonus_in_optimisation: bool = True
    full_house_score: int = 25
    small_straight_score: int = 30
    large_straight_score: int = 40
    yahtzee_score: int = 50
    joker_scores: tuple[int, int, int] = field(default=(25, 30, 40))

    def __post_init__(self) -> None:
        if self.joker not in JOKER_CODES:
            raise ValueError(f"joker must be one of {sorted(JOKER_CODES)}, not {self.joker!r}")
        if self.categories != CATEGORIES:
            raise ValueError("the Yahtzee categories are fixed (CATEGORIES, sheet order)")
        if self.n_faces != UPPER:
            raise ValueError("the upper section has one box per face: n_faces must be 6")

    @property
    def joker_code(self) -> int:
        """The joker mode as an int for the kernels (JOKER_NONE / JOKER_FORCED / JOKER_FREE)."""
        return JOKER_CODES[self.joker]

    @property
    def optimised_upper_bonus(self) -> int:
        """The upper bonus the optimisation counts (0 for ``seed``)."""
        return self.upper_bonus if self.bonus_in_optimisation else 0

    def to_dict(self) -> dict[str, Any]:
        """The full rules as a JSON-able dict (for artifact attributes)."""
        d = asdict(self)
        d["categories"] = list(self.categories)
        d["joker_scores"] = list(self.joker_scores)
        return d

    @property
    def encoding(self) -> DiceEncoding:
        return get_encoding(self.n_dice, self.n_faces)


RULE_SETS: dict[str, Rules] = {
    r.name: r
    for r in (
        Rules("hasbro", "Official Hasbro rules: forced Joker, Yahtzee bonus 100, upper bonus 35 at 63."),
        Rules("verhoeff", "Verhoeff's optimal-solitaire rules: free-choice Joker.", joker="free"),
        Rules(
            "seed",
            "Hasbro rules, but the optimisation ignores the upper bonus (the seed's ESPERANCE tables).",
            bonus_in_optimisation=False,
        ),
        Rules("no-joker", "No Joker rule; the Yahtzee bonus is kept.", joker="none"),
        Rules("plain", "Neither Joker rule nor Yahtzee bonus.", joker="none", yahtzee_bonus=0),
    )
}
DEFAULT_RULES = "hasbro"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules instance is returned unchanged)."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "Yahtzee rule set")


# ---------------------------------------------------------------------------------------------------
# Scores of a roll


def score_roll(rules: Rules, dice, category: int, joker: bool = False) -> int:
    """Points of ``dice`` (pips 1..n_faces, any order) in ``category``; ``joker`` applies Joker values.

    Joker values only change a five-alike roll: full house / small / large straight score
    ``rules.joker_scores``, the other boxes as usual (three/four of a kind and chance the sum).
    """
    pips = [int(d) for d in dice]
    counts = [pips.count(v) for v in range(1, rules.n_faces + 1)]
    total = sum(pips)
    alike = max(counts)
    if category < UPPER:
        return (category + 1) * counts[category]
    if joker and alike == rules.n_dice and category in (FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT):
        return rules.joker_scores[(FULL_HOUSE, SMALL_STRAIGHT, LARGE_STRAIGHT).index(category)]
    if category == THREE_OF_A_KIND:
        return total if alike >= 3 else 0
    if category == FOUR_OF_A_KIND:
        return total if alike >= 4 else 0
    if category == FULL_HOUSE:
        return rules.full_house_score if sorted(c for c in counts if c) == [2, 3] else 0
    if category in (SMALL_STRAIGHT, LARGE_STRAIGHT):
        need = 4 if category == SMALL_STRAIGHT else 5
        run = best = 0
        for c in counts:
            run = run + 1 if c else 0
            best = max(best, run)
        if best >= need:
            return rules.small_straight_score if category == SMALL_STRAIGHT else rules.large_straight_score
        return 0
    if category == YAHTZEE:
        return rules.yahtzee_score if alike == rules.n_dice else 0
    if category == CHANCE:
        return total
    raise ValueError(f"category must be 0..{N_CATEGORIES - 1}, not {category}")


@dataclass(frozen=True, eq=False)
class ScoringTables:
    """Scores of every sorted roll (encoding order) in every box; read-only int64 arrays.

    score[R, 13]: normal points. joker_score[R, 13]: points when Joker values apply (differs from
    ``score`` only on five-alike rolls in full house / straights). yahtzee_face[R]: face of a
    five-alike roll, -1 otherwise.
    """

    score: np.ndarray
    joker_score: np.ndarray
    yahtzee_face: np.ndarray


@cache
def scoring_tables(rules: Rules) -> ScoringTables:
    """The score tables of ``rules`` (cached)."""
    enc = rules.encoding
    score = np.zeros((enc.n_rolls, N_CATEGORIES), dtype=np.int64)
    joker = np.zeros_like(score)
    for r, roll in enumerate(enc.rolls):
        pips = [int(f) + 1 for f in roll]
        for c in range(N_CATEGORIES):
            score[r, c] = score_roll(rules, pips, c)
            joker[r, c] = score_roll(rules, pips, c, joker=True)
    yface = enc.yahtzee_face.copy()
    for a in (score, joker, yface):
        a.setflags(write=False)
    return ScoringTables(score=score, joker_score=joker, yahtzee_face=yface)


# ---------------------------------------------------------------------------------------------------
# The Joker rule and the bookkeeping of a scored box. Plain-int functions: numba compiles them as is.


def scoring_options(joker_code: int, filled_mask: int, yahtzee_face: int) -> tuple[int, int]:
    """Which boxes a final roll may be scored in, and whether Joker values apply.

    joker_code: ``Rules.joker_code``; filled_mask: boxes already filled; yahtzee_face: the face of a
    five-alike roll, -1 for any other roll. Returns ``(allowed, use_joker)``: ``allowed`` a bitmask of
    categories (never empty while a box is open) and ``use_joker`` 1 when the points come from
    ``ScoringTables.joker_score`` instead of ``score``.
    """
    open_mask = ALL_FILLED & ~filled_mask
    if yahtzee_face < 0 or joker_code == JOKER_NONE or (filled_mask >> YAHTZEE) & 1 == 0:
        return open_mask, 0
    upper_bit = 1 << yahtzee_face
    if joker_code == JOKER_FORCED:
        if open_mask & upper_bit:
            return upper_bit, 0
        lower_open = open_mask & LOWER_MASK
        if lower_open:
            return lower_open, 1
        return open_mask, 0  # only upper boxes of other faces are open: a zero in one of them
    # Free-choice Joker: only when the matching upper box is filled too.
    if filled_mask & upper_bit:
        return open_mask, 1
    return open_mask, 0


def box_outcome(
    category: int,
    box_points: int,
    upper: int,
    ybox: int,
    yahtzee_roll: int,
    upper_threshold: int,
    upper_bonus: int,
    yahtzee_bonus: int,
) -> tuple[int, int, int]:
    """Points earned by scoring ``box_points`` in ``category`` and the next (upper, ybox).

    upper: upper total so far, capped at ``upper_threshold``; ybox: 1 if the Yahtzee box holds 50;
    yahtzee_roll: 1 if the scored roll is five alike. The reward adds the upper bonus in the turn the
    threshold is reached and ``yahtzee_bonus`` when a five-alike roll is scored while the Yahtzee box
    holds 50. Returns ``(reward, next_upper, next_ybox)``; the next upper total is capped.
    """
    reward = box_points
    next_upper = upper
    next_ybox = ybox
    if category < UPPER:
        next_upper = min(upper_threshold, upper + box_points)
        if upper < upper_threshold <= next_upper:
            reward += upper_bonus
    elif category == YAHTZEE and box_points > 0:
        next_ybox = 1
    if yahtzee_roll and ybox:
        reward += yahtzee_bonus
    return reward, next_upper, next_ybox
