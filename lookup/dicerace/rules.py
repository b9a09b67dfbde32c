"""Rules of the dice race (stated in docs/dicerace.md, "Rules"): the score of one roll of d dice, and how a game ends.

One definition for everything: the table builders (``pipeline.dicerace``), their numba kernels and the
play-time API all read the constants and functions below.

- A turn: choose d in 1..D dice and roll them; the turn scores BUST_SCORE if any die shows BUST_FACE,
  otherwise the sum of the dice.
- Sequential game: players alternate; the first to reach the target N (score >= N) wins at once.
- Simultaneous game: both players choose d at the same time and roll; when after the turn at least one
  player has N or more, the higher total wins and equal totals draw (``simultaneous_over``,
  ``final_outcome``);
  otherwise the game continues from the new scores.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

from lookup.naming import by_name
from lookup.validate import integer

FACES = 6
# A roll showing this face anywhere scores BUST_SCORE instead of its sum.
BUST_FACE = 1
BUST_SCORE = 1
# Faces that do not bust, in increasing order (2..6).
SAFE_FACES = tuple(f for f in range(1, FACES + 1) if f != BUST_FACE)
MODES = ("sequential", "simultaneous")
# The most dice a turn may roll that any function accepts: bounds the work of exact sums over d (a
# caller's 2**70 must be refused, not computed).
MAX_DICE = 1000


def rules_dict() -> dict[str, int]:
    """The rules as stored in the artifacts' attributes."""
    return {"faces": FACES, "bust_face": BUST_FACE, "bust_score": BUST_SCORE}


@dataclass(frozen=True)
class Rules:
    """The dice race's one rule set (the constants above), in the shape every game's rules take
    (docs/adding_a_game.md): a name, and ``to_dict()`` for the artifacts' attributes."""

    name: str = "standard"

    def to_dict(self) -> dict[str, int]:
        """The rules as stored in the artifacts' attributes: ``rules_dict()`` (one rule set, no name)."""
        return rules_dict()


RULE_SETS: dict[str, Rules] = {"standard": Rules()}
DEFAULT_RULES = "standard"


def get_rules(name: str | Rules = DEFAULT_RULES) -> Rules:
    """The rule set called ``name`` (a Rules passes through); ValueError for an unknown one."""
    return name if isinstance(name, Rules) else by_name(RULE_SETS, name, "dice-race rule set")


def roll_score(dice: Sequence[int]) -> int:
    """Points of one roll: BUST_SCORE if any die shows BUST_FACE, otherwise the sum of the dice."""
    if not dice:
        raise ValueError("a roll has at least one die")
    for face in dice:
        if not 1 <= face <= FACES:
            raise ValueError(f"die face {face} outside 1..{FACES}")
    return BUST_SCORE if BUST_FACE in dice else int(sum(dice))


def safe_sum_counts(max_dice: int) -> list[list[int]]:
    """counts[d][k] = number of ordered outcomes of d dice with no BUST_FACE summing to k (k = 0..FACES*d), for
    d = 0..max_dice (Python integers: 6**30 overflows int64)."""
    counts = [[1]]
    for _ in range(max_dice):
        prev = counts[-1]
        row = [0] * (len(prev) + FACES)
        for k, c in enumerate(prev):
            if c:
                for f in SAFE_FACES:
                    row[k + f] += c
        counts.append(row)
    return counts


@cache
def roll_law(d: int) -> tuple[tuple[int, Fraction], ...]:
    """The exact law of the points of one roll of ``d`` dice: (points, probability) for every score of positive
    probability, in increasing order (BUST_SCORE, then the sums 2d..6d of the safe faces)."""
    d = check_dice_count(d, "d")
    law: dict[int, Fraction] = {BUST_SCORE: 1 - safe_probability(d)}
    for k, c in enumerate(safe_sum_counts(d)[d]):
        if c:
            law[k] = law.get(k, Fraction(0)) + Fraction(c, FACES**d)
    return tuple(sorted(law.items()))


def safe_probability(d: int) -> Fraction:
    """Exact probability that none of d dice shows BUST_FACE."""
    return Fraction(len(SAFE_FACES), FACES) ** d


def expected_points(d: int) -> Fraction:
    """Exact expected points of one roll of d dice: bust probability x BUST_SCORE + safe probability x
    d x (mean safe face)."""
    d = check_dice_count(d, "d")
    safe = safe_probability(d)
    return (1 - safe) * BUST_SCORE + safe * d * Fraction(sum(SAFE_FACES), len(SAFE_FACES))


def blind_dice(max_dice: int) -> int:
    """The blind strategy's number of dice: the d in 1..max_dice maximising the expected points of one
    turn (the smallest such d on an exact tie). It is 6 for every max_dice >= 6 and max_dice below."""
    max_dice = check_dice_count(max_dice)
    return max(range(1, max_dice + 1), key=lambda d: (expected_points(d), -d))


def race_won(total: int, target: int) -> bool:
    """True when a player's total has reached the target (sequential game: that player wins at once)."""
    return total >= target


def simultaneous_over(total: int, other_total: int, target: int) -> bool:
    """True when the simultaneous game is over after a turn ending at these totals (either reached)."""
    return total >= target or other_total >= target


def final_outcome(total: int, other_total: int) -> int:
    """+1 / 0 / -1: win / draw / loss of the player with ``total`` when the simultaneous game is over
    (the higher total wins, equal totals draw)."""
    return (total > other_total) - (total < other_total)


def check_dice_count(max_dice: int, name: str = "dice") -> int:
    """``max_dice`` as an int; ValueError unless it is an integer in 1..MAX_DICE (``lookup.validate``)."""
    return integer(max_dice, name, low=1, high=MAX_DICE)


def check_state(my_score: int, other_score: int, target: int) -> tuple[int, int]:
    """The two scores as ints; ValueError naming the bad one unless both are integers in 0..target-1
    (a score of ``target`` or more means the game is over)."""
    out = []
    for name, score in (("my_score", my_score), ("other_score", other_score)):
        score = integer(score, name)
        if not 0 <= score < target:
            raise ValueError(f"{name}={score} outside 0..{target - 1} (target {target}: a score of "
                             f"{target} or more ends the game)")
        out.append(score)
    return out[0], out[1]
