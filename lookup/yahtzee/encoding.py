"""Multisets of dice: rolls (all dice) and keeps (any number of dice), as integer indices.

Everything is parametrised by the number of dice ``n_dice`` and of faces ``n_faces``; no count is
hard-coded. Faces are 0-based here (face index ``f`` shows ``f + 1`` pips).

Conventions
-----------
* A *keep* is a multiset of 0..n_dice dice. Keeps are numbered by size, then lexicographically on
  their sorted face tuple; keep 0 is the empty keep. The keeps of size ``n_dice`` are the *rolls*:
  roll ``r`` is keep ``roll_offset + r`` and the rolls are numbered 0..n_rolls-1 in the same order.
* A roll is shown sorted ascending; a *reroll mask* is an ``n_dice``-bit integer over the SORTED
  dice: bit ``i`` set means die ``i`` (the i-th smallest) is rerolled, clear means it is kept.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from functools import cache

import numpy as np

__all__ = ["DiceEncoding", "get_encoding"]


@dataclass(frozen=True, eq=False)
class DiceEncoding:
    """All index tables for multisets of ``n_dice`` dice with ``n_faces`` faces (read-only arrays).

    Attributes (K = number of keeps, R = number of rolls, D = n_dice, F = n_faces):

    keeps: list of sorted face tuples, index = keep index.
    keep_size[K]: number of dice in each keep.
    keep_counts[K, F]: how many dice of each face a keep holds.
    size_offset[D + 2]: keeps of size m are ``size_offset[m]:size_offset[m + 1]``.
    roll_offset: keep index of roll 0 (``size_offset[D]``).
    rolls[R, D]: the sorted faces of each roll (0-based faces).
    roll_counts[R, F]: face counts of each roll.
    roll_prob[R]: probability of each sorted roll when all D dice are thrown (sums to 1).
    add_die[K, F]: keep index of ``keep + face``; -1 for keeps that already hold D dice.
    remove_die[K, F]: keep index of ``keep - face``; -1 if the keep holds no such die.
    sub_ptr[K + 1], sub_idx: CSR list, for each keep, of the distinct keeps obtained by removing one
        die (one entry per distinct face present, in increasing face order).
    keep_of_mask[R, 2**D]: keep index of the dice NOT rerolled under each reroll mask.
    mask_order[2**D]: reroll masks sorted by (number of dice rerolled, mask value): the tie order.
    yahtzee_face[R]: face of an all-alike roll, -1 otherwise.
    """

    n_dice: int
    n_faces: int
    keeps: tuple[tuple[int, ...], ...]
    keep_size: np.ndarray
    keep_counts: np.ndarray
    size_offset: np.ndarray
    roll_offset: int
    rolls: np.ndarray
    roll_counts: np.ndarray
    roll_prob: np.ndarray
    add_die: np.ndarray
    remove_die: np.ndarray
    sub_ptr: np.ndarray
    sub_idx: np.ndarray
    keep_of_mask: np.ndarray
    mask_order: np.ndarray
    yahtzee_face: np.ndarray

    @property
    def n_keeps(self) -> int:
        return len(self.keeps)

    @property
    def n_rolls(self) -> int:
        return len(self.rolls)

    @property
    def n_masks(self) -> int:
        return 1 << self.n_dice

    def roll_index(self, dice) -> int:
        """Index of a roll given as any sequence of 0-based faces (order does not matter)."""
        key = tuple(sorted(int(d) for d in dice))
        if len(key) != self.n_dice or not all(0 <= d < self.n_faces for d in key):
            raise ValueError(f"not a roll of {self.n_dice} dice with faces 0..{self.n_faces - 1}: {dice!r}")
        return _keep_lookup(self.n_dice, self.n_faces)[key] - self.roll_offset

    def keep_index(self, dice) -> int:
        """Index of a keep given as any sequence of 0-based faces (0..n_dice dice)."""
        key = tuple(sorted(int(d) for d in dice))
        return _keep_lookup(self.n_dice, self.n_faces)[key]

    def mask_for_keep(self, roll: int, keep: int) -> int:
        """The lowest reroll mask over the sorted dice of ``roll`` whose kept dice form ``keep``."""
        hits = np.flatnonzero(self.keep_of_mask[roll] == keep)
        if hits.size == 0:
            raise ValueError(f"keep {self.keeps[keep]} is not a sub-multiset of roll {tuple(self.rolls[roll])}")
        return int(hits[0])


@cache
def _keep_lookup(n_dice: int, n_faces: int) -> dict[tuple[int, ...], int]:
    keeps = _enumerate_keeps(n_dice, n_faces)
    return {k: i for i, k in enumerate(keeps)}


def _enumerate_keeps(n_dice: int, n_faces: int) -> list[tuple[int, ...]]:
    out: list[tuple[int, ...]] = []
    for m in range(n_dice + 1):
        out.extend(itertools.combinations_with_replacement(range(n_faces), m))
    return out


@cache
def get_encoding(n_dice: int = 5, n_faces: int = 6) -> DiceEncoding:
    """The (cached) encoding tables for ``n_dice`` dice of ``n_faces`` faces."""
    if n_dice < 1 or n_faces < 2 or n_dice > 8:
        raise ValueError(f"unsupported dice: n_dice={n_dice}, n_faces={n_faces}")
    keeps = _enumerate_keeps(n_dice, n_faces)
    lookup = _keep_lookup(n_dice, n_faces)
    n_keeps = len(keeps)
    keep_size = np.array([len(k) for k in keeps], dtype=np.int64)
    keep_counts = np.zeros((n_keeps, n_faces), dtype=np.int64)
    for i, k in enumerate(keeps):
        for f in k:
            keep_counts[i, f] += 1
    size_offset = np.searchsorted(keep_size, np.arange(n_dice + 2)).astype(np.int64)
    roll_offset = int(size_offset[n_dice])
    rolls = np.array(keeps[roll_offset:], dtype=np.int64)
    roll_counts = keep_counts[roll_offset:].copy()
    n_rolls = len(rolls)

    # Multinomial probability of a sorted roll: n! / prod(c!) / F^n (exact up to float rounding).
    fact = [math.factorial(c) for c in range(n_dice + 1)]
    roll_prob = np.array(
        [fact[n_dice] / math.prod(fact[c] for c in cnt) for cnt in roll_counts], dtype=np.float64
    ) / float(n_faces) ** n_dice

    add_die = np.full((n_keeps, n_faces), -1, dtype=np.int64)
    remove_die = np.full((n_keeps, n_faces), -1, dtype=np.int64)
    for i, k in enumerate(keeps):
        for f in range(n_faces):
            if len(k) < n_dice:
                add_die[i, f] = lookup[tuple(sorted(k + (f,)))]
            if f in k:
                lst = list(k)
                lst.remove(f)
                remove_die[i, f] = lookup[tuple(lst)]
    sub_lists = [[int(remove_die[i, f]) for f in range(n_faces) if remove_die[i, f] >= 0] for i in range(n_keeps)]
    sub_ptr = np.zeros(n_keeps + 1, dtype=np.int64)
    sub_ptr[1:] = np.cumsum([len(s) for s in sub_lists])
    sub_idx = np.array([j for s in sub_lists for j in s], dtype=np.int64)

    n_masks = 1 << n_dice
    keep_of_mask = np.empty((n_rolls, n_masks), dtype=np.int64)
    for r, roll in enumerate(rolls):
        for mask in range(n_masks):
            kept = tuple(int(roll[i]) for i in range(n_dice) if not (mask >> i) & 1)
            keep_of_mask[r, mask] = lookup[kept]
    mask_order = np.array(sorted(range(n_masks), key=lambda m: (bin(m).count("1"), m)), dtype=np.int64)
    yahtzee_face = np.where(roll_counts.max(axis=1) == n_dice, rolls[:, 0], -1).astype(np.int64)

    arrays = dict(
        keep_size=keep_size, keep_counts=keep_counts, size_offset=size_offset, rolls=rolls,
        roll_counts=roll_counts, roll_prob=roll_prob, add_die=add_die, remove_die=remove_die,
        sub_ptr=sub_ptr, sub_idx=sub_idx, keep_of_mask=keep_of_mask, mask_order=mask_order,
        yahtzee_face=yahtzee_face,
    )
    for a in arrays.values():
        a.setflags(write=False)
    return DiceEncoding(n_dice=n_dice, n_faces=n_faces, keeps=tuple(keeps), roll_offset=roll_offset, **arrays)
