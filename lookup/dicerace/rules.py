"""Rules of the dice race (guide, section 3.2): the score of one roll of d dice."""

from __future__ import annotations

from collections.abc import Sequence

FACES = 6
# A roll showing this face anywhere scores BUST_SCORE instead of its sum.
BUST_FACE = 1
BUST_SCORE = 1


def rules_dict() -> dict[str, int]:
    """The rules as stored in the artifacts' attributes."""
    return {"faces": FACES, "bust_face": BUST_FACE, "bust_score": BUST_SCORE}


def roll_score(dice: Sequence[int]) -> int:
    """Points of one roll: BUST_SCORE if any die shows BUST_FACE, otherwise the sum of the dice."""
    if not dice:
        raise ValueError("a roll has at least one die")
    for face in dice:
        if not 1 <= face <= FACES:
            raise ValueError(f"die face {face} outside 1..{FACES}")
    return BUST_SCORE if BUST_FACE in dice else int(sum(dice))


def max_score(d: int) -> int:
    """Highest points d dice can score."""
    return FACES * d
