"""Seeded Monte Carlo games of 151 played by roll-probability tables (numba; one numpy Generator per call).

Independent of the exact evaluators on purpose: the dice are thrown one by one and scored through the
per-outcome table ``lookup.g151.rules.points_by_dice``, and the turn is played step by step as in the
notebook's ``unJeu``. The same seed gives the same games.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lookup.g151.rules import UNIT, Rules, get_rules, points_by_dice
from pipeline.jit import njit

MAX_TURNS = 100_000  # per player and game: a policy that never finishes is cut here and reported


@njit(cache=True)
def _throw(rng, dice_units):
    return dice_units[rng.integers(0, 6), rng.integers(0, 6), rng.integers(0, 6)]


@njit(cache=True)
def _turn(rng, a, n, pi_row, dice_units, zero_keeps):
    """One turn from banked ``a`` (units): the new banked score."""
    t = _throw(rng, dice_units)
    if t == 0:
        return a
    while a + t <= n:
        q = pi_row[t]
        if not (q >= 1.0 or (q > 0.0 and rng.random() < q)):
            return a + t  # bank
        r = _throw(rng, dice_units)
        if r == 0:
            return a + t if zero_keeps else a
        t += r
    return a  # overshoot: the turn scores nothing


@njit(cache=True)
def _solitaire(rng, n, pi, dice_units, zero_keeps, games, turns, scoring):
    for g in range(games):
        a, k, s = 0, 0, 0
        while a < n and k < MAX_TURNS:
            new = _turn(rng, a, n, pi[a], dice_units, zero_keeps)
            k += 1
            if new != a:
                s += 1
            a = new
        turns[g] = k if a == n else -1
        scoring[g] = s if a == n else -1


@njit(cache=True)
def _duel(rng, n, pi1, pi2, dice_units, zero_keeps, games, first, winner, final):
    for g in range(games):
        score = np.zeros(2, dtype=np.int64)
        mover = first
        winner[g] = -1
        for _ in range(2 * MAX_TURNS):
            other = 1 - mover
            pi = pi1 if mover == 0 else pi2
            score[mover] = _turn(rng, score[mover], n, pi[score[mover], score[other]], dice_units, zero_keeps)
            if score[mover] == n:
                winner[g] = mover
                break
            mover = other
        final[g, 0] = score[0]
        final[g, 1] = score[1]


@dataclass(frozen=True)
class SolitaireSample:
    """Per game: turns played and turns that banked points (-1 if cut at MAX_TURNS)."""

    turns: np.ndarray
    scoring_turns: np.ndarray


@dataclass(frozen=True)
class DuelSample:
    """Per game: winner (0 = player 1, 1 = player 2, -1 cut) and final scores in points [game, player]."""

    winner: np.ndarray
    final: np.ndarray


def simulate_solitaire(pi: np.ndarray, rules: Rules | str, n: int, games: int, seed: int = 0) -> SolitaireSample:
    """``games`` solitaire games of the policy ``pi[a, t]`` to ``n`` units."""
    rules = get_rules(rules)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    turns, scoring = np.empty(games, dtype=np.int64), np.empty(games, dtype=np.int64)
    _solitaire(np.random.default_rng(seed), n, np.ascontiguousarray(pi, dtype=np.float64), points_by_dice(rules),
               rules.zero_keeps_turn, games, turns, scoring)
    return SolitaireSample(turns, scoring)


def simulate_duel(pi1: np.ndarray, pi2: np.ndarray, rules: Rules | str, n: int, games: int, seed: int = 0,
                  first: int = 0) -> DuelSample:
    """``games`` games of ``pi1`` (player 1) against ``pi2`` (player 2), player ``first + 1`` moving first."""
    rules = get_rules(rules)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    if first not in (0, 1):
        raise ValueError(f"first must be 0 (player 1) or 1 (player 2), got {first!r}")
    winner, final = np.empty(games, dtype=np.int64), np.empty((games, 2), dtype=np.int64)
    _duel(np.random.default_rng(seed), n, np.ascontiguousarray(pi1, dtype=np.float64),
          np.ascontiguousarray(pi2, dtype=np.float64), points_by_dice(rules), rules.zero_keeps_turn, games, first,
          winner, final)
    return DuelSample(winner, final * UNIT)


def mean_and_se(x: np.ndarray) -> tuple[float, float]:
    """Sample mean and its standard error."""
    x = np.asarray(x, dtype=np.float64)
    return float(x.mean()), float(x.std(ddof=1) / np.sqrt(x.size))
