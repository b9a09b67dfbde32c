"""The evaluator tables, computed from the rules' ``hand_key`` (no hand-typed table anywhere).

* ``rank_next[s, r]``: the rank-multiset automaton. State ``s`` is a multiset of card ranks (at most 4 of a
  rank, at most 7 cards); adding a card of rank ``r`` leads to ``rank_next[s, r]`` (-1: impossible). State 0
  is the empty multiset; states are numbered by size, then by their base-5 code.
* ``rank_value[s]``: value of the best five cards of the multiset ``s`` ignoring suits (0 below five cards).
* ``flush_value[m]``: value of the best five cards of one suit whose ranks are the bits of ``m`` (a flush
  or a straight flush; 0 below five bits).

Seven cards with five or more of one suit can hold neither quads nor a full house (each uses at most two
cards of a suit), so the flush value, when there is one, is the hand's value; otherwise ``rank_value`` is.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from lookup.poker.rules import CATEGORY_SHIFT, hand_key

MAX_CARDS = 7


def _nonflush_cards(ranks: tuple[int, ...]) -> list[int]:
    """Five cards of the given ranks that are not all of one suit (suits dealt round-robin)."""
    return [4 * r + (i % 4) for i, r in enumerate(ranks)]


def five_card_values() -> tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]]:
    """(value of each sorted five-rank multiset without a flush, value of each five distinct ranks suited)."""
    plain = {}
    for ranks in combinations(list(range(13)) * 4, 5):
        ranks = tuple(sorted(ranks))
        if ranks not in plain and max(ranks.count(r) for r in ranks) <= 4:
            plain[ranks] = hand_key(_nonflush_cards(ranks))
    suited = {ranks: hand_key([4 * r for r in ranks]) for ranks in combinations(range(13), 5)}
    keys = sorted(set(plain.values()) | set(suited.values()))
    order: dict[int, int] = {}
    value_of = {}
    for key in keys:
        cat = key[0]
        value_of[key] = (cat << CATEGORY_SHIFT) | order.get(cat, 1)
        order[cat] = order.get(cat, 1) + 1
    return ({r: value_of[k] for r, k in plain.items()}, {r: value_of[k] for r, k in suited.items()})


def _code(counts: tuple[int, ...]) -> int:
    return sum(c * 5 ** r for r, c in enumerate(counts))


def rank_automaton() -> tuple[np.ndarray, np.ndarray]:
    """(rank_next int32 [S, 13], rank_value uint16 [S]) over every rank multiset of at most 7 cards."""
    plain, _ = five_card_values()
    levels = [[(0,) * 13]]
    for _ in range(MAX_CARDS):
        nxt = set()
        for counts in levels[-1]:
            for r in range(13):
                if counts[r] < 4:
                    nxt.add(counts[:r] + (counts[r] + 1,) + counts[r + 1:])
        levels.append(sorted(nxt, key=_code))
    states = [s for level in levels for s in level]
    index = {s: i for i, s in enumerate(states)}
    rank_next = np.full((len(states), 13), -1, dtype=np.int32)
    rank_value = np.zeros(len(states), dtype=np.uint16)
    for i, counts in enumerate(states):
        size = sum(counts)
        if size < MAX_CARDS:
            for r in range(13):
                if counts[r] < 4:
                    rank_next[i, r] = index[counts[:r] + (counts[r] + 1,) + counts[r + 1:]]
        if size == 5:
            rank_value[i] = plain[tuple(r for r in range(13) for _ in range(counts[r]))]
        elif size > 5:
            # Best five of six or seven: the best over removing one card (smaller states are done first).
            rank_value[i] = max(rank_value[index[counts[:r] + (counts[r] - 1,) + counts[r + 1:]]]
                                for r in range(13) if counts[r])
    return rank_next, rank_value


def flush_table() -> np.ndarray:
    """flush_value uint16 [8192]: best flush / straight flush of a suit's rank mask (0 below five bits)."""
    _, suited = five_card_values()
    table = np.zeros(1 << 13, dtype=np.uint16)
    for mask in sorted(range(1 << 13), key=lambda m: m.bit_count()):
        bits = mask.bit_count()
        if bits == 5:
            table[mask] = suited[tuple(r for r in range(13) if mask >> r & 1)]
        elif bits > 5:
            table[mask] = max(table[mask & ~(1 << r)] for r in range(13) if mask >> r & 1)
    return table


def value_order(rank_value: np.ndarray, flush_value: np.ndarray) -> np.ndarray:
    """Every distinct five-card value, ascending (7462 of them): ``np.searchsorted`` gives a value's ordinal."""
    return np.unique(np.concatenate([rank_value[rank_value > 0], flush_value[flush_value > 0]]))
