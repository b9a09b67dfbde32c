"""The sequential dice race: optimal values and all tied optimal numbers of dice, and policy evaluation.

EG(i, j) is the expected gain P(win) - P(loss) of the player about to move, with score i, against an
opponent with score j (both < N); there are no draws. Rolling d dice scores k with probability P(d, k):

    EG(i, j) = max_d sum_k P(d, k) * (1 if i + k >= N else -EG(j, i + k))

(the opponent then moves from (j, i + k)). A bust scores 1 point, so every turn adds at least one point
and the sum i + j strictly increases: the states are solved by anti-diagonals s = i + j, from 2N - 2
down to 0, with the Q-mean recursion of ``pipeline.dicerace.kernels`` (5 D operations per state).

**Exact order of the options.** EG is close to +-1 in nearly decided states, where its float64 rounding
(absolute, ~1e-16 per operation) swamps differences of 1e-13 between options. The optimal solve
therefore carries P(win) and P(lose) of the mover separately (no draws: they sum to 1 exactly, not in
floating point), each computed only from sums and products of non-negative numbers,

    W_d(i, j) = b_d W(i + 1) + s_d Qmean_d[W](i),   W(m) = 1 if m >= N else L(j, m)   (likewise L with 0, W)

(b_d = 1 - s_d the bust probability, both exact fractions rounded once), so each carries a *relative*
error bound (``relative_bound``): tiny probabilities stay exactly as precise as large ones, and an exact
zero (an option that cannot win) stays exactly zero. Two options are tied when both their P(win)
intervals and their P(lose) intervals overlap; tests/dicerace checks state by state against exact
integer arithmetic on four full grids that this finds exactly the exact optimal sets.

The same sweep evaluates two fixed policies against each other (``evaluate``): each player's table of
P(win) - P(loss) when it is to move, the max replaced by the policy's mixture.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.dicerace.kernels import (
    BUST_SCORE,
    MAX_DICE,
    RING,
    SMALLEST_TRUSTED,
    bust_powers,
    expect_roll,
    policy_probs,
    qmean_level,
    race_won,
    safe_powers,
)
from pipeline.jit import njit


@dataclass(frozen=True)
class SequentialSolution:
    """Optimal play of the sequential race for (dice, target).

    value[i, j]: EG(i, j) = win - lose for the player to move with score i against j (float64, in [-1, 1]).
    win[i, j], lose[i, j]: P(win) and P(lose) of that player, each within a relative error ``tolerance``
        of the exact probability (so values near 0 are as precise as any).
    optimal[i, j]: bit d-1 set for every optimal d (exactly the d whose exact value is the best).
    """

    dice: int
    target: int
    value: np.ndarray
    win: np.ndarray
    lose: np.ndarray
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
def _sweep(target, safe_pow, choice_a, mixed_a, choice_b, mixed_b, values):
    """Anti-diagonal sweep of policy evaluation. values[p, i, j]: gain of player p to move at (i, j), each
    player mixing its options with its policy (``kernels.policy_probs``)."""
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


def relative_bound(dice: int, target: int) -> float:
    """Bound on the relative rounding error of every P(win) and P(lose) the optimal solve computes.

    With u = 2^-53: one Q-mean level (four additions of non-negative partial sums and a division by 5)
    adds at most 5 u of relative error, so an option's Qmean_d at most 5 dice u; the final b W + s Q
    (b and s rounded once, two products, one sum) adds 3 u. Sums and averages of non-negative numbers
    never amplify relative errors, so one turn adds at most (5 dice + 3) u, and every turn adds at least
    one point to the mover's score: at most 2 * target turns separate a state from the end. The factor
    1.01 covers the second-order terms.
    """
    return 1.01 * 2 * target * (5 * dice + 3) * 2.0**-53


@njit(cache=True, inline="always")
def _overlap(a, b, rho):
    """True when a and b (non-negative, each within relative error rho of its exact value) may be equal."""
    return abs(a - b) <= rho * (a + b)


@njit(cache=True)
def _sweep_optimal(target, bust_pow, safe_pow, rho, win, lose, optimal):
    """Anti-diagonal sweep of the optimal solve in (P(win), P(lose)) form (see the module docstring).

    rw[j, m % RING, 0]: P(the mover wins) once it reaches total m against j (1 when m >= target, else
    P(the opponent, then to move at (j, m), loses)); rl likewise for P(the mover loses). Levels 1..D hold
    their Q-means, as in ``_option_values``.
    """
    dice = safe_pow.shape[0] - 1
    rw = np.ones((target, RING, dice + 1))
    rl = np.zeros((target, RING, dice + 1))
    assert race_won(target, target)
    w_opt = np.empty(dice)
    l_opt = np.empty(dice)
    for s in range(2 * target - 2, -1, -1):
        for i in range(max(0, s - target + 1), min(s, target - 1) + 1):
            j = s - i
            bust_w = rw[j, (i + BUST_SCORE) % RING, 0]
            bust_l = rl[j, (i + BUST_SCORE) % RING, 0]
            slot = i % RING
            best = 0
            for d in range(1, dice + 1):
                qw = qmean_level(rw[j], i, d - 1)
                ql = qmean_level(rl[j], i, d - 1)
                rw[j, slot, d] = qw
                rl[j, slot, d] = ql
                w_opt[d - 1] = bust_pow[d] * bust_w + safe_pow[d] * qw
                l_opt[d - 1] = bust_pow[d] * bust_l + safe_pow[d] * ql
                # Compare EG = w - l through the differences of like quantities: near +-1, w - l itself
                # rounds away differences of P(win) (or P(lose)) far below 1e-16.
                if (w_opt[d - 1] - w_opt[best]) + (l_opt[best] - l_opt[d - 1]) > 0.0:
                    best = d - 1
            mask = 0
            for d in range(dice):
                if _overlap(w_opt[d], w_opt[best], rho) and _overlap(l_opt[d], l_opt[best], rho):
                    mask |= 1 << d
            optimal[i, j] = mask
            win[i, j] = w_opt[best]
            lose[i, j] = l_opt[best]
            # The opponent, reaching total j against i, wins when this mover loses.
            rw[i, j % RING, 0] = l_opt[best]
            rl[i, j % RING, 0] = w_opt[best]




def solve_sequential(dice: int, target: int) -> SequentialSolution:
    """EG, P(win), P(lose) and the exact optimal sets of every state of the (dice, target) sequential race."""
    _check_size(dice, target)
    rho = relative_bound(dice, target)
    win = np.empty((target, target))
    lose = np.empty((target, target))
    optimal = np.zeros((target, target), dtype=np.uint32)
    _sweep_optimal(target, bust_powers(dice), safe_powers(dice), rho, win, lose, optimal)
    tiny = np.concatenate([win[(win > 0) & (win < SMALLEST_TRUSTED)], lose[(lose > 0) & (lose < SMALLEST_TRUSTED)]])
    if tiny.size:
        raise ValueError(f"(dice={dice}, target={target}): {tiny.size} probabilities below 2^-900, where the "
                         "relative error bound of the tie test no longer holds")
    return SequentialSolution(dice=dice, target=target, value=win - lose, win=win, lose=lose, optimal=optimal,
                              tolerance=rho)


def evaluate_sequential(choice_a: np.ndarray, mixed_a: np.ndarray, choice_b: np.ndarray, mixed_b: np.ndarray,
                        target: int) -> tuple[np.ndarray, np.ndarray]:
    """(gain_a, gain_b): gain_a[i, j] = P(A wins) - P(B wins) when A is to move with i against B's j;
    gain_b the same for B to move. Policies in the encoding of ``kernels.policy_probs``."""
    dice = mixed_a.shape[1]
    _check_size(dice, target)
    values = np.empty((2, target, target))
    _sweep(target, safe_powers(dice), choice_a, mixed_a, choice_b, mixed_b, values)
    return values[0], values[1]


def _check_size(dice: int, target: int) -> None:
    if not 1 <= dice <= MAX_DICE:
        raise ValueError(f"dice must be in 1..{MAX_DICE} (tie masks are 32-bit), got {dice}")
    if target < 1:
        raise ValueError(f"target must be at least 1, got {target}")
