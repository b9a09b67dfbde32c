"""Heads-up advice: play to beat one opponent who plays for expected score.

    from lookup.yahtzee import decide
    decide([2, 2, 5, 6, 6], 1, my_sheet, opponent=their_sheet)

The opponent's sheet (and so the points it holds) is known, and the opponent plays the expected-score
policy from there. Let O be the points it will still score: its law is read from the ``law`` table
(``yahtzee-RULES-law``: P(O >= t) under the expected-score policy from each turn-start state). Each option
of our turn is worth

    P(win) + P(tie) / 2 = sum over s of P(O = s) * W(next, opponent's points + s - our points - reward)

where ``next`` and ``reward`` are the state and points the option leads to and ``W(state, t)`` the ``win``
table (the best P(scoring more than t more points) + P(exactly t) / 2 from ``state``); our turn's keep tree
maximises it (``lookup.yahtzee.turn``). What that is, exactly:

* when the opponent has finished (O = 0), it is the exact P(win) and equals ``decide(..., beat=score)``;
* otherwise it is the P(win) of a player who would learn O right after this decision: an upper bound on the
  best achievable against that opponent, reached when our later turns can still adapt to what the opponent
  scores (docs/yahtzee.md, "Heads-up, free order"). Re-asked every turn, the advice watches the opponent.

It needs no joint table (two players' free-order states are ~10^14): the two per-player tables of the
play-to-win layout (``yahtzee.towin.objectives`` with ``win`` and ``law``) hold all of it.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from threading import Lock

import numpy as np

from lookup.yahtzee.question import Objective, Plan, Question, plan_of, sheet_state
from lookup.yahtzee.rules import Rules
from lookup.yahtzee.sheet import Sheet, SheetLike
from lookup.yahtzee.towin import ChanceOption, TowinTable, WinDecision, decision, load_towin
from lookup.yahtzee.turn import TurnAnalysis, analyse_final, final_outcomes, ranked_options

__all__ = ["OpponentLaw", "against", "analyse", "chance", "decide", "explain", "opponent_law"]


@dataclass(frozen=True, eq=False)
class OpponentLaw:
    """What an expected-score opponent will end with: ``points`` now on its sheet (bonuses included) plus O,
    ``pmf[s]`` = P(O = s more points) for s = 0..len(pmf) - 1 (read-only; sums to 1 up to rounding); ``state``
    its turn-start state and ``table`` the law table it was read from (None once the opponent has finished)."""

    points: int
    pmf: np.ndarray
    state: tuple[int, int, int] | None = None
    table: TowinTable | None = None

    @cached_property
    def cdf(self) -> np.ndarray:
        """P(O <= s) for s = 0..len(pmf) - 1 (running sums, in order)."""
        return np.cumsum(self.pmf)

    @property
    def mean(self) -> float:
        """E[O]: the expected-score value of the opponent's state."""
        return float(np.arange(len(self.pmf)) @ self.pmf)


def opponent_law(opponent: SheetLike, rules: Plan | Rules | str, artifacts_dir: str | Path | None = None
                 ) -> OpponentLaw:
    """The law of an expected-score opponent's final score from its turn-start ``opponent`` sheet (``rules``: a rule
    set, or its resolved ``Plan``)."""
    plan = rules if isinstance(rules, Plan) else plan_of(rules)
    try:
        state, points = sheet_state(opponent, plan)
    except ValueError:  # invalid (the parse below says why), or finished: its final score is known
        sh = Sheet.parse(opponent, plan.rules)
        if not sh.finished:
            raise
        return OpponentLaw(sh.total, _FINISHED)
    table = load_towin(plan.rules, "law", artifacts_dir)
    return OpponentLaw(points, _pmf(table, state), state, table)


_FINISHED = np.ones(1)
_FINISHED.setflags(write=False)


@lru_cache(maxsize=64)
def _pmf(table: TowinTable, state: tuple[int, int, int]) -> np.ndarray:
    # Cached per table and state: an opponent's law changes only when it scores.
    tail = table.vector(state)  # P(O >= t), t = 0..bound
    if table.max_points is not None and len(tail) > table.max_points:
        raise ValueError(f"the {table.rules.name!r} law table is capped at t <= {table.max_points} "
                         "(yahtzee.towin.max_points), below what this opponent can still score; rebuild it "
                         "with max_points: null")
    pmf = tail - np.append(tail[1:], 0.0)
    pmf.setflags(write=False)
    return pmf


def against(win: TowinTable, law: OpponentLaw, state: tuple[int, int, int], lead: int,
            rows: dict[tuple[int, int, int], np.ndarray] | None = None) -> float:
    """P(win) + P(tie) / 2 of a player at turn-start ``state`` (or finished: ``state`` None) whose total is ``lead``
    points above the opponent's points now, against ``law``, as if it learned the opponent's final score now:
    sum over s of P(O = s) * W(state, s - lead), W = 1 below t = 0 and 0 above the row's bound (``rows``: the win
    table's rows read so far, kept by the caller)."""
    pmf = law.pmf
    top = len(pmf) - 1
    u = -lead
    if state is None:  # finished: the player scores no more, W(t) = 1, 1/2, 0 for t < 0, t = 0, t > 0
        return float(pmf[:max(0, -u)].sum()) + (float(pmf[-u]) / 2 if 0 <= -u <= top else 0.0)
    if rows is None or state not in rows:
        w = win.vector(state)
        if rows is not None:
            rows[state] = w
    else:
        w = rows[state]
    p = float(law.cdf[min(-u, top + 1) - 1]) if u < 0 else 0.0  # the opponent's s with u + s < 0: we win
    lo, hi = max(0, -u), min(top, len(w) - 1 - u)
    if hi >= lo:
        p += float(np.dot(pmf[lo:hi + 1], w[u + lo:u + hi + 1]))
    return p


def analyse(win: TowinTable, state: tuple[int, int, int], points: int, law: OpponentLaw) -> TurnAnalysis:
    """Our turn from ``state`` with ``points`` on our sheet, each option valued P(win) + P(tie) / 2 against
    ``law`` (``TurnAnalysis`` fields hold these probabilities)."""
    rows: dict[tuple[int, int, int], np.ndarray] = {}
    lead = points - law.points

    def worth(reward: int, nxt: tuple[int, int, int]) -> float:
        return against(win, law, nxt, lead + reward, rows)

    return analyse_final(win.rules, state, final_outcomes(win.rules, *state, worth), "probability")


def _situation(q: Question) -> tuple[OpponentLaw, TurnAnalysis]:
    law = opponent_law(q.objective.sheets[0], q.plan, q.artifacts_dir)
    return law, _turn(load_towin(q.plan.rules, "win", q.artifacts_dir), q.state, q.total, law)


_TURNS: OrderedDict[tuple, TurnAnalysis] = OrderedDict()
_TURNS_LOCK = Lock()


def _turn(win: TowinTable, state: tuple[int, int, int], points: int, law: OpponentLaw) -> TurnAnalysis:
    """``analyse`` of our turn, kept for the last 16 turns: a turn asks up to three decisions (and explain) on
    the same two sheets. Keyed by what determines it: the tables (by identity), both states and points."""
    key = (win, state, points, law.table, law.state, law.points)
    with _TURNS_LOCK:
        hit = _TURNS.get(key)
    if hit is None:
        hit = analyse(win, state, points, law)
        with _TURNS_LOCK:
            _TURNS[key] = hit
            while len(_TURNS) > 16:
                _TURNS.popitem(last=False)
    return hit


def decide(q: Question) -> WinDecision:
    """The move that maximises P(win) + P(tie) / 2 against an opponent (its turn-start sheet: the objective's)
    who plays for expected score; ``probability`` is that chance (see the module docstring for what it
    means exactly), ``target`` the opponent's points now and ``needed`` those minus ours. Ties between
    options as ``lookup.yahtzee.towin.decide``'s."""
    law, analysis = _situation(q)
    return decision(analysis, q.pips, q.rerolls, q.roll, "opponent", law.points, law.points - q.total)


def explain(q: Question) -> list[ChanceOption]:
    """Every legal option ranked by its P(win) + P(tie) / 2 against the expected-score opponent (regret: the
    chance lost against the best option), ``decide``'s first."""
    return [ChanceOption(*option) for option in ranked_options(_situation(q)[1], q.roll, q.rerolls)]


def chance(plan: Plan, sheet: SheetLike, objective: Objective, artifacts_dir: str | Path | None = None) -> float:
    """P(win) + P(tie) / 2 from the start of our next turn on ``sheet`` against the expected-score opponent
    (the objective's sheet; exact once the opponent has finished, otherwise the bound of the module docstring)."""
    sh = Sheet.parse(sheet, plan.rules)
    law = opponent_law(objective.sheets[0], plan, artifacts_dir)
    if sh.finished:  # our final score is known: P(O < d) + P(O = d) / 2, d = our lead
        return against(None, law, None, sh.total - law.points)  # type: ignore[arg-type]
    return analyse(load_towin(plan.rules, "win", artifacts_dir), sh.state, sh.total, law).start_value
