"""The compiled game engine: two-player (or solo) Yahtzee games between compiled players, numba.

A game is one round per box of the rule set (13 American, 15 Scandinavian); in each round player A plays
a whole turn, then player B; both see the opponent's sheet as it stood at the start of the round (the
order of play within a round changes nothing). A player's sheet state is
``me = [filled_mask, upper (capped at the threshold), ybox, total, upper_bonus_earned]``; ``total`` is
the REAL score (box points, the upper bonus when earned, Yahtzee bonuses) whatever the player's table
optimises. Dice come from ``streams`` (the destiny list of the player's stream for that game and turn).

Compiled players (``P`` tuples, built by ``pipeline.yahtzee_lab.players``):
``(ip, state_index, reroll, category, vrow, alpha)`` with ``ip = [kind, *rules.kernel_params(table)]``
(the table's params, for Perturbation's values). The
game tables ``G`` come from :func:`game_tables`.

Decisions are checked: a box the rules do not allow ends the game with an error flag (the Python layer
raises). Results per game do not depend on how games are split over threads or workers.
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from lookup.yahtzee.rules import UPPER, Rules, scoring_tables
from pipeline.jit import njit, run_chunks
from pipeline.prefetch import prefetch
from pipeline.yahtzee import kernels
from pipeline.yahtzee.solver import kernel_tables, padded_subkeeps
from pipeline.yahtzee.streams import (
    N_DESTINY,
    destiny,
    destiny_at,
    game_streams,
    rng_next,
    rng_start,
    sort_dice,
    stream_base,
)
from pipeline.yahtzee_lab.decision_une import une_category, une_reroll
from pipeline.yahtzee_lab.perturbation import N_FEATURES, perturb_category, perturb_reroll, turn_values

KIND_NONE, KIND_TABLE, KIND_RANDOM, KIND_UNE, KIND_PERTURB = -1, 0, 1, 2, 3
ME_SIZE = 5
MAX_BOXES = 20  # Rules allow at most 20 boxes
_scoring_options = kernels.scoring_options
_box_outcome = kernels.box_outcome


@cache
def game_tables(rules: Rules) -> tuple:
    """The read-only tables a game under ``rules`` needs, as the tuple the kernels take.

    (gp, score, joker_score, yface, code_to_roll, roll_counts, keep_of_mask, keep_counts, keep_size,
    mask_order, score_t, counts_t, yroll, add_die, sub_pad, size_offset) where ``gp = [joker_code,
    threshold, upper bonus (paid in the game), yahtzee bonus, n_dice, n_faces, roll_offset, full house,
    small straight, large straight, yahtzee scores (American heuristics), n_boxes, yahtzee box index,
    forced order]``.
    """
    enc = rules.encoding
    st = scoring_tables(rules)
    kt = kernel_tables(rules)
    code_to_roll = np.full(rules.n_faces ** rules.n_dice, -1, dtype=np.int64)
    code_to_roll[enc.rolls @ (rules.n_faces ** np.arange(rules.n_dice))] = np.arange(enc.n_rolls)
    gp = np.array([rules.joker_code, rules.upper_threshold, rules.upper_bonus, rules.yahtzee_bonus, rules.n_dice,
                   rules.n_faces, enc.roll_offset, rules.full_house_score, rules.small_straight_score,
                   rules.large_straight_score, rules.yahtzee_score, rules.n_boxes, rules.yahtzee_index,
                   int(rules.forced_order)], dtype=np.int64)
    c = np.ascontiguousarray
    return (gp, c(st.score), c(st.joker_score), c(st.yahtzee_face), code_to_roll, c(enc.roll_counts),
            c(enc.keep_of_mask), c(enc.keep_counts), c(enc.keep_size), c(enc.mask_order), kt.score_t,
            kt.counts_t, kt.yroll, c(enc.add_die), padded_subkeeps(enc), c(enc.size_offset))


@njit(cache=True)
def new_work(G):
    """Scratch arrays of one player: (e, m, keep1, keep2, g, w, vals, feats, rng, dice)."""
    gp, add_die = G[0], G[13]
    n_keeps = add_die.shape[0]
    return (np.empty(n_keeps), np.empty(n_keeps + 1), np.empty(n_keeps), np.empty(n_keeps),
            np.empty((gp[11], gp[4] + 1)), np.empty(gp[11]), np.empty(max(1 << gp[4], gp[11])),
            np.empty(N_FEATURES), np.zeros(2, dtype=np.uint64), np.zeros(gp[4], dtype=np.int64))


@njit(cache=True)
def begin_turn(P, W, G, me):
    """Per-turn preparation: Perturbation computes its keep values for this turn-start state."""
    ip = P[0]
    if ip[0] == KIND_PERTURB:
        turn_values(me[0], me[1], me[2], P[1], P[4], ip[1:9], G[10], G[2], G[11], G[12], G[13], G[14], G[15],
                    G[0][6], W[0], W[1], W[4], W[5], W[2], W[3])


@njit(cache=True, inline="always")
def _allowed(gp, mask, yface_r):
    """``scoring_options_n`` for the game tables' rules: (allowed boxes, use Joker values)."""
    return _scoring_options(gp[0], mask, yface_r, (1 << gp[11]) - 1, gp[12], gp[13])


# The hot path passes arrays one by one, never whole player / game tuples: numba increments and
# decrements the reference count of every array in a tuple at each call, which cost more than the game.

@njit(cache=True)
def roll_of(code_to_roll, n_faces, dice):
    """Roll index of the sorted 0-based ``dice``."""
    code = 0
    for i in range(dice.shape[0] - 1, -1, -1):
        code = code * n_faces + dice[i]
    return code_to_roll[code]


@njit(cache=True)
def _first_roll(dest, dice):
    for i in range(dice.shape[0]):
        dice[i] = dest[i]
    sort_dice(dice)
    return dice.shape[0]


@njit(cache=True)
def _reroll(dice, dest, pos, mk):
    """Replace the dice of mask ``mk`` by the next faces of the destiny list; returns the next position."""
    for i in range(dice.shape[0]):
        if (mk >> i) & 1:
            dice[i] = dest[pos]
            pos += 1
    sort_dice(dice)
    return pos


@njit(cache=True)
def _random_box(rng, allowed):
    n = 0
    for c in range(MAX_BOXES):
        n += (allowed >> c) & 1
    pick = rng_next(rng, n)
    for c in range(MAX_BOXES):
        if (allowed >> c) & 1:
            if pick == 0:
                return np.int64(c)
            pick -= 1
    return np.int64(-1)


@njit(cache=True)
def fast_reroll(kind, state_index, reroll, rng, me, dice, counts, r, left, gp):
    """Reroll mask of a table, random or Decision_Une player (``left`` = 1 or 2 rerolls left)."""
    if kind == KIND_TABLE:
        return np.int64(reroll[state_index[me[0], me[1], me[2]], left - 1, r])
    if kind == KIND_RANDOM:
        return rng_next(rng, 1 << gp[4])
    return une_reroll(dice, counts, left, me[0], me[1], gp[1], gp[7:11])


@njit(cache=True)
def fast_box(kind, state_index, category, rng, me, r, allowed, points):
    """Box of a table, random or Decision_Une player for the final roll ``r`` (``points``: its points)."""
    if kind == KIND_TABLE:
        return np.int64(category[state_index[me[0], me[1], me[2]], r])
    if kind == KIND_RANDOM:
        return _random_box(rng, allowed)
    return une_category(allowed, points)


@njit(cache=True)
def perturbation_reroll(P, W, G, me, opp_total, r, left):
    gp = G[0]
    keep_j = W[2] if left == 1 else W[3]
    return perturb_reroll(P[5], keep_j, r, gp[4], G[5][r], G[6], G[7], G[8], G[9], me[0], me[1], me[2], gp[1],
                          me[3] - opp_total, W[6], W[7])


@njit(cache=True)
def perturbation_box(P, W, G, me, opp_total, r, allowed, use_joker):
    return perturb_category(P[5], r, allowed, use_joker, G[1], G[2], G[3], me[0], me[1], me[2], P[1], P[4],
                            P[0][1:9], G[0][1], me[3] - opp_total, W[6])


@njit(cache=True, inline="always")
def scored(gp, score, joker_score, yface, mask, upper, ybox, r, c):
    """Roll ``r`` scored in box ``c`` on the sheet state (mask, upper, ybox) with the game's real bonuses:
    (allowed, next mask, next upper, next ybox, points earned, 1 if the upper bonus is earned now)."""
    allowed, use_joker = _allowed(gp, mask, yface[r])
    if c < 0 or c >= gp[11] or (allowed >> c) & 1 == 0:
        return False, mask, upper, ybox, 0, 0
    pts = joker_score[r, c] if use_joker else score[r, c]
    rew, nu, ny = _box_outcome(c, pts, upper, ybox, 1 if yface[r] >= 0 else 0, gp[1], gp[2], gp[3], gp[12])
    return True, mask | (1 << c), nu, ny, rew, 1 if c < UPPER and upper < gp[1] <= nu else 0


@njit(cache=True)
def score_box(gp, score, joker_score, yface, me, r, c):
    """Score roll ``r`` in box ``c`` on ``me`` (in place) with the game's real bonuses; False if the rules
    do not allow that box."""
    ok, me[0], me[1], me[2], rew, earned = scored(gp, score, joker_score, yface, me[0], me[1], me[2], r, c)
    me[3] += rew
    me[4] |= earned
    return ok


@njit(cache=True)
def turn_fast(kind, state_index, reroll, category, rng, dice, me, seed, key, stream, turn, dest, gp, score,
              joker_score, yface, code_to_roll, roll_counts):
    """One whole turn of a table, random or Decision_Une player; False if it broke the rules."""
    destiny(seed, key, stream, turn, dest)
    if kind == KIND_RANDOM:
        rng_start(seed, key, stream, turn, rng)
    pos = _first_roll(dest, dice)
    for left in range(2, 0, -1):
        r = roll_of(code_to_roll, gp[5], dice)
        mk = fast_reroll(kind, state_index, reroll, rng, me, dice, roll_counts[r], r, left, gp)
        pos = _reroll(dice, dest, pos, mk)
    r = roll_of(code_to_roll, gp[5], dice)
    allowed, use_joker = _allowed(gp, me[0], yface[r])
    c = fast_box(kind, state_index, category, rng, me, r, allowed, joker_score[r] if use_joker else score[r])
    return score_box(gp, score, joker_score, yface, me, r, c)


@njit(cache=True)
def turn_perturbation(P, W, G, me, opp_total, seed, key, stream, turn, dest):
    """One whole turn of a Perturbation player (the same steps as ``turn_fast``)."""
    gp = G[0]
    destiny(seed, key, stream, turn, dest)
    begin_turn(P, W, G, me)
    dice = W[9]
    pos = _first_roll(dest, dice)
    for left in range(2, 0, -1):
        r = roll_of(G[4], gp[5], dice)
        pos = _reroll(dice, dest, pos, perturbation_reroll(P, W, G, me, opp_total, r, left))
    r = roll_of(G[4], gp[5], dice)
    allowed, use_joker = _allowed(gp, me[0], G[3][r])
    c = perturbation_box(P, W, G, me, opp_total, r, allowed, use_joker)
    return score_box(gp, G[1], G[2], G[3], me, r, c)


# Games played side by side by ``play_table_games``: enough independent table reads in flight to hide
# memory latency, few enough that the lanes' state stays in L1.
LANES = 64
_DEST = 16  # a lane's destiny list (N_DESTINY = 15 faces) in ``dest[lane * _DEST:]``


@njit(cache=True)
def play_table_games(lo, hi, first, seed, mode, PA, PB, G, scores, bonus, errors):
    """``play_games`` for table players (and solo games of one): the same games, the same results, played
    LANES games at a time (``_table_lanes``)."""
    gp = G[0]
    players = 1 if PB[0][0] == KIND_NONE else 2
    _table_lanes(lo, hi, first, seed, mode, players, PA[1], PA[2], PA[3], PB[1], PB[2], PB[3], gp, G[1], G[2],
                 G[3], G[6], G[8], G[13], scores, bonus, errors)


@njit(cache=True)
def _table_lanes(lo, hi, first, seed, mode, players, si_a, rr_a, cat_a, si_b, rr_b, cat_b, gp, score, joker_score,
                 yface, keep_of_mask, keep_size, add_die, scores, bonus, errors):
    """Games lo..hi-1 of table players, LANES at a time, each step of a turn done for every lane before
    the next step.

    A turn is a chain of dependent reads from tables far larger than the caches (state -> policy row ->
    reroll mask -> reroll mask -> box). One game at a time waits for memory at each; the lanes' reads are
    independent, so each read is first prefetched for every lane (as soon as its index is known), then
    gathered in a tight loop over the lanes. Dice are
    kept as a keep index: a roll is the keep of all dice (keep ``roll_offset + r``), a reroll replaces the
    rerolled dice by the next faces of the destiny list (``keep_of_mask`` then ``add_die``: the same
    multiset as rerolling die by die and sorting, so the same games as ``play_games``). Every state is a
    scalar in a per-lane array (no slices: each would cost a reference count update). Table players
    never look at the opponent, so playing a turn of A for every lane, then of B, changes nothing.
    """
    n_dice, roll_off, n_boxes = gp[4], gp[6], gp[11]
    n_rolls = keep_of_mask.shape[0]
    n_upper, n_ybox = si_a.shape[1], si_a.shape[2]  # both tables index states alike (same rules)
    flat_a = (si_a.reshape(si_a.size), rr_a.reshape(rr_a.size), cat_a.reshape(cat_a.size))
    flat_b = (si_b.reshape(si_b.size), rr_b.reshape(rr_b.size), cat_b.reshape(cat_b.size))
    # The small tables in 16 bits: with them, every table but the policy fits in the L1 cache. ``add`` is
    # add_die with a full keep left as it is (add_die says -1 there).
    keep_of_mask, keep_size = keep_of_mask.astype(np.int16), keep_size.astype(np.int16)
    add = add_die.astype(np.int16)
    for k in range(add.shape[0]):
        if keep_size[k] == n_dice:
            add[k, :] = k
    L = LANES
    dest = np.empty(L * _DEST, dtype=np.int64)
    keep = np.empty(L, dtype=np.int64)  # current dice as a keep index
    pos = np.empty(L, dtype=np.int64)  # next destiny face
    row = np.empty(L, dtype=np.int64)
    at = np.empty(L, dtype=np.int64)  # flat table index being read
    got = np.empty(L, dtype=np.int64)  # what it holds
    mask = np.zeros(2 * L, dtype=np.int64)  # per (lane, player): sheet state and real points
    upper = np.zeros(2 * L, dtype=np.int64)
    ybox = np.zeros(2 * L, dtype=np.int64)
    total = np.zeros(2 * L, dtype=np.int64)
    earned = np.zeros(2 * L, dtype=np.int64)
    bases = np.empty(2 * L, dtype=np.uint64)  # stream_base of each (lane, player)
    alive = np.empty(L, dtype=np.bool_)
    for base in range(lo, hi, L):
        n = min(L, hi - base)
        for lane in range(n):
            key, sa, sb = game_streams(mode, base + lane)
            bases[2 * lane] = stream_base(seed, key, sa)
            bases[2 * lane + 1] = stream_base(seed, key, sb)
            alive[lane] = True
        mask[:] = 0
        upper[:] = 0
        ybox[:] = 0
        total[:] = 0
        earned[:] = 0
        for turn in range(n_boxes):  # one round per box
            for p in range(players):
                si, rr, cat = flat_a if p == 0 else flat_b
                for lane in range(n):
                    if alive[lane]:
                        off = lane * _DEST
                        destiny_at(bases[2 * lane + p], turn, dest, off, N_DESTINY)
                        k = 0  # the empty keep, then the first n_dice faces
                        for j in range(n_dice):
                            k = add[k, dest[off + j]]
                        keep[lane] = k
                        pos[lane] = n_dice
                        q = 2 * lane + p
                        at[lane] = (mask[q] * n_upper + upper[q]) * n_ybox + ybox[q]
                        prefetch(si, at[lane])
                for lane in range(n):  # gather: policy rows (prefetched above)
                    if alive[lane]:
                        row[lane] = si[at[lane]]
                for lane in range(n):  # ask for every first reroll mask before reading any
                    if alive[lane]:
                        at[lane] = (row[lane] * 2 + 1) * n_rolls + keep[lane] - roll_off
                        prefetch(rr, at[lane])
                for left in range(2, 0, -1):
                    for lane in range(n):  # gather: reroll masks
                        if alive[lane]:
                            got[lane] = rr[at[lane]]
                    for lane in range(n):
                        if alive[lane]:
                            k = keep_of_mask[keep[lane] - roll_off, got[lane]]
                            need = n_dice - keep_size[k]
                            at_face = lane * _DEST + pos[lane]
                            # Always n_dice steps, the ones past ``need`` leaving the keep as it is (a
                            # select, not a branch: how many dice are rerolled is unpredictable).
                            for j in range(n_dice):
                                nk = add[k, dest[at_face + j]]
                                k = nk if j < need else k
                            keep[lane] = k
                            pos[lane] += need
                            # The next read of this lane: the second reroll mask, then the box.
                            if left == 2:
                                at[lane] = row[lane] * 2 * n_rolls + k - roll_off
                                prefetch(rr, at[lane])
                            else:
                                at[lane] = row[lane] * n_rolls + k - roll_off
                                prefetch(cat, at[lane])
                for lane in range(n):  # gather: boxes
                    if alive[lane]:
                        got[lane] = cat[at[lane]]
                for lane in range(n):
                    if alive[lane]:
                        q = 2 * lane + p
                        r = keep[lane] - roll_off
                        ok, mask[q], upper[q], ybox[q], rew, bon = scored(gp, score, joker_score, yface, mask[q],
                                                                          upper[q], ybox[q], r, got[lane])
                        total[q] += rew
                        earned[q] |= bon
                        alive[lane] = ok
        for lane in range(n):
            i = base + lane - first
            for p in range(2):
                scores[i, p] = total[2 * lane + p]
                bonus[i, p] = earned[2 * lane + p]
            errors[i] = 0 if alive[lane] else 1


@njit(cache=True)
def play_games(lo, hi, first, seed, mode, PA, PB, G, scores, bonus, errors):
    """Games lo..hi-1 (global indices) into ``scores[g - first, p]`` (real points), ``bonus`` (1 if player p
    earned the upper bonus) and ``errors[g - first]`` (1 if a player broke the rules)."""
    ka, kb = PA[0][0], PB[0][0]
    if ka == KIND_TABLE and (kb == KIND_TABLE or kb == KIND_NONE):
        play_table_games(lo, hi, first, seed, mode, PA, PB, G, scores, bonus, errors)
        return
    gp, score, joker_score, yface, code_to_roll, roll_counts = G[0], G[1], G[2], G[3], G[4], G[5]
    sia, rra, cata = PA[1], PA[2], PA[3]
    sib, rrb, catb = PB[1], PB[2], PB[3]
    WA = new_work(G)
    WB = new_work(G)
    rnga, dicea, rngb, diceb = WA[8], WA[9], WB[8], WB[9]
    dest = np.empty(15, dtype=np.int64)
    a = np.zeros(ME_SIZE, dtype=np.int64)
    b = np.zeros(ME_SIZE, dtype=np.int64)
    for g in range(lo, hi):
        key, sa, sb = game_streams(mode, g)
        a[:] = 0
        b[:] = 0
        ok = True
        for turn in range(gp[11]):
            # Each player sees the opponent's total as it stood at the start of the round, so the order of
            # play within a round changes nothing (two copies of one player tie every coupled game).
            total_a, total_b = a[3], b[3]
            if ka == KIND_PERTURB:
                ok = turn_perturbation(PA, WA, G, a, total_b, seed, key, sa, turn, dest)
            else:
                ok = turn_fast(ka, sia, rra, cata, rnga, dicea, a, seed, key, sa, turn, dest, gp, score, joker_score,
                               yface, code_to_roll, roll_counts)
            if ok and kb == KIND_PERTURB:
                ok = turn_perturbation(PB, WB, G, b, total_a, seed, key, sb, turn, dest)
            elif ok and kb != KIND_NONE:
                ok = turn_fast(kb, sib, rrb, catb, rngb, diceb, b, seed, key, sb, turn, dest, gp, score, joker_score,
                               yface, code_to_roll, roll_counts)
            if not ok:
                break
        i = g - first
        scores[i, 0] = a[3]
        scores[i, 1] = b[3]
        bonus[i, 0] = a[4]
        bonus[i, 1] = b[4]
        errors[i] = 0 if ok else 1


@njit(cache=True, nogil=True)
def _play_chunk(chunk, start, stop, lo, seed, mode, PA, PB, G, scores, bonus, errors):
    """Games ``lo + start .. lo + stop - 1`` of ``play_games_parallel`` (``pipeline.jit.run_chunks``)."""
    play_games(lo + start, lo + stop, lo, seed, mode, PA, PB, G, scores, bonus, errors)


def play_games_parallel(lo: int, hi: int, seed: int, mode: int, PA: tuple, PB: tuple, G: tuple, scores: np.ndarray,
                        bonus: np.ndarray, errors: np.ndarray, n_chunks: int) -> None:
    """``play_games`` over lo..hi split into ``n_chunks`` contiguous chunks run in parallel."""
    run_chunks(_play_chunk, hi - lo, n_chunks, lo, seed, mode, PA, PB, G, scores, bonus, errors)


def n_chunks(games: int) -> int:
    """Chunks for ``games`` games: several per thread so uneven games balance out."""
    return max(1, min(games, 16 * numba.get_num_threads()))


@njit(cache=True)
def decide(P, W, G, me, opp_total, dice, left):
    """One decision on the sorted 0-based ``dice``: a reroll mask (left = 1, 2) or a box (left = 0; -1 if
    the player picked none). ``begin_turn`` must have run for this turn-start state."""
    gp = G[0]
    r = roll_of(G[4], gp[5], dice)
    kind = P[0][0]
    if left > 0:
        if kind == KIND_PERTURB:
            return perturbation_reroll(P, W, G, me, opp_total, r, left)
        return fast_reroll(kind, P[1], P[2], W[8], me, dice, G[5][r], r, left, gp)
    allowed, use_joker = _allowed(gp, me[0], G[3][r])
    if kind == KIND_PERTURB:
        return perturbation_box(P, W, G, me, opp_total, r, allowed, use_joker)
    return fast_box(kind, P[1], P[3], W[8], me, r, allowed, G[2][r] if use_joker else G[1][r])
