"""Play-time answers for the dice race, thin entry points over the protocol's advisor (``lookup.dicerace.game``),
which indexes the precomputed tables.

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

from lookup.dicerace.game import DEFAULT_DICE, DEFAULT_TARGET, RaceAdvisor, RaceState
from lookup.dicerace.rules import MODES, check_dice_count, check_state
from lookup.dicerace.tables import MIXED, NO_SADDLE, NOT_UNIQUE
from lookup.games import open_setup
from lookup.validate import choice, integer, seed

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


def _position(my_score: int, other_score: int, dice: int, target: int, mode: str,
              artifacts_dir: str | Path | None) -> tuple[RaceAdvisor, RaceState]:
    """The advisor of the game and the asking player's turn as seat 0's (at the start of a turn); ValueError
    naming the first bad argument."""
    choice(mode, "mode", MODES)
    dice = check_dice_count(dice)
    target = integer(target, "target", low=1)
    mine, other = check_state(my_score, other_score, target)
    advisor = open_setup("dicerace", {"dice": dice, "target": target, "mode": mode}, artifacts_dir)
    return advisor, RaceState((mine, other), 0)  # type: ignore[return-value]


def decide(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
           mode: str = "sequential", rng: np.random.Generator | int | None = None,
           artifacts_dir: str | Path | None = None) -> int:
    """The number of dice to roll now.

    Sequential: the smallest optimal d (every tied d is listed by ``explain``). Simultaneous: a sample of
    the optimal mixed strategy drawn with ``rng`` (a numpy Generator, or an int seeding a fresh one;
    None: a module generator seeded once); a pure strategy needs no draw.
    """
    if rng is not None and not isinstance(rng, np.random.Generator):
        rng = seed(rng, "rng")  # refused even when the answer needs no draw, and before any table is read
    advisor, state = _position(my_score, other_score, dice, target, mode, artifacts_dir)
    if mode == "sequential":
        return advisor.decide(state)
    table = advisor.table
    pure = int(table.pure[state.scores])  # type: ignore[union-attr]
    if pure:
        return pure
    if isinstance(rng, np.random.Generator):
        gen = rng
    else:
        gen = _default_rng if rng is None else np.random.default_rng(rng)
    probs = table.strategy(*state.scores)  # type: ignore[union-attr]
    return int(gen.choice(np.arange(1, advisor.game.dice + 1), p=probs / probs.sum()))


def strategy(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
             mode: str = "sequential", artifacts_dir: str | Path | None = None) -> dict[int, float]:
    """{d: probability} of an optimal strategy (only d with positive probability).

    Sequential: uniform over all tied optimal d (any mixture of them is optimal). Simultaneous: the
    stored optimal mixed strategy.
    """
    advisor, state = _position(my_score, other_score, dice, target, mode, artifacts_dir)
    if mode == "sequential":
        ties = advisor.best_actions(state)
        return {d: 1.0 / len(ties) for d in ties}
    return advisor.policy(state)


def value(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
          mode: str = "sequential", artifacts_dir: str | Path | None = None) -> float:
    """Expected gain P(win) - P(loss) of the asking player under optimal play (EG or EG1)."""
    advisor, state = _position(my_score, other_score, dice, target, mode, artifacts_dir)
    return advisor.value(state, 0)


def explain(my_score: int, other_score: int, *, dice: int = DEFAULT_DICE, target: int = DEFAULT_TARGET,
            mode: str = "sequential", artifacts_dir: str | Path | None = None) -> Explanation:
    """Value, strategy, every optimal d and the expected gain of each d at one state (see Explanation): the
    advisor's answers (``lookup.dicerace.game``). The option values are computed from the value table and the
    exact roll law, about a millisecond."""
    advisor, state = _position(my_score, other_score, dice, target, mode, artifacts_dir)
    mine, other = state.scores
    optimal = advisor.best_actions(state)
    options = advisor.action_values(state)
    if mode == "sequential":
        return Explanation(mode, mine, other, advisor.value(state, 0), {d: 1.0 / len(optimal) for d in optimal},
                           optimal, options)
    flags = int(advisor.table.flags[mine, other])  # type: ignore[union-attr]
    return Explanation(mode, mine, other, advisor.value(state, 0), advisor.policy(state), optimal, options,
                       mixed=bool(flags & MIXED), unique=not flags & NOT_UNIQUE, saddle_point=not flags & NO_SADDLE)
