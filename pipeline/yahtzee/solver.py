"""Exact optimal solitaire Yahtzee: value table, policy tables and exact statistics.

Tables (``Solution``):

* ``value[filled_mask, upper, ybox]`` float64, shape (2**n_boxes, threshold+1, 2): expected remaining points
  from the start of a turn under optimal play (the upper bonus counts in the turn it is earned, each
  Yahtzee bonus when it is earned); NaN for unreachable states. For ``seed`` the optimisation ignores the
  upper bonus and so do these values.
* ``state_index[filled_mask, upper, ybox]`` int32: policy row of each state, -1 if unreachable. States
  with identical futures share a row (see ``lookup.yahtzee.states``).
* ``reroll[row, j, roll]`` uint8 with ``j = rerolls_left - 1`` (j = 0: one reroll left, i.e. after the
  second roll; j = 1: two rerolls left, after the first roll): the dice to reroll, an n_dice-bit mask over
  the SORTED dice (bit i = the i-th smallest die is rerolled; 0 = keep everything).
* ``category[row, roll]`` uint8: the box to score the final roll in (sheet order 0..12); 255 in rows of
  finished games.

Ties: two options are tied when their values differ by at most ``TIE_EPS`` = 1e-9 points (rounding in
the sums is ~1e-12, far below any real difference). Among tied rerolls the one that rerolls the fewest
dice wins, then the lowest mask; among tied boxes the lowest category index wins. Precisely: the choice
is the first option in that order whose value is >= best - TIE_EPS.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from lookup.yahtzee.rules import Rules, get_rules, kernel_params, scoring_tables
from lookup.yahtzee.states import state_space
from pipeline.jit import run_chunks
from pipeline.yahtzee import kernels

__all__ = ["Solution", "solve", "saved_values", "exact_statistics", "policy_block", "row_values", "TIE_EPS"]

TIE_EPS = kernels.TIE_EPS
Progress = Callable[[int, int], None]


@dataclass
class Solution:
    """The result of :func:`solve`; policy arrays are None unless ``policy=True``."""

    rules: Rules
    value: np.ndarray
    state_index: np.ndarray
    reroll: np.ndarray | None = None
    category: np.ndarray | None = None
    timings: dict[str, float] = field(default_factory=dict)

    @property
    def start_value(self) -> float:
        """Expected total score of a whole game under optimal play (start state)."""
        return float(self.value[0, 0, 0])


@dataclass(frozen=True, eq=False)
class KernelTables:
    """The rules' scoring and dice tables laid out for the numba kernels (also the strategy lab's engine)."""

    score_t: np.ndarray
    joker_score: np.ndarray
    counts_t: np.ndarray
    yroll: np.ndarray
    yface: np.ndarray
    add_die: np.ndarray
    sub_pad: np.ndarray
    size_offset: np.ndarray
    roll_offset: int
    roll_prob: np.ndarray
    keep_of_mask: np.ndarray
    mask_order: np.ndarray


def padded_subkeeps(enc) -> np.ndarray:
    """``[K, n_dice]``: the distinct one-die-smaller sub-keeps of each keep, padded with K (-inf slot)."""
    pad = np.full((enc.n_keeps, enc.n_dice), enc.n_keeps, dtype=np.int64)
    for k in range(enc.n_keeps):
        subs = enc.sub_idx[enc.sub_ptr[k]:enc.sub_ptr[k + 1]]
        pad[k, : len(subs)] = subs
    return pad


def kernel_tables(rules: Rules) -> KernelTables:
    """The kernel tables of ``rules`` (contiguous arrays, ready for the kernels)."""
    enc = rules.encoding
    st = scoring_tables(rules)
    yface = np.ascontiguousarray(st.yahtzee_face)
    yroll = np.array([int(np.flatnonzero(yface == f)[0]) for f in range(enc.n_faces)], dtype=np.int64)
    return KernelTables(
        score_t=np.ascontiguousarray(st.score.T, dtype=np.float64),
        joker_score=np.ascontiguousarray(st.joker_score),
        counts_t=np.ascontiguousarray(enc.roll_counts.T),
        yroll=yroll,
        yface=yface,
        add_die=np.ascontiguousarray(enc.add_die),
        sub_pad=padded_subkeeps(enc),
        size_offset=np.ascontiguousarray(enc.size_offset),
        roll_offset=int(enc.roll_offset),
        roll_prob=np.ascontiguousarray(enc.roll_prob),
        keep_of_mask=np.ascontiguousarray(enc.keep_of_mask),
        mask_order=np.ascontiguousarray(enc.mask_order),
    )


@cache
def reroll_candidates_of(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """``kernels.reroll_candidates`` of ``rules`` (cached): each roll's distinct keeps in the tie order."""
    kt = kernel_tables(rules)
    return kernels.reroll_candidates(kt.keep_of_mask, kt.mask_order)


def _params(rules: Rules, *, real_bonus: bool = False, saved_rolls: bool = False) -> np.ndarray:
    return np.array(kernel_params(rules, real_bonus=real_bonus, saved_rolls=saved_rolls), dtype=np.int64)


def solve(rules: Rules | str = "hasbro", *, policy: bool = False, progress: Progress | None = None) -> Solution:
    """Solve ``rules`` exactly by backward induction over the layers of filled boxes.

    progress(done, total) is called after each layer (total = n_boxes, plus 1 for the policy tables).
    """
    rules = get_rules(rules)
    t0 = time.perf_counter()
    params = _params(rules)  # refuses a rule set that saves rolls: its values are saved_values'
    state_index = np.ascontiguousarray(state_space(rules).state_index)
    total = rules.n_boxes + (1 if policy else 0)
    t1 = time.perf_counter()
    [vrow] = _layer_values(rules, params, total, progress)
    t2 = time.perf_counter()
    value = np.where(state_index >= 0, vrow[np.maximum(state_index, 0)], np.nan)
    sol = Solution(rules=rules, value=value, state_index=state_index,
                   timings={"setup_s": t1 - t0, "values_s": t2 - t1})
    if policy:
        t3 = time.perf_counter()
        sol.reroll, sol.category = _policy(rules, state_space(rules), kernel_tables(rules), params, vrow)
        sol.timings["policy_s"] = time.perf_counter() - t3
        if progress is not None:
            progress(total, total)
    return sol


def saved_values(rules: Rules | str, *, progress: Progress | None = None) -> np.ndarray:
    """``vals[s, row]`` (float64, shape (cap + 1, n_rows)): the expected remaining points from the start of a
    turn in state ``row`` (the rows of ``lookup.yahtzee.states``) holding ``s`` saved rolls, under optimal
    play, for s in 0..``rules.saved_rolls_cap`` (a rule set saving no rolls gives one row: ``solve``'s values).
    The start of a game is ``vals[0, 0]``. progress(done, n_boxes) after each layer."""
    rules = get_rules(rules)
    return _layer_values(rules, _params(rules, saved_rolls=True), rules.n_boxes, progress)


def _layer_values(rules: Rules, params: np.ndarray, total: int, progress: Progress | None) -> np.ndarray:
    """Backward induction over the layers of filled boxes: ``vals[s, row]`` as ``saved_values``'."""
    space, kt = state_space(rules), kernel_tables(rules)
    state_index = np.ascontiguousarray(space.state_index)
    vals = np.zeros((rules.saved_rolls_cap + 1, space.n_rows), dtype=np.float64)  # finished games stay 0
    for done, n_filled in enumerate(range(rules.n_boxes - 1, -1, -1), start=1):
        lo, hi = int(space.layer_ptr[n_filled]), int(space.layer_ptr[n_filled + 1])
        batch_lo, batch_n = _batches(space.row_mask, lo, hi, kernels.BATCH)
        run_chunks(
            kernels.solve_layer_batched, len(batch_lo), kernels._n_chunks(len(batch_lo)), batch_lo, batch_n,
            space.row_mask, space.row_upper, space.row_ybox, vals, state_index, kt.score_t, kt.joker_score,
            kt.counts_t, kt.yroll, params, kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset, kt.roll_prob,
        )
        if progress is not None:
            progress(done, total)
    return vals


def _batches(row_mask: np.ndarray, lo: int, hi: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """Split rows lo..hi into runs of at most ``size`` consecutive rows sharing a filled mask."""
    idx = np.arange(lo, hi)
    new_mask = np.ones(hi - lo, dtype=bool)
    new_mask[1:] = row_mask[lo + 1:hi] != row_mask[lo:hi - 1]
    group_start = np.maximum.accumulate(np.where(new_mask, idx, lo))
    starts = idx[(idx - group_start) % size == 0]
    return starts.astype(np.int64), np.diff(np.append(starts, hi)).astype(np.int64)


def _policy(rules, space, kt, params, vrow) -> tuple[np.ndarray, np.ndarray]:
    # Finished games take no decision: their rows keep reroll 0 and category 255.
    n_rows, n_rolls = space.n_rows, len(kt.roll_prob)
    reroll = np.zeros((n_rows, 2, n_rolls), dtype=np.uint8)
    category = np.full((n_rows, n_rolls), 255, dtype=np.uint8)
    hi = int(space.layer_ptr[rules.n_boxes])
    reroll[:hi], category[:hi] = policy_block(rules, vrow, 0, hi)
    return reroll, category


def policy_block(rules: Rules | str, vrow: np.ndarray, lo: int, hi: int) -> tuple[np.ndarray, np.ndarray]:
    """The policy tables (``reroll``, ``category``, as :class:`Solution`'s) of rows lo..hi-1 only, indexed
    from 0 = row lo, from ``vrow`` = the value of every row (:func:`row_values`). Rows of unfinished games
    only: a finished game takes no decision."""
    rules = get_rules(rules)
    space, kt = state_space(rules), kernel_tables(rules)
    if not 0 <= lo <= hi <= int(space.layer_ptr[rules.n_boxes]):
        raise ValueError(f"rows {lo}..{hi} are not rows of unfinished games of {rules.name!r}")
    reroll = np.zeros((hi - lo, 2, len(kt.roll_prob)), dtype=np.uint8)
    category = np.full((hi - lo, len(kt.roll_prob)), 255, dtype=np.uint8)
    # The kernel writes row i's decisions at index i and reads the row's own state from the row arrays only
    # (the next states through state_index and vrow, whole): given the block's slice of the row arrays it
    # fills block-sized tables.
    run_chunks(
        kernels.build_policy, hi - lo, kernels._n_chunks(hi - lo), 0, hi - lo, space.row_mask[lo:hi],
        space.row_upper[lo:hi], space.row_ybox[lo:hi], np.ascontiguousarray(vrow, dtype=np.float64),
        np.ascontiguousarray(space.state_index), kt.score_t, kt.joker_score, kt.counts_t, kt.yroll, kt.yface,
        _params(rules), kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset, kt.roll_prob, kt.keep_of_mask,
        kt.mask_order, reroll, category,
    )
    return reroll, category


def row_values(solution: Solution) -> np.ndarray:
    """``solution``'s values by state row (``vrow[row]``, the rows of ``lookup.yahtzee.states``)."""
    space = state_space(solution.rules)
    return np.ascontiguousarray(solution.value[space.row_mask, space.row_upper, space.row_ybox])


def exact_statistics(rules: Rules | str, solution: Solution | None = None) -> dict[str, float]:
    """Exact moments of the final score of one game played by ``solution``'s policy (no simulation).

    Returns mean and std of the real final score (the real upper bonus always counts, also for
    ``seed`` whose policy ignores it), ``p_upper_bonus`` (probability the upper bonus is earned) and
    ``p_yahtzee_50`` (probability the Yahtzee box ends holding 50). Computed by backward policy
    evaluation over every reachable state (second moment via E[(R + X')^2] = R^2 + 2 R E[X'] + E[X'^2]).
    The policy tables are built if ``solution`` lacks them.
    """
    rules = get_rules(rules)
    if solution is None or solution.reroll is None:
        solution = solve(rules, policy=True)
    full = state_space(rules, merge=False)
    kt = kernel_tables(rules)
    params = _params(rules, real_bonus=True)
    full_index = np.ascontiguousarray(full.state_index)
    policy_row = np.ascontiguousarray(
        solution.state_index[full.row_mask, full.row_upper, full.row_ybox].astype(np.int64)
    )
    moments = np.zeros((full.n_rows, 4), dtype=np.float64)
    for n_filled in range(rules.n_boxes - 1, -1, -1):
        lo, hi = int(full.layer_ptr[n_filled]), int(full.layer_ptr[n_filled + 1])
        run_chunks(
            kernels.evaluate_layer, hi - lo, kernels._n_chunks(hi - lo), lo, hi, full.row_mask, full.row_upper,
            full.row_ybox, policy_row, solution.reroll, solution.category, moments, full_index, kt.score_t,
            kt.joker_score, kt.counts_t, kt.yface, params, kt.add_die, kt.roll_offset, kt.roll_prob, kt.keep_of_mask,
        )
    m1, m2, pb, py = (float(x) for x in moments[0])
    return {
        "mean": m1,
        "std": math.sqrt(max(0.0, m2 - m1 * m1)),
        "p_upper_bonus": pb,
        "p_yahtzee_50": py,
    }
