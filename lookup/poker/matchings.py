"""Sets of n disjoint opponents' hands, counted by card type instead of enumerated (any n, numpy only).

On a full board the opponents' possible hands are the edges of a graph on the cards left (the pool), coloured
weaker (0), equal (1) or stronger (2) than the best known value; the deals where no opponent beats it are the
n-matchings of the weaker-or-equal edges, wanted by how many of their edges are equal. Enumerating them grows
like pool^(2n); this counts them in a time that depends on n, the number of card **types** and the colours between
them, not on the number of matchings.

Cards are of one type when they are interchangeable: swapping two of them maps every hand onto one of the same
colour. On a board where no suit can make a flush (at most two board cards of each), a hand's value depends on
its two ranks only, so the cards of a rank are one type (13 types, up to 4 cards each); where one suit can (three
or more board cards of it), that suit's card of each rank is a type of its own (26 types, the flush suit's at
most 1 card each). The colour of a hand then depends on its two types only (``colours``).

A matching is then counted as a multigraph on the types: an edge between types a and b stands for the choices of
one card of each. The types are taken one at a time (``type_matchings``), each with its ``pending`` edges from the
types already taken, still to be given one of its cards; taking a type gives them distinct cards (c!/(c - h)!
ways for h pending edges and c cards), pairs some of its other cards among themselves (C(r, 2p) (2p - 1)!!), and
starts edges towards each later type (C(r, x) ways to pick the x cards) as new pending edges. A state is the
vector of pending edges of the later types, with the edges made so far by how many are equal: the states stay few
(at most n pending edges), and all the boards of a block share one pass (a state's key holds its board).
Every weight is an integer, and a state's value counts distinct partial matchings, so the counts are exact
(int64 while the matchings of the whole pool fit in it, Python integers beyond: ``count_dtype``).
"""

from __future__ import annotations

from math import comb, perm

import numpy as np

from lookup.poker.problem import unordered_matchings

WEAK, EQUAL, STRONG = 0, 1, 2
RANKS, SUITS = 13, 4
TYPES = 2 * RANKS  # the flush suit's card of each rank (types 0..12, aces first), then the other cards (13..25)
FLUSH_BOARD = 3  # board cards of a suit from which its cards can make a flush (a hand adds at most two)
INT64_SAFE = 1 << 62
CHUNK = 16  # distinct boards counted side by side at most (their states share each numpy operation)
SLACK = 4  # how far over their share of the budget some boards may go (boards differ)
OBJECT_COST = 8  # a state entry in Python integers costs about this many in int64 (docs/benchmarks.md, "Poker")


def count_dtype(pool: int, n: int, boards: int = 1) -> type | np.dtype:
    """int64 when every count of at most n disjoint hands from ``pool`` cards, summed over ``boards`` boards, stays
    below 2**62; else object (Python integers, exact whatever the size; ~6e19 sets of 9 hands from 45 cards)."""
    bound = boards * sum(unordered_matchings(pool, j) for j in range(n + 1))
    return np.int64 if bound < INT64_SAFE else object


def card_types(full: np.ndarray, rem: np.ndarray) -> np.ndarray:
    """``[board, card]``: the type (0..25) of each card of ``rem`` on each full board ``full`` ``[board, 5]``: rank r
    (0 = deuce .. 12 = ace) is type 12 - r for the card of the board's flush suit (one with three or more board
    cards), 25 - r otherwise."""
    suit_counts = np.stack([((full & 3) == s).sum(axis=1) for s in range(SUITS)], axis=1)
    flush = np.where(suit_counts.max(axis=1) >= FLUSH_BOARD, suit_counts.argmax(axis=1), -1)
    rank, suit = rem >> 2, rem & 3
    # Highest ranks first: the order in which ``type_matchings`` takes the types (the flush suit's, each at most one
    # card, before the others) keeps its states fewest (measured: up to ten times fewer than other orders).
    return np.where(suit[None, :] == flush[:, None], RANKS - 1 - rank[None, :], TYPES - 1 - rank[None, :])


def colours(types: np.ndarray, pairs: np.ndarray, colour: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``[board, type, type]`` (int8): the colour of a hand of one card of each type (``STRONG`` where the board has
    no such hand), from the colours ``colour[board, pair]`` of the hands ``pairs`` (indices into the cards typed by
    ``types[board, card]``) that ``valid[board, pair]`` (both cards in the pool). Cards of a type are
    interchangeable, so every hand of two given types has the same colour (tests: against the enumeration)."""
    boards = types.shape[0]
    out = np.full((boards, TYPES, TYPES), STRONG, dtype=np.int8)
    b, p = np.nonzero(valid)
    ta, tb = types[b, pairs[p, 0]], types[b, pairs[p, 1]]
    out[b, ta, tb] = colour[b, p]
    out[b, tb, ta] = colour[b, p]
    return out


def _merge(key: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """States with equal keys added together (keys sorted), states whose counts are all zero dropped. The sums are
    differences of running sums (a segmented ``reduceat`` over the states is several times slower); the running
    sums stay exact because every state counts distinct partial matchings of its board (``count_dtype``)."""
    order = np.argsort(key, kind="stable")
    key = key[order]
    ends = np.flatnonzero(np.r_[key[1:] != key[:-1], True])
    flat = vals.reshape(len(vals), -1)[order]
    total = np.cumsum(flat, axis=0)[ends]
    total[1:] -= total[:-1].copy()
    alive = (total != 0).any(axis=1)
    return key[ends][alive], total[alive].reshape((-1,) + vals.shape[1:])


def _shifted(vals: np.ndarray, edges: int, equal: np.ndarray) -> np.ndarray:
    """``vals`` ``[state, edges made, equal edges]`` after ``edges`` more edges, all equal where ``equal[state]``
    else all weaker (counts beyond n edges fall off)."""
    if edges == 0:
        return vals.copy()
    out = np.zeros_like(vals)
    top = vals.shape[1] - edges
    if top <= 0:
        return out
    out[~equal, edges:, :] = vals[~equal, :top, :]
    out[equal, edges:, edges:] = vals[equal, :top, :top]
    return out


def type_matchings(caps: np.ndarray, colour: np.ndarray, n: int, budget: float = float("inf"),
                   dtype: type | np.dtype | None = None) -> tuple[np.ndarray | None, float]:
    """(``[board, t]``, work): per board, the sets of n disjoint hands, none ``STRONG``, exactly t of them ``EQUAL``;
    None instead when the work would exceed ``budget``.

    ``caps[board, type]``: the pool's cards of each type; ``colour[board, a, b]``: the colour of a hand of a card
    of type a and one of type b (for a == b two cards of that type). ``dtype``: of the counts (default: int64
    where ``count_dtype`` allows it for the boards counted together, else Python integers).
    The work is counted in state entries (a state's counts by edges and equal edges, n + 1 by n + 1 of them)
    merged, ``OBJECT_COST`` each in Python integers. It stops (the answer would come too late) as soon as the work
    passes ``budget``, a chunk's passes ``SLACK`` times its boards' share of it, or the work projected from the boards
    counted to all of them passes ``SLACK`` times the budget."""
    # Boards alike in their cards' types and the colours between them have the same counts (on a turn, the river
    # cards of one rank that make no flush): each distinct board is counted once.
    signature = np.concatenate([caps, colour.reshape(len(caps), -1)], axis=1)
    _, first, alike = np.unique(signature, axis=0, return_index=True, return_inverse=True)
    distinct = len(first)
    # The boards are taken in a spread order (np.unique sorts alike boards together), so that the first ones are a
    # fair sample of the rest, in chunks growing 1, 2, 4 .. CHUNK boards, so that a count which cannot fit stops
    # after a small part of the budget, not at its end.
    order = np.argsort(np.arange(distinct) % max(1, distinct // CHUNK), kind="stable")
    pool = int(caps.sum(axis=1).max(initial=0))
    out = np.zeros((distinct, n + 1), dtype=dtype or count_dtype(pool, n))
    spent, lo, size = 0.0, 0, 1
    while lo < distinct:
        rows = first[order[lo:lo + size]]
        share = min(budget - spent, SLACK * budget * len(rows) / distinct)
        kind = dtype or count_dtype(pool, n, len(rows))
        cost = OBJECT_COST if kind is object else 1
        try:
            counts, work = _count(caps[rows], colour[rows], n, kind, share / cost)
        except _OverBudget as over:
            return None, spent + over.work * cost
        out[order[lo:lo + size]] = counts
        spent += work * cost
        lo += len(rows)
        if spent * distinct / lo > SLACK * budget:  # far beyond: stop now, not at the end of the budget
            return None, spent
        size = min(2 * size, CHUNK)
    return out[alike.ravel()], spent


class _OverBudget(Exception):
    """Raised inside ``_count`` when its work passes its allowance (``work``: the entries merged so far)."""

    def __init__(self, work: int) -> None:
        super().__init__(work)
        self.work = work


def _count(caps: np.ndarray, colour: np.ndarray, n: int, dtype: type | np.dtype,
           allowance: float) -> tuple[np.ndarray, int]:
    """``type_matchings`` for boards of distinct signatures, all at once (their states side by side): the counts
    and the entries merged; ``_OverBudget`` once those pass ``allowance``."""
    boards, types = caps.shape
    base = caps.max(axis=0).astype(np.int64) + 1  # the pending edges of a type range over 0..its most cards
    radix = np.concatenate([[1], np.cumprod(base)[:-1]]).astype(np.int64)
    span = int(np.prod(base))
    most = int(base.max())
    binomial = np.array([[comb(c, h) for h in range(most)] for c in range(most)], dtype=dtype)
    # c (c - 1) ... (c - h + 1): the ways to give h distinguishable pending edges distinct cards of c (0 if h > c).
    falling = np.array([[perm(c, h) for h in range(most)] for c in range(most)], dtype=dtype)
    # A state: its key = (board * span + pending code) * 5 + the cards of the current type not yet given.
    key = np.arange(boards, dtype=np.int64) * span * 5
    vals = np.zeros((boards, n + 1, n + 1), dtype=dtype)
    vals[:, 0, 0] = 1
    spent = 0

    def merge(key: np.ndarray, vals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        nonlocal spent
        spent += vals.size
        if spent > allowance:
            raise _OverBudget(spent)
        return _merge(key, vals)

    for a in range(types):
        if base[a] == 1:
            continue
        board, code = key // 5 // span, key // 5 % span
        pending = code // radix[a] % base[a]
        cards = caps[board, a]
        vals = vals * falling[cards, pending][:, None, None]
        code = code - pending * radix[a]
        rem = cards - pending
        key = (board * span + code) * 5 + rem
        # Pairs within the type (p of them from the r cards left: C(r, 2p) (2p - 1)!! ways).
        inside = colour[board, a, a]
        keys, parts = [key], [vals]
        for p in (1, 2):
            sel = (rem >= 2 * p) & (inside != STRONG)
            if sel.any():
                ways = binomial[rem[sel], 2 * p] * (1 if p == 1 else 3)  # (2p - 1)!! = 1, 3
                keys.append(key[sel] - 2 * p)
                parts.append(_shifted(vals[sel], p, inside[sel] == EQUAL) * ways[:, None, None])
        key, vals = merge(np.concatenate(keys), np.concatenate(parts))
        # Edges to each later type b: x of the r cards left start x pending edges of b (C(r, x) ways).
        for b in range(a + 1, types):
            if base[b] == 1 or not len(key):
                continue
            board, code, rem = key // 5 // span, key // 5 % span, key % 5
            col = colour[board, a, b]
            room = np.where(col == STRONG, 0, np.minimum(rem, caps[board, b] - code // radix[b] % base[b]))
            keys, parts = [key], [vals]
            for x in range(1, int(room.max(initial=0)) + 1):
                sel = room >= x
                ways = binomial[rem[sel], x]
                keys.append(key[sel] + x * radix[b] * 5 - x)
                parts.append(_shifted(vals[sel], x, col[sel] == EQUAL) * ways[:, None, None])
            key, vals = merge(np.concatenate(keys), np.concatenate(parts))
        key, vals = merge(key - key % 5, vals)  # the cards left over stay out of the matching
    out = np.zeros((boards, n + 1), dtype=dtype)
    np.add.at(out, key // 5 // span, vals[:, n, :])
    return out, spent

