"""151 rules as data (stated in docs/g151.md, "Rules"): the variants, the score of a roll of three dice, its exact law.

This module is the single definition of the rules: the numba kernels of ``pipeline.g151`` take the roll
law from :func:`kernel_roll_law` and the per-outcome scores from :func:`points_by_dice`, and the query
API validates its input with the helpers at the end.

Every score of 151 is a multiple of ``UNIT`` = 50 points. Tables and kernels count in units (1 unit = 50
points; a target of 1000 points is 20 units); the public API speaks points.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from math import factorial
from typing import Any

import numpy as np

from lookup.naming import by_name
from lookup.validate import integer, integer_sequence

UNIT = 50  # points per table unit
STRAIGHT_POINTS = (((1, 2, 3), 200), ((2, 3, 4), 100), ((3, 4, 5), 150), ((4, 5, 6), 150))


@dataclass(frozen=True)
class Rules:
    """One 151 variant (immutable, hashable). Amounts are points.

    triple_points[f - 1]: three dice showing face f (three 1s = 700, else 100 f).
    face_points[f - 1]: points of each die showing f when the roll is not a triple (100 per 1, 50 per 5).
    straights: (sorted faces, points) pairs that replace the usual value of those rolls.
    zero_keeps_turn: a roll worth 0 after the first roll of a turn ends the turn but BANKS the turn total
        (the notebook's code); otherwise a 0 loses the turn total (the stated rules). A 0 on the first roll
        of a turn always ends it with nothing.
    failed_turns_count: solitaire counts every turn (stated rules); False counts only the turns that bank
        points (the notebook's ``unePartieSeul`` records a turn only when its score changes).
    Under every variant the target must be reached exactly: a turn whose total would overshoot the target
    scores nothing.
    """

    name: str
    description: str = ""
    n_dice: int = 3
    n_faces: int = 6
    triple_points: tuple[int, ...] = (700, 200, 300, 400, 500, 600)
    face_points: tuple[int, ...] = (100, 0, 0, 0, 50, 0)
    straights: tuple[tuple[tuple[int, ...], int], ...] = ()
    zero_keeps_turn: bool = False
    failed_turns_count: bool = True

    def to_dict(self) -> dict[str, Any]:
        """The rules as stored in the artifacts' attributes (JSON: tuples become lists)."""
        data = asdict(self)
        data["unit"] = UNIT
        data["straights"] = [[list(faces), pts] for faces, pts in self.straights]
        return data


RULE_SETS: dict[str, Rules] = {
    "stated": Rules(
        name="stated",
        description="the rules as stated (docs/g151.md): a 0 loses the turn total; every turn counts",
    ),
    "straights": Rules(
        name="straights",
        description="stated rules, and the straights 123 = 200, 234 = 100, 345 = 456 = 150 replace their usual value",
        straights=STRAIGHT_POINTS,
    ),
    "notebook": Rules(
        name="notebook",
        description="the notebook's code: a 0 after the first roll ends the turn but banks the turn total; "
        "solitaire counts only the turns that bank points",
        zero_keeps_turn=True,
        failed_turns_count=False,
    ),
}
DEFAULT_RULES = "stated"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The variant called ``name`` (a Rules passes through); ValueError for an unknown variant."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "151 variant")


def roll_points(dice: tuple[int, ...] | list[int], rules: Rules | str = DEFAULT_RULES) -> int:
    """Points of one roll of three dice (faces 1..6), in points."""
    rules = get_rules(rules)
    faces = tuple(sorted(integer_sequence(dice, "dice", rules.n_dice, 1, rules.n_faces)))
    if faces[0] == faces[-1]:
        return rules.triple_points[faces[0] - 1]
    for straight, pts in rules.straights:
        if faces == tuple(straight):
            return pts
    return sum(rules.face_points[f - 1] for f in faces)


def roll_counts(rules: Rules | str = DEFAULT_RULES) -> dict[int, int]:
    """{points: number of the 6**3 ordered outcomes scoring them}, by sorted multisets and their
    multinomial multiplicities (the tests check it against plain enumeration of the 216 outcomes)."""
    return dict(_roll_counts(get_rules(rules)))  # a copy: the caller may change it


@cache
def _roll_counts(rules: Rules) -> dict[int, int]:
    counts: dict[int, int] = {}
    for faces in combinations_with_replacement(range(1, rules.n_faces + 1), rules.n_dice):
        ways = factorial(rules.n_dice)
        for f in set(faces):
            ways //= factorial(faces.count(f))
        pts = roll_points(faces, rules)
        counts[pts] = counts.get(pts, 0) + ways
    return dict(sorted(counts.items()))


def roll_distribution(rules: Rules | str = DEFAULT_RULES) -> dict[int, Fraction]:
    """Exact law of the points of one roll: {points: probability}."""
    rules = get_rules(rules)
    total = rules.n_faces**rules.n_dice
    return {pts: Fraction(c, total) for pts, c in roll_counts(rules).items()}


def roll_moments(rules: Rules | str = DEFAULT_RULES) -> tuple[Fraction, Fraction]:
    """(mean, variance) of the points of one roll, exactly (points, points squared)."""
    law = roll_distribution(rules)
    mean = sum(p * v for v, p in law.items())
    return mean, sum(p * (v - mean) ** 2 for v, p in law.items())


def kernel_roll_law(rules: Rules | str = DEFAULT_RULES) -> tuple[np.ndarray, np.ndarray, float]:
    """The roll law as the kernels take it: (steps, probs, p_zero).

    steps[k] (int64, units >= 1): a nonzero roll value; probs[k] (float64) its probability, each the
    exact fraction rounded once; p_zero: probability that the roll is worth 0.
    """
    law = roll_distribution(rules)
    nonzero = [(v // UNIT, p) for v, p in law.items() if v]
    steps = np.array([s for s, _ in nonzero], dtype=np.int64)
    probs = np.array([float(p) for _, p in nonzero], dtype=np.float64)
    return steps, probs, float(law.get(0, Fraction(0)))


def points_by_dice(rules: Rules | str = DEFAULT_RULES) -> np.ndarray:
    """units[d1 - 1, d2 - 1, d3 - 1] (int64): value in units of every ordered outcome (for simulation)."""
    rules = get_rules(rules)
    n = rules.n_faces
    out = np.empty((n,) * rules.n_dice, dtype=np.int64)
    for index in np.ndindex(*out.shape):
        out[index] = roll_points([i + 1 for i in index], rules) // UNIT
    return out


def to_units(points: Any, what: str) -> int:
    """A score in points as table units; ValueError unless it is a non-negative multiple of UNIT."""
    points = integer(points, what)
    if points < 0 or points % UNIT:
        raise ValueError(f"{what} must be a non-negative multiple of {UNIT} points, got {points}")
    return int(points) // UNIT


def target_units(target: Any) -> int:
    """The target (points) in units; ValueError unless it is a positive multiple of UNIT."""
    n = to_units(target, "target")
    if n < 1:
        raise ValueError(f"target must be a positive multiple of {UNIT} points, got {target}")
    return n
