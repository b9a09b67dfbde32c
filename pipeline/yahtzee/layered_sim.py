"""Seeded games of optimal play from a layered value table (Maxi Yatzy), each turn solved from the values.

No policy table exists for a layered rule set, so every turn of every game is solved as the build solves a
state (``pipeline.yahtzee.kernels``: final values, the keep tree, the tie rule) and then played: the same
choices ``lookup.yahtzee.decide`` makes from the same table. Dice come from the strategy lab's counter-based
streams (``pipeline.yahtzee.streams``: game g reads key g, stream 0, one destiny list per turn; first
roll the first n dice, each reroll the next faces in order, one per rerolled die, smallest rerolled die
first), so the games are the same on any number of threads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lookup.yahtzee.play import roll_code_table
from lookup.yahtzee.rules import Rules, get_rules, kernel_params
from lookup.yahtzee.states import state_space
from pipeline.jit import njit, run_chunks
from pipeline.yahtzee import kernels
from pipeline.yahtzee.solver import kernel_tables, reroll_candidates_of
from pipeline.yahtzee.streams import destiny_at, sort_dice, stream_base

__all__ = ["SimulatedGames", "simulate"]


@dataclass(frozen=True)
class SimulatedGames:
    """``scores[g]``: final score of game g (upper bonus included); ``bonus[g]``: 1 if it earned the upper
    bonus; ``yahtzee[g]``: 1 if its Yahtzee (Maxi Yatzy) box holds points. Games ``first .. first + n - 1``
    of ``seed``."""

    rules: str
    seed: int
    first: int
    scores: np.ndarray
    bonus: np.ndarray
    yahtzee: np.ndarray

    def summary(self) -> dict[str, float]:
        """Mean, standard deviation, standard error of the mean, its 95 % interval, median, P(bonus), P(Yahtzee)."""
        n = len(self.scores)
        mean, sd = float(self.scores.mean()), float(self.scores.std(ddof=1))
        se = sd / math.sqrt(n)
        return {"games": n, "mean": mean, "std": sd, "standard_error": se, "ci95": [mean - 1.96 * se, mean + 1.96 * se],
                "median": float(np.median(self.scores)), "p_upper_bonus": float(self.bonus.mean()),
                "p_yahtzee": float(self.yahtzee.mean())}


@njit(cache=True)
def _sorted_roll(dice, codes, n_faces):
    """Sort ``dice`` in place and return its roll index."""
    sort_dice(dice)
    code = 0
    for i in range(dice.shape[0] - 1, -1, -1):
        code = code * n_faces + dice[i]
    return codes[code]


@njit(cache=True)
def turn_buffers(n_keeps, n_rolls, n_boxes, n_dice):
    """The work arrays of one thread's turns: keep values and best-of-sub-keeps with two and one reroll left
    (e, m, e1, m1), the final values' per-box parts (g, w), final values and boxes (v0, category), the turn's
    dice stream and dice (faces, dice)."""
    return (np.empty(n_keeps), np.empty(n_keeps + 1), np.empty(n_keeps), np.empty(n_keeps + 1),
            np.empty((n_boxes, n_dice + 1)), np.empty(n_boxes), np.empty(n_rolls), np.empty(n_rolls, dtype=np.uint8),
            np.empty(3 * n_dice, dtype=np.int64), np.empty(n_dice, dtype=np.int64))


@njit(cache=True)
def keep_tree(e, m, e1, m1, add_die, sub_pad, size_offset, roll_offset, inv_faces):
    """From the final rolls' values in ``e[roll_offset:]``: keep values E and best-of-sub-keeps M with one
    reroll left (into ``e1`` / ``m1``), then with two (``e`` / ``m``)."""
    n_keeps = add_die.shape[0]
    kernels._expect_keeps(e, add_die, roll_offset, inv_faces)
    kernels._max_subkeeps(e, m, sub_pad, size_offset)
    e1[:] = e
    m1[:] = m
    e[roll_offset:] = m[roll_offset:n_keeps]
    kernels._expect_keeps(e, add_die, roll_offset, inv_faces)
    kernels._max_subkeeps(e, m, sub_pad, size_offset)


@njit(cache=True)
def expected_turn(mask, upper, ybox, e, m, e1, m1, g, w, v0, category, vrow, state_index, score_t, joker_score,
                  counts_t, yroll, yface, params, add_die, sub_pad, size_offset, roll_offset, inv_faces):
    """The turn's values as the build computes them (``v0``: final rolls, ``category``: the box of each, then
    ``keep_tree``) for the expected-score policy of the value table ``vrow``."""
    kernels._final_values(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                          counts_t, yroll, params)
    v0[:] = e[roll_offset:]
    kernels._best_categories(mask, upper, ybox, v0, g, w, vrow, state_index, score_t, joker_score, counts_t, yface,
                             params, category)
    keep_tree(e, m, e1, m1, add_die, sub_pad, size_offset, roll_offset, inv_faces)


@njit(cache=True)
def play_turn(base, turn, mask, upper, ybox, e, m, e1, m1, category, faces, dice, codes, cand_keep, cand_mask,
              score_t, joker_score, yface, params, roll_offset, n_faces, rel):
    """Roll the turn's dice (stream ``base``), keep by the turn's values (``keep_tree``), score the final roll
    in ``category[roll]``: returns (box, reward, next upper, next ybox). Ties between keeps: the first in
    expected-score order within ``TIE_EPS`` of the best (``rel`` = 0: expected points) or within ``rel`` times
    the best (probabilities: ``lookup.yahtzee.turn.PROBABILITY_TIE_REL``)."""
    n_dice, n_boxes = params[4], params[5]
    destiny_at(base, turn, faces, 0, 3 * n_dice)
    dice[:] = faces[:n_dice]
    used = n_dice
    r = _sorted_roll(dice, codes, n_faces)
    for left in range(2, 0, -1):
        ee, mm = (e, m) if left == 2 else (e1, m1)
        best = mm[roll_offset + r]
        if rel == 0.0:
            rer = kernels._best_distinct_mask(ee, best, r, cand_keep, cand_mask)
        else:
            rer = cand_mask[r, 0]
            for j in range(cand_keep.shape[1]):
                if best - ee[cand_keep[r, j]] <= rel * best:
                    rer = cand_mask[r, j]
                    break
        for d in range(n_dice):  # die d of the sorted dice, smallest first
            if (rer >> d) & 1:
                dice[d] = faces[used]
                used += 1
        r = _sorted_roll(dice, codes, n_faces)
    c = category[r]
    f = yface[r]
    allowed, use_joker = kernels.scoring_options(params[0], mask, f, (1 << n_boxes) - 1, params[6], params[7])
    pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
    rew, nu, ny = kernels.box_outcome(c, pts, upper, ybox, 1 if f >= 0 else 0, params[1], params[2], params[3],
                                      params[6])
    return c, rew, nu, ny


@njit(cache=True, nogil=True)
def _play(chunk, start, stop, first, seed, vrow, state_index, score_t, joker_score, counts_t, yroll, yface,
          params, add_die, sub_pad,
          size_offset, roll_offset, roll_prob, cand_keep, cand_mask, codes, scores, bonus, yahtzee):
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    n_faces = add_die.shape[1]
    inv_faces = 1.0 / n_faces
    n_dice, n_boxes = params[4], params[5]
    thr = params[1]
    e, m, e1, m1, g, w, v0, category, faces, dice = turn_buffers(n_keeps, n_rolls, n_boxes, n_dice)
    for i in range(start, stop):
        base = stream_base(seed, first + i, 0)
        mask, upper, ybox, total, got_bonus = 0, 0, 0, 0, 0
        for turn in range(n_boxes):
            expected_turn(mask, upper, ybox, e, m, e1, m1, g, w, v0, category, vrow, state_index, score_t,
                          joker_score, counts_t, yroll, yface, params, add_die, sub_pad, size_offset, roll_offset,
                          inv_faces)
            c, rew, nu, ny = play_turn(base, turn, mask, upper, ybox, e, m, e1, m1, category, faces, dice, codes,
                                       cand_keep, cand_mask, score_t, joker_score, yface, params, roll_offset,
                                       n_faces, 0.0)
            if c < kernels.N_UPPER and upper < thr <= nu:
                got_bonus = 1
            total += rew
            mask, upper, ybox = mask | (1 << c), nu, ny
        scores[i] = total
        bonus[i] = got_bonus
        yahtzee[i] = 1 if ybox == 1 else 0


def simulate(rules: Rules | str, vrow: np.ndarray, games: int, seed: int, first: int = 0) -> SimulatedGames:
    """Play games ``first .. first + games - 1`` of ``seed`` by the optimal policy of the value table ``vrow``
    (expected remaining points by row of ``lookup.yahtzee.states``: the layered table's first column)."""
    rules = get_rules(rules)
    space = state_space(rules)
    if vrow.shape != (space.n_rows,):
        raise ValueError(f"vrow has shape {vrow.shape}, the {rules.name!r} rows are ({space.n_rows},)")
    if type(games) is not int or games < 1 or type(seed) is not int or seed < 0 or type(first) is not int or first < 0:
        raise ValueError("games must be a positive int, seed and first non-negative ints")
    kt = kernel_tables(rules)
    cand_keep, cand_mask = reroll_candidates_of(rules)
    scores = np.zeros(games, dtype=np.int64)
    bonus = np.zeros(games, dtype=np.int8)
    yahtzee = np.zeros(games, dtype=np.int8)
    run_chunks(_play, games, kernels._n_chunks(games), first, seed, np.ascontiguousarray(vrow, dtype=np.float64),
               np.ascontiguousarray(space.state_index), kt.score_t, kt.joker_score, kt.counts_t, kt.yroll, kt.yface,
               np.array(kernel_params(rules), dtype=np.int64), kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset,
               kt.roll_prob, cand_keep, cand_mask, roll_code_table(rules), scores, bonus, yahtzee)
    return SimulatedGames(rules.name, seed, first, scores, bonus, yahtzee)
