"""Plain enumeration with phevaluator (PyPI) as the evaluator: every board completion and every ordered
deal of the unknown opponents' hands, no symmetry, no counting. Independent of our tables and engines."""

from fractions import Fraction
from itertools import combinations

from tests.peers import require


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
    phevaluator = require("phevaluator")  # a failure in CI when missing
    ev = phevaluator.evaluate_cards  # lower is better
    used = {c for h in hands for c in h} | set(board) | set(dead)
    rem = [c for c in range(52) if c not in used]
    m = len(hands)
    deals = 0
    # split[i][k]: deals where known hand i is among the k best (integer tallies; shares made once at the end).
    split = [[0] * (m + opponents + 1) for _ in range(m)]
    for extra in combinations(rem, 5 - len(board)):
        full = (*board, *extra)
        known = [ev(*full, *h) for h in hands]
        if opponents:
            taken = set(extra)
            deal_list = _deals([c for c in rem if c not in taken], opponents)
        else:
            deal_list = ((),)
        for opp in deal_list:
            ranks = known + [ev(*full, *h) for h in opp]
            best = min(ranks)
            k = ranks.count(best)
            deals += 1
            for i in range(m):
                if known[i] == best:
                    split[i][k] += 1
    wins = [row[1] for row in split]
    ties = [sum(row[2:]) for row in split]
    shares = [sum((Fraction(c, k) for k, c in enumerate(row) if k), Fraction(0)) for row in split]
    return deals, wins, ties, shares
