"""Optimal 151 policies: solitaire (fewest expected turns) and two players (highest win probability).

Scores are in units of 50 points; ``n`` is the target in units. Both games repeat states: a turn can
end with nothing, leaving the scores as they were. The structure that makes them solvable exactly:

* Solitaire. From banked ``a`` a turn either fails (back to ``a``) or banks (to ``a + t > a``). So the
  states are solved from ``a = n - 1`` down, and each is a one-state fixed point ``V(a) = g_a(V(a))``
  where ``g_a`` (the best turn given that failing is worth ``V(a)``) is a minimum of affine maps. Policy
  iteration (Newton's method on that concave map) from the proper policy "bank the first roll"
  converges in a handful of steps; each policy's value is exact: ``V = (alpha + (1-gamma) c) / gamma``.
* Two players. ``W(a, b)``, the mover's win probability at a turn start, depends on the states with a
  larger score sum (banking) and on ``W(b, a)`` (a failed turn hands the same scores to the opponent).
  Score sums are solved from ``2n - 2`` down; within a sum each pair {(a, b), (b, a)} is a coupled 2-state
  fixed point. For given turn policies it is a 2x2 linear system, solved exactly; the policies are then
  made greedy at the solution, until they repeat (Bellman residual ~1e-16). Should that ever cycle, a
  contraction (value iteration on the pair, modulus = product of the two failure probabilities < 1)
  finishes the job.

Tie rule: roll only when better by more than ``tol`` (exact ties bank).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lookup.g151.rules import Rules, get_rules
from pipeline.g151.kernels import NO_DECISION, roll_args, solitaire_bank, turn_affine, turn_greedy
from pipeline.jit import njit

SOLITAIRE_TOL = 1e-10  # turns
DUEL_TOL = 1e-12  # win probability
_PAIR_NEWTON_STEPS = 60
_PAIR_VI_STEPS = 1_000_000


@njit(cache=True)
def _solve_solitaire(n, steps, probs, p0, zero_keeps, fail_cost, tol, roll_val, bank_val, policy, start, stats):
    start[n] = 0.0
    for a in range(n - 1, -1, -1):
        room = n - a
        bank = solitaire_bank(a, room, start)
        roll_prob = np.zeros(room + 1)  # "bank the first roll": reaches the target with probability 1
        greedy = np.empty(room + 1, dtype=np.uint8)
        v = 0.0
        for it in range(1000):
            alpha, gamma = turn_affine(room, roll_prob, bank, steps, probs, p0, zero_keeps)
            v = (alpha + (1.0 - gamma) * fail_cost) / gamma
            backup = turn_greedy(room, bank, fail_cost + v, steps, probs, p0, zero_keeps, -1.0, tol,
                                 roll_val[a], bank_val[a], greedy)
            stats[0] = max(stats[0], it + 1)
            changed = False
            for t in range(1, room + 1):
                if greedy[t] != roll_prob[t]:
                    changed = True
                roll_prob[t] = greedy[t]
            if not changed:
                stats[1] = max(stats[1], abs(backup - v))
                break
        start[a] = v
        roll_val[a, 0] = v  # the solved fixed point itself (the backup differs by the residual only)
        policy[a, : room + 1] = greedy


@njit(cache=True)
def _pair_tables(a, b, n, w):
    """Bank values of the mover at (a, b): winning when reaching n, else 1 - W(opponent, a + t)."""
    room = n - a
    bank = np.empty(room + 1)
    bank[0] = np.nan
    for t in range(1, room + 1):
        bank[t] = 1.0 if a + t == n else 1.0 - w[b, a + t]
    return bank


@njit(cache=True)
def _solve_pair(a, b, n, steps, probs, p0, zero_keeps, tol, roll_val, bank_val, policy, w, stats):
    bank_a = _pair_tables(a, b, n, w)
    bank_b = _pair_tables(b, a, n, w)
    ra, rb = n - a, n - b
    pol_a = np.full(ra + 1, NO_DECISION, dtype=np.uint8)
    pol_b = np.full(rb + 1, NO_DECISION, dtype=np.uint8)
    new_a = np.empty(ra + 1, dtype=np.uint8)
    new_b = np.empty(rb + 1, dtype=np.uint8)
    wa, wb = 0.5, 0.5
    done = False
    for it in range(_PAIR_NEWTON_STEPS):
        turn_greedy(ra, bank_a, 1.0 - wb, steps, probs, p0, zero_keeps, 1.0, tol, roll_val[a, b], bank_val[a, b],
                    new_a)
        turn_greedy(rb, bank_b, 1.0 - wa, steps, probs, p0, zero_keeps, 1.0, tol, roll_val[b, a], bank_val[b, a],
                    new_b)
        if np.array_equal(new_a, pol_a) and np.array_equal(new_b, pol_b):
            stats[0] = max(stats[0], it)
            done = True
            break
        pol_a[:] = new_a
        pol_b[:] = new_b
        alpha_a, gamma_a = turn_affine(ra, pol_a.astype(np.float64), bank_a, steps, probs, p0, zero_keeps)
        alpha_b, gamma_b = turn_affine(rb, pol_b.astype(np.float64), bank_b, steps, probs, p0, zero_keeps)
        # wa = alpha_a + (1 - gamma_a)(1 - wb) and wb = alpha_b + (1 - gamma_b)(1 - wa), solved exactly;
        # the determinant 1 - (1-gamma_a)(1-gamma_b) is written without cancellation.
        den = gamma_a + gamma_b - gamma_a * gamma_b
        wa = (alpha_a + (1.0 - gamma_a) * (1.0 - alpha_b - (1.0 - gamma_b))) / den
        wb = (alpha_b + (1.0 - gamma_b) * (1.0 - alpha_a - (1.0 - gamma_a))) / den
    if not done:
        # Fallback, never needed on the default grid: value iteration on the pair is a contraction.
        stats[2] += 1
        for _ in range(_PAIR_VI_STEPS):
            na = turn_greedy(ra, bank_a, 1.0 - wb, steps, probs, p0, zero_keeps, 1.0, tol, roll_val[a, b],
                             bank_val[a, b], new_a)
            nb = turn_greedy(rb, bank_b, 1.0 - na, steps, probs, p0, zero_keeps, 1.0, tol, roll_val[b, a],
                             bank_val[b, a], new_b)
            delta = max(abs(na - wa), abs(nb - wb))
            wa, wb = na, nb
            if delta < 1e-16:
                break
    # Last greedy pass at the solution: fills the tables, and its turn-start values are the backups.
    va = turn_greedy(ra, bank_a, 1.0 - wb, steps, probs, p0, zero_keeps, 1.0, tol, roll_val[a, b], bank_val[a, b],
                     new_a)
    vb = turn_greedy(rb, bank_b, 1.0 - wa, steps, probs, p0, zero_keeps, 1.0, tol, roll_val[b, a], bank_val[b, a],
                     new_b)
    stats[1] = max(stats[1], abs(va - wa), abs(vb - wb))
    # The turn start holds the solved fixed point itself (the backup differs by the residual only).
    roll_val[a, b, 0] = wa
    roll_val[b, a, 0] = wb
    policy[a, b, : ra + 1] = new_a
    policy[b, a, : rb + 1] = new_b
    w[a, b] = wa
    w[b, a] = wb


@njit(cache=True)
def _solve_duel(n, steps, probs, p0, zero_keeps, tol, roll_val, bank_val, policy, w, stats):
    for s in range(2 * n - 2, -1, -1):
        for a in range(max(0, s - n + 1), min(n - 1, s) + 1):
            b = s - a
            if a <= b:
                _solve_pair(a, b, n, steps, probs, p0, zero_keeps, tol, roll_val, bank_val, policy, w, stats)


@dataclass(frozen=True)
class Solution:
    """Optimal play for one variant and target (``n`` units): value and policy tables.

    roll / bank: value of rolling / banking now, optimal play afterwards (NaN where there is no such
    choice: t = 0 cannot bank, a + t > n is a lost turn, a = n is over; t = 0 holds the turn start value).
    policy: 1 roll, 0 bank, 2 no decision. start: value at a turn start. newton_steps: most policy
    iteration steps one state (or pair) needed; residual: largest Bellman residual at the solution.
    """

    rules: Rules
    n: int
    roll: np.ndarray
    bank: np.ndarray
    policy: np.ndarray
    start: np.ndarray
    newton_steps: int
    residual: float


@dataclass(frozen=True)
class Solitaire(Solution):
    """Alone. Tables [a, t]; values are expected counted turns (this one included when the rules count
    it) until the target is reached exactly. start[a]: from a turn start with ``a`` banked (start[n] = 0).
    """


@dataclass(frozen=True)
class Duel(Solution):
    """Two players, from the mover's view: own banked ``a``, the opponent's ``b``, turn total ``t``.
    Tables [a, b, t]; values are the mover's win probability, both optimal. start[a, b] at a turn start
    (NaN when a or b is n). fallbacks: pairs that needed value iteration (0 on the default grid).
    """

    fallbacks: int = 0


def solve_solitaire(rules: Rules | str, n: int) -> Solitaire:
    """Fewest expected counted turns to reach ``n`` units exactly, and the policy achieving it."""
    rules = get_rules(rules)
    if n < 1:
        raise ValueError(f"target must be at least 1 unit, got {n}")
    roll = np.full((n + 1, n + 1), np.nan)
    bank = np.full((n + 1, n + 1), np.nan)
    policy = np.full((n + 1, n + 1), NO_DECISION, dtype=np.uint8)
    start = np.zeros(n + 1)
    stats = np.zeros(3)
    fail_cost = 1.0 if rules.failed_turns_count else 0.0
    _solve_solitaire(n, *roll_args(rules), fail_cost, SOLITAIRE_TOL, roll, bank, policy, start, stats)
    return Solitaire(rules, n, roll, bank, policy, start, int(stats[0]), float(stats[1]))


def solve_duel(rules: Rules | str, n: int) -> Duel:
    """Highest win probability of the player to move in every state, and the policy achieving it."""
    rules = get_rules(rules)
    if n < 1:
        raise ValueError(f"target must be at least 1 unit, got {n}")
    roll = np.full((n + 1, n + 1, n + 1), np.nan)
    bank = np.full((n + 1, n + 1, n + 1), np.nan)
    policy = np.full((n + 1, n + 1, n + 1), NO_DECISION, dtype=np.uint8)
    w = np.full((n + 1, n + 1), np.nan)
    stats = np.zeros(3)
    _solve_duel(n, *roll_args(rules), DUEL_TOL, roll, bank, policy, w, stats)
    # The game-over rows (a = n or b = n) are no decision states: keep them NaN / NO_DECISION.
    return Duel(rules, n, roll, bank, policy, w, int(stats[0]), float(stats[1]), int(stats[2]))
