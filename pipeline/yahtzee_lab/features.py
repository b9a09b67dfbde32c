"""Small numba helpers on dice and sheets shared by the hand-made players (Decision_Une, Perturbation).

Dice are the SORTED dice of a roll as 0-based faces (face f shows f + 1 pips); a *reroll mask* has bit i
set when die i of the sorted dice is rerolled; ``counts[f]`` is how many dice show face f.
"""

from __future__ import annotations

from lookup.yahtzee.rules import UPPER
from pipeline.jit import njit

PAR_DICE = 3  # three of a face in each upper box makes exactly 63: the usual "par" for the bonus


@njit(cache=True, inline="always")
def keep_faces_mask(dice, face_set, one_each):
    """Reroll mask that keeps the dice whose face is in bitmask ``face_set`` (only one die per face if
    ``one_each``) and rerolls all others."""
    mask = 0
    seen = 0
    for i in range(dice.shape[0]):
        f = dice[i]
        bit = 1 << f
        if (face_set & bit) and not (one_each and (seen & bit)):
            seen |= bit
        else:
            mask |= 1 << i
    return mask


@njit(cache=True, inline="always")
def longest_run(counts):
    """(length, first face) of the longest run of consecutive faces present in ``counts`` (lowest first)."""
    best, best_start, run = 0, 0, 0
    for f in range(counts.shape[0]):
        run = run + 1 if counts[f] > 0 else 0
        if run > best:
            best, best_start = run, f - run + 1
    return best, best_start


@njit(cache=True, inline="always")
def modal_face(counts):
    """The face shown by most dice (ties: the highest face) and its count."""
    best, n = 0, -1
    for f in range(counts.shape[0]):
        if counts[f] >= n:
            best, n = f, counts[f]
    return best, n


@njit(cache=True, inline="always")
def open_upper(filled_mask):
    """Number of open upper boxes."""
    n = 0
    for f in range(UPPER):
        if (filled_mask >> f) & 1 == 0:
            n += 1
    return n


@njit(cache=True, inline="always")
def bonus_playable(filled_mask, upper, threshold):
    """True while the upper bonus is still a sensible goal: not reached yet, and ``PAR_DICE`` dice of
    every open upper face would reach the threshold (the seed's "jouabilite" of the bonus)."""
    if upper >= threshold:
        return False
    reach = upper
    for f in range(UPPER):
        if (filled_mask >> f) & 1 == 0:
            reach += PAR_DICE * (f + 1)
    return reach >= threshold
