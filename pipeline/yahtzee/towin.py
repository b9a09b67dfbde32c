"""Play to win: the tables of the best probability of scoring at least t more points (and of beating a
known final score), layer by layer over the turn-start states.

Tables (one vector per turn-start row of ``lookup.yahtzee.states``, rows shared with the value tables):

* ``goal``: ``P[row][t]`` = the maximal probability, over all strategies, of scoring at least t more
  points from the start of a turn in that state, for t = 0..bound[row] (1 for t <= 0, 0 above).
* ``win``: ``P[row][t]`` = the maximal P(score more than t) + P(score exactly t) / 2 (a known opponent's
  final score, ties counting half), for t = 0..bound[row] (1 for t < 0, 0 above).
* ``law``: ``P[row][t]`` = P(scoring at least t more points) under the EXPECTED-SCORE policy (the solver's,
  ties broken as its policy tables break them), not the best probability: the law of the points an
  expected-score player still scores from there (``lookup.yahtzee.headsup``: an opponent's law).

``bound[row]`` is the most points the state can still score (``reach``), capped at ``max_points`` when
params ask for a cap: P(row, t) only reads next states at t' <= t, so the capped table is exact for every
t it holds. The upper bonus counts in the turn it is earned and each Yahtzee bonus when earned, exactly
as in the expected-score solver (same rule helpers, same state rows).

Layers (rows with n filled boxes) are solved from the last to the first; a layer reads only the next
one. ``solve`` keeps everything in memory (tests, small games); ``pipeline.yahtzee.towin_build`` runs the
layers' row blocks as Dask tasks that write the Zarr artifact in place, through :func:`solve_block`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from lookup.yahtzee.rules import Rules, get_rules, kernel_params
from lookup.yahtzee.states import StateSpace, state_space
from pipeline.jit import run_chunks
from pipeline.yahtzee import kernels, solver, towin_kernels
from pipeline.yahtzee.solver import KernelTables, kernel_tables

__all__ = ["OBJECTIVES", "Layout", "layout", "solve_block", "solve", "evaluate", "start_vector"]

# The value of a finished game that needs t = 0 more points: reaching 0 counts whole for ``goal`` and ``law``
# and half (a tie) for ``win``; t < 0 is 1 and t > 0 is 0 for all.
OBJECTIVES = {"goal": 1.0, "win": 0.5, "law": 1.0}


@dataclass(frozen=True, eq=False)
class Layout:
    """The rows of ``rules`` and the stored width of each (read-only arrays).

    reach[row]: the most points the state can still score (int64); bound[row] = min(reach, max_points):
    the last stored t; widths[n]: columns of layer n (= max bound of its rows + 1).
    """

    rules: Rules
    max_points: int | None
    space: StateSpace
    reach: np.ndarray
    bound: np.ndarray
    widths: tuple[int, ...]

    def layer(self, n_filled: int) -> tuple[int, int]:
        """(first row, end row) of the rows with ``n_filled`` filled boxes."""
        return int(self.space.layer_ptr[n_filled]), int(self.space.layer_ptr[n_filled + 1])


def _params(rules: Rules) -> np.ndarray:
    return np.array(kernel_params(rules), dtype=np.int64)


@cache
def layout(rules: Rules | str, max_points: int | None = None) -> Layout:
    """The (cached) layout of ``rules`` with t capped at ``max_points`` (None: every reachable t)."""
    rules = get_rules(rules)
    if max_points is not None and (type(max_points) is not int or max_points < 0):
        raise ValueError(f"max_points must be a non-negative int or None, not {max_points!r}")
    space = state_space(rules)
    kt = kernel_tables(rules)
    reach = np.zeros(space.n_rows, dtype=np.float64)  # exact: sums of small integers
    index = np.ascontiguousarray(space.state_index)
    for n in range(rules.n_boxes - 1, -1, -1):
        lo, hi = int(space.layer_ptr[n]), int(space.layer_ptr[n + 1])
        run_chunks(towin_kernels.max_reach_layer, hi - lo, kernels._n_chunks(hi - lo), lo, hi, space.row_mask,
                   space.row_upper, space.row_ybox, reach, index, kt.score_t, kt.joker_score, kt.counts_t, kt.yroll,
                   _params(rules))
    reach = reach.astype(np.int64)
    bound = reach if max_points is None else np.minimum(reach, max_points)
    widths = tuple(int(bound[space.layer_ptr[n]:space.layer_ptr[n + 1]].max(initial=0)) + 1
                   for n in range(rules.n_boxes + 1))
    for a in (reach, bound):
        a.setflags(write=False)
    return Layout(rules, max_points, space, reach, bound, widths)


def terminal(lay: Layout, objective: str) -> np.ndarray:
    """The finished-game layer: one column, t = 0."""
    lo, hi = lay.layer(lay.rules.n_boxes)
    return np.full((hi - lo, 1), OBJECTIVES[objective], dtype=np.float64)


def solve_block(lay: Layout, n_filled: int, lo: int, hi: int, nxt: np.ndarray,
                policy: tuple[np.ndarray, np.ndarray] | None = None) -> np.ndarray:
    """Vectors of rows lo..hi-1 (all in layer ``n_filled``) from the next layer's array ``nxt``.

    Returns float64 [hi - lo, widths[n_filled]], zero beyond each row's bound. ``policy`` = (reroll,
    category) of a fixed policy for rows lo..hi-1 (index 0 = row lo, ``pipeline.yahtzee.solver.policy_block``)
    evaluates it instead of maximising.
    """
    rules, space = lay.rules, lay.space
    kt: KernelTables = kernel_tables(rules)
    nlo, nhi = lay.layer(n_filled + 1)
    if nxt.shape != (nhi - nlo, lay.widths[n_filled + 1]):
        raise ValueError(f"next layer has shape {nxt.shape}, expected {(nhi - nlo, lay.widths[n_filled + 1])}")
    out = np.zeros((hi - lo, lay.widths[n_filled]), dtype=np.float64)
    nxt = np.ascontiguousarray(nxt, dtype=np.float64)
    nxt_bound = np.ascontiguousarray(lay.bound[nlo:nhi])
    index = np.ascontiguousarray(space.state_index)
    common = (lo, hi, space.row_mask, space.row_upper, space.row_ybox, lay.bound, index, nxt, nlo, nxt_bound,
              out)
    if policy is None:
        run_chunks(towin_kernels.solve_rows, hi - lo, kernels._n_chunks(hi - lo), *common, kt.score_t, kt.joker_score,
                   kt.counts_t, kt.yroll, _params(rules), kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset,
                   kt.roll_prob)
    else:
        reroll, category = (np.ascontiguousarray(a) for a in policy)
        if reroll.shape[0] != hi - lo or category.shape[0] != hi - lo:
            raise ValueError(f"the policy covers {reroll.shape[0]} rows, the block {hi - lo}")
        run_chunks(towin_kernels.evaluate_rows, hi - lo, kernels._n_chunks(hi - lo), *common,
                   np.arange(-lo, space.n_rows - lo, dtype=np.int64), reroll, category, kt.score_t, kt.joker_score,
                   kt.yface, _params(rules), kt.add_die, kt.roll_offset, kt.roll_prob, kt.keep_of_mask)
    return out


def solve(rules: Rules | str, max_points: int | None = None, objective: str = "goal",
          policy: tuple[np.ndarray, np.ndarray] | None = None) -> list[np.ndarray]:
    """Every layer's array in memory: ``[layer 0, ..., layer n_boxes]`` (see :func:`solve_block`); ``policy``
    (whole tables, rows as ``lay.space``) is evaluated instead of the best probability. ``law`` evaluates the
    solver's expected-score policy."""
    if objective not in OBJECTIVES:
        raise ValueError(f"objective must be one of {sorted(OBJECTIVES)}, not {objective!r}")
    lay = layout(get_rules(rules), max_points)
    if objective == "law" and policy is None:
        sol = solver.solve(lay.rules, policy=True)
        policy = (sol.reroll, sol.category)
    layers = [terminal(lay, objective)]
    for n in range(lay.rules.n_boxes - 1, -1, -1):
        lo, hi = lay.layer(n)
        block = None if policy is None else (policy[0][lo:hi], policy[1][lo:hi])
        layers.insert(0, solve_block(lay, n, lo, hi, layers[0], block))
    return layers


def evaluate(rules: Rules | str, reroll: np.ndarray, category: np.ndarray, max_points: int | None = None,
             objective: str = "goal") -> list[np.ndarray]:
    """The exact probability that the fixed policy (``reroll``, ``category``: the expected-score solver's
    policy tables) reaches t, for every row and t, as :func:`solve`'s layers."""
    return solve(rules, max_points, objective, policy=(np.ascontiguousarray(reroll), np.ascontiguousarray(category)))


def start_vector(layers: list[np.ndarray]) -> np.ndarray:
    """The vector of the start of a game (row 0)."""
    return layers[0][0]
