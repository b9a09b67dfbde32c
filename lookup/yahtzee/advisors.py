"""What the Yahtzee tables say about a ``lookup.yahtzee.positions.YahtzeeGame``, one advisor per objective, all read
through one shape: a turn's options valued by a ``TurnAnalysis`` (``lookup.yahtzee.turn``) of the mover's turn,
and a turn start valued from the stored table.

* ``expected``: expected final score (the value table, dense or layered: Maxi Yatzy);
* ``goal`` / ``beat``: the probability of reaching the target / of beating it, a tie half (the play-to-win tables);
* ``opponent``: seat 0's P(win) + P(tie) / 2 against seat 1, who plays for expected score (``lookup.yahtzee.headsup``:
  the win and law tables); seat 1's decisions are the expected-score ones, and its turn in progress has no value
  in the tables (None);
* ``win``: forced order, every seat plays to win: the table of 2 or 3 players (``lookup.yahtzee.party``; with 2
  the game is zero-sum, with 3 the other seats' shares during a turn are not held: None).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any

from lookup.protocol import Action, Advisor
from lookup.store import artifact_exists, artifact_path
from lookup.yahtzee import headsup, party, towin
from lookup.yahtzee.party_states import PARTY_PLAYERS, party_name, share_weights
from lookup.yahtzee.play import turn_analysis
from lookup.yahtzee.positions import ROLLS, YahtzeeGame, YState, sheet_of
from lookup.yahtzee.rules import RULE_SETS, Rules
from lookup.yahtzee.sheet import Sheet
from lookup.yahtzee.tables import built_value_table, load_tables
from lookup.yahtzee.turn import TurnAnalysis

DEFAULT_TARGET = 200  # the target of the goal and beat setups ``built`` lists (any target is answered)


class TurnAdvisor(Advisor):
    """The shape every objective shares. Subclasses give ``analysis(state)`` (the mover's turn and the offset
    added to its values, or None where the tables hold none), ``start(state, seat)`` (a turn start's value) and
    ``other(state, mover_value, seat)`` (another seat's value during the mover's turn)."""

    game: YahtzeeGame

    def analysis(self, state: YState) -> tuple[TurnAnalysis, float] | None:
        raise NotImplementedError

    def start(self, state: YState, seat: int) -> float | None:
        raise NotImplementedError

    def other(self, state: YState, mover_value: float, seat: int) -> float | None:
        return 1.0 - mover_value  # two seats, zero-sum shares

    def value(self, state: YState, seat: int) -> float | None:
        game = self.game
        if game.is_terminal(state):
            return float(game.returns(state)[seat])
        if state.dice is None:
            return self.start(state, seat)
        found = self.analysis(state)
        if found is None:
            return None
        analysis, offset = found
        enc = game.rules.encoding
        if state.kept is not None:
            mine = offset + float(analysis.keep[state.rerolls][enc.keep_index([f - 1 for f in state.kept])])
        else:
            mine = offset + float(analysis.roll_value[state.rerolls][enc.roll_index([d - 1 for d in state.dice])])
        return mine if seat == state.mover else self.other(state, mine, seat)

    def action_values(self, state: YState) -> dict[Action, float | None]:
        game = self.game
        legal = game.legal_actions(state)
        found = self.analysis(state)
        if found is None:
            return dict.fromkeys(legal)
        analysis, offset = found
        enc, rules = game.rules.encoding, game.rules
        if state.rerolls:
            values = analysis.keep[state.rerolls]
            return {k: offset + float(values[enc.keep_index([f - 1 for f in k])]) for k in legal}
        roll = enc.roll_index([d - 1 for d in state.dice])
        return {box: offset + float(analysis.final[roll, rules.categories.index(box)]) for box in legal}


class ExpectedAdvisor(TurnAdvisor):
    """Expected final score: the sheet's points plus the table's expected remaining points."""

    def __init__(self, game: YahtzeeGame, artifacts_dir: Path | None) -> None:
        super().__init__(game)
        self.tables = load_tables(game.rules, artifacts_dir)

    def analysis(self, state: YState) -> tuple[TurnAnalysis, float]:
        sheet = self.game.sheet(state)
        return turn_analysis(self.tables, sheet.state), float(sheet.total)

    def start(self, state: YState, seat: int) -> float:
        sheet = self.game.sheet(state)
        return sheet.total + float(self.tables.value[sheet.state])


@lru_cache(maxsize=64)
def _towin_turn(table: towin.TowinTable, state: tuple[int, int, int], needed: int) -> TurnAnalysis:
    return towin.analyse(table, state, needed)


class GoalAdvisor(TurnAdvisor):
    """The probability of a final score >= target (goal), or of beating it, a tie half (beat)."""

    def __init__(self, game: YahtzeeGame, artifacts_dir: Path | None) -> None:
        super().__init__(game)
        self.table = towin.load_towin(game.rules, "goal" if game.objective == "goal" else "win", artifacts_dir)

    def analysis(self, state: YState) -> tuple[TurnAnalysis, float]:
        sheet = self.game.sheet(state)
        return _towin_turn(self.table, sheet.state, self.game.target - sheet.total), 0.0

    def start(self, state: YState, seat: int) -> float:
        sheet = self.game.sheet(state)
        return self.table.probability(sheet.state, self.game.target - sheet.total)


class HeadsUpAdvisor(TurnAdvisor):
    """Seat 0 plays to win against seat 1, who plays for expected score (``lookup.yahtzee.headsup``)."""

    def __init__(self, game: YahtzeeGame, artifacts_dir: Path | None) -> None:
        super().__init__(game)
        self.win = towin.load_towin(game.rules, "win", artifacts_dir)
        self.law_table = towin.load_towin(game.rules, "law", artifacts_dir)
        self.expected = ExpectedAdvisor(YahtzeeGame(game.rules), artifacts_dir)

    def law(self, state: YState) -> headsup.OpponentLaw:
        """The law of seat 1's final score from the start of its turn."""
        them = self.game.sheet(state, 1)
        if them.finished:
            return headsup.OpponentLaw(them.total, headsup._FINISHED)
        return headsup.OpponentLaw(them.total, headsup._pmf(self.law_table, them.state), them.state, self.law_table)

    def analysis(self, state: YState) -> tuple[TurnAnalysis, float] | None:
        if state.mover == 1:
            return None  # seat 1's turn in progress: its law mid-turn is not in the tables
        me = self.game.sheet(state, 0)
        return headsup._turn(self.win, me.state, me.total, self.law(state)), 0.0

    def start(self, state: YState, seat: int) -> float | None:
        if state.mover == 0:
            found = self.analysis(state)
            mine = found[0].start_value
        else:  # seat 1 about to play: seat 0 at its turn start (or finished) against seat 1's whole law
            me = self.game.sheet(state, 0)
            law = self.law(state)
            mine = headsup.against(self.win, law, None if me.finished else me.state, me.total - law.points)
        return mine if seat == 0 else 1.0 - mine

    def _solo(self, state: YState) -> YState:
        """Seat 1's turn as a game of its own (its sheet alone), for its expected-score choice."""
        return state._replace(sheets=(state.sheets[1],), mover=0)

    def policy(self, state: YState) -> dict[Action, float]:
        if state.mover == 1:
            return self.expected.policy(self._solo(state))
        return super().policy(state)

    def best_actions(self, state: YState) -> tuple[Action, ...]:
        if state.mover == 1:
            return self.expected.best_actions(self._solo(state))
        return super().best_actions(state)


@lru_cache(maxsize=16)
def _party_turn(advisor: PartyAdvisor, sheets: tuple, mover: int) -> TurnAnalysis:
    return party.party_analysis(advisor.table, advisor._position(YState(sheets, mover, None, ROLLS - 1, None)))


class PartyAdvisor(TurnAdvisor):
    """Forced order, every seat playing to win: each seat's share from the table of ``game.seats`` players."""

    def __init__(self, game: YahtzeeGame, artifacts_dir: Path | None) -> None:
        super().__init__(game)
        self.table = party.load_party(game.rules, game.seats, artifacts_dir)

    def _position(self, state: YState) -> party.PartyPosition:
        n = self.game.seats
        order = [sheet_of(state.sheets[(state.mover + j) % n], self.game.rules) for j in range(n)]
        return party.party_position(order[0], order[1:], self.game.rules)

    def analysis(self, state: YState) -> tuple[TurnAnalysis, float]:
        return _party_turn(self, state.sheets, state.mover), 0.0

    def start(self, state: YState, seat: int) -> float:
        pos = self._position(state)
        return float(share_weights(self.game.seats)[seat] @ self.table.at(pos.layer, pos.uppers, pos.totals))

    def other(self, state: YState, mover_value: float, seat: int) -> float | None:
        # Two seats: zero-sum. Three: the other seats' shares during the mover's turn are not in the table.
        return super().other(state, mover_value, seat) if self.game.seats == 2 else None


def advisor_for(game: YahtzeeGame, artifacts_dir: Path | None) -> TurnAdvisor:
    """The advisor of ``game``'s objective over the tables of ``artifacts_dir``."""
    if game.objective == "win":
        return PartyAdvisor(game, artifacts_dir)
    kind = {"expected": ExpectedAdvisor, "goal": GoalAdvisor, "beat": GoalAdvisor, "opponent": HeadsUpAdvisor}
    return kind[game.objective](game, artifacts_dir)


def built(root: Path) -> list[dict[str, Any]]:
    """Every setup the tables in ``root`` answer, rule set by rule set (goal and beat listed with one target)."""
    out = []
    for name, rules in RULE_SETS.items():
        if rules.saved_rolls_cap:
            continue
        has = _present(root, rules)
        base = {"rules": name, "players": 1, "target": None}
        if has["value"]:
            out.append({**base, "objective": "expected"})
        for objective, table in (("goal", "goal"), ("beat", "win")):
            if has[table]:
                out.append({**base, "objective": objective, "target": DEFAULT_TARGET})
        if has["value"] and has["win"] and has["law"]:
            out.append({**base, "objective": "opponent", "players": 2})
        for players in PARTY_PLAYERS:
            if has[f"win{players}"]:
                out.append({**base, "objective": "win", "players": players})
    return out


def _present(root: Path, rules: Rules) -> dict[str, bool]:
    return {"value": built_value_table(rules, root) is not None,
            **{t: artifact_exists(artifact_path(root, towin.towin_name(rules, t))) for t in ("goal", "win", "law")},
            **{f"win{n}": artifact_exists(artifact_path(root, party_name(rules, n))) for n in PARTY_PLAYERS}}


__all__ = ["DEFAULT_TARGET", "ExpectedAdvisor", "GoalAdvisor", "HeadsUpAdvisor", "PartyAdvisor",
           "ROLLS", "Sheet", "TurnAdvisor", "advisor_for", "built"]
