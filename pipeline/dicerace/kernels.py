"""Numba building blocks shared by the dice-race solvers, the exact match-ups and the simulator.

Notation (rules in ``lookup.dicerace.rules``): P(d, k) is the probability that d dice score k points;
s_d = (5/6)^d the probability that no die busts; Q(d, .) the distribution of the sum of d safe dice, so
Q(d, .) = Q(d-1, .) convolved with the uniform law on the safe faces 2..6. For any table X of values
over totals, the expectation over one roll of d dice from total m is

    E_d[X](m) = X(m + BUST_SCORE) + s_d * (Qmean_d[X](m) - X(m + BUST_SCORE))
    Qmean_d[X](m) = sum_k Q(d, k) X(m + k) = mean over safe faces f of Qmean_{d-1}[X](m + f),

so all d cost 5 additions each instead of a sum over the 4d + 1 outcomes of d dice. The form also keeps
a constant X exactly constant (sums of +-1 or 0 divided by 5 are exact, and ``w + s * (w - w) == w``),
so the exactly tied options of the many "already decided" states (every d wins, or every d loses) come
out exactly equal in floating point, not merely close.

Rings: ``Qmean_d[X](m)`` is needed at m + 1 .. m + 6 when m is computed, and totals are visited in
decreasing order, so each table keeps only RING = 7 consecutive totals (slot m % RING).
"""

from __future__ import annotations

import numpy as np

from lookup.dicerace import rules as _rules
from pipeline.jit import njit

SAFE_FACES = np.array(_rules.SAFE_FACES, dtype=np.int64)
N_SAFE = float(len(_rules.SAFE_FACES))
BUST_SCORE = _rules.BUST_SCORE
# Slots of a ring: every total a roll can reach from m (m + 1 .. m + 6) plus m itself.
RING = max(_rules.SAFE_FACES[-1], BUST_SCORE) + 1
MAX_DICE = 31  # optimal-dice bit masks are uint32 (bit d-1 for d dice)
# Every stored non-zero probability of the solves in split form must be at least this: then no
# intermediate (a Q-mean divides by 5 at most 31 times, < 2^-75, and b_d, s_d >= 2^-9) comes near the
# subnormal range, where relative error bounds fail, and no positive probability can have been rounded to
# an exact 0 (the zeros that make exact ties).
SMALLEST_TRUSTED = 2.0**-900

# One definition of the end of a game, compiled from the lookup module.
race_won = njit(cache=True, inline="always")(_rules.race_won)
simultaneous_over = njit(cache=True, inline="always")(_rules.simultaneous_over)
final_outcome = njit(cache=True, inline="always")(_rules.final_outcome)


def safe_powers(dice: int) -> np.ndarray:
    """s[d] = probability that d dice show no bust face, the exact fraction rounded once (d = 0..dice)."""
    return np.array([float(_rules.safe_probability(d)) for d in range(dice + 1)], dtype=np.float64)


def bust_powers(dice: int) -> np.ndarray:
    """b[d] = probability that d dice show at least one bust face (1 - s_d), the exact fraction rounded once."""
    return np.array([float(1 - _rules.safe_probability(d)) for d in range(dice + 1)], dtype=np.float64)


def roll_table(dice: int) -> np.ndarray:
    """P[d, k] as float64, rows d = 0..dice, columns k = 0..6*dice (exact fractions rounded once)."""
    from pipeline.dicerace.probabilities import float_tables

    return float_tables(dice)[0]


@njit(cache=True, inline="always")
def qmean_level(ring_row, m, level):
    """Mean over the safe faces f of ring_row[(m + f) % RING, level]: Qmean_{level + 1} at total m."""
    acc = 0.0
    for f in SAFE_FACES:
        acc += ring_row[(m + f) % RING, level]
    return acc / N_SAFE


@njit(cache=True)
def qmean_step(cur, nxt, last):
    """nxt[b] = the mean over the safe faces f of cur[b + f], b = 0..last: the Q-means of one more die along a
    table row. A function of its own, called with two rows: written inline in a loop that swaps its two rows,
    the compiler did not vectorise it (four times slower; docs/benchmarks.md, "Dice race")."""
    for b in range(last + 1):
        acc = 0.0
        for f in SAFE_FACES:
            acc += cur[b + f]
        nxt[b] = acc / N_SAFE


@njit(cache=True, inline="always")
def expect_roll(bust_value, safe_mean, safe_pow):
    """E over one roll: the bust outcome's value plus the no-bust probability times the difference."""
    return bust_value + safe_pow * (safe_mean - bust_value)


@njit(cache=True)
def advance_rows(ring, a, cols=-1):
    """ring[a % RING, d, :cols] = Qmean_d over row totals a, for d = 1..D, from the rows a + f (level d - 1).

    ``ring[slot, 0, :]`` holds the table row itself (set by the caller once row a is known); rows beyond
    the table read whatever the slot holds, which only feeds entries nobody reads (a + 6 d > top).
    ``cols``: the columns computed (each column depends on the same column of the rows above only), all by
    default; columns past it keep what the slot held.
    """
    n_levels = ring.shape[1]
    width = ring.shape[2] if cols < 0 else cols
    slot = a % RING
    for level in range(1, n_levels):
        out = ring[slot, level]
        out[:] = 0.0
        for f in SAFE_FACES:
            src = ring[(a + f) % RING, level - 1]
            for b in range(width):
                out[b] += src[b]
        for b in range(width):
            out[b] /= N_SAFE


@njit(cache=True, inline="always")
def split_roll(bust_value, safe_mean, bust_p, safe_p):
    """E over one roll as a sum of non-negative terms (b_d X(m + 1) + s_d Qmean_d): for tables of
    probabilities it keeps a small *relative* rounding error, and an exact 0 stays 0."""
    return bust_p * bust_value + safe_p * safe_mean


@njit(cache=True)
def roll_rows(ring, a, bust_row, bust_pow, safe_pow, out, cols=-1):
    """out[d - 1, b] = E over one roll of d dice from row total a of T(a + k, b), for every column b < cols (all
    by default).

    ``bust_row`` is the table row a + BUST_SCORE; ``ring`` must have been advanced to row a (those columns).
    """
    slot = a % RING
    width = out.shape[1] if cols < 0 else cols
    for d in range(1, out.shape[0] + 1):
        src = ring[slot, d]
        for b in range(width):
            out[d - 1, b] = split_roll(bust_row[b], src[b], bust_pow[d], safe_pow[d])


@njit(cache=True)
def policy_probs(choice, mixed, mine, other, out):
    """Write into ``out`` (index d - 1) the probabilities over d of a policy at (my score, other's score).

    Encoding (``pipeline.dicerace.policies.Policy``): choice[mine, other] >= 1 is a pure number of dice;
    choice <= -1 points to the mixed strategy mixed[-choice - 1]. A (1, 1) choice table is stationary.
    """
    if choice.shape[0] == 1:
        code = choice[0, 0]
    else:
        code = choice[mine, other]
    if code >= 1:
        out[:] = 0.0
        out[code - 1] = 1.0
    else:
        out[:] = mixed[-code - 1]
