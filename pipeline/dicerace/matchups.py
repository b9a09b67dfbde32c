"""Exact match-ups between two dice-race policies, by a Markov-chain computation over the states.

Results are for player A against player B from scores (0, 0): the probabilities that A wins, that the
game is drawn (simultaneous game only) and that A loses.

- Sequential game (``sequential_sweep`` of ``pipeline.dicerace.sequential``): gain_X(i, j) =
  P(X wins) - P(X loses) for X to move; one sweep gives both "A moves first" and "B moves first".
- Simultaneous game: win(a, b) and loss(a, b), A with a against B with b, are expectations over both
  players' rolls of the same quantities at the next totals (or of the final outcome when the game is
  over), each player mixing over d with its own policy (B reads its policy at (b, a)). Rows a are
  solved from the highest total down; the expectation over A's roll uses the Q-mean recursion of
  ``pipeline.dicerace.kernels`` for every d at once, the one over B's roll the mixed roll distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.dicerace.kernels import (
    BUST_SCORE,
    RING,
    SAFE_FACES,
    advance_rows,
    bust_powers,
    final_outcome,
    policy_probs,
    roll_rows,
    roll_table,
    safe_powers,
    simultaneous_over,
)
from pipeline.dicerace.policies import Policy
from pipeline.dicerace.sequential import evaluate_sequential
from pipeline.jit import njit

MAX_FACE = int(SAFE_FACES.max())


@dataclass(frozen=True)
class Outcome:
    """Probabilities, for player A, of winning, drawing and losing."""

    win: float
    draw: float
    loss: float

    @property
    def gain(self) -> float:
        """P(A wins) - P(A loses): A's expected gain with +1 / 0 / -1 for a win / draw / loss."""
        return self.win - self.loss

    def as_dict(self) -> dict[str, float]:
        return {"win": self.win, "draw": self.draw, "loss": self.loss, "gain": self.gain}


def _check(a: Policy, b: Policy, target: int) -> None:
    if a.dice != b.dice:
        raise ValueError(f"policies for different numbers of dice: {a.name} {a.dice}, {b.name} {b.dice}")
    a.check_target(target)
    b.check_target(target)


def sequential_match(a: Policy, b: Policy, target: int) -> dict[str, Outcome]:
    """Exact outcomes of the sequential race: {"a_first": ..., "b_first": ...} (no draws)."""
    _check(a, b, target)
    gain_a, gain_b = evaluate_sequential(a.choice, a.mixed, b.choice, b.mixed, target)
    first_a, first_b = float(gain_a[0, 0]), float(gain_b[0, 0])
    return {"a_first": Outcome(win=(1 + first_a) / 2, draw=0.0, loss=(1 - first_a) / 2),
            "b_first": Outcome(win=(1 - first_b) / 2, draw=0.0, loss=(1 + first_b) / 2)}


def simultaneous_match(a: Policy, b: Policy, target: int) -> Outcome:
    """Exact outcome of the simultaneous race between A and B."""
    _check(a, b, target)
    win, loss = simultaneous_tables(a, b, target)
    w, lo = float(win[0, 0]), float(loss[0, 0])
    return Outcome(win=w, draw=1.0 - w - lo, loss=lo)


def match(a: Policy, b: Policy, target: int, mode: str) -> dict[str, Outcome]:
    """{"a_first", "b_first"} outcomes (sequential) or {"simultaneous"} (simultaneous)."""
    if mode == "sequential":
        return sequential_match(a, b, target)
    if mode == "simultaneous":
        return {"simultaneous": simultaneous_match(a, b, target)}
    raise ValueError(f"mode must be 'sequential' or 'simultaneous', got {mode!r}")


def simultaneous_tables(a: Policy, b: Policy, target: int) -> tuple[np.ndarray, np.ndarray]:
    """(win, loss): win[i, j] = P(A eventually wins) with A at i and B at j, loss[i, j] likewise."""
    dice = a.dice
    win, loss = _simultaneous_sweep(target, bust_powers(dice), safe_powers(dice), roll_table(dice), a.choice, a.mixed,
                                    b.choice, b.mixed)
    return win[:target, :target].copy(), loss[:target, :target].copy()


@njit(cache=True)
def _roll_law(choice, mixed, mine, other, roll_p, probs, out):
    """out[k] = probability that a player following the policy at (mine, other) scores k this turn."""
    policy_probs(choice, mixed, mine, other, probs)
    out[:] = 0.0
    for d in range(probs.shape[0]):
        if probs[d] > 0.0:
            out += probs[d] * roll_p[d + 1]


@njit(cache=True)
def _simultaneous_sweep(target, bust_pow, safe_pow, roll_p, choice_a, mixed_a, choice_b, mixed_b):
    dice = safe_pow.shape[0] - 1
    top = target - 1 + MAX_FACE * dice
    size = top + 1 + RING
    win = np.zeros((size, size))
    loss = np.zeros((size, size))
    for a in range(size):
        for b in range(size):
            if simultaneous_over(a, b, target):
                outcome = final_outcome(a, b)
                win[a, b] = outcome > 0
                loss[a, b] = outcome < 0
    ring_w = np.zeros((RING, dice + 1, size))
    ring_l = np.zeros((RING, dice + 1, size))
    rolls_w = np.empty((dice, size - BUST_SCORE))
    rolls_l = np.empty((dice, size - BUST_SCORE))
    mean_w = np.empty(size - BUST_SCORE)
    mean_l = np.empty(size - BUST_SCORE)
    pa = np.empty(dice)
    pb = np.empty(dice)
    n_k = roll_p.shape[1]
    rho = np.empty(n_k)
    stationary_a = choice_a.shape[0] == 1
    stationary_b = choice_b.shape[0] == 1
    if stationary_b:  # B's law of points is the same everywhere
        _roll_law(choice_b, mixed_b, 0, 0, roll_p, pb, rho)
    for a in range(top, -1, -1):
        advance_rows(ring_w, a)
        advance_rows(ring_l, a)
        if a < target:
            roll_rows(ring_w, a, win[a + BUST_SCORE, : size - BUST_SCORE], bust_pow, safe_pow, rolls_w)
            roll_rows(ring_l, a, loss[a + BUST_SCORE, : size - BUST_SCORE], bust_pow, safe_pow, rolls_l)
            if stationary_a:  # A mixes the same way everywhere: mix its rolls once per row
                policy_probs(choice_a, mixed_a, 0, 0, pa)
                mean_w[:] = 0.0
                mean_l[:] = 0.0
                for d in range(dice):
                    if pa[d] > 0.0:
                        mean_w += pa[d] * rolls_w[d]
                        mean_l += pa[d] * rolls_l[d]
            for b in range(target):
                if not stationary_b:
                    _roll_law(choice_b, mixed_b, b, a, roll_p, pb, rho)
                if not stationary_a:
                    policy_probs(choice_a, mixed_a, a, b, pa)
                w = 0.0
                lo = 0.0
                for k in range(1, n_k):
                    if rho[k] == 0.0:
                        continue
                    if stationary_a:
                        uw = mean_w[b + k]
                        ul = mean_l[b + k]
                    else:
                        uw = 0.0
                        ul = 0.0
                        for d in range(dice):
                            if pa[d] > 0.0:
                                uw += pa[d] * rolls_w[d, b + k]
                                ul += pa[d] * rolls_l[d, b + k]
                    w += rho[k] * uw
                    lo += rho[k] * ul
                win[a, b] = w
                loss[a, b] = lo
        ring_w[a % RING, 0, :] = win[a]
        ring_l[a % RING, 0, :] = loss[a]
    return win, loss
