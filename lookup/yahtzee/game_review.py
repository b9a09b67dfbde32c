"""Review a whole game: what every decision cost against optimal play, the total, the costliest ones.

A decision is a keep (the dice kept before a reroll, or stopping: keeping them all) or a box. Its cost is the
value of the best option minus the value of the option chosen, both read from the same turn analysis as
``explain`` (``lookup.yahtzee.play.turn_analysis``: the built value table, then the turn's keep tree):

* in **points**: expected final score of the game under optimal play from the decision on (the sheet's points
  plus expected remaining points). The costs add up: final score = expected final score at the start - total
  cost + luck, where luck (``Review.luck``) is what the dice gave beyond their expectation.
* in **probability**, when the game was played to a goal (``goal``: P(final >= goal)) or against an opponent's
  known final score (``beat``: P(final > beat) + P(final = beat) / 2), from the play-to-win tables
  (``lookup.yahtzee.towin``) when they are built.

Ties are exact: an option tied with the best (``lookup.yahtzee.turn.tied``: within ``TIE_EPS`` = 1e-9 points,
or a probability within a relative ``PROBABILITY_TIE_REL`` of the best) is optimal and costs exactly 0, as
``decide`` treats it. Nothing here writes a file or compiles code: every number is a table read and numpy.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import ArtifactError
from lookup.validate import integer, integer_sequence
from lookup.yahtzee import headsup, towin
from lookup.yahtzee.play import keep_label, turn_analysis, value
from lookup.yahtzee.record import ROLLS_PER_TURN, GameRecord, parse_record
from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.sheet import Sheet, SheetLike, category_index, parse_dice
from lookup.yahtzee.tables import load_tables
from lookup.yahtzee.turn import TurnAnalysis

__all__ = ["Cost", "Review", "ReviewedDecision", "judge", "review"]


@dataclass(frozen=True)
class Cost:
    """One decision measured in one unit, from the point of view of the player who made it.

    unit: "points" (expected final score of the game: points on the sheet plus expected remaining points under
    optimal play from here) or "probability" (of reaching the goal, or of winning with ties half, under the
    best play from here). chosen / best: the value of the option taken / of the best option; cost: best -
    chosen (>= 0; exactly 0 when the option taken is tied with the best, ``lookup.yahtzee.turn.tied``).
    best_action: the best option in words (the first of tied options in ``decide``'s order), best_keep /
    best_box: the same as data.
    """

    unit: str
    chosen: float
    best: float
    cost: float
    best_action: str
    best_keep: tuple[int, ...] | None
    best_box: str | None

    def as_dict(self) -> dict[str, Any]:
        return {"unit": self.unit, "chosen": self.chosen, "best": self.best, "cost": self.cost,
                "best_action": self.best_action, "best_keep": None if self.best_keep is None else list(self.best_keep),
                "best_box": self.best_box}


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a game and its cost.

    turn: the turn (1-based, the record's order); roll: the roll of the turn it follows (1..3); kind: "keep"
    (what to keep before a reroll; keeping all dice = stopping) or "box"; dice: the dice on the table (pips,
    the player's order); rerolls: rerolls left at a keep (1 or 2), 0 for a box; keep / box: the choice;
    action: the choice in words ("keep [3, 3]", "keep all (stop)", "large_straight (40)").
    points: the cost in expected final points; probability: in probability of reaching the goal / winning
    (None when the game is not reviewed against a goal or an opponent's score).
    """

    turn: int
    roll: int
    kind: str
    dice: tuple[int, ...]
    rerolls: int
    keep: tuple[int, ...] | None
    box: str | None
    action: str
    points: Cost
    probability: Cost | None

    @property
    def where(self) -> str:
        return f"turn {self.turn}, " + (f"roll {self.roll}" if self.kind == "keep" else "box")

    def __str__(self) -> str:
        text = f"{self.where}: {list(self.dice)} {self.action}:"
        if self.points.cost == 0:
            text += " optimal"
        else:
            text += f" cost {points_text(self.points.cost)} points (best: {self.points.best_action})"
        if self.probability is not None and self.probability.cost:
            text += (f"; {self.probability.cost:.4f} of probability (best: {self.probability.best_action})")
        return text

    def as_dict(self) -> dict[str, Any]:
        """JSON form: every field, the costs as ``Cost.as_dict``, and ``text`` (this decision in words)."""
        return {"turn": self.turn, "roll": self.roll, "kind": self.kind, "dice": list(self.dice),
                "rerolls": self.rerolls, "keep": None if self.keep is None else list(self.keep), "box": self.box,
                "action": self.action, "points": self.points.as_dict(),
                "probability": None if self.probability is None else self.probability.as_dict(), "text": str(self)}


def points_text(points: float) -> str:
    """A cost in points for people: one decimal (28.2), more digits when it is that small (0.0031)."""
    return f"{points:.1f}" if points >= 0.05 else f"{points:.2g}"


@dataclass(frozen=True)
class Review:
    """The review of a game record, from the point of view of the player who made the decisions.

    decisions: every decision in game order. In points (expected final score of the game, optimal play after
    each decision): start_expected at the record's start, expected_final now (the final score once the sheet is
    finished), total_cost the sum of the decisions' costs, luck = expected_final - start_expected + total_cost
    (what the dice gave beyond their expectation: final = start - cost + luck). final_score: the sheet's total
    (boxes, upper bonus as the rule set counts it, Yahtzee bonuses); finished: every box filled.
    Against a goal / an opponent's score (objective "goal" / "win", target): start_probability, probability
    now (1, 0 or 1/2 once finished), total_probability_cost; None when not asked, or when the play-to-win table
    is not built (``probability_note`` then says so).
    """

    rules: str
    decisions: tuple[ReviewedDecision, ...]
    start_expected: float
    expected_final: float
    total_cost: float
    final_score: int
    finished: bool
    sheet: dict[str, int | None]
    objective: str | None = None
    target: int | None = None
    start_probability: float | None = None
    probability: float | None = None
    total_probability_cost: float | None = None
    probability_note: str | None = None

    @property
    def luck(self) -> float:
        """Points the dice gave beyond their expectation (negative: bad luck)."""
        return self.expected_final - self.start_expected + self.total_cost

    @cached_property
    def mistakes(self) -> tuple[ReviewedDecision, ...]:
        """The decisions that cost points, in game order."""
        return tuple(d for d in self.decisions if d.points.cost > 0)

    def costliest(self, n: int = 5, by: str = "points") -> list[ReviewedDecision]:
        """The ``n`` decisions that cost the most (only those that cost something), costliest first; ``by``
        "points" or "probability"."""
        if by not in ("points", "probability"):
            raise ValueError(f"by must be points or probability, got {by!r}")
        cost = [(d.points if by == "points" else d.probability) for d in self.decisions]
        ranked = sorted((i for i, c in enumerate(cost) if c is not None and c.cost > 0),
                        key=lambda i: (-cost[i].cost, i))  # ties: the earlier decision first
        return [self.decisions[i] for i in ranked[:n]]

    def summary(self, top: int = 5) -> list[str]:
        """The review in a few lines of text: the totals, then the ``top`` costliest decisions."""
        state = "final score" if self.finished else "points so far"
        lines = [f"review ({self.rules}): {len(self.decisions)} decisions, {len(self.mistakes)} below optimal, "
                 f"{points_text(self.total_cost) if self.total_cost else '0'} expected points lost in all",
                 f"expected {self.start_expected:.2f} at the start under optimal play; {state} {self.final_score}"
                 + ("" if self.finished else f" (expected final {self.expected_final:.2f})")
                 + f"; luck {self.luck:+.2f} points"]
        if self.objective is not None:
            what = f"P(final >= {self.target})" if self.objective == "goal" else f"P(beat {self.target}, ties half)"
            if self.probability is None:
                lines.append(f"{what}: not reviewed ({self.probability_note})")
            else:
                lines.append(f"{what}: {self.start_probability:.4f} at the start, {self.probability:.4f} now; "
                             f"decisions lost {self.total_probability_cost:.4f} of probability in all")
        worst = self.costliest(top)
        if worst:
            lines.append("costliest decisions:")
            lines.extend(f"  {d}" for d in worst)
        return lines

    def as_dict(self, top: int = 5) -> dict[str, Any]:
        """JSON form (docs/yahtzee.md, "Reviewing a game"): the fields, luck, every decision, and the ``top``
        costliest in points ("costliest") and in probability ("costliest_probability", when reviewed)."""
        out = {"rules": self.rules, "objective": self.objective, "target": self.target,
               "start_expected": self.start_expected, "expected_final": self.expected_final,
               "total_cost": self.total_cost, "luck": self.luck, "final_score": self.final_score,
               "finished": self.finished, "mistakes": len(self.mistakes),
               "start_probability": self.start_probability, "probability": self.probability,
               "total_probability_cost": self.total_probability_cost, "probability_note": self.probability_note,
               "sheet": self.sheet, "decisions": [d.as_dict() for d in self.decisions],
               "costliest": [d.as_dict() for d in self.costliest(top)]}
        if self.probability is not None:
            out["costliest_probability"] = [d.as_dict() for d in self.costliest(top, "probability")]
        return out


def _cost(analysis: TurnAnalysis, roll: int, rerolls: int, chosen_keep: int | None, chosen_box: int | None,
          offset: float, unit: str, allowed: dict[str, int]) -> Cost:
    """The cost of one choice from one turn analysis (points or probabilities): ``offset`` is added to both
    values (the sheet's total for points: the analysis holds remaining points)."""
    rules = analysis.rules
    enc = rules.encoding
    if chosen_box is None:
        values = analysis.keep[rerolls]
        best = float(analysis.reroll_values(rerolls, roll).max())
        chosen = float(values[chosen_keep])
        k = int(enc.keep_of_mask[roll, analysis.best_reroll(rerolls, roll)])
        best_keep = tuple(int(f) + 1 for f in enc.keeps[k])
        best_action, best_box = keep_label(best_keep, rules.n_dice), None
    else:
        best = float(np.nanmax(analysis.final[roll]))
        chosen = float(analysis.final[roll, chosen_box])
        best_box = rules.categories[analysis.best_category(roll)]
        best_action, best_keep = f"{best_box} ({allowed[best_box]})", None
    # The tie rule of decide() in this unit (points: absolute, probabilities: relative): optimal costs exactly 0.
    cost = 0.0 if analysis.tied(chosen, best) else best - chosen
    return Cost(unit, offset + chosen, offset + best, cost, best_action, best_keep, best_box)


class _Reviewer:
    """The tables of one review, and each turn's analyses (a turn's keeps and box share them)."""

    def __init__(self, rules: Rules, objective: str | None, target: int | None, start: Sheet,
                 artifacts_dir: str | Path | None) -> None:
        self.rules, self.objective, self.target = rules, objective, target
        self.tables = load_tables(rules, artifacts_dir)
        self.table: towin.TowinTable | None = None
        self.note: str | None = None
        if objective is not None:
            try:
                self.table = towin.load_towin(rules, objective, artifacts_dir)
            except ArtifactError:
                # Points are still reviewed: the play-to-win tables are optional (yahtzee.towin in params.yaml).
                self.note = f"the {rules.name!r} play-to-win table ({objective}) is not built or cannot be read"
            else:
                needed = target - start.total
                if self.table.max_points is not None and needed > self.table.max_points:
                    self.note = (f"{needed} points needed at the start; the {objective} table holds up to "
                                 f"{self.table.max_points}")
                    self.table = None
        self._chance: dict[tuple[tuple[int, int, int], int], TurnAnalysis] = {}
        # Against an expected-score opponent (``judge(..., opponent=)``): its law, and the win table.
        self.opponent: headsup.OpponentLaw | None = None

    def against(self, opponent: headsup.OpponentLaw, artifacts_dir: str | Path | None) -> None:
        """Cost decisions in P(win) + P(tie) / 2 against the expected-score opponent of law ``opponent``."""
        self.opponent, self.objective, self.target = opponent, "opponent", opponent.points
        self.table, self.note = towin.load_towin(self.rules, "win", artifacts_dir), None

    def chance_analysis(self, sheet: Sheet) -> TurnAnalysis | None:
        if self.table is None:
            return None
        key = (sheet.state, self.target - sheet.total)
        if key not in self._chance:  # one turn at a time is all a review reads
            self._chance = {key: towin.analyse(self.table, *key) if self.opponent is None else
                            headsup.analyse(self.table, sheet.state, sheet.total, self.opponent)}
        return self._chance[key]

    def decision(self, sheet: Sheet, turn: int, roll_number: int, dice: tuple[int, ...], rerolls: int,
                 keep: tuple[int, ...] | None, box: str | None) -> ReviewedDecision:
        """The cost of keeping ``keep`` (with ``rerolls`` left) or of scoring ``box``, before it is played on
        ``sheet`` (which this does not change)."""
        rules, enc = self.rules, self.rules.encoding
        roll = enc.roll_index([d - 1 for d in dice])
        allowed = sheet.allowed(dice)
        if box is None:
            k, c = enc.keep_index([f - 1 for f in keep]), None
            action = keep_label(keep, rules.n_dice)
        else:
            k, c = None, category_index(box, rules)
            action = f"{box} ({allowed[box]})"
        points = _cost(turn_analysis(self.tables, sheet.state), roll, rerolls, k, c, float(sheet.total), "points",
                       allowed)
        chance = self.chance_analysis(sheet)
        probability = None if chance is None else _cost(chance, roll, rerolls, k, c, 0.0, "probability", allowed)
        return ReviewedDecision(turn, roll_number, "keep" if box is None else "box", dice, rerolls, keep, box, action,
                                points, probability)

    def probability(self, sheet: Sheet) -> float | None:
        if self.table is None:
            return None
        goal, beat = (self.target, None) if self.objective == "goal" else (None, self.target)
        if sheet.finished:
            return towin.chance(sheet, self.rules, goal=goal, beat=beat)  # 1, 0 or 1/2: no table read
        return self.table.probability(sheet.state, self.target - sheet.total)


def _objective(record: GameRecord, goal: int | None, beat: int | None) -> tuple[str | None, int | None]:
    if goal is None and beat is None:
        goal, beat = record.goal, record.beat
    if goal is None and beat is None:
        return None, None
    return towin._objective(goal, beat)  # the one check of goal / beat (exactly one, bounded)


def review(record: Any, rules: str | Rules | None = None, *, goal: int | None = None, beat: int | None = None,
           artifacts_dir: str | Path | None = None) -> Review:
    """The review of a game record (a mapping in the documented JSON form, or a ``GameRecord``).

    ``rules``: the rule set when the record names none (a record naming another is refused). ``goal`` /
    ``beat``: review the probability of reaching that final score / of beating that opponent's final score
    too (default: the record's own ``goal`` / ``beat``). Raises ValueError naming the turn and step of a bad
    record, or when the value table of the rule set is not built.
    """
    record = parse_record(record, rules)
    objective, target = _objective(record, goal, beat)
    sheet = record.start()
    reviewer = _Reviewer(record.rules, objective, target, sheet, artifacts_dir)
    start_expected = value(sheet, record.rules, artifacts_dir=artifacts_dir)  # the total when already finished
    start_probability = reviewer.probability(sheet)
    decisions = []
    for n, turn in enumerate(record.turns, start=1):
        for i, dice in enumerate(turn.rolls):
            rerolls = ROLLS_PER_TURN - 1 - i
            if rerolls == 0:  # the third roll: only its box is a choice
                break
            # A keep before each reroll, and the implied "keep all (stop)" when the turn stopped rolling early.
            keep = turn.keeps[i] if i < len(turn.keeps) else tuple(sorted(dice))
            decisions.append(reviewer.decision(sheet, n, i + 1, dice, rerolls, keep, None))
        decisions.append(reviewer.decision(sheet, n, len(turn.rolls), turn.rolls[-1], 0, None, turn.box))
        sheet.score(turn.box, turn.rolls[-1])
    expected_final = value(sheet, record.rules, artifacts_dir=artifacts_dir)
    probability = reviewer.probability(sheet)
    prob_costs = [d.probability.cost for d in decisions if d.probability is not None]
    return Review(record.rules.name, tuple(decisions), float(start_expected), float(expected_final),
                  float(sum(d.points.cost for d in decisions)), sheet.total, sheet.finished,
                  sheet.to_dict(), objective, target, start_probability, probability,
                  None if probability is None else float(sum(prob_costs)), reviewer.note)


def judge(dice: Sequence[int], rerolls: int, sheet: SheetLike, rules: str | Rules = "hasbro", *,
          keep: Sequence[int] | None = None, box: str | None = None, goal: int | None = None,
          beat: int | None = None, opponent: SheetLike | None = None,
          artifacts_dir: str | Path | None = None) -> ReviewedDecision:
    """The cost of one decision about to be played: keeping ``keep`` (faces, with ``rerolls`` 1 or 2 left;
    all the dice = stopping) or scoring ``box``; give exactly one. What ``dicetables yahtzee play`` says after a
    move; ``turn`` and ``roll`` of the answer are 0 (unknown here). With ``goal`` / ``beat`` the cost in
    probability too, when that play-to-win table is built (``probability`` is None otherwise); with
    ``opponent`` (a sheet: an opponent who plays for expected score, ``lookup.yahtzee.headsup``) the cost in
    P(win) + P(tie) / 2 (its tables must be built)."""
    rules = get_rules(rules)
    pips = parse_dice(dice, rules)
    sh = Sheet.parse(sheet, rules)
    if sh.finished:
        raise ValueError("the sheet is finished: every box is filled, there is nothing to decide")
    if (keep is None) == (box is None):
        raise ValueError("give exactly one of keep (faces kept before a reroll) and box (where to score)")
    if opponent is not None and (goal is not None or beat is not None):
        raise ValueError("give opponent, or goal / beat, not both")
    objective, target = (None, None) if goal is None and beat is None else towin._objective(goal, beat)
    reviewer = _Reviewer(rules, objective, target, sh, artifacts_dir)
    if opponent is not None:
        reviewer.against(headsup.opponent_law(opponent, rules, artifacts_dir), artifacts_dir)
    if box is not None:
        name = rules.categories[category_index(box, rules)]
        if name not in sh.allowed(pips):
            raise ValueError(f"box {name} may not take {list(pips)} on this sheet; allowed: "
                             + ", ".join(sh.allowed(pips)))
        return reviewer.decision(sh, 0, 0, pips, 0, None, name)
    integer(rerolls, "rerolls (left at a keep)", 1, 2)
    size = len(keep) if isinstance(keep, list | tuple) else 0
    kept = tuple(sorted(integer_sequence(keep, "kept dice", size, 1, rules.n_faces)))
    if Counter(kept) - Counter(pips):
        raise ValueError(f"keep {list(kept)} is not among the dice {list(pips)}")
    return reviewer.decision(sh, 0, 0, pips, rerolls, kept, None)
