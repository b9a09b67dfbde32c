"""The exact law of the final score of a Yahtzee game played by a policy (the optimal one by default).

Not a simulation: a pass over the turn-start states, layer by layer over the number of filled boxes, that
carries for every state the probability of every number of points. For each state ``s`` it computes
``D_s[x]`` = P(the points still to be scored from the start of the turn at ``s`` equal ``x``), from the
states one box later::

    D_s[x] = sum over turn outcomes o of P(o | s) * D_next(o)[x - reward(o)]

where a turn outcome is the box chosen and its points (the dice under the policy's rerolls give the law of
the final roll; the policy's box gives the outcome of each roll). The law of the final score is
``D_start``. Each state is written by one thread from read-only next-layer data (no write races), only two
layers of laws are held at once (memory bounded: ~0.3 GiB for the largest layer of ``scandinavian``), and
each state's law is stored only over 0..(most points its open boxes can still give).

Scores are REAL scores: the upper bonus is paid when earned also for ``seed`` (whose policy ignores it),
and every Yahtzee bonus. States are merged where the real game's future does not depend on the merged
field (``lookup.yahtzee.states``, with the real upper bonus), so the law of a merged row is that of each of
its states. The same pass gives P(upper bonus earned).

Why numba: the pass visits ~1e6 states with 252 rolls and a few hundred points each (~1e10 operations).
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass, field

import numpy as np

from lookup.yahtzee.rules import UPPER, Rules, get_rules, kernel_params, scoring_tables
from lookup.yahtzee.states import state_space
from pipeline.jit import njit, run_chunks
from pipeline.yahtzee import kernels
from pipeline.yahtzee.solver import kernel_tables

__all__ = ["ScoreLaw", "score_distribution", "real_rules", "remaining_bounds"]


def real_rules(rules: Rules) -> Rules:
    """``rules`` with the upper bonus in the optimisation: the state space that tracks the real game."""
    return rules if rules.bonus_in_optimisation else dataclasses.replace(rules, bonus_in_optimisation=True)


def remaining_bounds(rules: Rules, row_mask: np.ndarray, row_upper: np.ndarray, row_ybox: np.ndarray) -> np.ndarray:
    """Most points (an upper bound, int64) still to be scored from each turn-start state of a real game.

    The sum of the best score of each open box (Joker values included), the upper bonus while the open
    upper boxes can still lift the upper total to the threshold, and one Yahtzee bonus per open box while
    the Yahtzee box holds 50 (one fewer while it is open: the Yahtzee that fills it earns none).
    """
    st = scoring_tables(rules)
    best = np.maximum(st.score.max(axis=0), st.joker_score.max(axis=0)).astype(np.int64)
    n = rules.n_boxes
    open_bits = ((~row_mask[:, None]) >> np.arange(n)[None, :]) & 1
    out = open_bits @ best
    reach = row_upper + rules.n_dice * (open_bits[:, :UPPER] @ np.arange(1, UPPER + 1))
    out += np.where((row_upper < rules.upper_threshold) & (reach >= rules.upper_threshold), rules.upper_bonus, 0)
    if rules.yahtzee_bonus:
        n_open = open_bits.sum(axis=1)
        yahtzee_open = open_bits[:, rules.yahtzee_index] == 1
        bonuses = np.where(row_ybox == 1, n_open, np.where(yahtzee_open, np.maximum(n_open - 1, 0), 0))
        out += rules.yahtzee_bonus * bonuses
    return out


@njit(cache=True, inline="always")
def _final_roll_law(prow, reroll, roll_prob, keep_of_mask, add_die, roll_offset, km):
    """Leaves in ``km[roll_offset + r]`` the probability that the turn's final roll is ``r`` when the
    rerolls of policy row ``prow`` are played (forward through the keep tree: a keep of m dice becomes
    each keep of m + 1 dice with probability 1 / n_faces per face)."""
    n_keeps = add_die.shape[0]
    n_faces = add_die.shape[1]
    inv = 1.0 / n_faces
    n_rolls = roll_prob.shape[0]
    for k in range(n_keeps):
        km[k] = 0.0
    for r in range(n_rolls):
        km[roll_offset + r] = roll_prob[r]
    for j in range(1, -1, -1):  # j = rerolls left - 1: first the decision after the first roll
        for k in range(roll_offset):
            km[k] = 0.0
        for r in range(n_rolls):
            p = km[roll_offset + r]
            km[roll_offset + r] = 0.0
            km[keep_of_mask[r, reroll[prow, j, r]]] += p
        for k in range(roll_offset):  # keeps are numbered by size: a keep's mass is complete when reached
            p = km[k]
            if p != 0.0:
                p *= inv
                for f in range(n_faces):
                    km[add_die[k, f]] += p


@njit(cache=True, nogil=True)
def law_layer(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, policy_row, reroll, category, state_index,
              score_t, joker_score, yface, params, add_die, roll_offset, roll_prob, keep_of_mask, n_points,
              width, offset, law, next_law, p_bonus, errors):
    """Laws of the remaining points of rows lo..hi-1 (one layer) into ``law``, from the next layer's.

    Row i's law is ``law[offset[i]:offset[i] + width[i]]`` (points 0..width[i]-1), the next layer's in
    ``next_law`` at its rows' offsets. ``p_bonus[i]``: probability the upper bonus is earned from row i on.
    ``params`` are ``rules.kernel_params(real_bonus=True)``; ``n_points`` exceeds every box score.
    ``errors[i]`` = 1 if a law did not fit its width (a wrong bound: the caller raises).
    """
    joker_code, thr, ubonus, ybonus = params[0], params[1], params[2], params[3]
    n_boxes, yidx = params[5], params[6]
    all_filled = (1 << n_boxes) - 1
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    km = np.empty(n_keeps)
    tab = np.zeros((n_boxes, 2 * n_points))  # P(box c scores pts, five alike or not)
    touched = np.empty(n_rolls, dtype=np.int64)
    for i in range(lo + start, lo + stop):
        mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
        prow = policy_row[i]
        _final_roll_law(prow, reroll, roll_prob, keep_of_mask, add_die, roll_offset, km)
        n_touched = 0
        for r in range(n_rolls):
            q = km[roll_offset + r]
            if q == 0.0:
                continue
            c = np.int64(category[prow, r])
            f = yface[r]
            allowed, use_joker = kernels.scoring_options(joker_code, mask, f, all_filled, yidx, params[7])
            if c >= n_boxes or (allowed >> c) & 1 == 0:
                errors[i] = 2
                continue
            pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
            key = pts + (n_points if f >= 0 else 0)
            if tab[c, key] == 0.0:
                touched[n_touched] = c * 2 * n_points + key
                n_touched += 1
            tab[c, key] += q
        dst = law[offset[i]:offset[i] + width[i]]
        dst[:] = 0.0
        pb = 0.0
        for t in range(n_touched):
            c = touched[t] // (2 * n_points)
            key = touched[t] % (2 * n_points)
            p = tab[c, key]
            tab[c, key] = 0.0
            yr = 1 if key >= n_points else 0
            pts = key - n_points * yr
            rew, nu, ny = kernels.box_outcome(c, pts, upper, ybox, yr, thr, ubonus, ybonus, yidx)
            nxt = state_index[mask | (1 << c), nu, ny]
            if c < UPPER and upper < thr <= nu:
                pb += p
            pb += p * p_bonus[nxt]
            wn = width[nxt]
            if rew + wn > width[i]:
                errors[i] = 1
                continue
            src = next_law[offset[nxt]:offset[nxt] + wn]
            for x in range(wn):
                dst[rew + x] += p * src[x]
        p_bonus[i] = pb


@dataclass(frozen=True)
class ScoreLaw:
    """The law of the final score: ``pmf[x]`` = P(final score = x points), x = 0..len(pmf)-1.

    ``p_upper_bonus``: probability that the upper bonus is earned. ``timings``: seconds (not stored).
    """

    rules: Rules
    pmf: np.ndarray
    p_upper_bonus: float
    peak_bytes: int
    timings: dict[str, float] = field(default_factory=dict)


def score_distribution(rules: Rules | str, state_index: np.ndarray, reroll: np.ndarray,
                       category: np.ndarray) -> ScoreLaw:
    """The exact law of the real final score when the policy tables (``state_index``, ``reroll``,
    ``category`` of ``pipeline.yahtzee.solver.Solution``) are played from the start of a game."""
    rules = get_rules(rules)
    t0 = time.perf_counter()
    real = real_rules(rules)
    space = state_space(real)
    kt = kernel_tables(rules)
    params = np.array(kernel_params(rules, real_bonus=True), dtype=np.int64)
    policy_row = np.ascontiguousarray(
        np.asarray(state_index)[space.row_mask, space.row_upper, space.row_ybox].astype(np.int64))
    if (policy_row < 0).any():
        raise ValueError("the policy tables do not cover every reachable state")
    real_index = np.ascontiguousarray(space.state_index)
    width = 1 + remaining_bounds(real, space.row_mask, space.row_upper, space.row_ybox)
    offset = np.zeros(space.n_rows, dtype=np.int64)
    layers = []
    for n_filled in range(rules.n_boxes + 1):
        lo, hi = int(space.layer_ptr[n_filled]), int(space.layer_ptr[n_filled + 1])
        offset[lo:hi] = np.concatenate(([0], np.cumsum(width[lo:hi - 1]))) if hi > lo else []
        layers.append((lo, hi, int(width[lo:hi].sum())))
    n_points = int(max(kt.score_t.max(), kt.joker_score.max())) + 1
    p_bonus = np.zeros(space.n_rows, dtype=np.float64)
    errors = np.zeros(space.n_rows, dtype=np.uint8)
    reroll = np.ascontiguousarray(reroll, dtype=np.uint8)
    category = np.ascontiguousarray(category, dtype=np.uint8)
    lo, hi, size = layers[rules.n_boxes]
    next_law = np.ones(size, dtype=np.float64)  # finished games: nothing more to score
    peak = next_law.nbytes
    t1 = time.perf_counter()
    for n_filled in range(rules.n_boxes - 1, -1, -1):
        lo, hi, size = layers[n_filled]
        law = np.empty(size, dtype=np.float64)
        peak = max(peak, law.nbytes + next_law.nbytes)
        run_chunks(law_layer, hi - lo, kernels._n_chunks(hi - lo), lo, hi, space.row_mask, space.row_upper,
                   space.row_ybox, policy_row, reroll, category, real_index, kt.score_t, kt.joker_score, kt.yface,
                   params, kt.add_die, kt.roll_offset, kt.roll_prob, kt.keep_of_mask, n_points, width, offset, law,
                   next_law, p_bonus, errors)
        if errors[lo:hi].any():
            bad = lo + int(np.flatnonzero(errors[lo:hi])[0])
            what = ("a box the rules do not allow" if errors[bad] == 2 else "more points than its bound")
            raise ValueError(f"state (mask {space.row_mask[bad]}, upper {space.row_upper[bad]}, ybox "
                             f"{space.row_ybox[bad]}): the policy gives {what}")
        next_law = law
    pmf = next_law[: width[0]].copy()
    return ScoreLaw(rules=rules, pmf=pmf, p_upper_bonus=float(p_bonus[0]), peak_bytes=int(peak),
                    timings={"setup_s": t1 - t0, "pass_s": time.perf_counter() - t1})
