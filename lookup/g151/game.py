"""151 through the game protocol (``lookup.protocol``): the game alone or with two players, its advisor over the
tables, and ``SPEC``.

A state is ``G151State(banked, mover, turn_total, rolling, turns)``, amounts in points: each player's banked score
(one entry alone, two with two players, seat 0's first), the seat whose turn it is, its turn total, whether the
three dice are about to be rolled (a chance node: the start of a turn, whose first roll is forced, or after
"roll") or the mover must choose ("roll" or "bank"), and, alone, the turns counted so far.

Rules (``lookup.g151.rules``, the variant's): a roll's points follow the exact law ``roll_distribution``. A roll
worth 0 ends the turn with nothing, except after the turn's first roll in a variant whose ``zero_keeps_turn``
banks the turn total instead; a roll that would take banked + turn total past the target ends the turn with
nothing (the target is reached exactly); "bank" adds the turn total to the banked score. The game ends when a
banked score reaches the target. Alone, a turn counts when it banks points, and also when it ends with nothing
if the variant's ``failed_turns_count``; the return is the number of turns counted ("turns": lower is better).
With two players the one who reaches the target wins (P(win)).

Values: alone, the turns counted so far plus the table's expected turns still counted (this one included);
with two players the mover's win probability from the table and 1 minus it for the other. Optimal play is the
table's policy (ties bank).
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import NamedTuple

import numpy as np

from lookup.errors import ArtifactError, not_built
from lookup.g151.rules import (
    DEFAULT_RULES,
    RULE_SETS,
    UNIT,  # points per table unit (50)
    Rules,
    get_rules,
    roll_distribution,
    target_units,
    to_units,
)
from lookup.g151.tables import COST, G151Tables, load_tables
from lookup.games import MOVER, Axis, GameSpec, MapSpec, Option
from lookup.protocol import CHANCE, JSON, Action, Advisor, Game, Unit, json_object
from lookup.validate import integer
from lookup.words import counted

ROLL, BANK = "roll", "bank"
ACTIONS = (ROLL, BANK)
DEFAULT_TARGET = 1000  # the one default target (points): the setup's, the entry points', the command's, the web's
MAX_TARGET = 1_000_000
MAX_TURNS = 10**6  # turns counted in a position typed in: far more than any game
ROLL_CODE = 1  # the tables' policy code for "roll" (0 banks)
TURNS = Unit("turns", "the expected number of turns counted until the target is reached exactly, this one "
                      "included", higher_is_better=False, tie=1e-10)
P_WIN = Unit("P(win)", "the probability that the player wins, both playing optimally after", tie=1e-12)


class G151State(NamedTuple):
    banked: tuple[int, ...]
    mover: int
    turn_total: int
    rolling: bool
    turns: int = 0


class G151Game(Game):
    """151 under ``rules`` to ``target`` points, alone (``players`` 1) or two players."""

    name = "g151"

    def __init__(self, rules: Rules, target: int, players: int) -> None:
        self.rules, self.target = rules, target
        self.n = target_units(target)
        self.players = self.seats = integer(players, "players", 1, 2)
        self.unit = TURNS if players == 1 else P_WIN
        self._outcomes = tuple(roll_distribution(rules).items())

    def initial_state(self) -> G151State:
        return G151State((0,) * self.players, 0, 0, True)

    def to_move(self, state: G151State) -> int:
        return CHANCE if state.rolling else state.mover

    def legal_actions(self, state: G151State) -> tuple[str, ...]:
        return () if state.rolling or self.is_terminal(state) else ACTIONS

    def chance_outcomes(self, state: G151State) -> tuple[tuple[int, Fraction], ...]:
        return self._outcomes if state.rolling and not self.is_terminal(state) else ()

    def apply(self, state: G151State, action: Action) -> G151State:
        action = self.canonical(state, action)
        me, turn = state.mover, state.turn_total
        if action == ROLL:
            return state._replace(rolling=True)
        if action == BANK:
            return self._end_turn(state, turn)
        room = self.target - state.banked[me]
        if action == 0:  # a 0 ends the turn: it banks the turn total in the notebook's variant
            return self._end_turn(state, turn if turn and self.rules.zero_keeps_turn else 0)
        if turn + action > room:  # past the target: the turn scores nothing
            return self._end_turn(state, 0)
        return state._replace(turn_total=turn + action, rolling=False)

    def _end_turn(self, state: G151State, banked: int) -> G151State:
        """The turn of the mover ends banking ``banked`` points (0: with nothing): the game is over at the target,
        else the next player's turn starts."""
        me = state.mover
        scores = tuple(s + banked if i == me else s for i, s in enumerate(state.banked))
        counted = state.turns + (1 if banked or self.rules.failed_turns_count else 0) if self.players == 1 else 0
        if scores[me] == self.target:
            return G151State(scores, me, 0, False, counted)
        return G151State(scores, (me + 1) % self.players, 0, True, counted)

    def is_terminal(self, state: G151State) -> bool:
        return self.target in state.banked

    def returns(self, state: G151State) -> tuple[int, ...]:
        """Alone: (turns counted,). Two players: (1, 0) when seat 0 reached the target, (0, 1) when seat 1 did."""
        if self.players == 1:
            return (state.turns,)
        return (1, 0) if state.banked[0] == self.target else (0, 1)

    # -- words and JSON --

    def action_text(self, state: G151State, action: Action) -> str:
        if not state.rolling:
            return f"{action}s" + (f" (banks {state.turn_total})" if action == BANK else "")
        room = self.target - state.banked[state.mover]
        if action == 0:
            kept = state.turn_total and self.rules.zero_keeps_turn
            return f"rolls 0: the turn ends{f', banking {state.turn_total}' if kept else ' with nothing'}"
        if state.turn_total + action > room:
            return f"rolls {action}: past the target, the turn scores nothing"
        return f"rolls {action}"

    def state_text(self, state: G151State) -> str:
        scores = " and ".join(map(str, state.banked))
        counts = f", {counted(state.turns, 'turn')} counted" if self.players == 1 else ""
        head = f"banked {scores} (target {self.target}){counts}"
        if self.is_terminal(state):
            return head + (": the target is reached" if self.players == 1 else f": player {state.mover + 1} has won")
        who = "" if self.players == 1 else f"player {state.mover + 1} "
        return f"{head}; {who}{'to roll' if state.rolling else 'to roll or bank'} with a turn total of " \
               f"{state.turn_total}"

    def state_json(self, state: G151State) -> dict[str, JSON]:
        out: dict[str, JSON] = {"banked": list(state.banked), "to_move": state.mover,
                                "turn_total": state.turn_total, "rolling": state.rolling}
        if self.players == 1:
            out["turns"] = state.turns
        return out

    def parse_state(self, data: JSON) -> G151State:
        """A position: {"banked": [points, ...] (one per player), "to_move": seat, "turn_total": points, "rolling":
        true at the start of a turn or when the dice are in the air, "turns": counted so far (alone)}; amounts in
        points (multiples of 50). ValueError naming what cannot be."""
        keys = {"banked": True, "to_move": False, "turn_total": False, "rolling": False, "turns": False}
        data = json_object(data, "151 position", keys)
        banked = data["banked"]
        if not isinstance(banked, list) or len(banked) != self.players:
            raise ValueError(f"banked must be a list of {counted(self.players, 'banked score')}")
        scores = tuple(to_units(s, "banked") * UNIT for s in banked)
        mover = integer(data.get("to_move", 0), "to_move", 0, self.players - 1)
        turn = to_units(data.get("turn_total", 0), "turn_total") * UNIT
        rolling = data.get("rolling", turn == 0)
        turns = integer(data.get("turns", 0), "turns", 0, MAX_TURNS if self.players == 1 else 0)
        if type(rolling) is not bool:
            raise ValueError("rolling must be true or false")
        if max(scores) > self.target:
            raise ValueError(f"banked {max(scores)}: above the target {self.target} (it must be reached exactly)")
        if self.target in scores:  # a finished game: the player to move banked the target, the turn is over
            if scores.count(self.target) > 1 or scores[mover] != self.target or turn or rolling:
                raise ValueError(f"banked {list(scores)}: only the player to move may have reached the target "
                                 f"{self.target}, with no turn total and no dice rolling")
            return G151State(scores, mover, 0, False, turns)
        if scores[mover] + turn > self.target:
            raise ValueError(f"banked {scores[mover]} + turn total {turn} exceeds the target {self.target}: the "
                             "turn is lost (it scores nothing)")
        if not turn and not rolling:
            raise ValueError("turn total 0: a turn starts with a roll (rolling must be true)")
        return G151State(scores, mover, turn, rolling, turns)


class G151Advisor(Advisor):
    """Optimal play read from the tables of the game's variant and target (alone or two players)."""

    game: G151Game

    def __init__(self, game: G151Game, tables: G151Tables) -> None:
        super().__init__(game)
        kind = "solitaire" if game.players == 1 else "duel"
        if (kind, game.target) not in tables.tables:
            name = game.rules.name
            raise not_built(f"the 151 table for target {game.target} (variant {name!r}) is not built (built: "
                            f"{list(tables.targets)})",
                            f"the 151 target {game.target} (variant {name!r}) is not built on this server; "
                            f"built: {list(tables.targets)}",
                            params=f"{game.target} in g151.targets", build=f"g151-{name}", cost=COST)
        self.arrays: dict[str, np.ndarray] = tables.tables[(kind, game.target)]

    def _index(self, state: G151State) -> tuple[int, ...]:
        """The tables' index of the mover's position, in units: (a, t) alone, (a, b, t) with two players."""
        me, t = state.mover, state.turn_total // UNIT
        if self.game.players == 1:
            return state.banked[0] // UNIT, t
        return state.banked[me] // UNIT, state.banked[1 - me] // UNIT, t

    def _field(self, state: G151State) -> str:
        """The stored value of the state for the mover: its roll value when the dice are rolling, else the
        value of the action its policy plays."""
        return ROLL if state.rolling or self.arrays["policy"][self._index(state)] == ROLL_CODE else BANK

    def value(self, state: G151State, seat: int) -> float:
        if self.game.is_terminal(state):
            return float(self.game.returns(state)[seat])
        mine = float(self.arrays[self._field(state)][self._index(state)])
        if self.game.players == 1:
            return state.turns + mine
        return mine if seat == state.mover else 1.0 - mine

    def action_values(self, state: G151State) -> dict[str, float]:
        """Both stored values of the mover, optimal play afterwards: rolling now and banking now (alone, with the
        turns counted so far)."""
        index, base = self._index(state), state.turns if self.game.players == 1 else 0
        return {a: base + float(self.arrays[a][index]) for a in ACTIONS}

    def policy(self, state: G151State) -> dict[str, float]:
        """The tables' policy: roll only when better by more than the tables' tolerance (ties bank)."""
        return {self._field(state): 1.0}


def setups(root: Path) -> list[dict[str, JSON]]:
    """Every built variant and target, alone and with two players (alternating, so that the first few setups
    hold both), the default target first (the page starts with the first setup: the same game as the command
    line's defaults when it is built); [] when nothing is built."""
    built = []
    for name in RULE_SETS:
        try:
            built += [(name, t) for t in load_tables(get_rules(name), root).targets]
        except ArtifactError:
            continue
    built.sort(key=lambda rt: (rt[1] != DEFAULT_TARGET, rt[1], list(RULE_SETS).index(rt[0])))
    return [{"rules": r, "target": t, "players": 1 + (i + flip) % 2} for flip in (0, 1)
            for i, (r, t) in enumerate(built)]


def open_151(setup: dict[str, JSON], artifacts_dir: Path | None) -> G151Advisor:
    rules = get_rules(setup["rules"])
    game = G151Game(rules, int(setup["target"]), int(setup["players"]))
    return G151Advisor(game, load_tables(rules, artifacts_dir))


SPEC = GameSpec(
    name="g151",
    title="151",
    summary="Roll three dice for points (a 1 is 100, a 5 is 50, three of a kind 100 times the face, three 1s 700): "
            "roll on to add to the turn's total or bank it; a roll worth nothing loses the turn's total, and the "
            "target must be reached exactly. Alone: reach it in the fewest turns; two players: reach it first.",
    options={"rules": Option(DEFAULT_RULES, "the variant", choices=tuple(RULE_SETS)),
             "target": Option(DEFAULT_TARGET, "the score to reach exactly (points, a multiple of 50)", low=50,
                              high=MAX_TARGET),
             "players": Option(1, "1: alone, fewest turns; 2: two players, reach the target first", choices=(1, 2))},
    setups=setups,
    open=open_151,
    map=MapSpec(Axis("banked points of the player to move", ("banked", MOVER), lambda g: range(0, g.target, UNIT)),
                Axis("turn total (points)", ("turn_total",), lambda g: range(0, g.target + 1, UNIT))),
)


__all__ = ["ACTIONS", "BANK", "DEFAULT_TARGET", "P_WIN", "ROLL", "SPEC", "TURNS", "G151Advisor", "G151Game",
           "G151State"]
