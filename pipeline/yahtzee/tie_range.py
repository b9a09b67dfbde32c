"""How far the final score's standard deviation can move over the optimal policies (ties broken any way).

Every policy that maximises the expected score has the same mean ``mu`` (the start value), but options of
exactly equal expected value can have different spreads, so the standard deviation depends on how ties
are broken. Since ``Var = E[X^2] - mu^2`` with ``mu`` fixed, the extreme standard deviations are the
extreme second moments of the final score, which a lexicographic backward pass computes: among the options
of maximal expected value, take the largest (resp. smallest) second moment.

Why that pass is exact: from a turn-start state ``s`` let ``R`` be the points still to come. Every optimal
policy has ``E[R | s] = V(s)`` at each state it reaches. Write ``R = r + R'`` with ``r`` the points of the
current turn and ``R'`` those from the next state ``s'``; given ``s'``, ``r`` is fixed, so

    E[R^2 | option] = E[r^2 + 2 r V(s') + E[R'^2 | s']]

and the choices after ``s'`` enter only through ``E[R'^2 | s']``: choosing them to maximise (minimise) it
at every ``s'`` maximises (minimises) every earlier second moment. Within a turn the same holds at each
decision (points so far fixed): a keep's pair (mean, second moment) is the average over the rolled dice
of the pairs of the decisions that follow, and maximising the mean first, then the second moment over the
options whose mean is maximal, is optimal for the average because each outcome's choice is free. At the
start of a game nothing is scored yet, so ``E[X^2]`` is the start state's second moment.

Ties in float64: two options tie when their computed means differ by at most ``tol`` points. Mathematically
equal values are computed with rounding errors; :func:`rounding_bound` is a rigorous bound on the error of
every computed value, so ``tol >= 2 * rounding_bound`` catches every exact tie. The pass also histograms the
gap between each option's mean and the best one (:attr:`TieRange.gap_counts`): when no gap lies between the
rounding level and far above ``tol``, the answer does not depend on ``tol`` (checked by running two
tolerances), and candidate ties are confirmed with exact rationals in the tests.

Besides the extremes it evaluates a few simple tie rules (the first tied option in a fixed order of reroll
masks and of boxes), to find which rule a published figure used. Supported: rule sets whose optimisation
counts the upper bonus (so the values are those of the real game; not ``seed``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from lookup.yahtzee.rules import Rules, get_rules, kernel_params, scoring_tables
from lookup.yahtzee.states import state_space
from pipeline.jit import njit, run_chunks
from pipeline.yahtzee import kernels
from pipeline.yahtzee.solver import kernel_tables, solve

__all__ = ["TieRange", "TIE_RULES", "tie_range", "rounding_bound"]

# Gap histogram bins: 0 = exactly equal mean (a different keep or box), b = 1..N_GAP_BINS-2 for gaps in
# [10^(b - 1 + GAP_LOG_MIN), 10^(b + GAP_LOG_MIN)), the last bin for gaps >= 10^(N_GAP_BINS - 2 + GAP_LOG_MIN).
GAP_LOG_MIN = -17
N_GAP_BINS = 17  # up to 1e-2 points; larger gaps are not ties at any tolerance anyone would use

#: Tie rules evaluated besides the extremes: (name, reroll-mask order, box order). Masks are over the
#: sorted dice (bit i = the i-th smallest die is rerolled), "fewest" = fewest dice rerolled first.
TIE_RULES: tuple[tuple[str, str, str], ...] = (
    ("fewest rerolled, lowest mask; lowest box (ours)", "fewest", "lowest"),
    ("fewest rerolled, lowest mask; highest box", "fewest", "highest"),
    ("most rerolled, lowest mask; lowest box", "most", "lowest"),
    ("most rerolled, lowest mask; highest box", "most", "highest"),
    ("lowest mask; lowest box", "low", "lowest"),
    ("highest mask; lowest box", "high", "lowest"),
    ("lowest mask; highest box", "low", "highest"),
    ("highest mask; highest box", "high", "highest"),
)


@dataclass(frozen=True)
class TieRange:
    """Result of :func:`tie_range` (points, and points squared for second moments).

    mean: the start value recomputed by the pass; sd_min / sd_max: the extreme standard deviations of the
    final score over all optimal policies; rule_sd[name]: the sd under each tie rule of ``TIE_RULES``;
    gap_counts[b]: how many (decision, option) pairs have a mean gap in bin b (see ``GAP_LOG_MIN``);
    tie_decisions: decisions (state row, roll, rerolls left) with at least two distinct tied options
    (keeps or boxes); row_moments[row]: (mean, largest and smallest second moment, second moment per
    tie rule) of the remaining points from each turn-start row of ``state_space(rules)``; tol: the tie
    tolerance used.
    """

    rules: Rules
    tol: float
    mean: float
    sd_min: float
    sd_max: float
    rule_sd: dict[str, float]
    gap_counts: np.ndarray
    tie_decisions: int
    row_moments: np.ndarray

    def gap_table(self) -> list[tuple[str, int]]:
        """``(bin label, count)`` for the non-empty gap bins."""
        out = []
        for b, n in enumerate(self.gap_counts):
            if n == 0:
                continue
            if b == 0:
                label = "0"
            elif b == N_GAP_BINS - 1:
                label = f">= 1e{b - 1 + GAP_LOG_MIN}"
            else:
                label = f"[1e{b - 1 + GAP_LOG_MIN}, 1e{b + GAP_LOG_MIN})"
            out.append((label, int(n)))
        return out


@njit(cache=True)
def _gap_bin(d):
    if d <= 0.0:
        return 0
    if d >= 10.0 ** (N_GAP_BINS - 2 + GAP_LOG_MIN):
        return N_GAP_BINS - 1
    b = int(math.floor(math.log10(d))) - GAP_LOG_MIN + 1
    return min(max(b, 1), N_GAP_BINS - 1)


@njit(cache=True)
def _choose(a, orders, n, tol, gaps_row, picks, dst):
    """One decision: the options are rows ``orders[0, :n]`` of ``a`` (columns: mean, largest and smallest
    second moment, second moment per tie rule; mean -inf = not an option); ``orders[k]`` lists them in tie
    rule k's order. Writes into ``dst`` (after every read of ``a``: it may be one of its rows) the best
    mean, the largest and smallest second moment over the tied options and rule k's pick at ``3 + k``;
    counts the gaps in ``gaps_row``; returns the number of tied options."""
    best = -np.inf
    for j in range(n):
        best = max(best, a[orders[0, j], 0])
    qmax, qmin = -np.inf, np.inf
    n_tied = 0
    for j in range(n):
        x = a[orders[0, j]]
        if x[0] == -np.inf:
            continue
        d = best - x[0]
        gaps_row[_gap_bin(d)] += 1
        if d <= tol:
            n_tied += 1
            qmax = max(qmax, x[1])
            qmin = min(qmin, x[2])
    gaps_row[0] -= 1  # the best option itself
    for k in range(orders.shape[0]):
        for j in range(n):
            x = a[orders[k, j]]
            if best - x[0] <= tol:
                picks[k] = x[3 + k]
                break
    dst[0], dst[1], dst[2] = best, qmax, qmin
    for k in range(orders.shape[0]):
        dst[3 + k] = picks[k]
    return n_tied


@njit(cache=True, nogil=True)
def _tie_layer(chunk, start, stop, lo, hi, row_mask, row_upper, row_ybox, vrow, mom, state_index, score_t,
               joker_score, yface,
               params, add_die, roll_offset, roll_prob, n_sub, rule_keeps, box_prio, tol, gaps, n_ties):
    """Rows lo..hi-1 of one layer, from the next layer's rows of ``mom``.

    ``mom[i, 0]``: optimal mean of the remaining points (recomputed; equals ``vrow[i]``); ``mom[i, 1]`` /
    ``mom[i, 2]``: largest / smallest second moment of the remaining points over the optimal policies;
    ``mom[i, 3 + k]``: second moment under tie rule k (the first tied option in ``rule_keeps[k, roll]``, the
    ``n_sub[roll]`` distinct keeps of a roll in the rule's order, and in ``box_prio[k]``).
    ``gaps[chunk, bin]`` and ``n_ties[chunk]`` count per thread (see ``TieRange``).
    """
    joker_code, thr, ubonus, ybonus = params[0], params[1], params[2], params[3]
    n_boxes, yidx = params[5], params[6]
    all_filled = (1 << n_boxes) - 1
    n_keeps = add_die.shape[0]
    n_faces = add_die.shape[1]
    n_rolls = roll_prob.shape[0]
    n_rules = rule_keeps.shape[0]
    nq = 3 + n_rules
    inv_faces = 1.0 / n_faces
    e = np.empty((n_keeps, nq))
    opt = np.empty((n_boxes, nq))
    picks = np.empty(n_rules)
    for i in range(lo + start, lo + stop):
        mask, upper, ybox = row_mask[i], row_upper[i], row_ybox[i]
        # Final roll: the options are the allowed boxes.
        for r in range(n_rolls):
            f = yface[r]
            allowed, use_joker = kernels.scoring_options(joker_code, mask, f, all_filled, yidx, params[7])
            for c in range(n_boxes):
                if (allowed >> c) & 1 == 0:
                    opt[c, 0] = -np.inf  # not an option
                    continue
                pts = joker_score[r, c] if use_joker else np.int64(score_t[c, r])
                rew, nu, ny = kernels.box_outcome(c, pts, upper, ybox, 1 if f >= 0 else 0, thr, ubonus,
                                                  ybonus, yidx)
                nxt = state_index[mask | (1 << c), nu, ny]
                m1 = vrow[nxt]
                opt[c, 0] = rew + m1
                for t in range(1, nq):
                    opt[c, t] = rew * rew + 2.0 * rew * m1 + mom[nxt, t]
            if _choose(opt, box_prio, n_boxes, tol, gaps[chunk], picks, e[roll_offset + r]) > 1:
                n_ties[chunk] += 1
        # Two reroll decisions: expectation over the rerolled dice, then the best keep of each roll.
        for _stage in range(2):
            for t in range(nq):  # the value kernel's arithmetic: the means are bitwise its values
                kernels._expect_keeps(e[:, t], add_die, roll_offset, inv_faces)
            for r in range(n_rolls):  # the roll's keep-all row is an option and its result's place
                if _choose(e, rule_keeps[:, r, :], n_sub[r], tol, gaps[chunk], picks, e[roll_offset + r]) > 1:
                    n_ties[chunk] += 1
        for t in range(nq):  # the first roll, summed in the value kernel's order
            acc = 0.0
            for r in range(n_rolls):
                acc += roll_prob[r] * e[roll_offset + r, t]
            mom[i, t] = acc


def _mask_order(kind: str, n_dice: int) -> np.ndarray:
    masks = np.arange(1 << n_dice)
    n_rerolled = np.array([bin(m).count("1") for m in masks])
    if kind == "fewest":
        return masks[np.lexsort((masks, n_rerolled))]
    if kind == "most":
        return masks[np.lexsort((masks, -n_rerolled))]
    return masks if kind == "low" else masks[::-1].copy()


def rounding_bound(rules: Rules | str, vmax: float) -> float:
    """A rigorous bound (points) on |computed - exact| of every float64 value of a turn-start state.

    ``vmax``: the largest turn-start value. Every value computed within a turn (a final roll's or a keep's
    expected remaining points) is at most ``w`` = vmax + the most points one turn can earn (a box's best
    score, the upper bonus and a Yahtzee bonus); all are >= 0. Per turn, with u = 2**-53: adding a box's
    points to the next value rounds once (u w); each of the n_dice averaging levels of the keep tree per
    reroll sums n_faces terms ((n_faces - 1) u n_faces w, then divided by n_faces) and multiplies by the
    rounded 1 / n_faces (2 u w); maxima and the choice of keeps are exact on the computed values (the error
    of a maximum is at most the largest error of its terms); the first roll's sum of n_rolls products of
    rounded probabilities with values adds (n_rolls - 1) u w for the sum, 2 u w for the products and the
    probabilities' rounding, and n_rolls u w for their sum differing from 1. Averages and maxima do not
    amplify the errors of the next state's value, so the bound is the per-turn term times the number of
    turns (n_boxes); first-order in u (the second-order terms are ~1e-27 points).
    """
    rules = get_rules(rules)
    u = 2.0 ** -53
    nf, nd = rules.encoding.n_faces, rules.n_dice
    n_rolls = len(rules.encoding.roll_prob)
    st = scoring_tables(rules)
    one_turn = max(int(st.score.max()), int(st.joker_score.max())) + rules.upper_bonus + rules.yahtzee_bonus
    per_turn = 1 + 2 * nd * ((nf - 1) + 2) + (n_rolls - 1) + 2 + n_rolls
    return rules.n_boxes * per_turn * u * (vmax + one_turn)


def _rule_keeps(keep_of_mask: np.ndarray, orders: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """``n_sub[roll]`` and ``keeps[rule, roll, :n_sub]``: the distinct keeps of each roll in the order their
    reroll masks first appear in each rule's mask order (padded with -1)."""
    n_rolls, n_masks = keep_of_mask.shape
    keeps = np.full((len(orders), n_rolls, n_masks), -1, dtype=np.int64)
    n_sub = np.zeros(n_rolls, dtype=np.int64)
    for k, order in enumerate(orders):
        for r in range(n_rolls):
            seen = list(dict.fromkeys(int(x) for x in keep_of_mask[r, order]))
            keeps[k, r, : len(seen)] = seen
            n_sub[r] = len(seen)
    return n_sub, keeps


def tie_range(rules: Rules | str = "verhoeff", *, tol: float | None = None, value: np.ndarray | None = None,
              tie_rules: tuple[tuple[str, str, str], ...] = TIE_RULES) -> TieRange:
    """The range of the final score's sd over all policies that maximise the expected score.

    ``tol``: the tie tolerance in points; default ``2 * rounding_bound`` (catches every exact tie).
    ``value``: the value table ``value[filled_mask, upper, ybox]`` of ``rules`` (``Solution.value``; solved
    when not given). ``tie_rules``: the rules to
    evaluate besides the extremes (a non-empty subset of ``TIE_RULES``' form: name, mask order "fewest",
    "most", "low" or "high", box order "lowest" or "highest").
    """
    rules = get_rules(rules)
    if not rules.bonus_in_optimisation:
        raise ValueError(f"rule set {rules.name!r}: its optimisation ignores the upper bonus, so its values "
                         "are not those of the real game (the tie range needs them)")
    if value is None:
        value = solve(rules).value
    space = state_space(rules)
    if np.shape(value) != space.state_index.shape:
        raise ValueError(f"value must have shape {space.state_index.shape} for rule set {rules.name!r}")
    vrow = np.ascontiguousarray(np.asarray(value, dtype=np.float64)[space.row_mask, space.row_upper, space.row_ybox])
    if not np.isfinite(vrow).all():
        raise ValueError("the value table does not cover every reachable state")
    if tol is None:
        tol = 2.0 * rounding_bound(rules, float(np.abs(vrow).max()))
    if not (isinstance(tol, float) and math.isfinite(tol) and tol >= 0.0):
        raise ValueError(f"tol must be a finite float >= 0, got {tol!r}")
    kt = kernel_tables(rules)
    params = np.array(kernel_params(rules), dtype=np.int64)
    if not tie_rules or any(m not in ("fewest", "most", "low", "high") or b not in ("lowest", "highest")
                            for _, m, b in tie_rules):
        raise ValueError(f"tie_rules must be a non-empty tuple of (name, mask order, box order), got {tie_rules!r}")
    n_sub, rule_keeps = _rule_keeps(kt.keep_of_mask, [_mask_order(m, rules.n_dice) for _, m, _ in tie_rules])
    boxes = np.arange(rules.n_boxes)
    box_prio = np.array([boxes if b == "lowest" else boxes[::-1] for _, _, b in tie_rules], dtype=np.int64)
    n_rules = len(tie_rules)
    mom = np.zeros((space.n_rows, 3 + n_rules))  # finished games: nothing more to score
    n_chunks = kernels._n_chunks(int(np.diff(space.layer_ptr).max()))
    gaps = np.zeros((n_chunks, N_GAP_BINS), dtype=np.int64)
    n_ties = np.zeros(n_chunks, dtype=np.int64)
    index = np.ascontiguousarray(space.state_index)
    for n_filled in range(rules.n_boxes - 1, -1, -1):
        lo, hi = int(space.layer_ptr[n_filled]), int(space.layer_ptr[n_filled + 1])
        run_chunks(_tie_layer, hi - lo, n_chunks, lo, hi, space.row_mask, space.row_upper, space.row_ybox, vrow, mom,
                   index, kt.score_t, kt.joker_score, kt.yface, params, kt.add_die, kt.roll_offset, kt.roll_prob, n_sub,
                   rule_keeps, box_prio, tol, gaps, n_ties)
    mean = float(mom[0, 0])

    def sd(q: float) -> float:
        return math.sqrt(max(0.0, q - mean * mean))

    return TieRange(rules=rules, tol=tol, mean=mean, sd_min=sd(mom[0, 2]), sd_max=sd(mom[0, 1]),
                    rule_sd={name: sd(mom[0, 3 + k]) for k, (name, _, _) in enumerate(tie_rules)},
                    gap_counts=gaps.sum(axis=0), tie_decisions=int(n_ties.sum()), row_moments=mom)
