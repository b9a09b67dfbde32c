"""Pig solved exactly: both players maximise their probability of winning (docs/pig.md, "How the table is built").

P(i, j, k): the probability that the player to move wins, with i banked, the other player j, turn total k.
Holding gives 1 - W(j, i + k), rolling (1 - W(j, i)) / 6 + sum over the safe faces f of P(i, j, k + f) / 6, where
W(i, j) = roll(i, j, 0) is the value at the start of a turn (which begins with a roll) and a turn total that
reaches the target wins at once. Holding raises i + j, a bust swaps the scores: so the positions of scores
(i, j) and (j, i) depend on each other and on higher sums only. They are solved sum by sum, from the highest,
all pairs of one sum at once (numpy over the pairs):

* **policy iteration** on each pair: for a fixed roll / hold choice at every turn total, each turn's value is
  linear in the other player's turn-start value, W(i, j) = c + d (1 - W(j, i)); the two equations of a pair are
  solved exactly (a 2 x 2 system); then every choice is improved, and the loop ends when no choice changes.
  Policy iteration ends with the optimal policy (Howard's theorem: each step strictly raises some value, and
  there are finitely many policies), whose values solve the optimality equations;
* so the only error is float64 rounding of those exact solutions. ``Solution.residual`` measures it: the
  largest gap between a stored value and its own equation evaluated from the stored values (both choices, every
  state), and the tests hold reduced games to exact rationals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lookup.pig.rules import Rules

# A choice switches only when the other is better by more than this: rounding must not make the loop cycle
# between two choices of equal exact value (their values then differ by rounding alone, ~1e-16).
SWITCH = 1e-14
MAX_ITERATIONS = 100


@dataclass(frozen=True)
class Solution:
    """roll[i, j, k], hold[i, j, k] (see ``lookup.pig.tables.PigTable``), the first player's probability of
    winning ``start`` = roll[0, 0, 0], the most policy iterations a sum needed, and the residual (above)."""

    roll: np.ndarray
    hold: np.ndarray
    start: float
    iterations: int
    residual: float


def solve(rules: Rules, target: int) -> Solution:
    """The optimal two-player tables of Pig to ``target`` under ``rules``."""
    t = int(target)
    p = 1.0 / rules.faces
    safe = np.array(rules.safe_faces)
    pad = t + int(safe.max()) + 1  # turn totals past the target read "won" (1)
    roll = np.full((t, t, t), np.nan)
    hold = np.full((t, t, t), np.nan)
    start = np.full((t, t), np.nan)  # W(i, j)
    most = 0
    for s in range(2 * t - 2, -1, -1):
        i = np.arange(max(0, s - t + 1), min(s, t - 1) + 1)
        j = s - i
        partner = np.arange(len(i))[::-1]  # (j, i) is the pair listed in reverse
        k = np.arange(pad)
        inside = k[None, :] + i[:, None] < t  # turn totals that have not reached the target
        held = np.full((len(i), pad), np.nan)
        for kk in range(1, t):
            rows = np.flatnonzero(inside[:, kk])
            held[rows, kk] = 1.0 - start[j[rows], i[rows] + kk]
        rolls_on = np.zeros((len(i), pad), dtype=bool)  # the policy at k >= 1 (k = 0 always rolls)
        for iteration in range(1, MAX_ITERATIONS + 1):
            x, values = _evaluate(rolls_on, held, inside, partner, p, safe)
            y = x[partner]
            gain = _roll_values(values, y, p, safe) - held
            better = np.where(rolls_on, gain >= -SWITCH, gain > SWITCH) & inside
            better[:, 0] = False
            if np.array_equal(better, rolls_on):
                most = max(most, iteration)
                break
            rolls_on = better
        else:
            raise RuntimeError(f"Pig to {t}: policy iteration did not settle at score sum {s}")
        rolled = _roll_values(values, y, p, safe)
        for row in range(len(i)):
            n = t - i[row]  # turn totals 0 .. n - 1
            roll[i[row], j[row], :n] = rolled[row, :n]
            hold[i[row], j[row], 1:n] = held[row, 1:n]
        start[i, j] = x
    unreachable = [k for k in range(1, min(safe)) if k < t]  # turn totals no face makes (1 with a six-sided die)
    roll[:, :, unreachable] = np.nan
    hold[:, :, unreachable] = np.nan
    return Solution(roll, hold, float(roll[0, 0, 0]), most, residual(rules, roll, hold))


def _evaluate(rolls_on: np.ndarray, held: np.ndarray, inside: np.ndarray, partner: np.ndarray, p: float,
              safe: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The turn-start values x of the pairs under the policy, and every turn total's value (rows: pairs)."""
    n, pad = held.shape
    c = np.ones((n, pad))  # value = c + d * (1 - the partner's turn-start value); past the target: won
    d = np.zeros((n, pad))
    for k in range(pad - int(safe.max()) - 1, -1, -1):
        rc = p * c[:, k + safe].sum(axis=1)
        rd = p + p * d[:, k + safe].sum(axis=1)
        if k == 0:
            c0, d0 = rc, rd
            continue
        on = inside[:, k]
        c[on, k] = np.where(rolls_on[on, k], rc[on], held[on, k])
        d[on, k] = np.where(rolls_on[on, k], rd[on], 0.0)
    a = c0 + d0
    x = (a - d0 * a[partner]) / (1.0 - d0 * d0[partner])
    y = x[partner]
    values = c + d * (1.0 - y)[:, None]
    values[:, 0] = x
    return x, values


def _roll_values(values: np.ndarray, y: np.ndarray, p: float, safe: np.ndarray) -> np.ndarray:
    """The value of rolling at every turn total, from the values of the totals above and the partner's y."""
    n, pad = values.shape
    out = np.full((n, pad), np.nan)
    top = pad - int(safe.max()) - 1
    shifted = np.stack([values[:, f:f + top] for f in safe]).sum(axis=0)
    out[:, :top] = p * (1.0 - y)[:, None] + p * shifted
    return out


def residual(rules: Rules, roll: np.ndarray, hold: np.ndarray) -> float:
    """The largest gap, over every stored value, between it and its optimality equation evaluated from the
    stored values (rolling: the faces' mean; holding: the other player's turn start; both: the better choice
    where the next state is a choice)."""
    t = roll.shape[0]
    p = 1.0 / rules.faces
    worst = 0.0
    best = np.fmax(roll, hold)
    for i in range(t):
        for j in range(t):
            n = t - i
            for k in range(n):
                if np.isnan(roll[i, j, k]):
                    continue
                after = [1.0 - roll[j, i, 0]] + [1.0 if k + f >= n else best[i, j, k + f] for f in rules.safe_faces]
                worst = max(worst, abs(roll[i, j, k] - p * sum(after)))
                if k:
                    won = 1.0 - roll[j, i + k, 0] if i + k < t else 1.0
                    worst = max(worst, abs(hold[i, j, k] - won))
    return worst
