"""Numba kernels for one turn of 151, the building block of every solver and evaluator.

A turn is a small acyclic chain: after the forced first roll, the turn total ``t`` (units) only grows, so
the turn is solved backwards from ``t = room`` (the units left to the target) down to ``t = 0``. What lies
outside the turn enters as numbers: ``bank[t]``, the value of banking a turn total t (1 <= t <= room), and
``x``, the value of a turn that ends with nothing (a 0 roll, or a total that would overshoot the target).
Values are whatever the caller measures (win probability of the player to move, expected turns, ...).

Roll law: ``steps[k]`` (units >= 1) with probability ``probs[k]``, and 0 with probability ``p0``
(``lookup.g151.rules.kernel_roll_law``). ``zero_keeps`` (the notebook's code): a 0 after the first roll
banks the turn total instead of losing it.
"""

from __future__ import annotations

import numpy as np

from lookup.g151.rules import Rules, kernel_roll_law
from pipeline.jit import njit

ROLL, BANK, NO_DECISION = 1, 0, 2  # policy codes of the tables


def roll_args(rules: Rules) -> tuple[np.ndarray, np.ndarray, float, bool]:
    """(steps, probs, p0, zero_keeps) of ``rules``: the arguments every kernel takes after the state."""
    steps, probs, p0 = kernel_roll_law(rules)
    return steps, probs, p0, rules.zero_keeps_turn


@njit(cache=True)
def solitaire_bank(a, room, start):
    """bank[t] = 1 + start[a + t] (t = 1..room): this turn counts, then the turns from a + t."""
    bank = np.empty(room + 1)
    bank[0] = np.nan
    for t in range(1, room + 1):
        bank[t] = 1.0 + start[a + t]
    return bank


@njit(cache=True)
def turn_affine(room, roll_prob, bank, steps, probs, p0, zero_keeps):
    """The turn under a fixed (possibly random) policy, as an affine function of ``x``.

    roll_prob[t] (t = 1..room): probability of rolling again at turn total t (t = 0 always rolls).
    Returns (alpha, gamma): the turn is worth ``alpha + (1 - gamma) * x``; ``gamma`` is the probability
    that the turn banks points (so ``1 - gamma`` that it ends with nothing). Carrying gamma rather than
    1 - gamma keeps small banking probabilities accurate where callers divide by them.
    """
    alpha = np.empty(room + 1)
    gamma = np.empty(room + 1)
    for t in range(room, -1, -1):
        ra = 0.0
        rg = 0.0
        for k in range(steps.shape[0]):
            u = t + steps[k]
            if u <= room:
                ra += probs[k] * alpha[u]
                rg += probs[k] * gamma[u]
        if t > 0 and zero_keeps:
            ra += p0 * bank[t]
            rg += p0
        if t == 0:
            return ra, rg
        q = roll_prob[t]
        alpha[t] = q * ra + (1.0 - q) * bank[t]
        gamma[t] = q * rg + (1.0 - q)
    return 0.0, 0.0  # unreachable: the loop returns at t = 0


@njit(cache=True)
def turn_greedy(room, bank, x, steps, probs, p0, zero_keeps, sign, tol, roll_out, bank_out, policy_out):
    """The best play of one turn given ``bank`` and ``x``; returns the value at the turn start.

    sign = +1 maximises the value, -1 minimises it. roll_out[t] / bank_out[t] (t = 0..room) receive the
    value of rolling / banking at turn total t (bank_out[0] = NaN: the first roll is forced), policy_out[t]
    ROLL or BANK. Rolling is chosen only when better by more than ``tol``: exact ties bank.
    """
    best = np.empty(room + 1)
    for t in range(room, -1, -1):
        v = 0.0
        for k in range(steps.shape[0]):
            u = t + steps[k]
            v += probs[k] * (best[u] if u <= room else x)
        v += p0 * (bank[t] if t > 0 and zero_keeps else x)
        roll_out[t] = v
        if t == 0:
            bank_out[0] = np.nan
            policy_out[0] = ROLL
            return v
        bank_out[t] = bank[t]
        if sign * (v - bank[t]) > tol:
            policy_out[t] = ROLL
            best[t] = v
        else:
            policy_out[t] = BANK
            best[t] = bank[t]
    return 0.0  # unreachable
