"""Seeded Monte Carlo simulation of dice-race games between two policies (a check on the exact
match-ups: dice are sampled from the rule itself, nothing is taken from the probability tables)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lookup.dicerace.rules import BUST_FACE, BUST_SCORE, FACES
from pipeline.dicerace.kernels import final_outcome, policy_probs, race_won, simultaneous_over
from pipeline.dicerace.matchups import Outcome, _check
from pipeline.dicerace.policies import Policy
from pipeline.jit import njit


@dataclass(frozen=True)
class Simulated:
    """Counts of A's wins, draws and losses over ``games`` games, as an Outcome with standard errors."""

    games: int
    wins: int
    draws: int
    losses: int

    @property
    def outcome(self) -> Outcome:
        return Outcome(win=self.wins / self.games, draw=self.draws / self.games, loss=self.losses / self.games)

    def standard_errors(self) -> Outcome:
        """Standard error of each frequency (binomial), and of the gain in ``gain``-compatible form."""
        o = self.outcome
        n = self.games
        return Outcome(win=math.sqrt(o.win * (1 - o.win) / n), draw=math.sqrt(o.draw * (1 - o.draw) / n),
                       loss=math.sqrt(o.loss * (1 - o.loss) / n))


def simulate(a: Policy, b: Policy, target: int, mode: str, games: int, seed: int,
             a_first: bool = True) -> Simulated:
    """Play ``games`` games of A against B (A moves first unless ``a_first`` is False; ignored in the
    simultaneous game) with a numpy Generator seeded by ``seed``."""
    _check(a, b, target)
    if mode not in ("sequential", "simultaneous"):
        raise ValueError(f"mode must be 'sequential' or 'simultaneous', got {mode!r}")
    # A policy's mixed strategies are read-only when loaded from a table and writable when just computed; as
    # copies both are writable, and the game loop compiles once, not once per combination.
    counts = _play(np.random.default_rng(seed), target, mode == "simultaneous", a_first, a.choice, a.mixed.copy(),
                   b.choice, b.mixed.copy(), games)
    return Simulated(games=games, wins=int(counts[0]), draws=int(counts[1]), losses=int(counts[2]))


@njit(cache=True)
def _roll(rng, d):
    """Points of one roll of d dice (the rule of lookup.dicerace.rules.roll_score).

    Sampled in two exact steps instead of d faces: whether any die shows BUST_FACE (probability
    1 - ((FACES - 1) / FACES) ** d), and only if none does, each die uniform on the other faces. Large d
    almost always bust, so a turn costs one draw instead of d (the speed-up: docs/benchmarks.md, "Dice race").
    """
    if rng.random() >= ((FACES - 1) / FACES) ** d:
        return BUST_SCORE
    total = 0
    for _ in range(d):
        face = rng.integers(1, FACES)  # one of the FACES - 1 faces other than BUST_FACE
        total += face if face < BUST_FACE else face + 1
    return total


@njit(cache=True)
def _choose(rng, choice, mixed, mine, other, probs):
    policy_probs(choice, mixed, mine, other, probs)
    u = rng.random()
    acc = 0.0
    for d in range(probs.shape[0]):
        acc += probs[d]
        if u < acc:
            return d + 1
    last = probs.shape[0]
    while probs[last - 1] == 0.0:  # u landed in the rounding slack above the last positive d
        last -= 1
    return last


@njit(cache=True)
def _play(rng, target, simultaneous, a_first, choice_a, mixed_a, choice_b, mixed_b, games):
    counts = np.zeros(3, dtype=np.int64)  # A wins, draws, A losses
    probs = np.empty(mixed_a.shape[1])
    for _ in range(games):
        sa = 0
        sb = 0
        a_turn = a_first
        while True:
            if simultaneous:
                da = _choose(rng, choice_a, mixed_a, sa, sb, probs)
                db = _choose(rng, choice_b, mixed_b, sb, sa, probs)
                sa += _roll(rng, da)
                sb += _roll(rng, db)
                if simultaneous_over(sa, sb, target):
                    counts[1 - final_outcome(sa, sb)] += 1
                    break
            elif a_turn:
                sa += _roll(rng, _choose(rng, choice_a, mixed_a, sa, sb, probs))
                if race_won(sa, target):
                    counts[0] += 1
                    break
            else:
                sb += _roll(rng, _choose(rng, choice_b, mixed_b, sb, sa, probs))
                if race_won(sb, target):
                    counts[2] += 1
                    break
            a_turn = not a_turn
    return counts
