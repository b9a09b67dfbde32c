"""Exact evaluation of any 151 policy: expected turns alone, and outcomes of any two-player match-up.

A policy is a table of roll probabilities (float64, units of 50 points; ``pipeline.g151.strategies``
makes them): solitaire ``pi[a, t]`` and two-player ``pi[a, b, t]`` from the mover's view (own banked a,
opponent's b, turn total t). Values come from the same turn kernel as the solvers, with the repeating
states solved as exact linear fixed points (no simulation, no iteration to a tolerance).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lookup.g151.rules import UNIT, Rules, get_rules
from pipeline.g151.kernels import roll_args, solitaire_bank, turn_affine
from pipeline.jit import njit


@njit(cache=True)
def _solitaire_turns(n, pi, steps, probs, p0, zero_keeps, fail_cost, out):
    out[n] = 0.0
    for a in range(n - 1, -1, -1):
        room = n - a
        bank = solitaire_bank(a, room, out)
        alpha, gamma = turn_affine(room, pi[a], bank, steps, probs, p0, zero_keeps)
        # V = alpha + (1 - gamma)(fail_cost + V); a policy that never banks from a never finishes.
        out[a] = (alpha + (1.0 - gamma) * fail_cost) / gamma if gamma > 0.0 else np.inf


@njit(cache=True)
def _matchup(n, pi1, pi2, steps, probs, p0, zero_keeps, end1, end2, u1, u2):
    # u1[a, b] / u2[a, b]: expected payoff with player 1 / player 2 to move, player 1 holding a, player 2 b.
    for s in range(2 * n - 2, -1, -1):
        for a in range(max(0, s - n + 1), min(n - 1, s) + 1):
            b = s - a
            ra, rb = n - a, n - b
            bank1 = np.empty(ra + 1)
            for t in range(1, ra + 1):
                bank1[t] = end1[b] if a + t == n else u2[a + t, b]
            bank2 = np.empty(rb + 1)
            for t in range(1, rb + 1):
                bank2[t] = end2[a] if b + t == n else u1[a, b + t]
            al1, g1 = turn_affine(ra, pi1[a, b], bank1, steps, probs, p0, zero_keeps)
            al2, g2 = turn_affine(rb, pi2[b, a], bank2, steps, probs, p0, zero_keeps)
            # u1 = al1 + (1 - g1) u2 and u2 = al2 + (1 - g2) u1: a failed turn hands the same scores over.
            den = g1 + g2 - g1 * g2
            if den > 0.0:
                u1[a, b] = (al1 + (1.0 - g1) * al2) / den
                u2[a, b] = (al2 + (1.0 - g2) * al1) / den
            else:  # neither player ever banks from here: the game never ends, no payoff
                u1[a, b] = 0.0
                u2[a, b] = 0.0


@dataclass(frozen=True)
class SolitaireEvaluation:
    """Expected turns of one policy, from a turn start with ``a`` units banked (index a = 0..n).

    turns[a]: every turn counted; scoring_turns[a]: only turns that bank points (the notebook's count);
    counted[a]: the count of the variant's rules. inf when the policy may never reach the target.
    """

    turns: np.ndarray
    scoring_turns: np.ndarray
    counted: np.ndarray


@dataclass(frozen=True)
class Matchup:
    """Exact outcome of player 1 (policy ``pi1``) against player 2 (``pi2``) from 0 - 0.

    p1_wins[i] / p2_wins[i]: probability that player 1 / 2 wins when player i + 1 moves first (i = 0, 1);
    1 - p1_wins - p2_wins is the probability that the game never ends (0 for sensible policies).
    p1_final[i] / p2_final[i]: expected final score of player 1 / 2 in points (the target for the winner).
    """

    p1_wins: tuple[float, float]
    p2_wins: tuple[float, float]
    p1_final: tuple[float, float]
    p2_final: tuple[float, float]


def _checked(pi: np.ndarray, shape: tuple[int, ...], what: str) -> np.ndarray:
    pi = np.ascontiguousarray(pi, dtype=np.float64)
    if pi.shape != shape:
        raise ValueError(f"{what}: policy table of shape {pi.shape}, expected {shape}")
    return pi


def solitaire_turns(pi: np.ndarray, rules: Rules | str, n: int) -> SolitaireEvaluation:
    """Exact expected turns of the solitaire policy ``pi[a, t]`` to reach ``n`` units exactly."""
    rules = get_rules(rules)
    pi = _checked(pi, (n + 1, n + 1), "solitaire")
    law = roll_args(rules)
    turns, scoring = np.empty(n + 1), np.empty(n + 1)
    _solitaire_turns(n, pi, *law, 1.0, turns)
    _solitaire_turns(n, pi, *law, 0.0, scoring)
    return SolitaireEvaluation(turns, scoring, turns if rules.failed_turns_count else scoring)


def matchup(pi1: np.ndarray, pi2: np.ndarray, rules: Rules | str, n: int) -> Matchup:
    """Exact outcome of ``pi1`` (player 1) against ``pi2`` (player 2), with either player moving first."""
    rules = get_rules(rules)
    pi1 = _checked(pi1, (n + 1,) * 3, "player 1")
    pi2 = _checked(pi2, (n + 1,) * 3, "player 2")
    law = roll_args(rules)
    scores = np.arange(n + 1, dtype=np.float64) * UNIT
    full = np.full(n + 1, float(n * UNIT))
    zero, one = np.zeros(n + 1), np.ones(n + 1)
    results = []
    # Payoffs at the end: (player 1 reached the target, indexed by player 2's score; and vice versa).
    for end1, end2 in ((one, zero), (zero, one), (full, scores), (scores, full)):
        u1, u2 = np.zeros((n + 1, n + 1)), np.zeros((n + 1, n + 1))
        _matchup(n, pi1, pi2, *law, end1, end2, u1, u2)
        results.append((float(u1[0, 0]), float(u2[0, 0])))
    return Matchup(*results)
