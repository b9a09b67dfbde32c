"""An independent exact check of ``pipeline.yahtzee.tie_range``: plain Python over exact rationals.

For a turn-start state it computes, with ``fractions.Fraction`` (no rounding, so ties are exact equalities),
the optimal mean V of the remaining points and the largest and smallest second moment of the remaining
points over the options whose mean is exactly V, recursively over the states that follow. Nothing is
shared with the numba pass but the allowed boxes and their points, taken from the test solver
``towin_brute.Brute`` (which writes the Joker rules again from docs/yahtzee.md and uses ``score_roll``); keeps are
enumerated as sub-multisets of each roll and their laws from every ordered outcome of the rerolled dice.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache
from math import factorial

from lookup.yahtzee.rules import Rules
from tests.yahtzee.towin_brute import Brute

Moments = tuple[Fraction, Fraction, Fraction]  # (mean, largest second moment, smallest second moment)


def _lex(options: list[Moments]) -> Moments:
    best = max(o[0] for o in options)
    tied = [o for o in options if o[0] == best]
    return best, max(o[1] for o in tied), min(o[2] for o in tied)


class ExactTies:
    """``moments(mask, upper, ybox)``: exact (V, max E[R^2], min E[R^2]) over optimal play (real scores)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.brute = Brute(rules, "goal", 1)
        n = rules.n_dice
        self.rolls = self.brute.rolls
        self.prob = {}
        for roll in self.rolls:
            ways = factorial(n)
            for face in set(roll):
                ways //= factorial(roll.count(face))
            self.prob[roll] = Fraction(ways, 6 ** n)
        self.subkeeps = {roll: sorted({tuple(sorted(s)) for m in range(n + 1) for s in itertools.combinations(roll, m)})
                         for roll in self.rolls}
        self.moments = cache(self._moments)

    def _final(self, mask: int, upper: int, ybox: int, roll: tuple[int, ...]) -> Moments:
        options = []
        for c, joker in self.brute._options(mask, roll):
            reward, nu, ny = self.brute.outcome(upper, ybox, roll, c, joker, self.rules.upper_bonus)
            v, qmax, qmin = self.moments(mask | (1 << c), nu, ny)
            cross = reward * reward + 2 * reward * v
            options.append((reward + v, cross + qmax, cross + qmin))
        return _lex(options)

    def _moments(self, mask: int, upper: int, ybox: int) -> Moments:
        if mask == self.rules.all_filled:
            return Fraction(0), Fraction(0), Fraction(0)
        n = self.rules.n_dice
        value = {roll: self._final(mask, upper, ybox, roll) for roll in self.rolls}
        for _ in range(2):
            keep_value = {}
            for keep in {k for subs in self.subkeeps.values() for k in subs}:
                outs = list(itertools.product(range(1, 7), repeat=n - len(keep)))
                sums = [Fraction(0)] * 3
                for out in outs:
                    m = value[tuple(sorted(keep + out))]
                    sums = [s + x for s, x in zip(sums, m, strict=True)]
                keep_value[keep] = tuple(s / len(outs) for s in sums)
            value = {roll: _lex([keep_value[k] for k in self.subkeeps[roll]]) for roll in self.rolls}
        return tuple(sum(self.prob[r] * value[r][t] for r in self.rolls) for t in range(3))
