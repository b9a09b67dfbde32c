"""Seeded heads-up games: the heads-up player (``lookup.yahtzee.headsup``) against an expected-score player.

What playing to win against an expected-score opponent is worth, measured. Game g (games ``first ..``):

* B, the expected-score player, plays its whole game on stream (seed, g, 1); it never looks at its opponent,
  so its game is the same whatever A does, and is played first;
* A plays on stream (seed, g, 0) twice, from the same dice streams (common random numbers): once as the
  heads-up player, who sees B's sheet as the game's turn order shows it (A moves first in even games g,
  second in odd ones: before A's k-th turn (k = 0, 1, ...) B has played k turns, or k + 1), and once as an
  expected-score player.

The expected-score A against B wins with probability exactly 1/2, ties counting half: the two players'
scores are independent and equally distributed. So ``0.5 + mean(win(A heads-up) - win(A expected))`` is an
unbiased estimate of the heads-up player's chance, with the variance of the DIFFERENCE, which is small: most
decisions of the two A's are the same, and so are their dice while they are.

Each turn of the heads-up player is solved as ``lookup.yahtzee.headsup`` solves it (final rolls valued
sum_s P(O = s) W(next, lead + s - reward), the keep tree on those probabilities, ties by lookup's rule for
probabilities: the first option in expected-score order within ``PROBABILITY_TIE_REL`` of the best), in numba:
the win and law tables are held whole in memory, flattened. The sums run in another order than lookup's, so
options whose chances differ by a few units of rounding may be told apart differently.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from lookup.yahtzee.play import roll_code_table
from lookup.yahtzee.rules import Rules, get_rules, kernel_params, scoring_tables
from lookup.yahtzee.states import state_space
from lookup.yahtzee.turn import PROBABILITY_TIE_REL
from pipeline.jit import njit, run_chunks
from pipeline.yahtzee import kernels
from pipeline.yahtzee.layered_sim import expected_turn, keep_tree, play_turn, turn_buffers
from pipeline.yahtzee.solver import kernel_tables, reroll_candidates_of
from pipeline.yahtzee.streams import stream_base

__all__ = ["HeadsUpGames", "FlatTable", "flat_table", "flat_artifact", "simulate", "win_share"]

# Columns of HeadsUpGames.scores.
HEADS_UP, EXPECTED, OPPONENT = 0, 1, 2
REL = PROBABILITY_TIE_REL


@dataclass(frozen=True, eq=False)
class FlatTable:
    """A play-to-win layout table (``win`` or ``law``) in one array: row r's values for t = 0..bound[r] are
    ``values[offset[r]:offset[r] + bound[r] + 1]``."""

    values: np.ndarray
    offset: np.ndarray
    bound: np.ndarray


def flat_table(layers: list[np.ndarray], bound: np.ndarray, layer_ptr: np.ndarray) -> FlatTable:
    """``layers[n]`` (rows of layer n by t, as ``pipeline.yahtzee.towin.solve`` or the artifact's
    ``layer_NN``) flattened; each row keeps its layer's width (zeros past its bound)."""
    sizes = [layer.size for layer in layers]
    starts = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
    offset = np.empty(int(layer_ptr[-1]), dtype=np.int64)
    for n, layer in enumerate(layers):
        lo, hi = int(layer_ptr[n]), int(layer_ptr[n + 1])
        offset[lo:hi] = starts[n] + np.arange(hi - lo, dtype=np.int64) * layer.shape[1]
    values = np.concatenate([np.ascontiguousarray(layer, dtype=np.float64).ravel() for layer in layers])
    return FlatTable(values, offset, np.ascontiguousarray(bound, dtype=np.int64))


def flat_artifact(table: Any) -> FlatTable:
    """A ``lookup.yahtzee.towin.TowinTable`` (opened artifact) read whole (every chunk checked) and flattened."""
    n_layers = len(table.layers)
    layers = [np.asarray(table.layers[n]) for n in range(n_layers)]
    return flat_table(layers, np.asarray(table.bound), np.asarray(table.layer_ptr, dtype=np.int64))


def win(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """1 where x beats y, 1/2 where they tie, 0 else."""
    return (x > y) + 0.5 * (x == y)


@dataclass(frozen=True)
class HeadsUpGames:
    """``scores[g]`` = (A heads-up, A expected-score, B) final scores of game g (``first + g`` of ``seed``);
    A moves first in even games."""

    rules: str
    seed: int
    first: int
    scores: np.ndarray

    def summary(self) -> dict[str, Any]:
        """The heads-up player's share of the games (P(win) + P(tie) / 2) by the difference estimator (module
        docstring) and plainly, with standard errors and 95 % intervals, overall and by seat; the expected-score
        A's share (1/2 exactly in expectation: a check)."""
        first = ((self.first + np.arange(len(self.scores))) % 2) == 0
        out: dict[str, Any] = {"games": len(self.scores)}
        for label, pick in (("all", slice(None)), ("first", first), ("second", ~first)):
            s = self.scores[pick]
            hu, es = win(s[:, HEADS_UP], s[:, OPPONENT]), win(s[:, EXPECTED], s[:, OPPONENT])
            out[label] = {**_estimate("share", 0.5 + (hu - es)), **_estimate("share_plain", hu),
                          **_estimate("expected_score_share", es),
                          "p_win": float((s[:, HEADS_UP] > s[:, OPPONENT]).mean()),
                          "p_tie": float((s[:, HEADS_UP] == s[:, OPPONENT]).mean()),
                          "mean_score_heads_up": float(s[:, HEADS_UP].mean()),
                          "mean_score_expected": float(s[:, EXPECTED].mean()),
                          "changed_games": float((s[:, HEADS_UP] != s[:, EXPECTED]).mean())}
        return out


def _estimate(name: str, x: np.ndarray) -> dict[str, Any]:
    mean, se = float(x.mean()), float(x.std(ddof=1) / math.sqrt(len(x)))
    return {name: mean, f"{name}_standard_error": se, f"{name}_ci95": [mean - 1.96 * se, mean + 1.96 * se]}


def win_share(pmf: np.ndarray, lead: int, row: np.ndarray) -> float:
    """sum over s of pmf[s] W(lead + s), W(t) = ``row[t]`` for 0 <= t < len(row), 1 below, 0 above (the
    kernel's sum, for the tests)."""
    cdf = np.cumsum(pmf)
    return float(_win(pmf, cdf, len(pmf) - 1, lead, np.ascontiguousarray(row, dtype=np.float64), 0, len(row) - 1))


@njit(cache=True, inline="always")
def _win(pmf, cdf, top, u, wflat, off, bnd):
    """sum over s = 0..top of pmf[s] W(u + s), W(t) = wflat[off + t] for t = 0..bnd, 1 below 0, 0 above."""
    p = 0.0
    if u < 0:
        p = cdf[min(-u, top + 1) - 1]
    lo = max(0, -u)
    hi = min(top, bnd - u)
    for s in range(lo, hi + 1):
        p += pmf[s] * wflat[off + u + s]
    return p


@njit(cache=True, inline="always")
def _alike_value(mask, upper, ybox, r, f, c, lead, pmf, cdf, top, wflat, woff, wbound, state_index, score_t,
                 joker_score, params):
    """The heads-up value of scoring n-alike roll ``r`` (face ``f``) in box ``c``; -inf where not allowed."""
    allowed, use_joker = kernels.scoring_options(params[0], mask, f, (1 << params[5]) - 1, params[6], params[7])
    if (allowed >> c) & 1 == 0:
        return -np.inf
    pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
    rew, nu, ny = kernels.box_outcome(c, pts, upper, ybox, 1, params[1], params[2], params[3], params[6])
    j = state_index[mask | (1 << c), nu, ny]
    return _win(pmf, cdf, top, lead - rew, wflat, woff[j], wbound[j])


@njit(cache=True)
def _headsup_final(mask, upper, ybox, lead, pmf, cdf, top, wflat, woff, wbound, v0, category, gu, gl, state_index,
                   score_t, joker_score, counts_t, yface, lpts, lwhich, n_lpts, params):
    """``v0[r]``: the heads-up value of final roll r (its best box's sum_s pmf[s] W(next, lead + s - reward)),
    ``category[r]``: the lowest box tied with it by lookup's rule for probabilities (``PROBABILITY_TIE_REL``).
    One W sum per box and distinct points (upper box: per count of its face, ``gu[c, k]``; lower box: per
    distinct points, ``gl[c, q]``); the n-alike rolls one by one (the Joker rules)."""
    thr, ubonus, ybonus, n_dice, n_boxes = params[1], params[2], params[3], params[4], params[5]
    n_rolls = v0.shape[0]
    usable = kernels._usable_boxes(mask, params)
    for c in range(n_boxes):
        if (usable >> c) & 1 == 0:
            continue
        nmask = mask | (1 << c)
        if c < kernels.N_UPPER:
            for k in range(n_dice + 1):
                rew, nu, ny = kernels.box_outcome(c, (c + 1) * k, upper, ybox, 0, thr, ubonus, ybonus, params[6])
                j = state_index[nmask, nu, ny]
                gu[c, k] = _win(pmf, cdf, top, lead - rew, wflat, woff[j], wbound[j])
        else:
            # Not n alike: the next state does not depend on the points (the Yahtzee box takes 0).
            rew0, nu, ny = kernels.box_outcome(c, 0, upper, ybox, 0, thr, ubonus, ybonus, params[6])
            j = state_index[nmask, nu, ny]
            for q in range(n_lpts[c]):
                gl[c, q] = _win(pmf, cdf, top, lead - rew0 - lpts[c, q], wflat, woff[j], wbound[j])
    for r in range(n_rolls):
        f = yface[r]
        best = -np.inf
        for sweep in range(2):  # the best value, then the lowest box tied with it
            for c in range(n_boxes):
                if (usable >> c) & 1 == 0 and f < 0:
                    continue
                if f >= 0:
                    x = _alike_value(mask, upper, ybox, r, f, c, lead, pmf, cdf, top, wflat, woff, wbound,
                                     state_index, score_t, joker_score, params)
                elif c < kernels.N_UPPER:
                    x = gu[c, counts_t[c, r]]
                else:
                    x = gl[c, lwhich[c, r]]
                if sweep == 0:
                    if x > best:
                        best = x
                elif best - x <= REL * best:
                    category[r] = c
                    break
        v0[r] = best


@njit(cache=True, nogil=True)
def _play(chunk, start, stop, first, seed, vrow, wflat, woff, wbound, lflat, loff, lbound, state_index, score_t,
          joker_score, counts_t,
          yroll, yface, params, add_die, sub_pad, size_offset, roll_offset, roll_prob, cand_keep, cand_mask, codes,
          lpts, lwhich, n_lpts, top_width, out):
    n_keeps = add_die.shape[0]
    n_rolls = roll_prob.shape[0]
    n_faces = add_die.shape[1]
    inv_faces = 1.0 / n_faces
    n_dice, n_boxes = params[4], params[5]
    e, m, e1, m1, g, w, v0, category, faces, dice = turn_buffers(n_keeps, n_rolls, n_boxes, n_dice)
    gu = np.empty((n_boxes, n_dice + 1))
    gl = np.empty((n_boxes, lpts.shape[1]))
    b_row = np.empty(n_boxes + 1, dtype=np.int64)
    b_pts = np.empty(n_boxes + 1, dtype=np.int64)
    pmf = np.empty(top_width)
    cdf = np.empty(top_width)
    for i in range(start, stop):
        game = first + i
        for player in range(3):  # B (expected score, stream 1), A expected score, A heads-up (stream 0)
            base = stream_base(seed, game, 1 if player == 0 else 0)
            mask, upper, ybox, total = 0, 0, 0, 0
            if player == 0:
                b_row[0] = state_index[0, 0, 0]
                b_pts[0] = 0
            for turn in range(n_boxes):
                if player < 2:
                    expected_turn(mask, upper, ybox, e, m, e1, m1, g, w, v0, category, vrow, state_index,
                                  score_t, joker_score, counts_t, yroll, yface, params, add_die, sub_pad,
                                  size_offset, roll_offset, inv_faces)
                else:
                    seen = turn + game % 2  # B's turns played before this one of A's
                    top = 0
                    if seen >= n_boxes:  # B has finished: its final score is known
                        pmf[0] = 1.0
                    else:
                        row = b_row[seen]
                        off, bnd = loff[row], lbound[row]
                        top = bnd
                        for s in range(bnd):
                            pmf[s] = lflat[off + s] - lflat[off + s + 1]
                        pmf[bnd] = lflat[off + bnd]
                    acc = 0.0
                    for s in range(top + 1):
                        acc += pmf[s]
                        cdf[s] = acc
                    _headsup_final(mask, upper, ybox, b_pts[min(seen, n_boxes)] - total, pmf, cdf, top, wflat,
                                   woff, wbound, v0, category, gu, gl, state_index, score_t, joker_score,
                                   counts_t, yface, lpts, lwhich, n_lpts, params)
                    e[roll_offset:] = v0
                    keep_tree(e, m, e1, m1, add_die, sub_pad, size_offset, roll_offset, inv_faces)
                c, rew, nu, ny = play_turn(base, turn, mask, upper, ybox, e, m, e1, m1, category, faces, dice,
                                           codes, cand_keep, cand_mask, score_t, joker_score, yface, params,
                                           roll_offset, n_faces, 0.0 if player < 2 else REL)
                total += rew
                mask, upper, ybox = mask | (1 << c), nu, ny
                if player == 0:
                    b_row[turn + 1] = state_index[mask, upper, ybox]
                    b_pts[turn + 1] = total
            out[i, (OPPONENT, EXPECTED, HEADS_UP)[player]] = total


def lower_points(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each box c: its distinct points over every roll (``points[c, :count[c]]``) and each roll's index
    among them (``which[c, r]``): the heads-up final values are computed once per distinct points."""
    st = scoring_tables(rules)
    n_boxes, n_rolls = rules.n_boxes, st.score.shape[0]
    distinct = [np.unique(st.score[:, c], return_inverse=True) for c in range(n_boxes)]
    width = max(len(d[0]) for d in distinct)
    points = np.zeros((n_boxes, width), dtype=np.int64)
    which = np.zeros((n_boxes, n_rolls), dtype=np.int64)
    count = np.zeros(n_boxes, dtype=np.int64)
    for c, (values, inverse) in enumerate(distinct):
        points[c, :len(values)], which[c], count[c] = values, inverse.ravel(), len(values)
    return points, which, count


def simulate(rules: Rules | str, vrow: np.ndarray, win_table: FlatTable, law_table: FlatTable, games: int, seed: int,
             first: int = 0) -> HeadsUpGames:
    """Play games ``first .. first + games - 1`` of ``seed`` (module docstring): ``vrow`` the expected values by
    row of ``lookup.yahtzee.states`` (the solver's), ``win_table`` / ``law_table`` the rule set's ``win`` and
    ``law`` tables, every t (``flat_table``)."""
    rules = get_rules(rules)
    space = state_space(rules)
    if vrow.shape != (space.n_rows,):
        raise ValueError(f"vrow has shape {vrow.shape}, the {rules.name!r} rows are ({space.n_rows},)")
    for t in (win_table, law_table):
        if t.offset.shape != (space.n_rows,) or t.bound.shape != (space.n_rows,):
            raise ValueError(f"a table of {t.offset.shape[0]} rows, the {rules.name!r} rows are {space.n_rows}")
    if type(games) is not int or games < 1 or type(seed) is not int or seed < 0 or type(first) is not int or first < 0:
        raise ValueError("games must be a positive int, seed and first non-negative ints")
    kt = kernel_tables(rules)
    cand_keep, cand_mask = reroll_candidates_of(rules)
    lpts, lwhich, n_lpts = lower_points(rules)
    out = np.zeros((games, 3), dtype=np.int64)
    run_chunks(_play, games, kernels._n_chunks(games), first, seed, np.ascontiguousarray(vrow, dtype=np.float64),
               win_table.values, win_table.offset, win_table.bound, law_table.values, law_table.offset, law_table.bound,
               np.ascontiguousarray(space.state_index), kt.score_t, kt.joker_score, kt.counts_t, kt.yroll, kt.yface,
               np.array(kernel_params(rules), dtype=np.int64), kt.add_die, kt.sub_pad, kt.size_offset, kt.roll_offset,
               kt.roll_prob, cand_keep, cand_mask, roll_code_table(rules), lpts, lwhich, n_lpts,
               int(law_table.bound.max()) + 1, out)
    return HeadsUpGames(rules.name, seed, first, out)
