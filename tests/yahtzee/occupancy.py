"""An exact forward pass of a Yahtzee policy over the turn-start states, in numpy, from the rules as stated in
docs/yahtzee.md: independent of the numba kernels (solver.exact_statistics, the score-law pass).

``occupancy(rules, state_index, reroll, category)`` plays the policy tables (``Solution`` / the policy artifact's
arrays) from the start of a game and returns P[mask, upper, ybox], the probability that the game passes through
each turn-start state (upper total capped at the threshold, ybox 1 if the Yahtzee box holds 50). The dice laws
are counted here over ordered faces (``completion_law``), the kept dice of a reroll mask read off the sorted
roll, and a box's upper points are face x count; nothing else of the rules enters the states.
"""

from __future__ import annotations

import itertools

import numpy as np
from scipy import sparse

CHUNK = 8192  # turn-start states per block (a block's arrays: CHUNK x n_keeps floats)


def completion_law(enc) -> np.ndarray:
    """T[k, r]: probability that keep k, its other dice rerolled, becomes roll r (brute force over faces)."""
    index = {tuple(roll): r for r, roll in enumerate(enc.rolls.tolist())}
    t = np.zeros((enc.n_keeps, enc.n_rolls))
    for k, keep in enumerate(enc.keeps):
        free = enc.n_dice - len(keep)
        for faces in itertools.product(range(enc.n_faces), repeat=free):
            t[k, index[tuple(sorted(keep + faces))]] += 1.0 / enc.n_faces ** free
    return t


def _kept(enc) -> np.ndarray:
    """kept[r, m]: the keep of roll r's sorted dice whose bit is not set in reroll mask m."""
    out = np.empty((enc.n_rolls, 1 << enc.n_dice), dtype=np.int64)
    for r, roll in enumerate(enc.rolls.tolist()):
        for m in range(1 << enc.n_dice):
            out[r, m] = enc.keep_index([f for i, f in enumerate(roll) if not (m >> i) & 1])
    return out


def occupancy(rules, state_index: np.ndarray, reroll: np.ndarray, category: np.ndarray) -> np.ndarray:
    enc = rules.encoding
    n_rolls, n_keeps, thr = enc.n_rolls, enc.n_keeps, rules.upper_threshold
    dense = completion_law(enc)
    law, first = sparse.csr_matrix(dense), dense[enc.keep_index([])]  # first: the first roll, every die thrown
    kept = _kept(enc)
    five_alike = np.array([len(set(roll)) == 1 for roll in enc.rolls.tolist()])
    faces = np.arange(1, enc.n_faces + 1)
    upper_points = np.zeros((n_rolls, rules.n_boxes), dtype=np.int64)
    upper_points[:, :enc.n_faces] = np.array([[list(roll).count(f - 1) * f for f in faces]
                                              for roll in enc.rolls.tolist()])
    shape = (1 << rules.n_boxes, thr + 1, 2)
    p = np.zeros(shape)
    p[0, 0, 0] = 1.0
    popcount = np.array([bin(m).count("1") for m in range(shape[0])])
    rolls = np.arange(n_rolls)[:, None]
    # Arrays of a block are (rolls, states): the sparse products then give C-ordered results.
    for n_filled in range(rules.n_boxes):
        masks, uppers, yboxes = np.nonzero(p * (popcount[:, None, None] == n_filled))
        nxt = np.zeros(p.size)
        for lo in range(0, len(masks), CHUNK):
            m, u, y = masks[lo:lo + CHUNK], uppers[lo:lo + CHUNK], yboxes[lo:lo + CHUNK]
            n, rows = len(m), state_index[m, u, y]
            assert (rows >= 0).all(), "the policy lacks a state the game reaches"
            d = first[:, None] * p[m, u, y][None, :]  # (rolls, states)
            column = np.arange(n)[None, :]
            for j in (1, 0):  # reroll[row, j, r]: j = rerolls left - 1
                k = kept[rolls, reroll[rows, j, :].T]
                w = np.bincount((k * n + column).ravel(), weights=d.ravel(), minlength=n_keeps * n)
                d = law.T @ w.reshape(n_keeps, n)
            c = category[rows, :].T.astype(np.int64)
            assert not ((m >> c) & 1)[d > 0].any(), "the policy scores a filled box"
            nu = np.where(c < enc.n_faces, np.minimum(thr, u + upper_points[rolls, c]), u)
            ny = y | ((c == rules.yahtzee_index) & five_alike[:, None])
            flat = np.ravel_multi_index((m | (1 << c), nu, ny), shape)
            nxt += np.bincount(flat.ravel(), weights=d.ravel(), minlength=p.size)
        p = p * (popcount[:, None, None] > n_filled) + nxt.reshape(shape)
    return p


def end_statistics(rules, state_index, reroll, category) -> dict[str, float]:
    """P(upper bonus), P(the Yahtzee box ends holding 50) and the total probability of finished games."""
    p = occupancy(rules, state_index, reroll, category)[(1 << rules.n_boxes) - 1]
    return {"p_upper_bonus": float(p[rules.upper_threshold].sum()), "p_yahtzee_50": float(p[:, 1].sum()),
            "total": float(p.sum())}
