"""Forced-order Yatzy among P players (2 or 3), each playing to win: backward induction over the joint states,
and the headline numbers.

The states and their layout are ``lookup.yahtzee.party_states`` (one definition, read by play as well); the
turns are ``pipeline.yahtzee.party_kernels`` (numba). Layers are solved from the finished game back to the
first turn; a layer reads only the next one. Each layer is an array ``P[k, *state]``: the probability of
outcome k (a winner set, ``outcome_names``) from the start of the mover's turn, when every player maximises
their own share of the game (1 for a sole winner, 1/m for each of m tied winners). Among options of equal
share for the mover (up to float64 rounding, ``PROBABILITY_TIE_REL``) the mover plays the larger keep
(``party_kernels``): with three players that choice changes the others' chances, so the rule is part of
the game's definition.

A ``policy`` (the single-player expected-score policy, ``pipeline.yahtzee.solver``) replaces the
maximisation for the seats in ``fixed_seats``: all seats give the exact Markov chain of expected-score
players (whose final scores are then independent: checked against the exact law of one score).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from lookup.yahtzee.party_states import PartyLayout, outcome_names, party_layout, share_weights
from lookup.yahtzee.rules import UPPER, Rules, get_rules
from lookup.yahtzee.states import state_space
from lookup.yahtzee.turn import PROBABILITY_TIE_REL
from pipeline.jit import run_chunks
from pipeline.yahtzee import kernels, party_kernels
from pipeline.yahtzee.solver import kernel_tables

__all__ = ["PartySolution", "solve_party", "iid_party", "against_expected_score"]


@dataclass
class PartySolution:
    """Every layer's outcome probabilities ``layers[L][k, *state]`` (module docstring)."""

    layout: PartyLayout
    layers: list[np.ndarray]
    seconds: float = 0.0

    def start(self) -> dict[str, float]:
        """P(outcome) from the start of the game, by outcome name (``win_0``, ``tie_01``, ...)."""
        first = self.layers[0].reshape(self.layout.n_outcomes, -1)[:, 0]
        return dict(zip(outcome_names(self.layout.players), (float(p) for p in first), strict=True))

    def shares(self) -> list[float]:
        """Each seat's expected share of the game from the start (sole win 1, m tied winners 1/m each)."""
        first = self.layers[0].reshape(self.layout.n_outcomes, -1)[:, 0]
        return [float(w @ first) for w in share_weights(self.layout.players)]

    def n_states(self) -> int:
        return int(sum(a[0].size for a in self.layers))


def terminal(lay: PartyLayout) -> np.ndarray:
    """The finished game (score differences): outcome = the set of seats with the highest total, surely."""
    last = lay.n_layers - 1
    shape = lay.shape(last)
    coords = np.indices(shape)
    totals = [np.zeros(shape, dtype=np.int64)] + [-(coords[j] - lo) for j, lo in enumerate(lay.low(last))]
    best = np.maximum.reduce(totals)
    mask = sum((t == best).astype(np.int64) << j for j, t in enumerate(totals))
    out = np.zeros((lay.n_outcomes, *shape))
    for k in range(lay.n_outcomes):
        out[k] = mask == k + 1
    return out


def _raw_from_differences(lay: PartyLayout, first_lower: np.ndarray) -> np.ndarray:
    """The first lower-section layer re-indexed by raw upper totals (the last upper turn reads it so):
    entry [k, u_0, ..., u_{P-1}] = first_lower[k, T(u_0) - T(u_1) + low_1, ...]. A copy, no arithmetic."""
    layer = lay.players * lay.n_upper
    n = lay.max_raw[lay.n_upper] + 1
    t = np.array([lay.total_of_raw(u) for u in range(n)])
    u = np.indices((n,) * lay.players)
    idx = tuple(t[u[0]] - t[u[j]] + lo for j, lo in zip(range(1, lay.players), lay.low(layer), strict=True))
    return first_lower[(slice(None), *idx)]


def _moves(lay: PartyLayout, layer: int, next_shape: tuple[int, ...], next_low: tuple[int, ...] | None
           ) -> tuple[np.ndarray, np.ndarray]:
    """nrow[row, q], ncol[row, q]: where scoring the box's q-th possible points leads (``party_kernels``)."""
    i, s = lay.position(layer)
    shape = lay.shape(layer)
    pts = lay.points[i]
    # Coordinates of each row (every axis but the last; one row when there is no other axis).
    rows = np.indices(shape[:-1]).reshape(len(shape) - 1, -1) if len(shape) > 1 else np.zeros((0, 1), np.int64)
    nrow = np.empty((rows.shape[1], len(pts)), dtype=np.int64)
    ncol = np.empty_like(nrow)
    for q, p in enumerate(pts):
        if lay.is_raw(layer):  # the mover's raw upper total grows by the points
            delta = [int(p) if j == s else 0 for j in range(lay.players)]
            offset = [0] * lay.players
        else:  # the score differences d_j = t_0 - t_j move by the points
            delta = [int(p) if s == 0 else (-int(p) if j == s else 0) for j in range(1, lay.players)]
            offset = [nlo - lo for lo, nlo in zip(lay.low(layer), next_low, strict=True)]
        shift = [d + o for d, o in zip(delta, offset, strict=True)]
        nxt = rows + np.array(shift[:-1], dtype=np.int64)[:, None]
        if (nxt < 0).any() or (nxt >= np.array(next_shape[:-1])[:, None]).any():
            raise AssertionError(f"layer {layer}: a move off the next layer's axes (layout bug)")
        nrow[:, q] = np.ravel_multi_index(tuple(nxt), next_shape[:-1]) if len(shape) > 1 else 0
        ncol[:, q] = shift[-1]
        if shift[-1] < 0 or shift[-1] + shape[-1] > next_shape[-1]:
            raise AssertionError(f"layer {layer}: a move off the next layer's last axis (layout bug)")
    return nrow, ncol


def _policy_upper(lay: PartyLayout, upper: int, filled: int) -> int:
    """The upper total of the single-player policy row of a seat with raw upper total ``upper`` after ``filled``
    boxes: the threshold once reached; 0 once the bonus is out of reach (the row ``lookup.yahtzee.states`` gives
    such states); else the total itself."""
    r = lay.rules
    if upper >= r.upper_threshold:
        return r.upper_threshold
    room = sum(r.n_dice * (c + 1) for c in lay.boxes[filled:] if c < UPPER)
    return 0 if upper + room < r.upper_threshold or r.upper_bonus == 0 else upper


def _policy_rows(lay: PartyLayout, layer: int, policy_index: np.ndarray, reroll: np.ndarray) -> np.ndarray:
    """prow[row, x]: the single-player policy row of the mover (its filled boxes and canonical upper total)."""
    i, s = lay.position(layer)
    rules = lay.rules
    thr = rules.upper_threshold
    mask = sum(1 << c for c in lay.boxes[:i])
    shape = lay.shape(layer)
    if not lay.is_raw(layer):
        # Every bonus is decided: a reached one (upper = threshold) and a missed one (played as upper 0 by
        # lookup.yahtzee.states) have the same future, and must have the same policy for this to be exact.
        reached, missed = int(policy_index[mask, thr, 0]), int(policy_index[mask, 0, 0])
        if not np.array_equal(reroll[reached], reroll[missed]):
            raise ValueError("the single-player policy differs between a reached and a missed bonus")
        return np.full((int(np.prod(shape[:-1])), shape[-1]), reached, dtype=np.int64)
    canon_of = np.array([_policy_upper(lay, u, i) for u in range(shape[s])], dtype=np.int64)
    u = np.indices(shape)[s].reshape(-1, shape[-1])
    rows = policy_index[mask, canon_of[u], 0].astype(np.int64)
    if (rows < 0).any():
        raise ValueError("the policy tables do not cover every reachable state")
    return rows


def solve_party(rules: Rules | str = "scandinavian+forced", boxes: tuple[int, ...] | None = None,
                players: int = 3, policy: tuple[np.ndarray, np.ndarray] | None = None,
                fixed_seats: tuple[int, ...] = ()) -> PartySolution:
    """Solve the ``players``-player game of ``rules`` on ``boxes`` (sheet indices in play order; default every
    box). ``policy`` = (state_index, reroll) of the single-player policy tables (``solver.solve(...,
    policy=True)``): the seats in ``fixed_seats`` play it instead of playing to win (the whole sheet only)."""
    rules = get_rules(rules)
    lay = party_layout(rules, None if boxes is None else tuple(boxes), players)
    if fixed_seats and (policy is None or not set(fixed_seats) <= set(range(players))):
        raise ValueError(f"fixed_seats must name seats among 0..{players - 1}, with a policy, not {fixed_seats!r}")
    if policy is not None and lay.boxes != tuple(range(rules.n_boxes)):
        raise ValueError("a fixed single-player policy is defined on the whole sheet only")
    reroll = np.zeros((1, 2, 1), dtype=np.int64)
    if policy is not None:
        policy_index = np.asarray(policy[0])
        reroll = np.ascontiguousarray(policy[1], dtype=np.int64)
        if policy_index.shape != state_space(rules).state_index.shape:
            raise ValueError("the policy's state_index does not match the rule set's state space")
    kt = kernel_tables(rules)
    weights = share_weights(players)
    t0 = time.perf_counter()
    layers: list[np.ndarray] = [np.empty(0)] * lay.n_layers
    layers[-1] = terminal(lay)
    for layer in range(lay.n_layers - 2, -1, -1):
        i, mover = lay.position(layer)
        nxt = layers[layer + 1]
        next_low: tuple[int, ...] | None = None
        if lay.is_raw(layer) and not lay.is_raw(layer + 1):
            nxt = _raw_from_differences(lay, nxt)
        elif not lay.is_raw(layer):
            next_low = lay.low(layer + 1)
        next_shape = nxt.shape[1:]
        nrow, ncol = _moves(lay, layer, next_shape, next_low)
        shape = lay.shape(layer)
        n_rows = int(np.prod(shape[:-1]))
        fixed = mover in fixed_seats
        prow = _policy_rows(lay, layer, policy_index, reroll) if fixed else np.zeros((1, 1), dtype=np.int64)
        out = np.empty((lay.n_outcomes, n_rows, shape[-1]))
        run_chunks(
            party_kernels.solve_layer, n_rows, kernels._n_chunks(n_rows),
            np.ascontiguousarray(nxt.reshape(lay.n_outcomes, -1, next_shape[-1])), nrow, ncol,
            np.ascontiguousarray(lay.point_of_roll[i]), np.ascontiguousarray(weights[mover]),
            out, kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset, kt.keep_of_mask, int(fixed), prow, reroll,
            PROBABILITY_TIE_REL)
        layers[layer] = out.reshape(lay.n_outcomes, *shape)
    return PartySolution(lay, layers, time.perf_counter() - t0)


def iid_party(pmf: np.ndarray, players: int) -> dict[str, float]:
    """P(outcome) when every final score is an independent draw from ``pmf`` (players whose policies ignore
    each other): P(winner set W) = sum over s of pmf[s]^|W| P(score < s)^(players - |W|)."""
    pmf = np.asarray(pmf, dtype=np.float64)
    below = np.concatenate(([0.0], np.cumsum(pmf)[:-1]))
    out = {}
    for name in outcome_names(players):
        m = len(name) - 4
        out[name] = float(np.sum(pmf ** m * below ** (players - m)))
    return out


def against_expected_score(rules: Rules | str = "scandinavian+forced", players: int = 2) -> dict[str, Any]:
    """Seats on the single-player expected-score policy, by exact backward induction: ``chain``, every seat on
    it (a Markov chain); ``iid``, the same outcomes from the exact law of one score (their scores are
    independent: a check); ``responds[j]``, seat j playing to win against the others on it (its best response).
    Each is P(outcome) from the start by outcome name."""
    from pipeline.yahtzee.distribution import score_distribution
    from pipeline.yahtzee.solver import solve

    rules = get_rules(rules)
    sol = solve(rules, policy=True)
    policy = (sol.state_index, sol.reroll)
    seats = tuple(range(players))
    chain = solve_party(rules, None, players, policy=policy, fixed_seats=seats)
    law = score_distribution(rules, sol.state_index, sol.reroll, sol.category)
    responds = [solve_party(rules, None, players, policy=policy, fixed_seats=tuple(k for k in seats if k != j)).start()
                for j in seats]
    return {"chain": chain.start(), "iid": iid_party(law.pmf, players), "responds": responds}
