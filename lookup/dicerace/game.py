"""The dice race through the game protocol (``lookup.protocol``): the game in both modes, its advisor over the
strategy tables, and ``SPEC``.

A state is ``RaceState(scores, mover, dice, points)``: the two scores (seat 0's first), the seat whose turn it is
(sequential; 0 in the simultaneous game), the numbers of dice chosen this turn and the points rolled so far.

- **Sequential**: the mover chooses d in 1..D (``dice`` empty), then a chance node rolls d dice (``dice == (d,)``;
  the outcome is the points, ``rules.roll_law``); reaching the target wins at once, else the other seat moves.
- **Simultaneous**: seat 0 chooses d0, then seat 1 chooses d1 without seeing it (``observation(state, 1)`` hides
  d0), then two chance nodes roll seat 0's dice and seat 1's; once either total reaches the target the higher
  wins and equal totals draw, else the next turn starts from the new scores.

Returns: +1 to the winner, -1 to the loser, 0 to both on a draw. Values are the expected gain P(win) - P(loss) of
the seat named, both playing the tables' strategy: the sequential table's optimal play (ties between numbers of
dice from its exact ``optimal`` masks), the simultaneous table's stored optimal mixed strategies. At seat 1's
simultaneous decision its values are what it knows: the average over seat 0's choice under seat 0's strategy.
"""

from __future__ import annotations

from collections.abc import Hashable
from fractions import Fraction
from functools import cached_property
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lookup.dicerace.rules import (
    BUST_SCORE,
    FACES,
    MAX_DICE,
    MODES,
    check_dice_count,
    final_outcome,
    roll_law,
    simultaneous_over,
)
from lookup.dicerace.tables import (
    SEQUENTIAL_NAME,
    SIMULTANEOUS_NAME,
    SequentialTable,
    SimultaneousTable,
    built_grid,
    sequential_table,
    simultaneous_table,
)
from lookup.errors import ArtifactError
from lookup.games import MOVER, OTHER, Axis, GameSpec, MapSpec, Option
from lookup.protocol import CHANCE, JSON, Action, Advisor, Game, Unit, json_object
from lookup.store import artifact_path, trusted_meta
from lookup.validate import integer
from lookup.words import counted

DEFAULT_DICE, DEFAULT_TARGET = 10, 100
MAX_TARGET = 100_000  # far above any built table; bounds what a setup may ask
UNIT = Unit("expected gain", "P(win) - P(loss) of the player, both playing the tables' optimal strategies",
            tie=1e-12)


class RaceState(NamedTuple):
    scores: tuple[int, int]
    mover: int
    dice: tuple[int, ...] = ()
    points: tuple[int, ...] = ()


HIDDEN = -1  # in seat 1's observation: seat 0 has chosen, how many dice seat 1 does not see


class DiceRace(Game):
    """The dice race with at most ``dice`` dice a turn to ``target``, ``mode`` sequential or simultaneous."""

    name = "dicerace"
    seats = 2
    unit = UNIT

    def __init__(self, dice: int, target: int, mode: str) -> None:
        self.dice = check_dice_count(dice)
        self.target = integer(target, "target", 1, MAX_TARGET)
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, got {mode!r}")
        self.mode = mode
        self.simultaneous = mode == "simultaneous"

    def initial_state(self) -> RaceState:
        return RaceState((0, 0), 0)

    def _rolling(self, state: RaceState) -> bool:
        return len(state.dice) == (2 if self.simultaneous else 1)

    def to_move(self, state: RaceState) -> int:
        if self._rolling(state):
            return CHANCE
        return len(state.dice) if self.simultaneous else state.mover

    def legal_actions(self, state: RaceState) -> tuple[int, ...]:
        if self.is_terminal(state) or self._rolling(state):
            return ()
        return tuple(range(1, self.dice + 1))

    def chance_outcomes(self, state: RaceState) -> tuple[tuple[int, Fraction], ...]:
        """The points of the roll of the seat whose dice are rolled next (``rules.roll_law``)."""
        if self.is_terminal(state) or not self._rolling(state):
            return ()
        return roll_law(state.dice[len(state.points)])

    def apply(self, state: RaceState, action: Action) -> RaceState:
        action = self.canonical(state, action)
        if not self._rolling(state):
            return state._replace(dice=(*state.dice, action))
        if not self.simultaneous:
            me, scores = state.mover, list(state.scores)
            scores[me] += action
            won = scores[me] >= self.target  # the game is over: the winner stays the mover
            return RaceState((scores[0], scores[1]), me if won else 1 - me)
        points = (*state.points, action)
        if len(points) < 2:
            return state._replace(points=points)
        return RaceState((state.scores[0] + points[0], state.scores[1] + points[1]), 0)

    def is_terminal(self, state: RaceState) -> bool:
        return max(state.scores) >= self.target

    def returns(self, state: RaceState) -> tuple[int, int]:
        a, b = state.scores
        first = final_outcome(a, b) if self.simultaneous else (1 if a >= self.target else -1)
        return first, -first

    def observation(self, state: RaceState, seat: int) -> Hashable:
        """Complete information, but for seat 0's choice while seat 1 chooses in the simultaneous game."""
        if seat == 1 and self.simultaneous and len(state.dice) == 1:
            return state._replace(dice=(HIDDEN,))
        return state

    # -- words and JSON --

    def action_text(self, state: RaceState, action: Action) -> str:
        if not self._rolling(state):
            return f"rolls {counted(action, 'die')}"
        who = f"player {len(state.points) + 1}" if self.simultaneous else "the roll"
        if action == BUST_SCORE:
            return f"{who}: a 1 shows, {counted(BUST_SCORE, 'point')}"
        return f"{who}: {counted(action, 'point')}"

    def state_text(self, state: RaceState) -> str:
        a, b = state.scores
        head = f"scores {a} and {b} (target {self.target})"
        if self.is_terminal(state):
            r = self.returns(state)[0]
            return f"{head}: {'a draw' if r == 0 else f'player {1 if r > 0 else 2} has won'}"
        if self._rolling(state):
            rolled = "".join(f", player {i + 1} scored {k}" for i, k in enumerate(state.points))
            both = " and ".join(map(str, state.dice))
            dice = counted(state.dice[0], "die") if len(state.dice) == 1 else f"{both} dice"
            return f"{head}; rolling {dice}{rolled}"
        return f"{head}; player {self.to_move(state) + 1} to choose how many dice to roll"

    def state_json(self, state: RaceState) -> dict[str, JSON]:
        return {"scores": list(state.scores), "to_move": state.mover, "dice": list(state.dice),
                "points": list(state.points)}

    def parse_state(self, data: JSON) -> RaceState:
        """A position: {"scores": [a, b], "to_move": 0 or 1 (sequential), "dice": the numbers of dice chosen this
        turn ([] before the first choice), "points": the points rolled so far this turn (simultaneous)};
        ValueError naming what cannot be."""
        data = json_object(data, "dice-race position", {"scores": True, "to_move": False, "dice": False,
                                                        "points": False})
        scores, dice, points = data["scores"], data.get("dice", []), data.get("points", [])
        for name, value, most in (("scores", scores, 2), ("dice", dice, 2), ("points", points, 1)):
            if not isinstance(value, list) or len(value) > most or (name == "scores" and len(value) != 2):
                raise ValueError(f"{name} must be a list of {'two' if name == 'scores' else f'at most {most}'} "
                                 f"integers")
        top = self.target - 1 + FACES * self.dice  # the most a last roll can bring a score to
        a, b = (integer(s, "score", 0, top) for s in scores)
        mover = integer(data.get("to_move", 0), "to_move", 0, 0 if self.simultaneous else 1)
        chosen = tuple(integer(d, "dice", 1, self.dice) for d in dice)
        if len(chosen) > (2 if self.simultaneous else 1) or (points and len(chosen) < 2):
            raise ValueError(f"dice {list(chosen)} and points {points}: not a position of the {self.mode} game")
        rolled = tuple(integer(k, "points", 1, FACES * chosen[0]) for k in points)
        if rolled and rolled[0] not in dict(roll_law(chosen[0])):
            raise ValueError(f"points {rolled[0]}: {chosen[0]} dice cannot score it")
        if max(a, b) >= self.target:  # a finished game (sequential: the winner is the player who moved last)
            winner_moved = self.simultaneous or ((a, b)[mover] >= self.target > (a, b)[1 - mover])
            if chosen or not winner_moved:
                only = "" if self.simultaneous else ", and only the player to move may have reached it"
                raise ValueError(f"scores {a} and {b}: not a finished {self.mode} game (no dice are chosen once "
                                 f"a score reaches the target{only})")
        return RaceState((a, b), mover, chosen, rolled)


class RaceAdvisor(Advisor):
    """The tables' strategies for both seats, in the game's mode."""

    game: DiceRace

    def __init__(self, game: DiceRace, table: SequentialTable | SimultaneousTable) -> None:
        super().__init__(game)
        self.table = table
        self._after_memo: dict[tuple[int, int], np.ndarray] = {}

    @cached_property
    def _laws(self) -> np.ndarray:
        """laws[d - 1, k]: the probability that d dice score k points (each exact fraction rounded once)."""
        out = np.zeros((self.game.dice, FACES * self.game.dice + 1))
        for d in range(1, self.game.dice + 1):
            for k, p in roll_law(d):
                out[d - 1, k] = float(p)
        return out

    @cached_property
    def _values(self) -> np.ndarray:
        return np.asarray(self.table.value)  # the whole checked array (one crc32), read per state many times

    def _strategy(self, mine: int, other: int) -> np.ndarray:
        """The simultaneous table's stored strategy of the player with ``mine`` against ``other`` (index d - 1)."""
        assert isinstance(self.table, SimultaneousTable)
        return self.table.strategy(mine, other)

    def _after(self, mine: int, other: int) -> np.ndarray:
        """after[k1, k2]: the value for the player with ``mine`` once the turn scored k1 for it and k2 for the
        other (the outcome of a finished game, else the table's value of the next turn); kept per state."""
        found = self._after_memo.get((mine, other))
        if found is None:
            width, target = self._laws.shape[1], self.game.target
            found = np.empty((width, width))
            for k1 in range(width):
                for k2 in range(width):
                    a, b = mine + k1, other + k2
                    found[k1, k2] = final_outcome(a, b) if simultaneous_over(a, b, target) else self._values[a, b]
            self._after_memo[(mine, other)] = found
        return found

    def _options(self, mine: int, other: int) -> np.ndarray:
        """The simultaneous game: the expected gain of each d for the player with ``mine``, against the other's
        stored strategy."""
        theirs = self._strategy(other, mine) @ self._laws
        return self._laws @ self._after(mine, other) @ theirs

    def _sequential_option(self, mine: int, other: int, d: int) -> float:
        """sum_k P(d, k) (1 if mine + k >= N else -EG(other, mine + k)): rolling d, then optimal play."""
        target, p = self.game.target, self._laws[d - 1, :FACES * d + 1]
        totals = mine + np.arange(len(p))
        after = np.ones(len(p))
        inside = totals < target
        after[inside] = -self._values[other, totals[inside]]
        return float(p @ after)

    def value(self, state: RaceState, seat: int) -> float:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[seat])
        mine, other = state.scores[seat], state.scores[1 - seat]
        if not game.simultaneous:
            if state.dice:  # the mover's roll is in the air
                v = self._sequential_option(state.scores[state.mover], state.scores[1 - state.mover], state.dice[0])
            else:  # one element, from its checked chunk (not the whole table)
                v = float(self.table.value[state.scores[state.mover], state.scores[1 - state.mover]])
            return v if seat == state.mover else 0.0 - v  # (0.0 - x: a draw is 0.0, not -0.0)
        if not state.dice:
            return float(self.table.value[mine, other])
        if len(state.dice) == 1:  # seat 1 chooses: seat 0 knows d0; seat 1 averages over seat 0's strategy
            if seat == 0:
                return float(self._options(mine, other)[state.dice[0] - 1])
            return float(self._strategy(mine, other) @ self._options(mine, other))
        laws, after = self._laws, self._after(mine, other)
        if not state.points:
            return float(laws[state.dice[seat] - 1] @ after @ laws[state.dice[1 - seat] - 1])
        k0 = state.points[0]
        row = after[k0] if seat == 0 else after[:, k0]  # seat 0's points are known, seat 1's to come
        return float(row @ laws[state.dice[1] - 1])

    def action_values(self, state: RaceState) -> dict[int, float]:
        """Sequential: each d's expected gain, optimal play after. Simultaneous: each d's expected gain against
        the other seat's stored strategy (for seat 1: what it knows, seat 0's choice unseen)."""
        game = self.game
        me = game.to_move(state)
        if not game.simultaneous:
            mine, other = state.scores[me], state.scores[1 - me]
            return {d: self._sequential_option(mine, other, d) for d in game.legal_actions(state)}
        options = self._options(state.scores[me], state.scores[1 - me])
        return {d: float(options[d - 1]) for d in game.legal_actions(state)}

    def best_actions(self, state: RaceState) -> tuple[int, ...]:
        """Sequential: the stored exact ``optimal`` mask. Simultaneous: the support of the stored strategy."""
        me = self.game.to_move(state)
        mine, other = state.scores[me], state.scores[1 - me]
        if not self.game.simultaneous:
            mask = int(self.table.optimal[mine, other])  # type: ignore[union-attr]
            return tuple(d for d in range(1, self.game.dice + 1) if mask >> (d - 1) & 1)
        return tuple(int(d) for d in np.flatnonzero(self._strategy(mine, other) > 0) + 1)

    def policy(self, state: RaceState) -> dict[int, float]:
        """Sequential: the smallest optimal d. Simultaneous: the stored optimal (mixed) strategy."""
        if not self.game.simultaneous:
            return {self.best_actions(state)[0]: 1.0}
        me = self.game.to_move(state)
        probs = self._strategy(state.scores[me], state.scores[1 - me])
        return {d: float(probs[d - 1]) for d in range(1, self.game.dice + 1) if probs[d - 1] > 0}


def setups(root: Path) -> list[dict[str, JSON]]:
    """Every (dice, target) of the built grid in both modes (sequential first); [] when nothing is built."""
    grids = []
    for name in (SEQUENTIAL_NAME, SIMULTANEOUS_NAME):
        try:
            grids.append(built_grid(trusted_meta(artifact_path(root, name))))
        except (ArtifactError, OSError, KeyError, TypeError, ValueError):
            return []
    both = [g for g in grids[0] if g in grids[1]]
    return [{"dice": d, "target": n, "mode": mode} for d, n in both for mode in MODES]


def open_race(setup: dict[str, JSON], artifacts_dir: Path | None) -> RaceAdvisor:
    game = DiceRace(int(setup["dice"]), int(setup["target"]), str(setup["mode"]))
    load = sequential_table if game.mode == "sequential" else simultaneous_table
    return RaceAdvisor(game, load(game.dice, game.target, artifacts_dir=artifacts_dir))


SPEC = GameSpec(
    name="dicerace",
    title="Dice race",
    summary="Two players race to the target: each turn a player chooses how many dice to roll (at most D) and "
            "scores their sum, or a single point if any die shows a 1. Sequential: players alternate and the first "
            "to reach the target wins; simultaneous: both choose at once, and once a total reaches the target the "
            "higher total wins.",
    options={"dice": Option(DEFAULT_DICE, "the most dice a turn may roll (D)", low=1, high=MAX_DICE),
             "target": Option(DEFAULT_TARGET, "the score to reach (N)", low=1, high=MAX_TARGET),
             "mode": Option("sequential", "sequential (players alternate) or simultaneous (both choose at once)",
                            choices=MODES)},
    setups=setups,
    open=open_race,
    map=MapSpec(Axis("score of the player to move", ("scores", MOVER), lambda g: range(g.target)),
                Axis("score of the other player", ("scores", OTHER), lambda g: range(g.target))),
)
