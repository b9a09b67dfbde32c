"""Numba kernels of the poker engine: the 7-card evaluator walked incrementally during nested enumeration.

Why numba (and not a library): exhaustive equity needs hundreds of millions of evaluations per second,
and the public evaluators on PyPI (phevaluator, eval7) evaluate one hand per Python call (~1 M/s).

Every kernel takes the evaluator tables of ``lookup.poker.tables`` (``rank_next``, ``rank_value``,
``flush_value``) plus a *fused* table ``last[s - first6, r] = rank_value[rank_next[s, r]]`` for the six-card
states ``s >= first6`` (``fused_table``), so that the innermost loop of an enumeration costs one lookup.
Suits are tracked packed: ``sc`` holds a 4-bit count per suit (``1 << 4 * suit``), ``sm`` a 13-bit rank mask
per suit (``1 << 16 * suit + rank``); seven cards have a flush when a nibble of ``sc`` reaches 5.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from lookup.poker.rules import CATEGORY_SHIFT


def fused_table(rank_next: np.ndarray, rank_value: np.ndarray) -> tuple[np.ndarray, int]:
    """(last uint16 [S6, 13], first6): values of the 7-card multisets reached from each 6-card state."""
    first6, end6 = _size_range(rank_next, 6)
    nxt = rank_next[first6:end6]
    last = np.where(nxt >= 0, rank_value[np.maximum(nxt, 0)], 0).astype(np.uint16)
    return last, first6


def _size_range(rank_next: np.ndarray, size: int) -> tuple[int, int]:
    """[first, end) state ids of the multisets of ``size`` cards (states are numbered by size)."""
    level = np.array([0])
    for _ in range(size):
        nxt = rank_next[level]
        level = np.unique(nxt[nxt >= 0])
    return int(level.min()), int(level.max()) + 1


@nb.njit(inline="always")
def flush_suit(sc):
    """Index of the suit with five or more cards in the packed counts ``sc``, or -1."""
    hit = (sc + 0x3333) & 0x8888
    if hit == 0:
        return -1
    s = 0
    while not (hit >> (4 * s + 3)) & 1:
        s += 1
    return s


@nb.njit(parallel=True, cache=True)
def seven_card_census(rank_next, last, first6, flush_value):
    """Evaluate every one of the C(52, 7) seven-card hands in enumeration order.

    Returns (count per category [9], count per value [1 << 16]); parallel over the first card.
    """
    n_threads = 52
    cats = np.zeros((n_threads, 9), dtype=np.int64)
    seen = np.zeros((n_threads, 1 << 16), dtype=np.int64)
    for c1 in nb.prange(52):
        s1 = rank_next[0, c1 >> 2]
        q1 = 1 << 4 * (c1 & 3)
        m1 = 1 << 16 * (c1 & 3) + (c1 >> 2)
        for c2 in range(c1 + 1, 52):
            s2 = rank_next[s1, c2 >> 2]
            q2 = q1 + (1 << 4 * (c2 & 3))
            m2 = m1 | (1 << 16 * (c2 & 3) + (c2 >> 2))
            for c3 in range(c2 + 1, 52):
                s3 = rank_next[s2, c3 >> 2]
                q3 = q2 + (1 << 4 * (c3 & 3))
                m3 = m2 | (1 << 16 * (c3 & 3) + (c3 >> 2))
                for c4 in range(c3 + 1, 52):
                    s4 = rank_next[s3, c4 >> 2]
                    q4 = q3 + (1 << 4 * (c4 & 3))
                    m4 = m3 | (1 << 16 * (c4 & 3) + (c4 >> 2))
                    for c5 in range(c4 + 1, 52):
                        s5 = rank_next[s4, c5 >> 2]
                        q5 = q4 + (1 << 4 * (c5 & 3))
                        m5 = m4 | (1 << 16 * (c5 & 3) + (c5 >> 2))
                        for c6 in range(c5 + 1, 52):
                            s6 = rank_next[s5, c6 >> 2] - first6
                            q6 = q5 + (1 << 4 * (c6 & 3))
                            m6 = m5 | (1 << 16 * (c6 & 3) + (c6 >> 2))
                            for c7 in range(c6 + 1, 52):
                                q7 = q6 + (1 << 4 * (c7 & 3))
                                if (q7 + 0x3333) & 0x8888:
                                    s = flush_suit(q7)
                                    m7 = m6 | (1 << 16 * (c7 & 3) + (c7 >> 2))
                                    v = flush_value[(m7 >> 16 * s) & 0x1FFF]
                                else:
                                    v = last[s6, c7 >> 2]
                                cats[c1, v >> CATEGORY_SHIFT] += 1
                                seen[c1, v] += 1
    return cats.sum(axis=0), seen.sum(axis=0)


@nb.njit(parallel=True, cache=True)
def seven_card_checksum(rank_next, last, first6, flush_value):
    """Sum of the values of every seven-card hand (a benchmark of raw enumeration speed)."""
    total = np.zeros(52, dtype=np.int64)
    for c1 in nb.prange(52):
        acc = 0
        s1 = rank_next[0, c1 >> 2]
        q1 = 1 << 4 * (c1 & 3)
        m1 = 1 << 16 * (c1 & 3) + (c1 >> 2)
        for c2 in range(c1 + 1, 52):
            s2 = rank_next[s1, c2 >> 2]
            q2 = q1 + (1 << 4 * (c2 & 3))
            m2 = m1 | (1 << 16 * (c2 & 3) + (c2 >> 2))
            for c3 in range(c2 + 1, 52):
                s3 = rank_next[s2, c3 >> 2]
                q3 = q2 + (1 << 4 * (c3 & 3))
                m3 = m2 | (1 << 16 * (c3 & 3) + (c3 >> 2))
                for c4 in range(c3 + 1, 52):
                    s4 = rank_next[s3, c4 >> 2]
                    q4 = q3 + (1 << 4 * (c4 & 3))
                    m4 = m3 | (1 << 16 * (c4 & 3) + (c4 >> 2))
                    for c5 in range(c4 + 1, 52):
                        s5 = rank_next[s4, c5 >> 2]
                        q5 = q4 + (1 << 4 * (c5 & 3))
                        m5 = m4 | (1 << 16 * (c5 & 3) + (c5 >> 2))
                        for c6 in range(c5 + 1, 52):
                            s6 = rank_next[s5, c6 >> 2] - first6
                            q6 = q5 + (1 << 4 * (c6 & 3))
                            m6 = m5 | (1 << 16 * (c6 & 3) + (c6 >> 2))
                            for c7 in range(c6 + 1, 52):
                                q7 = q6 + (1 << 4 * (c7 & 3))
                                if (q7 + 0x3333) & 0x8888:
                                    s = flush_suit(q7)
                                    m7 = m6 | (1 << 16 * (c7 & 3) + (c7 >> 2))
                                    acc += flush_value[(m7 >> 16 * s) & 0x1FFF]
                                else:
                                    acc += last[s6, c7 >> 2]
        total[c1] = acc
    return total.sum()
