"""The sequential dice race: optimal values and all tied optimal numbers of dice, and policy evaluation.

EG(i, j) is the expected gain P(win) - P(loss) of the player about to move, with score i, against an
opponent with score j (both < N); there are no draws. Rolling d dice scores k with probability P(d, k):

    EG(i, j) = max_d sum_k P(d, k) * (1 if i + k >= N else -EG(j, i + k))

(the opponent then moves from (j, i + k)). A bust scores 1 point, so every turn adds at least one point
and the sum i + j strictly increases: the states are solved by anti-diagonals s = i + j, from 2N - 2
down to 0, with the Q-mean recursion of ``pipeline.dicerace.kernels`` (5 D operations per state).

The same sweep evaluates two fixed policies against each other (``evaluate``): each player's table of
P(win) - P(loss) when it is to move, the max replaced by the policy's mixture.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from pipeline.dicerace.kernels import (
    BUST_SCORE,
    MAX_DICE,
    RING,
    expect_roll,
    float_tolerance,
    policy_probs,
    qmean_level,
    race_won,
    safe_powers,
)


@dataclass(frozen=True)
class SequentialSolution:
    """Optimal play of the sequential race for (dice, target).

    value[i, j]: EG(i, j) for the player to move with score i against j (float64, in [-1, 1]).
    optimal[i, j]: bit d-1 set for every d whose value is within ``tolerance`` of the best (all ties).
    """

    dice: int
    target: int
    value: np.ndarray
    optimal: np.ndarray
    tolerance: float


def lowest_bit(masks: np.ndarray) -> np.ndarray:
    """1-based index of the lowest set bit of each mask (0 for an empty mask), as uint8."""
    masks = np.asarray(masks, dtype=np.uint64)
    low = masks & (~masks + np.uint64(1))
    return np.where(masks == 0, 0, np.log2(np.maximum(low, 1).astype(np.float64)).astype(np.int64) + 1
                    ).astype(np.uint8)


@njit(cache=True, inline="always")
def _option_values(ring, j, i, target, safe_pow, out):
    """out[d - 1] = expected value, to the mover at (i, j), of rolling d dice; ring[j, m % RING, 0] must
    hold the value to the mover of reaching total m against j (1 once m >= target). Also stores the
    Q-means ring[j, i % RING, 1..D] that states (i - f, j) need."""
    bust = ring[j, (i + BUST_SCORE) % RING, 0]
    slot = i % RING
    for d in range(1, out.shape[0] + 1):
        q = qmean_level(ring[j], i, d - 1)
        ring[j, slot, d] = q
        out[d - 1] = expect_roll(bust, q, safe_pow[d])


@njit(cache=True)
def _sweep(target, safe_pow, optimize, tol, choice_a, mixed_a, choice_b, mixed_b, values, optimal):
    """Anti-diagonal sweep. values[p, i, j]: gain of player p to move at (i, j). With ``optimize`` one
    player (both sides optimal) and ``optimal`` receives the tie masks; otherwise two players, each
    mixing its options with its policy (``kernels.policy_probs``)."""
    n_players = values.shape[0]
    dice = safe_pow.shape[0] - 1
    # rings[q, j, m % RING, 0]: value to the player facing q (q has j and is next to move) of reaching
    # total m, i.e. -EG_q(j, m); levels 1..D hold its Q-means. The initial ones are the totals
    # target .. target + 6, where the mover has won (race_won) whatever q has.
    rings = np.ones((n_players, target, RING, dice + 1))
    assert race_won(target, target)
    opts = np.empty(dice)
    probs = np.empty(dice)
    for s in range(2 * target - 2, -1, -1):
        for i in range(max(0, s - target + 1), min(s, target - 1) + 1):
            j = s - i
            for p in range(n_players):
                q = n_players - 1 - p
                _option_values(rings[q], j, i, target, safe_pow, opts)
                if optimize:
                    best = opts.max()
                    mask = 0
                    for d in range(dice):
                        if opts[d] >= best - tol:
                            mask |= 1 << d
                    optimal[i, j] = mask
                else:
                    if p == 0:
                        policy_probs(choice_a, mixed_a, i, j, probs)
                    else:
                        policy_probs(choice_b, mixed_b, i, j, probs)
                    best = 0.0
                    for d in range(dice):
                        best += probs[d] * opts[d]
                values[p, i, j] = best
                rings[p, i, j % RING, 0] = -best
    return values


def solve_sequential(dice: int, target: int) -> SequentialSolution:
    """EG and the tie masks of every state of the (dice, target) sequential race."""
    _check_size(dice, target)
    tol = float_tolerance(dice, target)
    values = np.empty((1, target, target))
    optimal = np.zeros((target, target), dtype=np.uint32)
    none = np.ones((1, 1), dtype=np.int32)
    _sweep(target, safe_powers(dice), True, tol, none, np.zeros((0, dice)), none, np.zeros((0, dice)),
           values, optimal)
    return SequentialSolution(dice=dice, target=target, value=values[0], optimal=optimal, tolerance=tol)


def evaluate_sequential(choice_a: np.ndarray, mixed_a: np.ndarray, choice_b: np.ndarray, mixed_b: np.ndarray,
                        target: int) -> tuple[np.ndarray, np.ndarray]:
    """(gain_a, gain_b): gain_a[i, j] = P(A wins) - P(B wins) when A is to move with i against B's j;
    gain_b the same for B to move. Policies in the encoding of ``kernels.policy_probs``."""
    dice = mixed_a.shape[1]
    _check_size(dice, target)
    values = np.empty((2, target, target))
    _sweep(target, safe_powers(dice), False, 0.0, choice_a, mixed_a, choice_b, mixed_b, values,
           np.zeros((1, 1), dtype=np.uint32))
    return values[0], values[1]


def _check_size(dice: int, target: int) -> None:
    if not 1 <= dice <= MAX_DICE:
        raise ValueError(f"dice must be in 1..{MAX_DICE} (tie masks are 32-bit), got {dice}")
    if target < 1:
        raise ValueError(f"target must be at least 1, got {target}")
