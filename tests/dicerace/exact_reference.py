"""Plain, independent reference computations for the tests: exact rationals, dice enumerated one by one."""

import itertools
from fractions import Fraction
from functools import cache

FACES = 6


@cache
def roll_law(d: int) -> dict[int, Fraction]:
    """{points: probability} of one roll of d dice, by enumerating all 6**d outcomes (a 1 scores 1)."""
    law: dict[int, Fraction] = {}
    for dice in itertools.product(range(1, FACES + 1), repeat=d):
        points = 1 if 1 in dice else sum(dice)
        law[points] = law.get(points, Fraction(0)) + Fraction(1, FACES**d)
    return law


def sequential_game(dice: int, target: int) -> tuple[dict, dict]:
    """(EG, ties): EG[(i, j)] exactly and ties[(i, j)] = the set of d attaining the maximum exactly, for
    the player to move; written as the textbook recursion with a memo."""
    value: dict = {}
    ties: dict = {}

    def eg(i: int, j: int) -> Fraction:
        if (i, j) not in value:
            options = {}
            for d in range(1, dice + 1):
                options[d] = sum(p * (1 if i + k >= target else -eg(j, i + k)) for k, p in roll_law(d).items())
            best = max(options.values())
            value[(i, j)] = best
            ties[(i, j)] = {d for d, v in options.items() if v == best}
        return value[(i, j)]

    for s in range(2 * target - 2, -1, -1):  # deepest states first keeps the recursion shallow
        for i in range(max(0, s - target + 1), min(s, target - 1) + 1):
            eg(i, s - i)
    return value, ties
