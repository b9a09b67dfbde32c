"""Play-time answers for the dice race, by indexing the precomputed tables.

Every function takes the state from the asking player's view: ``my_score`` and ``other_score``, both
in 0..target-1, and the game ``dice`` (D, the most dice a turn may roll) and ``target`` (N).

- ``mode="sequential"``: the asking player is about to move; the value is EG(my, other) =
  P(win) - P(loss) under optimal play by both; several numbers of dice may be exactly as good (ties).
- ``mode="simultaneous"``: both players choose at once; the value is EG1(my, other) from the asking
  player's view, and the optimal strategy may be mixed (probabilities over d).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lookup.dicerace.rules import MODES, check_dice_count, check_state, final_outcome, simultaneous_over
from lookup.dicerace.tables import (
    MIXED,
    NO_SADDLE,
    NOT_UNIQUE,
    SequentialTable,
    SimultaneousTable,
    probabilities,
    sequential_table,
    simultaneous_table,
)
from lookup.validate import choice, integer, seed

DEFAULT_DICE, DEFAULT_TARGET = 10, 100
# The generator ``decide`` samples mixed strategies with when the caller passes none: seeded once, so
# the decisions of a process are reproducible.
_default_rng = np.random.default_rng(0)


@dataclass(frozen=True)
class Explanation:
    """Everything the tables say about one state, from the asking player's view.

    value: expected gain P(win) - P(loss) with optimal play (EG, or EG1 in the simultaneous game).
    strategy: {d: probability} of the recommended strategy (sequential: uniform over the ties).
    optimal: every optimal d (sequential: all ties; simultaneous: the support of the stored strategy).
    option_values: {d: expected gain of rolling d dice}, the opponent playing optimally (sequential:
        then optimal play on; simultaneous: against the opponent's stored optimal strategy).
    mixed / unique / saddle_point: simultaneous only: the stored strategy is mixed; it is the player's
        only optimal strategy; the state's matrix game has a pure saddle point. None when sequential.
    """

    mode: str
    my_score: int
    other_score: int
    value: float
    strategy: dict[int, float]
    optimal: tuple[int, ...]
    option_values: dict[int, float]
    mixed: bool | None = None
    unique: bool | None = None
    saddle_point: bool | None = None


def _check(my_score: int, other_score: int, dice: int, target: int, mode: str) -> tuple[int, int, int, int]:
    """(my_score, other_score, dice, target) as ints; ValueError naming the first bad argument."""
    choice(mode, "mode", MODES)
    dice = check_dice_count(dice)
    target = integer(target, "target", low=1)
    return (*check_state(my_score, other_score, target), dice, target)


def _sequential_ties(table: SequentialTable, mine: int, other: int) -> tuple[int, ...]:
    mask = int(table.optimal[mine, other])
    return tuple(d for d in range(1, table.dice + 1) if mask >> (d - 1) & 1)


def decide(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
           mode: str = "sequential", rng: np.random.Generator | int | None = None,
           artifacts_dir: str | Path | None = None) -> int:
    """The number of dice to roll now.

    Sequential: the smallest optimal d (every tied d is listed by ``explain``). Simultaneous: a sample of
    the optimal mixed strategy drawn with ``rng`` (a numpy Generator, or an int seeding a fresh one;
    None: a module generator seeded once); a pure strategy needs no draw.
    """
    mine, other, dice, target = _check(my_score, other_score, dice, target, mode)
    if rng is not None and not isinstance(rng, np.random.Generator):
        rng = seed(rng, "rng")  # refused even when the answer needs no draw
    if mode == "sequential":
        return _sequential_ties(sequential_table(dice, target, artifacts_dir=artifacts_dir), mine, other)[0]
    table = simultaneous_table(dice, target, artifacts_dir=artifacts_dir)
    pure = int(table.pure[mine, other])
    if pure:
        return pure
    if isinstance(rng, np.random.Generator):
        gen = rng
    else:
        gen = _default_rng if rng is None else np.random.default_rng(rng)
    probs = table.strategy(mine, other)
    return int(gen.choice(np.arange(1, dice + 1), p=probs / probs.sum()))


def strategy(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
             mode: str = "sequential", artifacts_dir: str | Path | None = None) -> dict[int, float]:
    """{d: probability} of an optimal strategy (only d with positive probability).

    Sequential: uniform over all tied optimal d (any mixture of them is optimal). Simultaneous: the
    stored optimal mixed strategy.
    """
    mine, other, dice, target = _check(my_score, other_score, dice, target, mode)
    if mode == "sequential":
        ties = _sequential_ties(sequential_table(dice, target, artifacts_dir=artifacts_dir), mine, other)
        return {d: 1.0 / len(ties) for d in ties}
    probs = simultaneous_table(dice, target, artifacts_dir=artifacts_dir).strategy(mine, other)
    return {d: float(p) for d, p in enumerate(probs, start=1) if p > 0}


def value(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
          mode: str = "sequential", artifacts_dir: str | Path | None = None) -> float:
    """Expected gain P(win) - P(loss) of the asking player under optimal play (EG or EG1)."""
    mine, other, dice, target = _check(my_score, other_score, dice, target, mode)
    load = sequential_table if mode == "sequential" else simultaneous_table
    return float(load(dice, target, artifacts_dir=artifacts_dir).value[mine, other])


def explain(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
            mode: str = "sequential", artifacts_dir: str | Path | None = None) -> Explanation:
    """Value, strategy, every optimal d and the expected gain of each d at one state (see Explanation).

    The option values are recomputed from the value table and the roll probabilities (artifact
    ``dicerace-probabilities``), about a millisecond.
    """
    mine, other, dice, target = _check(my_score, other_score, dice, target, mode)
    if mode == "sequential":
        table = sequential_table(dice, target, artifacts_dir=artifacts_dir)
        ties = _sequential_ties(table, mine, other)
        options = {d: _sequential_option(table, mine, other, d, artifacts_dir) for d in range(1, dice + 1)}
        return Explanation(mode, mine, other, float(table.value[mine, other]), {d: 1.0 / len(ties) for d in ties},
                           ties, options)
    sim = simultaneous_table(dice, target, artifacts_dir=artifacts_dir)
    probs = sim.strategy(mine, other)
    against = _simultaneous_options(sim, mine, other, artifacts_dir)
    flags = int(sim.flags[mine, other])
    return Explanation(mode, mine, other, float(sim.value[mine, other]),
                       {d: float(p) for d, p in enumerate(probs, start=1) if p > 0},
                       tuple(int(d) for d in np.flatnonzero(probs > 0) + 1),
                       {d: float(v) for d, v in enumerate(against, start=1)},
                       mixed=bool(flags & MIXED), unique=not flags & NOT_UNIQUE,
                       saddle_point=not flags & NO_SADDLE)


def _sequential_option(table: SequentialTable, mine: int, other: int, d: int,
                       artifacts_dir: str | Path | None) -> float:
    """sum_k P(d, k) * (1 if mine + k >= N else -EG(other, mine + k)): rolling d, then optimal play."""
    p = probabilities(d, artifacts_dir=artifacts_dir).p
    totals = mine + np.arange(len(p))
    inside = totals < table.target
    after = np.ones(len(p))
    after[inside] = -np.asarray(table.value[other, totals[inside]])
    return float(p @ after)


def _simultaneous_options(table: SimultaneousTable, mine: int, other: int,
                          artifacts_dir: str | Path | None) -> np.ndarray:
    """Expected gain of each pure d against the opponent's stored strategy (its view: (other, mine))."""
    dice, target = table.dice, table.target
    width = 6 * dice + 1
    rolls = np.zeros((dice, width))
    for d in range(1, dice + 1):
        p = probabilities(d, artifacts_dir=artifacts_dir).p
        rolls[d - 1, : len(p)] = p
    after = np.empty((width, width))
    values = np.asarray(table.value)  # the whole checked array (one crc32 per process), not 10^3 reads
    for k1 in range(width):
        for k2 in range(width):
            a, b = mine + k1, other + k2
            after[k1, k2] = final_outcome(a, b) if simultaneous_over(a, b, target) else values[a, b]
    opponent = table.strategy(other, mine)
    return rolls @ after @ (opponent @ rolls)
