"""An independent small solver of play to win, for the tests: plain Python over explicit dice outcomes.

It shares nothing with ``pipeline.yahtzee.towin`` but the box scores (``score_roll``, tested against brute
force in test_yahtzee_rules.py): the Joker, the upper bonus and the Yahtzee bonus are written here again
from the text of docs/yahtzee.md ("Rules"), states are never merged, the keep probabilities come from
enumerating every ordered outcome of the rerolled dice, and each turn is a maximum over every keep of
every roll (all policies of one turn) for the whole vector of needed points at once.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

import numpy as np

from lookup.yahtzee.rules import UPPER, Rules, score_roll


class Brute:
    """``vector(mask, upper, ybox)[t]``: best P(score >= t more) (``goal``) or P(> t) + P(= t) / 2 (``win``),
    t = 0..width-1, from the start of a turn."""

    def __init__(self, rules: Rules, objective: str, width: int):
        self.rules, self.objective, self.width = rules, objective, width
        n = rules.n_dice
        self.rolls = list(itertools.combinations_with_replacement(range(1, 7), n))
        index = {r: i for i, r in enumerate(self.rolls)}
        keeps = sorted({tuple(sorted(sub)) for r in self.rolls for m in range(n + 1)
                        for sub in itertools.combinations(r, m)}, key=lambda k: (len(k), k))
        self.trans = np.zeros((len(keeps), len(self.rolls)))
        for i, k in enumerate(keeps):
            outs = list(itertools.product(range(1, 7), repeat=n - len(k)))
            for out in outs:
                self.trans[i, index[tuple(sorted(k + out))]] += 1 / len(outs)
        kidx = {k: i for i, k in enumerate(keeps)}
        subkeeps = [sorted({kidx[tuple(sorted(s))] for m in range(n + 1) for s in itertools.combinations(r, m)})
                    for r in self.rolls]
        longest = max(map(len, subkeeps))
        # Every keep of each roll, padded by repeating its first (a max is unchanged by a repeat).
        self.subkeeps = np.array([subs + subs[:1] * (longest - len(subs)) for subs in subkeeps])
        self.first = self.trans[kidx[()]]
        self.points = {(roll, c, joker): score_roll(rules, roll, c, joker=joker)
                       for roll in self.rolls for c in range(rules.n_boxes) for joker in (False, True)}
        self.yi, self.n_boxes = rules.yahtzee_index, rules.n_boxes
        self.vector = cache(self._vector)

    def _max_shifted(self, out: np.ndarray, nxt: np.ndarray, reward: int) -> None:
        """out[t] = max(out[t], nxt[t - reward]), with 1 where t - reward < 0."""
        out[:reward] = 1.0
        if reward < self.width:
            np.maximum(out[reward:], nxt[:self.width - reward], out=out[reward:])

    def _options(self, mask: int, roll: tuple[int, ...]) -> list[tuple[int, bool]]:
        """(box, Joker values?) for every box the roll may be scored in (the Joker rules of docs/yahtzee.md)."""
        rules = self.rules
        open_boxes = [c for c in range(self.n_boxes) if not (mask >> c) & 1]
        if rules.forced_order:
            return [(open_boxes[0], False)]
        yi = self.yi
        alike = len(set(roll)) == 1
        if not alike or rules.joker == "none" or not (mask >> yi) & 1:
            return [(c, False) for c in open_boxes]
        face_box = roll[0] - 1
        if rules.joker == "forced":
            if face_box in open_boxes:
                return [(face_box, False)]
            lower = [c for c in open_boxes if c >= UPPER]
            return [(c, True) for c in lower] if lower else [(c, False) for c in open_boxes]
        joker = bool((mask >> face_box) & 1)  # free: only when the matching upper box is filled too
        return [(c, joker) for c in open_boxes]

    def outcome(self, upper: int, ybox: int, roll: tuple[int, ...], c: int, joker: bool,
                upper_bonus: int) -> tuple[int, int, int]:
        """(points earned, next upper, next ybox) of scoring ``roll`` in box ``c`` (docs/yahtzee.md; the upper
        bonus pays ``upper_bonus``)."""
        rules = self.rules
        points = self.points[roll, c, joker]
        reward, nu, ny = points, upper, ybox
        if c < UPPER:
            nu = min(rules.upper_threshold, upper + points)
            if upper < rules.upper_threshold <= nu:
                reward += upper_bonus
        if c == self.yi and points > 0:
            ny = 1
        if len(set(roll)) == 1 and ybox:
            reward += rules.yahtzee_bonus
        return reward, nu, ny

    def _vector(self, mask: int, upper: int, ybox: int) -> np.ndarray:
        rules = self.rules
        if mask == rules.all_filled:
            end = np.zeros(self.width)
            end[0] = 1.0 if self.objective == "goal" else 0.5
            return end
        final = np.zeros((len(self.rolls), self.width))
        for r, roll in enumerate(self.rolls):
            for c, joker in self._options(mask, roll):
                reward, nu, ny = self.outcome(upper, ybox, roll, c, joker, rules.optimised_upper_bonus)
                self._max_shifted(final[r], self.vector(mask | (1 << c), nu, ny), reward)
        v = final
        for _ in range(2):
            keep_values = self.trans @ v
            v = keep_values[self.subkeeps].max(axis=1)
        return self.first @ v


def reachable_states(rules: Rules) -> list[tuple[int, int, int]]:
    """Every (mask, capped upper, ybox) a game can reach, by walking the game from the start."""
    seen = {(0, 0, 0)}
    todo = [(0, 0, 0)]
    rolls = list(itertools.combinations_with_replacement(range(1, 7), rules.n_dice))
    while todo:
        mask, upper, ybox = todo.pop()
        for c in range(rules.n_boxes):
            if (mask >> c) & 1 or (rules.forced_order and c != (~mask & (mask + 1)).bit_length() - 1):
                continue
            outcomes = {Counter(r)[c + 1] * (c + 1) for r in rolls} if c < UPPER else {0}
            for pts in outcomes:
                nu = min(rules.upper_threshold, upper + pts) if c < UPPER else upper
                for ny in ({ybox, 1} if c == rules.yahtzee_index else {ybox}):
                    nxt = (mask | (1 << c), nu, ny)
                    if nxt not in seen:
                        seen.add(nxt)
                        todo.append(nxt)
    return sorted(seen)
