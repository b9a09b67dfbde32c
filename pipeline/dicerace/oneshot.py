"""The one-shot simultaneous game (the seed's simplified variant): one roll each, the higher total wins.

EG1(d1, d2) = P(player 1's roll of d1 dice beats player 2's roll of d2 dice) - P(it loses), equal
points draw. The matrix is computed exactly from integer outcome counts (a Fraction per entry), then
each entry is rounded once to float64; the game is symmetric (EG1 antisymmetric), so its value is 0 and
the LP's optimal strategy is the same for both players.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from lookup.dicerace.rules import BUST_SCORE, FACES, final_outcome, safe_sum_counts
from pipeline.dicerace.matrix_game import solve_lp


@dataclass(frozen=True)
class OneShotSolution:
    """exact[d1 - 1][d2 - 1]: EG1(d1, d2) as a Fraction; matrix: the same rounded to float64;
    value: the LP's value (0 up to roundoff); strategy[d - 1]: an optimal mixed strategy (either player)."""

    dice: int
    exact: list[list[Fraction]]
    matrix: np.ndarray
    value: float
    strategy: np.ndarray


def outcome_counts(dice: int) -> list[list[int]]:
    """counts[d][k]: ordered outcomes of d dice scoring k points (out of FACES**d), d = 0..dice."""
    counts = []
    for d, safe in enumerate(safe_sum_counts(dice)):
        row = list(safe) + [0] * max(0, BUST_SCORE + 1 - len(safe))
        if d:
            row[BUST_SCORE] += FACES**d - sum(safe)
        counts.append(row)
    return counts


def exact_matrix(dice: int) -> list[list[Fraction]]:
    """EG1(d1, d2) for d1, d2 in 1..dice, exactly."""
    counts = outcome_counts(dice)
    matrix = []
    for d1 in range(1, dice + 1):
        row = []
        for d2 in range(1, dice + 1):
            c1, c2 = counts[d1], counts[d2]
            net = sum(n1 * n2 * final_outcome(k1, k2) for k1, n1 in enumerate(c1) if n1
                      for k2, n2 in enumerate(c2) if n2)
            row.append(Fraction(net, FACES ** (d1 + d2)))
        matrix.append(row)
    return matrix


def solve_oneshot(dice: int) -> OneShotSolution:
    """The exact one-shot matrix for 1..dice dice, its value and an optimal mixed strategy."""
    exact = exact_matrix(dice)
    matrix = np.array([[float(x) for x in row] for row in exact], dtype=np.float64)
    sol = solve_lp(matrix)
    return OneShotSolution(dice=dice, exact=exact, matrix=matrix, value=sol.value, strategy=sol.row)
