"""Exact distribution of one dice-race roll, from integer outcome counts.

P(d, k): probability that rolling d dice scores k points (BUST_SCORE if any die shows BUST_FACE,
otherwise the sum). Q(d, k): probability that d dice sum to k given that none shows BUST_FACE.
Counts are Python integers (6**30 overflows int64) and each probability is rounded once, from the
exact fraction, to float64.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from lookup.dicerace.rules import BUST_SCORE, FACES, SAFE_FACES, safe_sum_counts


def exact_tables(max_dice: int) -> tuple[list[list[Fraction]], list[list[Fraction]]]:
    """(P, Q) as exact fractions, rows d = 0..max_dice, columns k = 0..FACES*max_dice."""
    if max_dice < 1:
        raise ValueError(f"max_dice must be at least 1, got {max_dice}")
    width = FACES * max_dice + 1
    safe = len(SAFE_FACES)
    p_rows, q_rows = [], []
    for d, row in enumerate(safe_sum_counts(max_dice)):
        total, total_safe = FACES**d, safe**d
        p = [Fraction(0)] * width
        q = [Fraction(0)] * width
        for k, c in enumerate(row):
            p[k] += Fraction(c, total)
            q[k] = Fraction(c, total_safe)
        if d:
            p[BUST_SCORE] += Fraction(total - total_safe, total)
        p_rows.append(p)
        q_rows.append(q)
    return p_rows, q_rows


def float_tables(max_dice: int) -> tuple[np.ndarray, np.ndarray]:
    """(P, Q) as float64 arrays of shape (max_dice + 1, FACES * max_dice + 1); row 0 is the empty roll."""
    p_rows, q_rows = exact_tables(max_dice)
    return (np.array([[float(x) for x in row] for row in p_rows], dtype=np.float64),
            np.array([[float(x) for x in row] for row in q_rows], dtype=np.float64))
