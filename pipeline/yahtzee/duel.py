"""Two-player forced-order Yatzy played to win: backward induction over the joint states, and the
headline numbers.

The joint states and their layout are ``lookup.yahtzee.duel_states`` (one definition, read by play as well);
the turns are ``pipeline.yahtzee.duel_kernels`` (numba). Layers are solved from the finished game back to
the first turn; a layer reads only the next one. Each layer's arrays, for every joint state at the start
of the mover's turn:

* ``value[a, b, d + low]``: seat 0's P(win) + P(tie) / 2 under optimal play of both (seat 1's is 1 - it);
* ``tie[a, b, d + low]``: P(tie) under that play (the kernel's tie rule among exactly equal keeps);

a, b: positions of seat 0's and seat 1's canonical upper totals in ``layout.reach``; d = seat 0's total
minus seat 1's. From them: P(seat 0 wins) = value - tie / 2, P(seat 1 wins) = 1 - value - tie / 2.

A ``policy`` (the single-player expected-score policy, ``pipeline.yahtzee.solver``) replaces the
maximisation for the seats in ``fixed_seats``: both seats give the exact Markov chain of two expected-score
players; one seat gives the other's best response to an expected-score player (the value is still seat 0's
P(win) + P(tie) / 2; the responding seat maximises its own).

Precision: float64 means and maxima of probabilities (no subtraction in the tree, so rounding is relative,
~1e-16 per operation); the reduced games of the tests agree with exact rationals within their 1e-12
tolerance. Where two keeps' probabilities differ by less than the rounding, float64 cannot order them:
decide() (``lookup.yahtzee.duel``) treats options within a relative 4 eps as tied.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from lookup.yahtzee.duel_states import DuelLayout, duel_layout
from lookup.yahtzee.rules import Rules, get_rules
from lookup.yahtzee.states import state_space
from pipeline.jit import run_chunks
from pipeline.yahtzee import duel_kernels, kernels
from pipeline.yahtzee.solver import kernel_tables

__all__ = ["DuelSolution", "solve_duel", "headline", "expected_score_duel", "iid_outcomes"]


@dataclass
class DuelSolution:
    """Every layer's ``value`` and ``tie`` arrays (``values[L]``, ``ties[L]``; see the module docstring)."""

    layout: DuelLayout
    values: list[np.ndarray]
    ties: list[np.ndarray]
    seconds: float = 0.0
    timings: dict[str, float] = field(default_factory=dict)

    def start(self) -> tuple[float, float, float]:
        """(P(seat 0 wins), P(tie), P(seat 1 wins)) from the start of the game."""
        lay = self.layout
        v = float(self.values[0][0, 0, lay.low[0]])
        t = float(self.ties[0][0, 0, lay.low[0]])
        return v - t / 2, t, 1.0 - v - t / 2

    def n_states(self) -> int:
        """Joint turn-start states stored (every layer, every pair of upper totals, every difference)."""
        return int(sum(v.size for v in self.values))


def terminal(lay: DuelLayout) -> tuple[np.ndarray, np.ndarray]:
    """The finished game: seat 0 scores 1 ahead, 1/2 level (one of two tied winners), 0 behind."""
    shape = lay.shape(lay.n_layers - 1)
    d = np.arange(shape[-1]) - lay.low[-1]
    value = np.broadcast_to(np.where(d > 0, 1.0, np.where(d == 0, 0.5, 0.0)), shape).copy()
    tie = np.broadcast_to((d == 0).astype(np.float64), shape).copy()
    return value, tie


def _steps(lay: DuelLayout, i: int) -> tuple[np.ndarray, np.ndarray]:
    """next_u[u, q], reward[u, q] of box position i for a seat with upper index u (positions in reach[i])."""
    reach = lay.reach[i]
    pts = lay.points[i]
    next_u = np.zeros((len(reach), len(pts)), dtype=np.int64)
    reward = np.zeros((len(reach), len(pts)), dtype=np.int64)
    for a, u in enumerate(reach):
        for q, p in enumerate(pts):
            rew, nu = lay.score_step(i, u, int(p))
            reward[a, q] = rew
            next_u[a, q] = lay.u_index[i + 1][nu]
    if (next_u < 0).any():
        raise AssertionError("a next upper total outside the reachable set (layout bug)")
    return next_u, reward


def _policy_rows(lay: DuelLayout, i: int, policy_index: np.ndarray) -> np.ndarray:
    """The single-player policy row of a seat about to score box position i, for each upper index."""
    mask = sum(1 << c for c in lay.boxes[:i])
    rows = np.array([int(policy_index[mask, u, 0]) for u in lay.reach[i]], dtype=np.int64)
    if (rows < 0).any():
        raise ValueError("the policy tables do not cover every reachable state")
    return rows


def solve_duel(rules: Rules | str = "scandinavian+forced", boxes: tuple[int, ...] | None = None,
               policy: tuple[np.ndarray, np.ndarray] | None = None,
               fixed_seats: tuple[int, ...] = (0, 1)) -> DuelSolution:
    """Solve the 2-player game of ``rules`` on ``boxes`` (sheet indices in play order; default: every
    box). ``policy`` = (state_index, reroll) of the single-player policy tables (``solver.solve(...,
    policy=True)``): the seats in ``fixed_seats`` play it instead of playing to win (the whole sheet only)."""
    rules = get_rules(rules)
    fixed = policy is not None
    if fixed and (not fixed_seats or not set(fixed_seats) <= {0, 1}):
        raise ValueError(f"fixed_seats must name seats among 0 and 1, not {fixed_seats!r}")
    if fixed and boxes is not None and tuple(boxes) != tuple(range(rules.n_boxes)):
        raise ValueError("a fixed single-player policy is defined on the whole sheet only")
    lay = duel_layout(rules, None if boxes is None else tuple(boxes), 2, merge_decided=not fixed)
    kt = kernel_tables(rules)
    t0 = time.perf_counter()
    values: list[np.ndarray] = [np.empty(0)] * lay.n_layers
    ties: list[np.ndarray] = [np.empty(0)] * lay.n_layers
    values[-1], ties[-1] = terminal(lay)
    reroll = np.ascontiguousarray(policy[1], dtype=np.int64) if fixed else np.zeros((1, 2, 1), dtype=np.int64)
    if fixed:
        policy_index = np.asarray(policy[0])
        if policy_index.shape != state_space(rules).state_index.shape:
            raise ValueError("the policy's state_index does not match the rule set's state space")
    for layer in range(lay.n_layers - 2, -1, -1):
        i, mover = lay.position(layer)
        next_u, reward = _steps(lay, i)
        # numba does not check bounds: every shifted read must stay on the next layer's difference axis.
        shifts = reward if mover == 0 else -reward
        base = lay.low[layer + 1] - lay.low[layer] + shifts
        if base.min() < 0 or base.max() + lay.shape(layer)[-1] > lay.shape(layer + 1)[-1]:
            raise AssertionError(f"layer {layer}: a score difference off the next layer's axis (layout bug)")
        prow = _policy_rows(lay, i, policy_index) if fixed else np.zeros(1, dtype=np.int64)
        shape = lay.shape(layer)
        out_v = np.empty(shape, dtype=np.float64)
        out_t = np.empty(shape, dtype=np.float64)
        run_chunks(duel_kernels.solve_layer, shape[0] * shape[1], kernels._n_chunks(shape[0] * shape[1]), mover,
                   lay.low[layer], values[layer + 1], ties[layer + 1], lay.low[layer + 1], next_u, reward,
                   np.ascontiguousarray(lay.point_of_roll[i]), out_v, out_t, kt.add_die, kt.sub_pad, kt.size_offset,
                   kt.roll_offset, kt.keep_of_mask, int(fixed and mover in fixed_seats), prow, reroll)
        values[layer], ties[layer] = out_v, out_t
    return DuelSolution(lay, values, ties, time.perf_counter() - t0)


def iid_outcomes(pmf: np.ndarray) -> tuple[float, float, float]:
    """(P(first wins), P(tie), P(second wins)) when both final scores are independent draws from ``pmf``
    (two players whose policies ignore each other): sum over a > b of pmf[a] pmf[b], sum of pmf^2."""
    pmf = np.asarray(pmf, dtype=np.float64)
    below = np.concatenate(([0.0], np.cumsum(pmf)[:-1]))  # P(score < a)
    win = float(np.dot(pmf, below))
    tie = float(np.dot(pmf, pmf))
    return win, tie, win


def expected_score_duel(rules: Rules | str = "scandinavian+forced") -> dict[str, Any]:
    """Both seats play the single-player expected-score policy: the joint Markov chain (``solve_duel``
    with the policy fixed) and, as a check, the same numbers from the exact law of one player's score."""
    from pipeline.yahtzee.distribution import score_distribution
    from pipeline.yahtzee.solver import solve

    rules = get_rules(rules)
    sol = solve(rules, policy=True)
    policy = (sol.state_index, sol.reroll)
    chain = solve_duel(rules, policy=policy)
    law = score_distribution(rules, sol.state_index, sol.reroll, sol.category)
    # Best responses: one seat plays to win against an expected-score player in the other seat.
    first_responds = solve_duel(rules, policy=policy, fixed_seats=(1,)).start()
    second_responds = solve_duel(rules, policy=policy, fixed_seats=(0,)).start()
    return {"chain": chain.start(), "iid": iid_outcomes(law.pmf), "seconds": chain.seconds,
            "first_responds": first_responds, "second_responds": second_responds}


def headline(rules: Rules | str = "scandinavian+forced") -> dict[str, Any]:
    """The optimal 2-player game's outcome probabilities and the expected-score pair's, with timings."""
    opt = solve_duel(rules)
    first, tie, second = opt.start()
    es = expected_score_duel(rules)
    return {"optimal": {"first": first, "tie": tie, "second": second, "edge": first - second,
                        "seconds": opt.seconds, "states": opt.n_states()},
            "expected_score": {"first": es["chain"][0], "tie": es["chain"][1], "second": es["chain"][2],
                               "iid": list(es["iid"]), "seconds": es["seconds"]},
            "first_plays_to_win_against_expected_score": list(es["first_responds"]),
            "second_plays_to_win_against_expected_score": list(es["second_responds"])}
