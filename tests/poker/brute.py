"""Plain enumeration with phevaluator (PyPI) as the evaluator: every board completion and every ordered
deal of the unknown opponents' hands, no symmetry, no counting. Independent of our tables and engines."""

from fractions import Fraction
from itertools import combinations

import pytest


def _deals(pool, n):
    """Every ordered tuple of n disjoint two-card hands from pool."""
    if n == 0:
        yield ()
        return
    for hand in combinations(pool, 2):
        rest = [c for c in pool if c not in hand]
        for others in _deals(rest, n - 1):
            yield (hand, *others)


def brute_force(hands, board, opponents, dead):
    """(deals, wins, ties, shares) per known hand, hands and cards as indices."""
    phevaluator = pytest.importorskip("phevaluator")
    ev = phevaluator.evaluate_cards  # lower is better
    used = {c for h in hands for c in h} | set(board) | set(dead)
    rem = [c for c in range(52) if c not in used]
    m = len(hands)
    deals = 0
    wins, ties, shares = [0] * m, [0] * m, [Fraction(0)] * m
    for extra in combinations(rem, 5 - len(board)):
        full = (*board, *extra)
        known = [ev(*full, *h) for h in hands]
        pool = [c for c in rem if c not in extra]
        for opp in _deals(pool, opponents):
            ranks = known + [ev(*full, *h) for h in opp]
            best = min(ranks)
            k = ranks.count(best)
            deals += 1
            for i in range(m):
                if known[i] == best:
                    if k == 1:
                        wins[i] += 1
                    else:
                        ties[i] += 1
                    shares[i] += Fraction(1, k)
    return deals, wins, ties, shares
