"""Seeded Monte Carlo games of solitaire Yahtzee played by a policy table (numba, parallel over games).

Scores are REAL final scores: the upper bonus is always paid when earned (also for ``seed``, whose
optimisation ignores it) and so is every Yahtzee bonus. Game g uses its own generator stream derived
from (seed, g), so results do not depend on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from lookup.yahtzee.rules import N_CATEGORIES, Rules, get_rules, scoring_tables
from pipeline.yahtzee.kernels import box_outcome, scoring_options


@njit(cache=True)
def _splitmix(x):
    x = (x + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = x
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    return x, z ^ (z >> np.uint64(31))


@njit(cache=True)
def _face(state, n_faces):
    # Rejection sampling keeps the faces exactly uniform.
    limit = np.uint64(0xFFFFFFFFFFFFFFFF) - (np.uint64(0xFFFFFFFFFFFFFFFF) % np.uint64(n_faces))
    while True:
        state, z = _splitmix(state)
        if z < limit:
            return state, np.int64(z % np.uint64(n_faces))


@njit(cache=True, parallel=True)
def _play(n_games, seed, state_index, reroll, category, score, joker_score, yface, code_to_roll, params, out):
    n_dice = params[4]
    n_faces = params[5]
    for g in prange(n_games):
        # Hash (seed, g) into a starting point: consecutive raw counters would give overlapping streams.
        _, state = _splitmix(np.uint64(seed) * np.uint64(0x100000001B3) ^ np.uint64(g))
        _, state = _splitmix(state ^ np.uint64(g) * np.uint64(0xD1B54A32D192ED03))
        dice = np.zeros(n_dice, dtype=np.int64)
        mask, upper, ybox, total = 0, 0, 0, 0
        for _turn in range(N_CATEGORIES):
            for i in range(n_dice):
                state, dice[i] = _face(state, n_faces)
            row = state_index[mask, upper, ybox]
            for left in range(2, -1, -1):
                dice.sort()
                code = 0
                for i in range(n_dice - 1, -1, -1):
                    code = code * n_faces + dice[i]
                r = code_to_roll[code]
                if left == 0:
                    c = category[row, r]
                    allowed, use_joker = scoring_options(params[0], mask, yface[r])
                    pts = joker_score[r, c] if use_joker else score[r, c]
                    rew, upper, ybox = box_outcome(c, pts, upper, ybox, 1 if yface[r] >= 0 else 0,
                                                   params[1], params[2], params[3])
                    total += rew
                    mask |= 1 << c
                else:
                    m = reroll[row, left - 1, r]
                    for i in range(n_dice):
                        if (m >> i) & 1:
                            state, dice[i] = _face(state, n_faces)
        out[g] = total


def simulate(rules: Rules | str, state_index: np.ndarray, reroll: np.ndarray, category: np.ndarray,
             games: int, seed: int = 0) -> np.ndarray:
    """Final scores (int64, points) of ``games`` seeded games played by the policy tables."""
    rules = get_rules(rules)
    if games < 1:
        raise ValueError(f"games must be at least 1, got {games}")
    enc = rules.encoding
    st = scoring_tables(rules)
    code_to_roll = np.full(rules.n_faces ** rules.n_dice, -1, dtype=np.int64)
    code_to_roll[enc.rolls @ (rules.n_faces ** np.arange(rules.n_dice))] = np.arange(enc.n_rolls)
    params = np.array([rules.joker_code, rules.upper_threshold, rules.upper_bonus, rules.yahtzee_bonus,
                       rules.n_dice, rules.n_faces], dtype=np.int64)
    out = np.zeros(games, dtype=np.int64)
    _play(games, seed, np.asarray(state_index), np.asarray(reroll), np.asarray(category),
          np.ascontiguousarray(st.score), np.ascontiguousarray(st.joker_score),
          np.ascontiguousarray(st.yahtzee_face), code_to_roll, params, out)
    return out
