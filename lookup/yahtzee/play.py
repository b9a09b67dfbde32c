"""Play-time answers: ``decide``, ``explain``, ``value`` and the batch form ``decide_batch``.

Values are expected FINAL scores of the game (points already on the sheet plus expected remaining points
under optimal play), from the point of view of the player to move. For ``seed`` they are those of its own
optimisation, which ignores the upper bonus.

Actions come from the policy table by indexing when it is built, otherwise from the value table by
computing the turn (``lookup.yahtzee.turn``); both follow the same tie rule (first best option: fewest
dice rerolled then lowest mask; lowest box index) and give the same answers.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.validate import integer_array
from lookup.words import counted
from lookup.yahtzee import duel, headsup, towin
from lookup.yahtzee.question import EXPECTED, Question, ask, objective_of, plan_of
from lookup.yahtzee.rules import DEFAULT_RULES, Rules, get_rules
from lookup.yahtzee.sheet import Sheet, SheetLike
from lookup.yahtzee.tables import YahtzeeTables, load_tables
from lookup.yahtzee.turn import TurnAnalysis, analyse_turn, ranked_options


@dataclass(frozen=True)
class Decision:
    """What to do now.

    reroll: for rerolls > 0, one bool per input die, True = reroll it (input order); None at 0.
    keep: for rerolls > 0, the faces kept (sorted); None at 0.
    category: for rerolls = 0, the box to score in; None otherwise.
    expected_final: expected final score of the game under optimal play from here (points on the sheet
        plus expected remaining points). The action is an index into the policy table (microseconds);
        this value needs the whole turn computed from the value table, so it is computed on first access
        (about a millisecond, then cached per state).
    """

    rules: str
    dice: tuple[int, ...]
    rerolls: int
    reroll: tuple[bool, ...] | None
    keep: tuple[int, ...] | None
    category: str | None
    # (tables, state, points on the sheet, rerolls, keep index) or, at rerolls 0, (..., 0, (roll, box)):
    # where expected_final reads the turn's values (kept as data: a closure per decision costs more).
    _where: tuple = field(repr=False, compare=False)

    @cached_property
    def expected_final(self) -> float:
        tables, state, total, rerolls, index = self._where
        analysis = turn_analysis(tables, state)
        return total + float(analysis.keep[rerolls][index] if rerolls else analysis.final[index])

    def __str__(self) -> str:
        if self.category is not None:
            action = f"score {list(self.dice)} as {self.category}"
        elif not any(self.reroll):
            action = f"keep all of {list(self.dice)} (stop rolling)"
        else:
            action = f"keep {list(self.keep)}, reroll {counted(sum(self.reroll), 'die')}"
        return f"{action}; expected final score {self.expected_final:.4f}"

    def as_dict(self) -> dict[str, object]:
        """The JSON form shared by the HTTP API and ``dicetables yahtzee decide --json`` (docs/cli.md):
        rules, dice, rerolls, reroll, keep, category, expected_final and text (this decision in words)."""
        return {"rules": self.rules, "dice": list(self.dice), "rerolls": self.rerolls,
                "reroll": None if self.reroll is None else list(self.reroll),
                "keep": None if self.keep is None else list(self.keep), "category": self.category,
                "expected_final": self.expected_final, "text": str(self)}


@dataclass(frozen=True)
class Option:
    """One legal option with its expected final score and its regret against the best (points >= 0)."""

    action: str
    keep: tuple[int, ...] | None
    category: str | None
    expected_final: float
    regret: float

    def as_dict(self) -> dict[str, object]:
        """The JSON form shared by the HTTP API and the command line: action (in words), keep (faces kept,
        sorted; null when scoring), category (box; null when rerolling), expected_final, regret."""
        return {"action": self.action, "keep": None if self.keep is None else list(self.keep),
                "category": self.category, "expected_final": self.expected_final, "regret": self.regret}


@lru_cache(maxsize=256)
def turn_analysis(tables: YahtzeeTables, state: tuple[int, int, int]) -> TurnAnalysis:
    """The value of every option of the turn starting at ``state`` (expected remaining points,
    ``lookup.yahtzee.turn``), cached: what ``explain``, ``expected_final`` and the advisors read."""
    # Element reads of the successor states (a few chunks), not the whole table.
    return analyse_turn(tables.rules, tables.value, state)


def decide(
    dice: Sequence[int],
    rerolls: int,
    sheet: SheetLike,
    rules: str | Rules = DEFAULT_RULES,
    *,
    artifacts_dir: str | Path | None = None,
    goal: int | None = None,
    beat: int | None = None,
    opponents: Sequence[SheetLike] | None = None,
    opponent: SheetLike | None = None,
) -> Decision | towin.WinDecision | duel.DuelDecision:
    """The optimal move for ``dice`` (pips, player's order) with ``rerolls`` left on ``sheet``.

    ``sheet``: a mapping box name -> points or None (optionally ``yahtzee_bonus``), a list in sheet
    order (one entry per box of ``rules``) with None for empty boxes, or a ``Sheet``. Raises ValueError
    on bad input or missing tables. The objective (``lookup.yahtzee.question``; at most one): none, the best
    expected final score (a ``Decision``); ``goal`` (a final score to reach) or ``beat`` (an opponent's known
    final score), that probability (``lookup.yahtzee.towin``); ``opponent`` (one sheet: an opponent who plays for
    expected score, any rule set whose ``win`` and ``law`` tables are built), P(win) + P(tie) / 2 against it
    (``lookup.yahtzee.headsup``); ``opponents`` (the other players' sheets, in a forced-order game of two or
    three), the mover's P(win) + P(tie) / 2 against them, all playing to win (``lookup.yahtzee.duel``).
    """
    q = ask(dice, rerolls, sheet, rules, artifacts_dir=artifacts_dir, goal=goal, beat=beat, opponent=opponent,
            opponents=opponents)
    return DECIDE[q.objective.kind](q)


def explain(*args: Any, **kwargs: Any) -> list[Option] | list[towin.ChanceOption]:
    """Every legal option (distinct keeps, or allowed boxes) ranked by the objective's value (as ``decide``, whose
    arguments it takes: the expected final score, or the probability of ``goal`` / ``beat``, or P(win) + P(tie) / 2
    against ``opponent`` or ``opponents``), the options tied with the best first in tie order, so the first is
    ``decide``'s."""
    q = ask(*args, **kwargs)
    return EXPLAIN[q.objective.kind](q)


def decide_expected(q: Question) -> Decision:
    """The move of the best expected final score: an index into the policy table when it is built, else the turn
    computed from the value table."""
    plan, state, rerolls, roll = q.plan, q.state, q.rerolls, q.roll
    tables = load_tables(plan.rules, q.artifacts_dir)
    policy = tables.policy
    if policy is not None:
        # Two element reads (lookup.chunked: each from a chunk checked the first time this process used it).
        # The flat indices follow the layouts state_index (2^boxes, threshold + 1, 2), reroll (rows, 2, R),
        # category (rows, R).
        row = policy["state_index"].flat((state[0] * plan.n_upper + state[1]) * 2 + state[2])
        if row < 0:
            raise ValueError(f"state {state} cannot be reached (not a sheet a game can produce)")
        action = (policy["reroll"].flat((row * 2 + rerolls - 1) * plan.n_rolls + roll) if rerolls
                  else policy["category"].flat(row * plan.n_rolls + roll))
    else:
        analysis = turn_analysis(tables, state)
        action = analysis.best_reroll(rerolls, roll) if rerolls else analysis.best_category(roll)
    if rerolls == 0:
        return _decision(plan.name, q.pips, 0, None, None, plan.categories[action],
                         (tables, state, q.total, 0, (roll, action)))
    keep_index, keep = plan.keep[roll][action]
    return _decision(plan.name, q.pips, rerolls, plan.reroll[q.perm][action], keep, None,
                     (tables, state, q.total, rerolls, keep_index))


def _decision(rules: str, dice: tuple[int, ...], rerolls: int, reroll: tuple[bool, ...] | None,
              keep: tuple[int, ...] | None, category: str | None, where: tuple) -> Decision:
    """A Decision without the frozen dataclass's __init__ (seven object.__setattr__ calls, a sizeable
    share of a decision: docs/benchmarks.md, "Yahtzee decisions"); the fields are the same."""
    out = _new(Decision)
    _set(out, "__dict__", {"rules": rules, "dice": dice, "rerolls": rerolls, "reroll": reroll, "keep": keep,
                           "category": category, "_where": where})
    return out


_new, _set = object.__new__, object.__setattr__


def explain_expected(q: Question) -> list[Option]:
    """Every legal option with its expected final score and regret, best first (ties in tie order)."""
    analysis = turn_analysis(load_tables(q.rules, q.artifacts_dir), q.state)
    return [Option(a, k, c, q.total + v, r) for a, k, c, v, r in ranked_options(analysis, q.roll, q.rerolls)]


DECIDE = {"expected": decide_expected, "goal": towin.decide, "beat": towin.decide, "opponent": headsup.decide,
          "players": duel.decide}
EXPLAIN = {"expected": explain_expected, "goal": towin.explain, "beat": towin.explain, "opponent": headsup.explain,
           "players": duel.explain}
explain.__signature__ = inspect.signature(decide).replace(  # type: ignore[attr-defined]
    return_annotation=inspect.signature(explain).return_annotation)


def value(sheet: SheetLike, rules: str | Rules = DEFAULT_RULES, *, artifacts_dir: str | Path | None = None) -> float:
    """Expected final score under optimal play from the start of the next turn on ``sheet``."""
    rules = get_rules(rules)
    sh = Sheet.parse(sheet, rules)
    if sh.finished:
        return float(sh.total)
    tables = load_tables(rules, artifacts_dir)
    remaining = float(tables.value[sh.state])  # one checked read
    if remaining != remaining:  # NaN: a state no game reaches (a forced order skipped)
        raise ValueError(f"state {sh.state} cannot be reached (not a sheet a game can produce)")
    return sh.total + remaining


def chance(sheet: SheetLike, rules: str | Rules = DEFAULT_RULES, *, goal: int | None = None, beat: int | None = None,
           opponent: SheetLike | None = None, opponents: Sequence[SheetLike] | None = None,
           artifacts_dir: str | Path | None = None) -> float:
    """From the start of the next turn on ``sheet``: the best P(final >= ``goal``) or P(beating ``beat``), ties half
    (``lookup.yahtzee.towin.chance``), or P(win) + P(tie) / 2 against the expected-score ``opponent``
    (``lookup.yahtzee.headsup.chance``), or the mover's share against ``opponents`` who all play to win (forced
    order; ``lookup.yahtzee.duel.share``)."""
    objective = objective_of(goal, beat, opponent, opponents)
    if objective is EXPECTED:
        raise ValueError("give goal, beat, opponent or opponents (the expected final score is value())")
    return CHANCE[objective.kind](plan_of(rules), sheet, objective, artifacts_dir)


CHANCE = {"goal": towin.chance, "beat": towin.chance, "opponent": headsup.chance, "players": duel.share}


def decide_batch(
    dice: np.ndarray,
    rerolls: np.ndarray,
    filled_mask: np.ndarray,
    upper: np.ndarray,
    ybox: np.ndarray,
    rules: str | Rules = DEFAULT_RULES,
    *,
    artifacts_dir: str | Path | None = None,
) -> np.ndarray:
    """Optimal actions for n situations at once, by indexing the policy table.

    dice: (n, n_dice) pips in the players' order; rerolls: (n,) 0..2; filled_mask (n,) n_boxes-bit masks;
    upper (n,) upper totals capped at the threshold; ybox (n,) 1 if the Yahtzee box holds 50.
    Returns int64 (n,): for rerolls > 0 a reroll mask over the INPUT dice (bit i set = reroll dice[:, i]),
    for rerolls = 0 the box index (sheet order). Raises ValueError naming the first bad row.
    """
    rules = get_rules(rules)
    tables = load_tables(rules, artifacts_dir)
    if tables.policy is None:
        raise ValueError(f"decide_batch needs the {rules.name!r} policy table; build it (yahtzee.policy: true)")
    dice = integer_array(dice, "dice", (None, rules.n_dice))
    n = dice.shape[0]
    rerolls, filled_mask, upper, ybox = (integer_array(a, name, (n,)) for a, name in zip(
        (rerolls, filled_mask, upper, ybox), ("rerolls", "filled_mask", "upper", "ybox"), strict=True))
    _first_bad("die face outside 1..6", (dice < 1).any(axis=1) | (dice > rules.n_faces).any(axis=1))
    _first_bad("rerolls outside 0..2", (rerolls < 0) | (rerolls > 2))
    _first_bad(f"filled_mask outside 0..{rules.all_filled - 1} (or a finished sheet)",
               (filled_mask < 0) | (filled_mask >= rules.all_filled))
    _first_bad(f"upper outside 0..{rules.upper_threshold}", (upper < 0) | (upper > rules.upper_threshold))
    _first_bad("ybox not 0 or 1", (ybox < 0) | (ybox > 1))
    if n == 0:  # nothing to answer: no table is decoded for it
        return np.empty(0, dtype=np.int64)
    policy = {name: np.asarray(arr) for name, arr in tables.policy.items()}  # whole arrays, checked once
    rows = policy["state_index"][filled_mask, upper, ybox]
    _first_bad("state unreachable (upper total the filled boxes cannot make, or ybox without Yahtzee)", rows < 0)
    order = np.argsort(dice, axis=1, kind="stable")
    sorted_dice = np.take_along_axis(dice, order, axis=1).astype(np.int64) - 1
    roll = roll_code_table(rules)[sorted_dice @ (rules.n_faces ** np.arange(rules.n_dice))]
    stage = np.maximum(rerolls - 1, 0)
    masks = policy["reroll"][rows, stage, roll].astype(np.int64)
    bits = (masks[:, None] >> np.arange(rules.n_dice)) & 1
    input_bits = np.zeros_like(bits)
    np.put_along_axis(input_bits, order, bits, axis=1)
    input_masks = input_bits @ (1 << np.arange(rules.n_dice))
    categories = policy["category"][rows, roll].astype(np.int64)
    return np.where(rerolls > 0, input_masks, categories)


def _first_bad(problem: str, bad: np.ndarray) -> None:
    if bad.any():
        raise ValueError(f"row {int(np.flatnonzero(bad)[0])}: {problem}")


@lru_cache(maxsize=4)
def roll_code_table(rules: Rules) -> np.ndarray:
    """Roll index of every sorted dice tuple by its base-n_faces code (other codes: -1, never read)."""
    enc = rules.encoding
    table = np.full(rules.n_faces ** rules.n_dice, -1, dtype=np.int64)
    table[enc.rolls @ (rules.n_faces ** np.arange(rules.n_dice))] = np.arange(enc.n_rolls)
    return table
