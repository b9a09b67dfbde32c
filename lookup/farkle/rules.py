"""Farkle's rules as data (stated in docs/farkle.md, "Rules"): what scores, what a turn is, the farkle penalty,
the end of the game. One definition for everything: the solver (``pipeline.farkle``), the protocol game
(``lookup.farkle.game``) and the answers (``lookup.farkle.play``) read these functions.

A **size** is what a table is built for: the ``target`` (a banked score of at least the target wins), the
``floor`` (the lowest banked score: the farkle penalty never takes a score below it; the published analysis
bounds scores at -2,500) and the number of ``dice``. The published game is ``FULL`` = (10,000, -2,500, 6);
reduced sizes (a smaller target, a higher floor, fewer dice) are the same rules on a smaller board, for the
default build and for the tests' brute force.

Points are multiples of ``Rules.unit`` (50): the solver counts in units, every function here in points.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple

from lookup.naming import by_name
from lookup.validate import integer, shown
from lookup.words import counted

ROLL, BANK = "roll", "bank"
FACES = 6


@dataclass(frozen=True)
class Rules:
    """One scoring and turn rule set (docs/farkle.md, "Rules").

    Singles: each 1 scores ``one``, each 5 ``five``. Three of a kind of face f scores ``triples[f - 1]``; k of
    a kind (k >= 3) scores (k - 2) times that when ``kinds`` is "add" (each additional die adds the value of the
    three again), 2 ** (k - 3) times that when it is "double" (each additional die doubles it). Six dice
    showing 1..6 score ``straight``; three pairs ``three_pairs`` (four of a kind and a pair count as three
    pairs only when ``quad_pair``: not in Facebook Farkle, whose published first-player figure rules it out,
    docs/farkle.md). Dice score only with dice of the same roll; when a set of dice can be read in several ways
    it scores the most. A turn total of at least ``min_bank`` may be banked; ``farkle_limit`` farkles in a row
    cost ``penalty`` (never below the size's floor) and start the count again.
    """

    name: str = "facebook"
    one: int = 100
    five: int = 50
    triples: tuple[int, ...] = (1000, 200, 300, 400, 500, 600)
    straight: int = 1500
    three_pairs: int = 750
    quad_pair: bool = False
    kinds: str = "add"
    min_bank: int = 300
    penalty: int = 500
    farkle_limit: int = 3
    unit: int = 50

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "one": self.one, "five": self.five, "triples": list(self.triples),
                "kinds": self.kinds, "straight": self.straight, "three_pairs": self.three_pairs,
                "quad_pair": self.quad_pair, "min_bank": self.min_bank, "penalty": self.penalty,
                "farkle_limit": self.farkle_limit, "unit": self.unit}


RULE_SETS: dict[str, Rules] = {"facebook": Rules()}
DEFAULT_RULES = "facebook"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules passes through); ValueError for an unknown one."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "Farkle rule set")


class Size(NamedTuple):
    """What a table is built for: the target, the floor of banked scores, the number of dice (points)."""

    target: int
    floor: int
    dice: int

    def text(self) -> str:
        return f"target {self.target}, floor {self.floor}, {counted(self.dice, 'die')}"


FULL = Size(10_000, -2_500, 6)  # the published two-player game
MAX_TARGET = 20_000  # the largest target a table may be built or asked for
MIN_FLOOR = -10_000


def check_size(target: Any, floor: Any, dice: Any, rules: Rules | None = None) -> Size:
    """(target, floor, dice) as a Size; ValueError naming the bad one: the target a positive multiple of the
    unit up to MAX_TARGET, the floor a multiple of the unit in MIN_FLOOR..0, dice 1..6."""
    r = rules or get_rules()
    t = integer(target, "target", r.unit, MAX_TARGET)
    f = integer(floor, "floor", MIN_FLOOR, 0)
    d = integer(dice, "dice", 1, FACES)
    for name, v in (("target", t), ("floor", f)):
        if v % r.unit:
            raise ValueError(f"{name} must be a multiple of {r.unit}, got {v}")
    return Size(t, f, d)


# -- scoring --------------------------------------------------------------------------------------------------


def counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many of each face 1..6 ``dice`` show."""
    c = [0] * FACES
    for d in dice:
        c[d - 1] += 1
    return tuple(c)


def kind_points(rules: Rules, face: int, k: int) -> int:
    """The points of k >= 3 dice of ``face`` set aside together."""
    triple = rules.triples[face - 1]
    return (k - 2) * triple if rules.kinds == "add" else 2 ** (k - 3) * triple


def _face_points(rules: Rules, face: int, k: int) -> int | None:
    """The most ``k`` dice of ``face`` score on their own (None: some die would not score)."""
    single = rules.one if face == 1 else rules.five if face == 5 else 0
    best = 0 if k == 0 else (k * single if single else None)
    for kind in range(3, k + 1):
        rest = k - kind
        if rest and not single:
            continue
        pts = kind_points(rules, face, kind) + rest * single
        best = pts if best is None else max(best, pts)
    if k == 6:  # two triples of one face (never more than six of a kind, but a rule set may say otherwise)
        best = max(best or 0, 2 * rules.triples[face - 1])
    return best


@cache
def _points_of_counts(rules: Rules, c: tuple[int, ...]) -> int | None:
    n = sum(c)
    best = None
    per_face = [_face_points(rules, f + 1, k) for f, k in enumerate(c)]
    if n and all(p is not None for p in per_face):
        best = sum(per_face)  # type: ignore[arg-type]
    if n == 6:
        if all(k == 1 for k in c):
            best = max(best or 0, rules.straight)
        shape = sorted(k for k in c if k)
        if shape == [2, 2, 2] or (rules.quad_pair and shape == [2, 4]):
            best = max(best or 0, rules.three_pairs)
    return best


def points(dice: Sequence[int], rules: Rules | None = None) -> int | None:
    """The points for setting aside exactly ``dice`` (faces 1..6) from one roll: the most any reading of
    them as scoring combinations gives; None when some die would not score (or no dice)."""
    return _points_of_counts(rules or get_rules(), counts(dice))


class Keep(NamedTuple):
    """Setting aside ``dice`` (sorted faces) from a roll scores ``points``."""

    dice: tuple[int, ...]
    points: int


@cache
def keeps(roll: tuple[int, ...], rules: Rules | None = None) -> tuple[Keep, ...]:
    """Every way to set aside scoring dice from ``roll`` (a sorted tuple of faces): each non-empty
    sub-multiset whose every die scores, with its points; ordered by more dice first, then more points, then
    the faces. Empty: the roll farkles."""
    r = rules or get_rules()
    c = counts(roll)
    out = []
    for sub in itertools.product(*(range(k + 1) for k in c)):
        pts = _points_of_counts(r, sub)
        if pts is not None:
            out.append(Keep(tuple(f + 1 for f, k in enumerate(sub) for _ in range(k)), pts))
    return tuple(sorted(out, key=lambda k: (-len(k.dice), -k.points, k.dice)))


def best_keeps(roll: tuple[int, ...], rules: Rules | None = None) -> dict[int, Keep]:
    """{number of dice set aside: the keep of that many dice scoring the most} (the first in ``keeps`` order).

    Setting aside k dice leaves the same dice to roll whatever they are, and more turn points are never
    worse (docs/farkle.md, "Which choices the solver compares"): a keep that scores less than another of
    the same size is never better, so only these are compared."""
    out: dict[int, Keep] = {}
    for k in keeps(roll, rules):
        if len(k.dice) not in out:
            out[len(k.dice)] = k
    return out


@cache
def roll_outcomes(n: int) -> tuple[tuple[tuple[int, ...], Fraction], ...]:
    """Every outcome of rolling ``n`` dice as a sorted tuple of faces, with its exact probability (sorted
    tuples in lexicographic order; the probabilities sum to 1)."""
    integer(n, "dice", 1, FACES)
    out = []
    for roll in itertools.combinations_with_replacement(range(1, FACES + 1), n):
        ways = math.factorial(n)
        for k in counts(roll):
            ways //= math.factorial(k)
        out.append((roll, Fraction(ways, FACES ** n)))
    return tuple(out)


@cache
def farkle_probability(n: int, rules: Rules | None = None) -> Fraction:
    """The exact probability that a roll of ``n`` dice scores nothing."""
    return sum((p for roll, p in roll_outcomes(n) if not keeps(roll, rules)), Fraction(0))


def parse_roll(dice: Any, n: int | None = None) -> tuple[int, ...]:
    """``dice`` (a list of faces 1..6) as a sorted tuple; ValueError naming the problem (not a list, a face
    out of range, not ``n`` dice when ``n`` is given)."""
    if not isinstance(dice, list | tuple):
        raise ValueError(f"dice must be a list of faces 1..6, got {shown(dice)}")
    if not 1 <= len(dice) <= FACES:
        raise ValueError(f"dice must be 1 to 6 faces, got {len(dice)}")
    faces = tuple(sorted(integer(d, "a die", 1, FACES) for d in dice))
    if n is not None and len(faces) != n:
        raise ValueError(f"{len(faces)} dice given, but {n} are rolled here")
    return faces


# -- the turn and the game ------------------------------------------------------------------------------------


def dice_after(dice: int, kept: int, size: Size) -> int:
    """Dice to roll after setting aside ``kept`` of ``dice``: the rest, or all of them again (hot dice)."""
    left = dice - kept
    return left if left else size.dice


def after_farkle(score: int, farkles: int, rules: Rules, size: Size) -> tuple[int, int]:
    """(banked score, farkles in a row) after a farkle: one more in a row; at ``farkle_limit`` the penalty is
    paid (never below the floor) and the count starts again."""
    farkles += 1
    if farkles < rules.farkle_limit:
        return score, farkles
    return max(score - rules.penalty, size.floor), 0


def may_bank(turn_total: int, rules: Rules) -> bool:
    return turn_total >= rules.min_bank


def state_count(size: Size, rules: Rules | None = None) -> int:
    """States of the two-player table (docs/farkle.md, "States"): both banked scores floor..target - unit,
    both farkle counts, and for the mover every turn total t (a multiple of the unit) with banked + t below the
    target, or t below ``min_bank`` (such a total must be rolled on even past the target), with 1..dice dice
    to roll. FULL: 423,765,000, the published count."""
    r = rules or get_rules()
    scores = (size.target - size.floor) // r.unit
    totals = sum(turn_rows(size.floor + i * r.unit, size, r) for i in range(scores))
    return scores * r.farkle_limit ** 2 * size.dice * totals


def turn_rows(banked: int, size: Size, rules: Rules) -> int:
    """Turn totals 0, unit, ... a mover with ``banked`` points can hold without having won: those below the
    target, and every total below ``min_bank`` (it cannot be banked)."""
    below = (size.target - 1 - banked) // rules.unit + 1
    return max(below, rules.min_bank // rules.unit)
