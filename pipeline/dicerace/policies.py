"""Dice-race policies as tables: how a player chooses its number of dice at every state.

A policy answers at (my score, other's score), both < N, with probabilities over d = 1..D. It is
stored compactly for the kernels: ``choice[mine, other]`` is d (>= 1) for a pure choice, or -(r + 1)
for the mixed strategy ``mixed[r]`` (probabilities, index d - 1); a (1, 1) ``choice`` is the same at
every state (stationary). The same table serves either game: in the sequential game "mine" is the
score of the player to move, in the simultaneous game each player reads it from its own view.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from lookup.dicerace.rules import blind_dice
from pipeline.dicerace.oneshot import OneShotSolution
from pipeline.dicerace.sequential import SequentialSolution, lowest_bit
from pipeline.dicerace.simultaneous import SimultaneousSolution

# Probabilities of a user table may be off by this much (they are renormalised).
PROBABILITY_SLACK = 1e-9


@dataclass(frozen=True)
class Policy:
    """A named policy for ``dice`` dice (see the module docstring for ``choice`` and ``mixed``)."""

    name: str
    dice: int
    choice: np.ndarray
    mixed: np.ndarray

    @property
    def stationary(self) -> bool:
        return self.choice.shape == (1, 1)

    def probs(self, mine: int, other: int) -> np.ndarray:
        """Probabilities over d (index d - 1) at (my score, other's score)."""
        code = int(self.choice[0, 0] if self.stationary else self.choice[mine, other])
        if code >= 1:
            out = np.zeros(self.dice)
            out[code - 1] = 1.0
            return out
        return self.mixed[-code - 1].copy()

    def check_target(self, target: int) -> None:
        """ValueError unless the policy covers every state of a race to ``target``."""
        if not self.stationary and self.choice.shape != (target, target):
            raise ValueError(f"policy {self.name!r} covers scores 0..{self.choice.shape[0] - 1}, "
                             f"the race to {target} needs 0..{target - 1}")


def _stationary(name: str, dice: int, probs: np.ndarray) -> Policy:
    return Policy(name, dice, np.array([[-1]], dtype=np.int32), probs.reshape(1, dice).astype(np.float64))


def blind(dice: int) -> Policy:
    """Always the d maximising the expected points of one turn (``rules.blind_dice``)."""
    return Policy("blind", dice, np.array([[blind_dice(dice)]], dtype=np.int32), np.zeros((0, dice)))


def uniform(dice: int) -> Policy:
    """d uniform on 1..dice at every turn."""
    return _stationary("random", dice, np.full(dice, 1.0 / dice))


def sequential_optimal(sol: SequentialSolution) -> Policy:
    """Optimal sequential play, the smallest of the tied optimal d (as ``lookup.dicerace.decide``)."""
    return Policy("optimal", sol.dice, lowest_bit(sol.optimal).astype(np.int32), np.zeros((0, sol.dice)))


def simultaneous_optimal(sol: SimultaneousSolution) -> Policy:
    """The stored optimal (possibly mixed) strategies of the simultaneous game."""
    choice = np.where(sol.mixed_row >= 0, -(sol.mixed_row.astype(np.int64) + 1), sol.pure).astype(np.int32)
    return Policy("optimal", sol.dice, choice, np.asarray(sol.mixed))  # a plain array for the kernels


def oneshot_optimal(sol: OneShotSolution) -> Policy:
    """The one-shot game's optimal mixed strategy, played at every state."""
    return _stationary("oneshot", sol.dice, sol.strategy)


def from_table(table: np.ndarray, dice: int, target: int, name: str = "user") -> Policy:
    """A user's policy: an (N, N) table of numbers of dice in 1..dice, an (N, N, dice) table of
    probabilities over d (index d - 1), or a (dice,) vector used at every state. ValueError otherwise."""
    table = np.asarray(table)
    if table.shape == (dice,):
        return _stationary(name, dice, _probabilities(table[None, :], name)[0])
    if table.shape == (target, target):
        if not np.issubdtype(table.dtype, np.integer) or table.min() < 1 or table.max() > dice:
            raise ValueError(f"policy {name!r}: an (N, N) table must hold integers in 1..{dice}")
        return Policy(name, dice, table.astype(np.int32), np.zeros((0, dice)))
    if table.shape == (target, target, dice):
        probs = _probabilities(table.reshape(-1, dice), name)
        pure = (probs == 1.0).any(axis=1)
        choice = np.where(pure, probs.argmax(axis=1) + 1, 0)
        mixed_at = np.flatnonzero(~pure)
        choice[mixed_at] = -(np.arange(len(mixed_at)) + 1)
        return Policy(name, dice, choice.reshape(target, target).astype(np.int32), probs[mixed_at])
    raise ValueError(f"policy {name!r}: expected shape ({target}, {target}), ({target}, {target}, {dice}) "
                     f"or ({dice},), got {table.shape}")


def _probabilities(rows: np.ndarray, name: str) -> np.ndarray:
    rows = np.asarray(rows, dtype=np.float64)
    if not np.all(np.isfinite(rows)) or rows.min() < 0:
        raise ValueError(f"policy {name!r}: probabilities must be finite and >= 0")
    sums = rows.sum(axis=1)
    if np.abs(sums - 1.0).max() > PROBABILITY_SLACK:
        raise ValueError(f"policy {name!r}: probabilities over d must sum to 1 at every state")
    return rows / sums[:, None]
