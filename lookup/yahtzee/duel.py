"""Forced-order Yatzy between players who each play to win (2 or 3): the play-time API over the tables of
``lookup.yahtzee.party`` (the states: ``lookup.yahtzee.party_states``).

The game (docs/yahtzee.md, "Two players, forced order" and "Three players, forced order"): a forced-order rule set
(``scandinavian+forced``); at box position i every player in seat order (seat 0 first) plays one turn (three rolls,
keeps between) and must score the final roll in box i. After the last box the highest total wins; a sole winner
scores 1, m tied winners 1/m each. Each player maximises their own expected score of the game (their "share"); with
2 players that is P(win) + P(tie) / 2, and the game is zero-sum.

This module answers :func:`decide` / :func:`explain` / :func:`win_probability` / :func:`share` for the mover
against the objective's opponents (their sheets in turn order after the mover) from the artifact
``yahtzee-RULES-partyN`` of N = opponents + 1 players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from lookup.protocol import seat_text
from lookup.yahtzee.party import PartyPosition, load_party, party_analysis, party_outcomes, party_position
from lookup.yahtzee.party_states import share_weights
from lookup.yahtzee.question import Objective, Plan, Question, objective_of
from lookup.yahtzee.rules import Rules
from lookup.yahtzee.sheet import SheetLike
from lookup.yahtzee.towin import ChanceOption
from lookup.yahtzee.turn import TurnAnalysis, action_text, chosen_keep, ranked_options

__all__ = ["DuelDecision", "DuelOption", "decide", "explain", "share", "win_probability"]


# An option of the mover valued in its share (P(win) + P(tie) / 2 with one opponent): the fields of every option
# played for a probability.
DuelOption = ChanceOption


@dataclass(frozen=True)
class DuelDecision:
    """What the mover should do to maximise their expected score of the game against the opponents: P(win) +
    P(tie) / 2 with one opponent; with two, a sole win 1 and a tie of m winners 1/m (the mover's "share").

    seat: 0 if the mover plays first at this box, 1 if second, 2 if third. reroll / keep / category as
    ``lookup.yahtzee.Decision``; probability: the mover's share from here when every player plays to win.
    """

    rules: str
    dice: tuple[int, ...]
    rerolls: int
    seat: int
    reroll: tuple[bool, ...] | None
    keep: tuple[int, ...] | None
    category: str | None
    probability: float

    def __str__(self) -> str:
        action = action_text(self.dice, self.reroll, self.keep, self.category)
        return f"{action}; P(win) + P(tie)/2 = {self.probability:.6f} ({seat_text(self.seat)} in turn order)"


def _turn(q: Question) -> tuple[PartyPosition, TurnAnalysis]:
    """(the mover's position, its turn valued in its share) of question ``q``: the table of
    ``len(opponents) + 1`` players."""
    pos = party_position(q.sheet, q.objective.sheets, q.plan.rules)
    return pos, party_analysis(load_party(pos.lay.rules, pos.lay.players, q.artifacts_dir), pos)


def decide(q: Question) -> DuelDecision:
    """The move that maximises the mover's share (P(win) + P(tie) / 2 against one opponent) when every player
    plays to win from here. The mover's seat follows from the sheets, listed in turn order after the mover
    (``lookup.yahtzee.party.party_position``): an opponent who has filled as many boxes plays this box after
    the mover, one who has filled one more has played it. Ties as ``lookup.yahtzee.towin.decide`` (relative
    ``PROBABILITY_TIE_REL``; fewest dice rerolled, then lowest mask)."""
    pos, analysis = _turn(q)
    rules, roll = q.plan.rules, q.roll
    if q.rerolls == 0:
        c = analysis.best_category(roll)
        return DuelDecision(rules.name, q.pips, 0, pos.seat, None, None, rules.categories[c],
                            float(analysis.final[roll, c]))
    reroll, keep, k = chosen_keep(rules, q.pips, roll, analysis.best_reroll(q.rerolls, roll))
    return DuelDecision(rules.name, q.pips, q.rerolls, pos.seat, reroll, keep, None,
                        float(analysis.keep[q.rerolls][k]))


def explain(q: Question) -> list[ChanceOption]:
    """Every legal option (distinct keeps, or the one box forced order allows) with the mover's P(win) +
    P(tie) / 2, best first; options tied with the best come first in tie order, so the first is ``decide``'s."""
    return [ChanceOption(*option) for option in ranked_options(_turn(q)[1], q.roll, q.rerolls)]


def _outcomes(sheet: SheetLike, rules: Rules | str, opponents: Sequence[SheetLike],
              artifacts_dir: str | Path | None) -> tuple[PartyPosition, dict[str, float]]:
    pos = party_position(sheet, objective_of(opponents=opponents).sheets, rules)
    return pos, party_outcomes(load_party(pos.lay.rules, pos.lay.players, artifacts_dir), pos)


def win_probability(sheet: SheetLike, rules: Rules | str, *,
                    opponents: Sequence[SheetLike], artifacts_dir: str | Path | None = None
                    ) -> tuple[float, float, float]:
    """(P(mover wins alone), P(mover tied for the highest total), P(mover loses)) from the start of the mover's
    turn, every player playing to win (P(tie) under the build's tie rule among options of equal share,
    ``pipeline.yahtzee.party_kernels``)."""
    pos, p = _outcomes(sheet, rules, opponents, artifacts_dir)
    win = p[f"win_{pos.seat}"]
    tie = sum(v for name, v in p.items() if name.startswith("tie_") and str(pos.seat) in name)
    return win, tie, 1.0 - win - tie


def share(plan: Plan, sheet: SheetLike, objective: Objective, artifacts_dir: str | Path | None = None) -> float:
    """The mover's expected share of the game from the start of its turn, every player playing to win: a sole
    win 1 and a tie of m winners 1/m each (P(win) + P(tie) / 2 with one opponent): the table's outcome
    probabilities weighted by ``share_weights``."""
    pos, p = _outcomes(sheet, plan.rules, objective.sheets, artifacts_dir)
    return float(share_weights(pos.lay.players)[pos.seat] @ np.array(list(p.values())))
