"""Perturbation: the third strategy of the seed's Yahtzee report (docs/yahtzee_lab.md), compiled with numba.

E'(decision) = E(decision) + sum_i alpha_i f_i(decision)

E is the ESPERANCE value of the decision: the expected remaining points from the ``seed`` value table
(upper bonus ignored, as in the seed's tables), i.e. exactly what the ``esperance`` player maximises;
with every alpha_i = 0 Perturbation plays exactly like ``esperance`` (same tie rule). The twelve f_i
(the report's) steer it towards the upper bonus, which E ignores, and react to the score gap with the
opponent. Where the report only describes them, we chose:

Notation: ``B`` = the bonus is playable (``features.bonus_playable``: not yet reached and three dice of
every open upper face would still reach 63); ``n_up`` = open upper boxes; ``gap`` = own real total minus
the opponent's (points, bonuses included); a *keep* is the multiset of dice kept by a reroll.

== ======================= ========= =============================================================
i  name                    decision  f_i (0 unless its condition holds)
== ======================= ========= =============================================================
0  bonus_keep_1            reroll    B and n_up = 1: max over open upper faces v of (kept v's) x v, pips
1  bonus_keep_2            reroll    the same when n_up = 2
2  bonus_keep_3            reroll    the same when n_up = 3
3  bonus_keep_4            reroll    the same when n_up >= 4
4  bonus_box_par           box       B and an upper box: points scored minus its par (3 x face)
5  bonus_box_reach         box       B and an upper box whose points reach the threshold now: 1
6  lead_few_rerolls        reroll    gap >= 50: minus the number of dice rerolled
7  lead_score_something    box       gap >= 50: 1 if the box scores more than 0 (no zero while ahead)
8  behind_modal_face       reroll    gap <= -50: kept dice if the keep is only the most frequent face
9  behind_straight         reroll    gap <= -50, a straight box open, no face kept twice: longest run kept
10 behind_yahtzee          reroll    gap <= -50, Yahtzee box open or holding 50, keep >= 2 dice of one
                                     face and nothing else: 1
11 behind_risky_box        box       gap <= -50, box is a straight or Yahtzee: +1 if it scores, -1 if 0
== ======================= ========= =============================================================

Ties keep the solver's rule: the first reroll mask (fewest dice rerolled, then lowest mask) and the
lowest box whose E' is within TIE_EPS of the best.
"""

from __future__ import annotations

import numpy as np

from lookup.yahtzee.rules import LARGE_STRAIGHT, N_CATEGORIES, SMALL_STRAIGHT, UPPER, YAHTZEE
from pipeline.jit import njit
from pipeline.yahtzee import kernels
from pipeline.yahtzee_lab.features import PAR_DICE, bonus_playable, longest_run, modal_face, open_upper

_box_outcome = kernels.box_outcome  # the rules' one definition, compiled
FEATURES = (
    "bonus_keep_1", "bonus_keep_2", "bonus_keep_3", "bonus_keep_4", "bonus_box_par", "bonus_box_reach",
    "lead_few_rerolls", "lead_score_something", "behind_modal_face", "behind_straight", "behind_yahtzee",
    "behind_risky_box",
)
N_FEATURES = len(FEATURES)
GAP = 50  # points: the gap functions act only when the players are at least this far apart (the report's threshold)
TIE_EPS = kernels.TIE_EPS


@njit(cache=True)
def turn_values(mask, upper, ybox, state_index, vrow, vparams, score_t, joker_score, counts_t, yroll, add_die,
                sub_pad, size_offset, roll_offset, e, m, g, w, keep1, keep2):
    """ESPERANCE values of every keep for one turn start: ``keep1[k]`` / ``keep2[k]`` = expected remaining
    points of keeping multiset k with 1 / 2 rerolls left (a full keep: standing on that roll).

    Uses the solver's own kernels on the value row ``vrow`` (``vparams``: the table's optimised params).
    """
    n_keeps = add_die.shape[0]
    inv_faces = 1.0 / add_die.shape[1]
    kernels._final_values(mask, upper, ybox, e[roll_offset:], g, w, vrow, state_index, score_t, joker_score,
                          counts_t, yroll, vparams)
    kernels._expect_keeps(e, add_die, roll_offset, inv_faces)
    keep1[:] = e
    kernels._max_subkeeps(e, m, sub_pad, size_offset)
    e[roll_offset:] = m[roll_offset:n_keeps]
    kernels._expect_keeps(e, add_die, roll_offset, inv_faces)
    keep2[:] = e


@njit(cache=True)
def _keep_features(out, kc, n_kept, n_dice, roll_counts, filled_mask, ybox, playable, n_up, gap):
    """f_i of a reroll decision whose keep has face counts ``kc``; box features left 0."""
    for i in range(N_FEATURES):
        out[i] = 0.0
    if playable:
        best = 0
        for f in range(UPPER):
            if (filled_mask >> f) & 1 == 0:
                best = max(best, kc[f] * (f + 1))
        out[min(n_up, 4) - 1] = best
    if gap >= GAP:
        out[6] = -(n_dice - n_kept)
    elif gap <= -GAP:
        face, _ = modal_face(roll_counts)
        if n_kept > 0 and kc[face] == n_kept:
            out[8] = n_kept
        distinct = 0
        for f in range(kc.shape[0]):
            distinct += 1 if kc[f] > 0 else 0
        straights_open = ((filled_mask >> SMALL_STRAIGHT) & 1 == 0) or ((filled_mask >> LARGE_STRAIGHT) & 1 == 0)
        if straights_open and distinct == n_kept:
            run, _ = longest_run(kc)
            out[9] = run
        if ((filled_mask >> YAHTZEE) & 1 == 0 or ybox == 1) and distinct == 1 and n_kept >= 2:
            out[10] = 1.0


@njit(cache=True)
def perturb_reroll(alpha, keep_j, r, n_dice, roll_counts, keep_of_mask, keep_counts, keep_size, mask_order,
                   filled_mask, upper, ybox, threshold, gap, vals, feats):
    """Reroll mask (over the sorted dice) maximising E' with the keep values ``keep_j`` of this stage."""
    playable = bonus_playable(filled_mask, upper, threshold)
    n_up = open_upper(filled_mask)
    m = keep_of_mask.shape[1]
    best = -np.inf
    for j in range(m):
        mk = mask_order[j]
        k = keep_of_mask[r, mk]
        v = keep_j[k]
        if playable or gap >= GAP or gap <= -GAP:
            _keep_features(feats, keep_counts[k], keep_size[k], n_dice, roll_counts, filled_mask, ybox, playable,
                           n_up, gap)
            for i in range(N_FEATURES):
                v += alpha[i] * feats[i]
        vals[j] = v
        if v > best:
            best = v
    for j in range(m):
        if vals[j] >= best - TIE_EPS:
            return mask_order[j]
    return mask_order[0]


@njit(cache=True)
def perturb_category(alpha, r, allowed, use_joker, score, joker_score, yface, mask, upper, ybox, state_index,
                     vrow, vparams, threshold, gap, vals):
    """Box maximising E' for the final roll ``r`` among ``allowed`` (bitmask); -1 if none is allowed.

    E = points now (as the table's optimisation counts them) + value of the next turn-start state.
    """
    playable = bonus_playable(mask, upper, threshold)
    best = -np.inf
    yroll = 1 if yface[r] >= 0 else 0
    for c in range(N_CATEGORIES):
        vals[c] = -np.inf
        if (allowed >> c) & 1 == 0:
            continue
        pts = joker_score[r, c] if use_joker else score[r, c]
        rew, nu, ny = _box_outcome(c, pts, upper, ybox, yroll, vparams[1], vparams[2], vparams[3], vparams[6])
        v = rew + vrow[state_index[mask | (1 << c), nu, ny]]
        if playable and c < UPPER:
            v += alpha[4] * (pts - PAR_DICE * (c + 1))
            if upper + pts >= threshold:
                v += alpha[5]
        if gap >= GAP and pts > 0:
            v += alpha[7]
        elif gap <= -GAP and (c == SMALL_STRAIGHT or c == LARGE_STRAIGHT or c == YAHTZEE):
            v += alpha[11] if pts > 0 else -alpha[11]
        vals[c] = v
        if v > best:
            best = v
    for c in range(N_CATEGORIES):
        if vals[c] >= best - TIE_EPS:
            return c
    return -1
