"""Plain, independent reference computations for the tests: exact rationals, dice enumerated one by one."""

import itertools
from fractions import Fraction
from functools import cache

import numpy as np

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


def sequential_optimal_sets(dice: int, target: int) -> tuple[list[list[int]], list[list[int]]]:
    """(value, optimal): exact EG numerators over G = 6**(2 * dice * target) and the exact optimal sets as
    bit masks (bit d - 1 for d dice), for every state [i][j] of the sequential race.

    Exact integer arithmetic, fast enough for full grids: every value is an integer numerator over the
    one denominator G (a turn's value has a denominator dividing 6**(dice * turns left), and fewer than
    2 * target turns remain from any state). The sum over the 5**d safe outcomes of d dice is kept as
    S_d(m) = sum over safe faces f of S_{d-1}(m + f) (unnormalised: integer), so rolling d dice from
    total m is worth ((6**d - 5**d) X(m + 1) + S_d(m)) / 6**d, X(m) being the value of reaching m.
    """
    g = FACES ** (2 * dice * target)
    safe_faces = range(2, FACES + 1)
    ring_size = FACES + 1
    won = [5**d * g for d in range(dice + 1)]  # S_d of totals >= target: every outcome wins
    # rings[j][m % 7][d] = S_d(m) against j (level 0: the value X(m) itself).
    rings = [[list(won) for _ in range(ring_size)] for _ in range(target)]
    bust = [FACES**d - 5**d for d in range(dice + 1)]
    scale = [FACES ** (dice - d) for d in range(dice + 1)]
    top = FACES**dice
    value = [[0] * target for _ in range(target)]
    optimal = [[0] * target for _ in range(target)]
    for s in range(2 * target - 2, -1, -1):
        for i in range(max(0, s - target + 1), min(s, target - 1) + 1):
            j = s - i
            ring = rings[j]
            x_bust = ring[(i + 1) % ring_size][0]
            here = ring[i % ring_size]
            options = []
            for d in range(1, dice + 1):
                here[d] = sum(ring[(i + f) % ring_size][d - 1] for f in safe_faces)
                options.append(scale[d] * (bust[d] * x_bust + here[d]))
            best = max(options)
            eg, rest = divmod(best, top)
            assert rest == 0, "denominator bound violated"
            value[i][j] = eg
            optimal[i][j] = sum(1 << d for d, v in enumerate(options) if v == best)
            rings[i][j % ring_size][0] = -eg
    return value, optimal


def decided_states(dice: int, target: int) -> tuple[np.ndarray, np.ndarray]:
    """(won, lost) [target, target] of the sequential race, by counting turns (no game values): the player to
    move at (i, j) wins surely, or loses surely, whatever either player chooses.

    A turn scores at least 1 point (every d can show a 1) and at most 6 * dice. The mover takes turns 1, 2, ...
    and the opponent's t-th turn comes after the mover's t-th. The mover surely wins iff it surely arrives (in
    target - i turns at worst) no later than the opponent can first arrive (ceil((target - j) / (6 * dice))
    turns): before that, no outcome lets the opponent win. It surely loses iff it cannot arrive before the
    opponent surely arrives (target - j turns): ceil((target - i) / (6 * dice)) > target - j. Otherwise a path
    of positive probability leads to either result, so optimal play can neither guarantee nor give up the game.
    In these states every d is worth exactly +1 (or -1), so with two dice or more all d are tied there.
    """
    top = FACES * dice
    i = np.arange(target)[:, None]
    j = np.arange(target)[None, :]
    won = target - i <= -(-(target - j) // top)
    lost = -(-(target - i) // top) > target - j
    return won, lost
