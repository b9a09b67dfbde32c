"""One whole turn from the value table, in plain numpy: the value of every option of a turn.

Given the turn-start value table ``value[filled_mask, upper, ybox]`` (expected remaining points, see
``pipeline.yahtzee.solver``) and a state, :func:`analyse_turn` computes

* ``final[roll, category]``: points earned by scoring the final roll in that box (box points, upper
  bonus, Yahtzee bonus) + the value of the next turn-start state; NaN where the box may not be used;
* ``keep[j][k]`` for j = 1, 2 rerolls left: expected value of keeping multiset ``k`` and rerolling the
  other dice (``keep[j][roll]`` of a full keep = value of standing on that roll);
* ``roll_value[j][roll]``: value of holding ``roll`` with j rerolls left (j = 0, 1, 2);
* ``start_value``: the turn-start value (equals ``value[state]`` up to rounding).

Choices follow the tie rule (:func:`tied`): the first option in order (fewest dice rerolled, then lowest mask;
lowest category index) whose value is tied with the best. Expected points tie within ``TIE_EPS`` points (the
solver's rule: ``decide()`` when only the value table is present and ``explain()`` give the same answers as
the policy tables); probabilities (play to win, ``lookup.yahtzee.towin``) tie within a relative
``PROBABILITY_TIE_REL`` of the best.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from lookup.words import counted
from lookup.yahtzee.rules import (
    Rules,
    box_outcome_n,
    get_rules,
    scoring_options_n,
    scoring_tables,
)

__all__ = ["PROBABILITY_TIE_REL", "TIE_EPS", "UNITS", "TurnAnalysis", "action_text", "analyse_final", "analyse_turn",
           "chosen_keep", "final_outcomes", "ranked_options", "tied"]

TIE_EPS = 1e-9  # points; the one definition, also used by the pipeline.yahtzee kernels

# Probabilities tie RELATIVELY. An absolute 1e-9 (written for points ~250) called 1.652e-8 and 1.749e-8 tied (goal
# 337 on an empty scandinavian+forced sheet) and let decide() lose up to 1e-9 of probability. A probability is a
# mean (and a max) of non-negative numbers: no cancellation, so every rounding error is relative to the value
# itself, at 1e-20 as at 0.99, and so is the tolerance. Its size is the rounding noise, not a worst case:
# against exact rationals (scandinavian+forced, 552 turns of goal and win 1 to 9 turns from the end, every keep;
# tests/yahtzee/test_yahtzee_towin.py checks two), options of exactly equal probability come out at most 3.9 u
# apart (u = eps / 2: rounding in the build's turns and in this keep tree), genuinely different ones at least
# 11.8 u apart (a win table, P = 0.99987), except within 2e-14 of certainty, where float64 cannot hold the
# difference at all (0.6 u at P = 1 - 3.4e-16). 4 eps = 8 u sits between. The worst-case bound is far larger
# (sums of 6 terms over 5 die levels, 3 passes a turn: ~1e3 u after 15 turns) and would tie genuine
# differences. decide() loses at most 4 eps of its probability to a tie; separating closer options needs
# another representation (exact rationals; complements 1 - P near certainty), not done.
PROBABILITY_TIE_REL = 4 * float(np.finfo(np.float64).eps)  # dimensionless: a fraction of the best probability
UNITS = ("points", "probability")


def tied(value: float | np.ndarray, best: float, unit: str) -> bool | np.ndarray:
    """Whether ``value`` (an option's value, <= ``best``) is tied with ``best`` (the largest option's value).

    unit: "points" (expected points: within ``TIE_EPS`` points) or "probability" (a probability in [0, 1]:
    within ``PROBABILITY_TIE_REL * best``, so an exact 0 ties only with 0). The one tie rule of decide,
    explain and review; the play-to-win build takes plain maxima and needs none.
    """
    if unit == "points":
        return value >= best - TIE_EPS
    if unit == "probability":
        return best - value <= PROBABILITY_TIE_REL * best
    raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")


@dataclass(frozen=True, eq=False)
class TurnAnalysis:
    """Values of every option of one turn (see module docstring): expected remaining points (``unit``
    "points") or probabilities of reaching the points still needed (``unit`` "probability")."""

    rules: Rules
    state: tuple[int, int, int]
    final: np.ndarray
    keep: dict[int, np.ndarray]
    roll_value: dict[int, np.ndarray]
    start_value: float
    unit: str = "points"

    def tied(self, value: float | np.ndarray, best: float) -> bool | np.ndarray:
        """Whether ``value`` ties with the best option's ``best`` under this turn's unit (:func:`tied`)."""
        return tied(value, best, self.unit)

    def reroll_values(self, rerolls_left: int, roll: int) -> np.ndarray:
        """Value of each reroll mask (index = mask over the sorted dice) for ``roll`` with 1 or 2 rerolls left."""
        enc = self.rules.encoding
        return self.keep[rerolls_left][enc.keep_of_mask[roll]]

    def best_reroll(self, rerolls_left: int, roll: int) -> int:
        """The chosen reroll mask (tie rule: fewest dice rerolled, then lowest mask)."""
        enc = self.rules.encoding
        vals = self.reroll_values(rerolls_left, roll)[enc.mask_order]
        return int(enc.mask_order[np.flatnonzero(self.tied(vals, vals.max()))[0]])

    def best_category(self, roll: int) -> int:
        """The chosen box for the final ``roll`` (tie rule: lowest category index)."""
        vals = self.final[roll]
        best = np.nanmax(vals)
        return int(np.flatnonzero(self.tied(vals, best))[0])


def _final_values(rules: Rules, value: np.ndarray, mask: int, upper: int, ybox: int) -> np.ndarray:
    seen: dict[tuple[int, int, int], float] = {}  # a box's points all lead to one next state: read it once

    def worth(reward: int, nxt: tuple[int, int, int]) -> float:
        v = seen.get(nxt)
        if v is None:
            v = seen[nxt] = float(value[nxt])
        return reward + v

    return final_outcomes(rules, mask, upper, ybox, worth)


@dataclass(frozen=True, eq=False)
class _FinalPlan:
    """Per rule set: the rolls that are not n alike (``plain``), those that are (``alike``: (roll, face)),
    and for each box the distinct points a plain roll scores there with, per roll, the index among them."""

    plain: np.ndarray
    alike: tuple[tuple[int, int], ...]
    points: tuple[np.ndarray, ...]
    which: tuple[np.ndarray, ...]


@lru_cache(maxsize=16)
def _final_plan(rules: Rules) -> _FinalPlan:
    st = scoring_tables(rules)
    face = st.yahtzee_face
    plain = np.flatnonzero(face < 0)
    alike = tuple((int(r), int(face[r])) for r in np.flatnonzero(face >= 0))
    distinct = [np.unique(st.score[plain, c], return_inverse=True) for c in range(rules.n_boxes)]
    return _FinalPlan(plain, alike, tuple(d[0] for d in distinct), tuple(d[1] for d in distinct))


def final_outcomes(rules: Rules, mask: int, upper: int, ybox: int,
                   worth: Callable[[int, tuple[int, int, int]], float]) -> np.ndarray:
    """``final[roll, category]`` = ``worth(reward, next_state)`` of scoring each final roll in each allowed
    box (NaN where not allowed): reward = points earned now (box, upper bonus, Yahtzee bonus), next_state
    = (filled_mask, upper, ybox) of the next turn. Expected points use reward + value[next_state]; play
    to win the probability of the points still needed minus the reward (``lookup.yahtzee.towin``).

    ``worth`` is called once per box and distinct number of points (not per roll: a rule set of six dice
    has 462 rolls and 20 boxes); the rolls of n alike, which the Joker rules single out, one by one.
    """
    st, plan = scoring_tables(rules), _final_plan(rules)
    final = np.full((st.score.shape[0], rules.n_boxes), np.nan)
    args = (rules.upper_threshold, rules.optimised_upper_bonus, rules.yahtzee_bonus, rules.yahtzee_index)
    options = (rules.all_filled, rules.yahtzee_index, int(rules.forced_order))
    allowed, _ = scoring_options_n(rules.joker_code, mask, -1, *options)  # any roll but n alike
    for c in range(rules.n_boxes):
        if (allowed >> c) & 1:
            worths = np.array([worth(*_outcome(c, int(p), mask, upper, ybox, 0, args)) for p in plan.points[c]])
            final[plan.plain, c] = worths[plan.which[c]]
    for r, face in plan.alike:
        allowed, use_joker = scoring_options_n(rules.joker_code, mask, face, *options)
        points = st.joker_score[r] if use_joker else st.score[r]
        for c in range(rules.n_boxes):
            if (allowed >> c) & 1:
                final[r, c] = worth(*_outcome(c, int(points[c]), mask, upper, ybox, 1, args))
    return final


def _outcome(c: int, points: int, mask: int, upper: int, ybox: int, alike: int, args: tuple
             ) -> tuple[int, tuple[int, int, int]]:
    """(reward, next state) of scoring ``points`` in box ``c``."""
    reward, nu, ny = box_outcome_n(c, points, upper, ybox, alike, *args)
    return reward, (mask | (1 << c), nu, ny)


def _expect(rules: Rules, roll_values: np.ndarray) -> np.ndarray:
    """E over every keep: E(roll) = roll value; E(k) = mean over faces of E(k + face)."""
    enc = rules.encoding
    e = np.empty(enc.n_keeps)
    e[enc.roll_offset:] = roll_values
    for size in range(enc.n_dice - 1, -1, -1):
        lo, hi = enc.size_offset[size], enc.size_offset[size + 1]
        e[lo:hi] = e[enc.add_die[lo:hi]].sum(axis=1) * (1.0 / enc.n_faces)
    return e


def _best_of_subkeeps(rules: Rules, e: np.ndarray) -> np.ndarray:
    """M(k) = max(E(k), max over faces f in k of M(k - f)) for every keep."""
    enc = rules.encoding
    m = np.empty(enc.n_keeps + 1)
    m[-1] = -np.inf  # remove_die == -1 (face absent) reads this slot
    for size in range(enc.n_dice + 1):
        lo, hi = enc.size_offset[size], enc.size_offset[size + 1]
        m[lo:hi] = np.maximum(e[lo:hi], m[enc.remove_die[lo:hi]].max(axis=1))
    return m[:-1]


def analyse_turn(rules: Rules | str, value: np.ndarray, state: tuple[int, int, int]) -> TurnAnalysis:
    """Values of every option in the turn starting at ``state = (filled_mask, upper, ybox)``."""
    rules = get_rules(rules)
    mask, upper, ybox = (int(x) for x in state)
    if mask == rules.all_filled or np.isnan(value[mask, upper, ybox]):
        raise ValueError(f"unreachable or finished state {state}")
    return analyse_final(rules, (mask, upper, ybox), _final_values(rules, value, mask, upper, ybox))


def analyse_final(rules: Rules, state: tuple[int, int, int], final: np.ndarray, unit: str = "points") -> TurnAnalysis:
    """The whole turn from its final-roll values ``final[roll, category]`` (NaN = box not allowed): the keep
    tree maximises the mean of whatever ``final`` holds, in ``unit`` ("points": expected points, or
    "probability"; it picks the tie rule)."""
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")
    enc = rules.encoding
    v0 = np.nanmax(final, axis=1)
    keep1 = _expect(rules, v0)
    v1 = _best_of_subkeeps(rules, keep1)[enc.roll_offset:]
    keep2 = _expect(rules, v1)
    v2 = _best_of_subkeeps(rules, keep2)[enc.roll_offset:]
    start = float(np.dot(enc.roll_prob, v2))
    return TurnAnalysis(rules, state, final, {1: keep1, 2: keep2}, {0: v0, 1: v1, 2: v2}, start, unit)


def chosen_keep(rules: Rules, pips: tuple[int, ...], roll: int, mask: int
                ) -> tuple[tuple[bool, ...], tuple[int, ...], int]:
    """Reroll ``mask`` (over the sorted dice of ``roll``) as play shows it: one reroll flag per input die
    (in the order of ``pips``), the kept pips, and the keep's index."""
    enc = rules.encoding
    k = int(enc.keep_of_mask[roll, mask])
    order = sorted(range(len(pips)), key=lambda i: pips[i])  # input position of each sorted die
    reroll = [False] * len(pips)
    for bit, pos in enumerate(order):
        reroll[pos] = bool((mask >> bit) & 1)
    return tuple(reroll), tuple(int(f) + 1 for f in enc.keeps[k]), k


def action_text(dice: tuple[int, ...], reroll: tuple[bool, ...] | None, keep: tuple[int, ...] | None,
                category: str | None) -> str:
    """A decision's action in words: score as a box, stop rolling, or keep some dice and reroll the rest."""
    if category is not None:
        return f"score {list(dice)} as {category}"
    if not any(reroll or ()):
        return f"keep all of {list(dice)} (stop rolling)"
    return f"keep {list(keep or ())}, reroll {counted(sum(reroll or ()), 'die')}"


def ranked_options(analysis: TurnAnalysis, roll: int, rerolls: int
                   ) -> list[tuple[str, tuple[int, ...] | None, str | None, float, float]]:
    """Every legal option of ``roll`` with ``rerolls`` left (distinct keeps, or allowed boxes) as (label, keep,
    category, value, regret): the options tied with the best (``analysis.tied``, regret exactly 0) first in tie
    order (fewest dice rerolled, then lowest mask; lowest box), so the first is the decision's, then the rest
    by value, highest first."""
    rules = analysis.rules
    enc = rules.encoding
    options = []
    if rerolls == 0:
        for c, v in enumerate(analysis.final[roll]):
            if not np.isnan(v):
                options.append((f"score as {rules.categories[c]}", None, rules.categories[c], float(v)))
    else:
        seen = set()
        for mask in enc.mask_order:  # tie order: the first of equal options is the one decide() picks
            k = int(enc.keep_of_mask[roll, mask])
            if k not in seen:
                seen.add(k)
                keep = tuple(int(f) + 1 for f in enc.keeps[k])
                label = "keep all (stop)" if len(keep) == rules.n_dice else f"keep {list(keep)}"
                options.append((label, keep, None, float(analysis.keep[rerolls][k])))
    best = max(o[3] for o in options)
    # Stable sort: the tied options keep their tie order, then the rest by value, highest first.
    ranked = sorted(options, key=lambda o: -best if analysis.tied(o[3], best) else -o[3])
    return [(a, k, c, v, 0.0 if analysis.tied(v, best) else best - v) for a, k, c, v in ranked]
