"""Play to win: decisions and probabilities from the play-to-win tables (``yahtzee-RULES-goal`` / ``-win``).

``decide(..., goal=g)`` (``lookup.yahtzee.decide``) maximises the probability of ending the game with at least
``g`` points (a FINAL
score: the sheet's points, upper bonus and Yahtzee bonuses included); ``decide(..., beat=s)`` maximises the
probability of beating an opponent whose final score ``s`` is known, a tie counting half. The tables hold,
for each turn-start state and each number t of points still needed (t = g - sheet total, or s - sheet
total), the best probability from the start of a turn (``pipeline.yahtzee.towin``). Within a turn the
options are valued by the same keep tree as expected points (``lookup.yahtzee.turn``), on the probability
of the next turn-start state at t - reward: that IS the policy achieving the table's probability (it
depends on t, so it is recomputed here rather than stored: a stored policy would be ~100 GB for hasbro).

Layout (schema ``yahtzee.goal`` / ``yahtzee.win``, version 1): ``state_index[filled_mask, upper, ybox]``
int32 (row, -1 unreachable), ``bound[row]`` int32 (last t stored: the most points the state can still
score, capped at the artifact's ``max_points``), ``layer_ptr`` int64, and ``layer_NN[row - layer_ptr[NN],
t]`` float64 for the rows with NN filled boxes (0 beyond the row's bound, 1 for t < 0, not stored).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.chunked import ChunkedArray
from lookup.errors import not_built
from lookup.store import artifact_path, artifact_stamp, default_artifacts_dir, play_arrays
from lookup.validate import shown
from lookup.words import counted
from lookup.yahtzee.question import Objective, Plan, Question
from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.sheet import Sheet, SheetLike
from lookup.yahtzee.states import layer_name
from lookup.yahtzee.tables import dashed
from lookup.yahtzee.turn import TurnAnalysis, action_text, analyse_final, chosen_keep, final_outcomes, ranked_options

OBJECTIVE_SCHEMAS = {"goal": "yahtzee.goal", "win": "yahtzee.win", "law": "yahtzee.law"}
SCHEMA_VERSIONS = (1,)


def towin_name(rules: Rules, objective: str) -> str:
    return f"yahtzee-{rules.name}-{objective}"


@dataclass(frozen=True, eq=False)
class TowinTable:
    """One play-to-win table, opened for play (``lookup.chunked.ChunkedArray`` arrays, chunks checked on first use).

    max_points: the cap on t the table was built with (None: every t); stats: what the build recorded.
    """

    rules: Rules
    objective: str
    state_index: ChunkedArray
    bound: ChunkedArray
    layer_ptr: tuple[int, ...]
    layers: dict[int, ChunkedArray]
    max_points: int | None
    stats: dict[str, Any]

    def row(self, state: tuple[int, int, int]) -> int:
        row = int(self.state_index[tuple(int(x) for x in state)])
        if row < 0:
            raise ValueError(f"state {state} cannot be reached (not a sheet a game can produce)")
        return row

    def probability(self, state: tuple[int, int, int], t: int) -> float:
        """The table's probability for ``state`` (turn start) needing ``t`` more points."""
        if t < 0:
            return 1.0
        self.check_needed(t)
        row = self.row(state)
        if t > int(self.bound[row]):
            return 0.0
        n = int(bin(int(state[0])).count("1"))
        return float(self.layers[n][row - self.layer_ptr[n], t])

    def vector(self, state: tuple[int, int, int]) -> np.ndarray:
        """The table's probabilities for ``state`` (turn start) for t = 0..bound (read-only; 0 beyond, 1 for
        t < 0), read from the row's chunk only."""
        row = self.row(state)
        n = int(bin(int(state[0])).count("1"))
        return self.layers[n].row(row - self.layer_ptr[n])[:int(self.bound[row]) + 1]

    def check_needed(self, t: int) -> None:
        if self.max_points is not None and t > self.max_points:
            raise ValueError(f"{counted(t, 'point')} still needed, but the {self.rules.name!r} {self.objective} table "
                             f"holds t <= {self.max_points} only (yahtzee.towin.max_points); rebuild it with a "
                             "larger cap or null")


def load_towin(rules: Rules | str, objective: str, artifacts_dir: str | Path | None = None) -> TowinTable:
    """The verified ``objective`` table of ``rules``; ValueError naming the file when it is not built."""
    rules = get_rules(rules)
    if objective not in OBJECTIVE_SCHEMAS:
        raise ValueError(f"objective must be one of {sorted(OBJECTIVE_SCHEMAS)}, not {shown(objective)}")
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, towin_name(rules, objective))
    return _load(rules, objective, path, artifact_stamp(path))


@lru_cache(maxsize=8)
def _load(rules: Rules, objective: str, path: Path, stamp: int) -> TowinTable:
    if not stamp:
        # docs/benchmarks.md, "Yahtzee play to win" and "heads-up": a forced-order rule set's tables in seconds,
        # a free-order one's (13 boxes in any order) in minutes each.
        cost = ("about 10-25 s with every objective" if rules.forced_order else
                "5 to 20 minutes and about 1 GB on disk for each objective on 2 cores (hasbro: goal 5, law 5, win "
                "19 minutes)")
        raise not_built(f"{path}: the {rules.name!r} play-to-win table ({objective}) is not built",
                        f"the play-to-win table ({objective}) of rule set {rules.name!r} is not built on this server",
                        params=f"{rules.name!r} in yahtzee.towin.rule_sets and {objective!r} in "
                               "yahtzee.towin.objectives",
                        build=f"yahtzee-towin-{dashed(rules)}", cost=cost)
    names = ["state_index", "bound", "layer_ptr"] + [layer_name(n) for n in range(rules.n_boxes + 1)]
    meta, arrays = play_arrays(path, names, schema=OBJECTIVE_SCHEMAS[objective], versions=SCHEMA_VERSIONS,
                                  rules=rules.to_dict(), params={"objective": objective})
    ptr = tuple(int(x) for x in np.asarray(arrays["layer_ptr"]))
    layers = {n: arrays[layer_name(n)] for n in range(rules.n_boxes + 1)}
    return TowinTable(rules, objective, arrays["state_index"], arrays["bound"], ptr, layers,
                      meta["params"].get("max_points"), meta.get("stats", {}))


def analyse(table: TowinTable, state: tuple[int, int, int], t: int) -> TurnAnalysis:
    """The turn of ``state`` valued in probabilities of reaching ``t`` more points (``TurnAnalysis`` fields
    hold probabilities instead of expected points)."""
    table.check_needed(max(t, 0))
    cache: dict[tuple[tuple[int, int, int], int], float] = {}

    def worth(reward: int, nxt: tuple[int, int, int]) -> float:
        key = (nxt, t - reward)
        if key not in cache:
            cache[key] = table.probability(nxt, t - reward)
        return cache[key]

    return analyse_final(table.rules, state, final_outcomes(table.rules, *state, worth), "probability")


@dataclass(frozen=True)
class WinDecision:
    """What to do now to maximise the chance of reaching ``goal`` (or of beating ``beat``, or of beating an
    opponent who plays for expected score: ``lookup.yahtzee.headsup``).

    reroll / keep / category: as ``lookup.yahtzee.Decision`` (one bool per input die; faces kept; box).
    needed: points still needed (goal or beat minus the sheet's total; against an opponent, the opponent's
    points now minus ours, ``target`` being the opponent's points now); probability: the best probability
    of reaching the goal (objective ``goal``) or of winning, ties half (``win``, ``opponent``) from here.
    """

    rules: str
    dice: tuple[int, ...]
    rerolls: int
    objective: str
    target: int
    needed: int
    reroll: tuple[bool, ...] | None
    keep: tuple[int, ...] | None
    category: str | None
    probability: float

    def __str__(self) -> str:
        action = action_text(self.dice, self.reroll, self.keep, self.category)
        what = {"goal": f"P(final >= {self.target})", "win": f"P(beat {self.target}, ties half)",
                "opponent": "P(win against the opponent, ties half)"}[self.objective]
        return f"{action}; {what} = {self.probability:.6f}"


@dataclass(frozen=True)
class ChanceOption:
    """One legal option with its probability (of reaching the goal, of winning, or the mover's share of a game
    among players who all play to win: ``lookup.yahtzee.duel``) and the loss of probability against the best
    option (>= 0; exactly 0 for an option tied with the best, ``lookup.yahtzee.turn.tied``)."""

    action: str
    keep: tuple[int, ...] | None
    category: str | None
    probability: float
    regret: float


TABLE_OF = {"goal": "goal", "beat": "win"}  # the objective -> the play-to-win table it reads


def _turn(q: Question) -> tuple[TurnAnalysis, int]:
    """The turn of question ``q`` valued in probabilities of its objective, and the points still needed."""
    target = q.objective.target
    table = load_towin(q.plan.rules, TABLE_OF[q.objective.kind], q.artifacts_dir)
    return analyse(table, q.state, target - q.total), target - q.total


def decide(q: Question) -> WinDecision:
    """The move that maximises P(final score >= goal), or P(win) against a known final score (beat, ties half).
    Options whose probabilities are tied (within a relative ``PROBABILITY_TIE_REL`` of the best,
    ``lookup.yahtzee.turn.tied``): the first in the order of expected-score play (fewest dice rerolled, then
    lowest mask; lowest box)."""
    analysis, needed = _turn(q)
    objective = "goal" if q.objective.kind == "goal" else "win"
    return decision(analysis, q.pips, q.rerolls, q.roll, objective, q.objective.target, needed)


def decision(analysis: TurnAnalysis, pips: tuple[int, ...], rerolls: int, roll: int, objective: str, target: int,
             needed: int) -> WinDecision:
    """The ``WinDecision`` of a turn valued in probabilities (``analysis``) for ``roll`` with ``rerolls`` left."""
    rules = analysis.rules
    if rerolls == 0:
        c = analysis.best_category(roll)
        return WinDecision(rules.name, pips, 0, objective, target, needed, None, None, rules.categories[c],
                           float(analysis.final[roll, c]))
    reroll, keep, k = chosen_keep(rules, pips, roll, analysis.best_reroll(rerolls, roll))
    return WinDecision(rules.name, pips, rerolls, objective, target, needed, reroll, keep, None,
                       float(analysis.keep[rerolls][k]))


def explain(q: Question) -> list[ChanceOption]:
    """Every legal option (distinct keeps, or allowed boxes) ranked by its probability; the options tied with
    the best (``lookup.yahtzee.turn.tied``: regret exactly 0) come first in tie order, so the first option is
    ``decide``'s."""
    return [ChanceOption(*option) for option in ranked_options(_turn(q)[0], q.roll, q.rerolls)]


def chance(plan: Plan, sheet: SheetLike, objective: Objective, artifacts_dir: str | Path | None = None) -> float:
    """The best probability, from the start of the next turn on ``sheet``, of a final score >= the goal (or of
    beating the score to beat, ties half)."""
    sh = Sheet.parse(sheet, plan.rules)
    needed = objective.target - sh.total
    if sh.finished:
        return 1.0 if needed < 0 or (needed == 0 and objective.kind == "goal") else (0.5 if needed == 0 else 0.0)
    return load_towin(plan.rules, TABLE_OF[objective.kind], artifacts_dir).probability(sh.state, needed)
