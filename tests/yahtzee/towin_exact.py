"""Play to win in exact rationals, for the tie rule's tests: which options of a turn are EXACTLY equal.

``ExactTurns(rules, objective).keeps(state, t)`` gives, with ``fractions.Fraction`` (no rounding), the
probability of every keep with 1 and 2 rerolls left in the turn of ``state`` needing ``t`` more points, under
the best play afterwards. Cheap only near the end of a game (a state's turn reads every later state at
every t' <= t); the boxes and their rewards come from ``lookup.yahtzee.turn.final_outcomes`` (the scoring,
tested elsewhere), the keep tree is written again here over the encoding's keep graph.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from lookup.yahtzee.rules import Rules
from lookup.yahtzee.turn import final_outcomes


class ExactTurns:
    """Exact play-to-win probabilities (``goal``: P(>= t more points); ``win``: P(> t) + P(= t) / 2)."""

    def __init__(self, rules: Rules, objective: str) -> None:
        self.rules, self.enc = rules, rules.encoding
        self.at_zero = Fraction(1) if objective == "goal" else Fraction(1, 2)  # a finished game needing 0
        self.keeps = cache(self._keeps)
        self.probability = cache(self._probability)

    def _expect(self, roll_values: list[Fraction]) -> list[Fraction]:
        """E(keep) for every keep: the roll's value for a whole roll, else the mean over the next die's faces."""
        enc = self.enc
        e: list[Fraction] = [Fraction(0)] * enc.n_keeps
        e[enc.roll_offset:] = roll_values
        for size in range(enc.n_dice - 1, -1, -1):
            for k in range(int(enc.size_offset[size]), int(enc.size_offset[size + 1])):
                e[k] = sum((e[int(j)] for j in enc.add_die[k]), Fraction(0)) / enc.n_faces
        return e

    def _best(self, e: list[Fraction]) -> list[Fraction]:
        """Value of holding each roll: the best of its sub-keeps (a max over the keep graph, smallest first)."""
        enc = self.enc
        m: list[Fraction] = [Fraction(0)] * enc.n_keeps
        for size in range(enc.n_dice + 1):
            for k in range(int(enc.size_offset[size]), int(enc.size_offset[size + 1])):
                m[k] = max([e[k]] + [m[int(j)] for j in enc.remove_die[k] if j >= 0])
        return m[enc.roll_offset:]

    def _keeps(self, state: tuple[int, int, int], t: int) -> dict[int, list[Fraction]]:
        """{rerolls left: exact probability of every keep} for the turn of ``state`` needing ``t``."""
        exact: list[Fraction] = []

        def worth(reward: int, nxt: tuple[int, int, int]) -> float:
            exact.append(self.probability(nxt, t - reward))
            return float(len(exact) - 1)  # an index into ``exact``: final_outcomes places the allowed boxes

        final = final_outcomes(self.rules, *state, worth)
        v0 = [max(exact[int(x)] for x in row if x == x) for row in final]  # NaN: a box not allowed
        keep1 = self._expect(v0)
        keep2 = self._expect(self._best(keep1))
        return {1: keep1, 2: keep2}

    def _probability(self, state: tuple[int, int, int], t: int) -> Fraction:
        if t < 0:
            return Fraction(1)
        if state[0] == self.rules.all_filled:
            return self.at_zero if t == 0 else Fraction(0)
        return self._expect(self._best(self.keeps(state, t)[2]))[0]
