"""Numba kernels of the exact multi-way preflop counts: boards grouped into *types* that no count can tell
apart, and, per type and starting hand, the opponents seated by ``pipeline.poker.seating``.

Why numba: some ten million (board type, hand) counts, each needing a few hundred hand values and a
dynamic programme (``seating``), and 2,598,960 boards to sort into types.

**Board types.** Values on a board depend on its ranks and, when three or more of its cards share a suit f
(at most one suit can: 3 + 3 > 5), on which of its ranks are of suit f; other suits can make no flush. So a
board's type is its rank multiset when no suit has three cards (no flush for anyone), else (the ranks of
suit f, the other ranks): 6,175 + 36,608 types of the 2,598,960 boards. Every board of a type gives every
hand of each *hand type* (the two cards' ranks, and which of them are of suit f) the same counts: the cards
left form the same card types (``seating``) with the same sizes, and the same colours.

A hand's counts on a type are computed once, on the type's first board, and weighted by the number of
(board, hand) pairs of the type with that hand type, split by the hand's class: a pair, suited (two cards of
one suit) or offsuit. The counts come out as exact integers in four 32-bit limbs (uint64 words) per entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from math import comb
from typing import Any

import numba as nb
import numpy as np

from pipeline.poker.kernels import _add, _value2
from pipeline.poker.seating import EQUAL, STRONGER, TWO64, WEAKER, merge_types, seat_counts, workspace

# Board type codes: a rank multiset (no suit with three cards) is its sorted ranks in base 13; a board with a
# suit f of three or more cards is FLUSH_BASE + (mask of f's ranks) x 196 + (other ranks + 1, base 14).
FLUSH_BASE = 13 ** 5
# The kinds of starting hands: the slots of a task's counts.
PAIR, SUITED, OFFSUIT = 0, 1, 2
KINDS = (PAIR, SUITED, OFFSUIT)
LIMB = np.uint64(0xFFFFFFFF)
# The float64 copy of a count must lie this close to the exact one (its error is ~1e-13 relative; 2**63
# would be ambiguous).
APPROX_SLACK = 2.0 ** 40


@nb.njit(cache=True)
def _flush_suit_of(board):
    """The suit with three or more cards of ``board``, or -1."""
    count = np.zeros(4, dtype=np.int64)
    for c in board:
        count[c & 3] += 1
    for s in range(4):
        if count[s] >= 3:
            return s
    return -1


@nb.njit(cache=True)
def board_code(board):
    """The type code of a board (five cards; see the module docstring)."""
    f = _flush_suit_of(board)
    if f < 0:
        code = 0
        for r in np.sort(board >> 2):
            code = 13 * code + r
        return code
    mask = 0
    other = np.empty(5, dtype=np.int64)
    k = 0
    for c in board:
        if (c & 3) == f:
            mask |= 1 << (c >> 2)
        else:
            other[k] = c >> 2
            k += 1
    code = 0
    for r in np.sort(other[:k]):
        code = 14 * code + r + 1
    return FLUSH_BASE + mask * 196 + code


@nb.njit(cache=True)
def deck_boards(cards):
    """Every five-card board of the deck ``cards`` (sorted) and its type code: (boards int8 [M, 5], codes
    int64 [M]), boards in lexicographic order."""
    n = cards.shape[0]
    total = 0
    if n >= 5:
        total = n * (n - 1) * (n - 2) * (n - 3) * (n - 4) // 120
    boards = np.empty((total, 5), dtype=np.int8)
    codes = np.empty(total, dtype=np.int64)
    b = np.empty(5, dtype=np.int64)
    i = 0
    for c1 in range(n):
        b[0] = cards[c1]
        for c2 in range(c1 + 1, n):
            b[1] = cards[c2]
            for c3 in range(c2 + 1, n):
                b[2] = cards[c3]
                for c4 in range(c3 + 1, n):
                    b[3] = cards[c4]
                    for c5 in range(c4 + 1, n):
                        b[4] = cards[c5]
                        for j in range(5):
                            boards[i, j] = b[j]
                        codes[i] = board_code(b)
                        i += 1
    return boards, codes


@nb.njit(cache=True)
def type_values(board, in_deck, rank_next, last, first6, flush_value):
    """On ``board`` (int64 [5]): (cards of the deck (``in_deck`` [52]) left per card type t = 2 x rank + (1 if
    of the flush suit), cnt [26]; value of a hand of one card of type a and one of type b, tval [26, 26], 0
    where the types do not hold the cards)."""
    f = _flush_suit_of(board)
    cnt = np.zeros(26, dtype=np.int64)
    rep = np.full((26, 2), -1, dtype=np.int64)
    on_board = np.zeros(52, dtype=np.bool_)
    for c in board:
        on_board[c] = True
    for c in range(52):
        if in_deck[c] and not on_board[c]:
            t = 2 * (c >> 2) + (1 if (c & 3) == f else 0)
            if cnt[t] < 2:
                rep[t, cnt[t]] = c
            cnt[t] += 1
    s5, q5, z5 = 0, 0, 0
    for c in board:
        s5, q5, z5 = _add(s5, q5, z5, c, rank_next)
    tval = np.zeros((26, 26), dtype=np.int64)
    for a in range(26):
        if cnt[a] == 0:
            continue
        for b in range(a, 26):
            if cnt[b] == 0 or (a == b and cnt[a] < 2):
                continue
            ca = rep[a, 0]
            cb = rep[b, 1] if a == b else rep[b, 0]
            v = _value2(s5, q5, z5, min(ca, cb), max(ca, cb), rank_next, last, first6, flush_value)
            tval[a, b] = v
            tval[b, a] = v
    return cnt, tval


@nb.njit(cache=True)
def hand_type_counts(cnt, tval, ta, tb, kmax, ws, lo, approx):
    """The seating counts of a hand of card types ta, tb (its value ``tval[ta, tb]``) against the cards left
    (``cnt`` without the hand's two): ``lo``, ``approx`` as ``seating.seat_counts``. Returns the work, or -1
    when the workspace was too small."""
    n = cnt.copy()
    n[ta] -= 1
    n[tb] -= 1
    v = tval[ta, tb]
    m = 0
    for t in range(26):
        if n[t] > 0:
            m += 1
    idx = np.empty(m, dtype=np.int64)
    m = 0
    for t in range(26):
        if n[t] > 0:
            idx[m] = t
            m += 1
    nn = np.empty(m, dtype=np.int64)
    col = np.empty((m, m), dtype=np.int64)
    for i in range(m):
        nn[i] = n[idx[i]]
        for j in range(m):
            w = tval[idx[i], idx[j]]
            col[i, j] = WEAKER if w < v else (EQUAL if w == v else STRONGER)
    n2, col2 = merge_types(nn, col)
    return seat_counts(n2, col2, kmax, lo, approx, ws)


@nb.njit(cache=True)
def exact_entry(lo, approx):
    """(high word, ok) of the count whose low 64 bits are ``lo`` and whose float64 value is ``approx``."""
    hi = np.int64(np.floor((approx - np.float64(lo)) / TWO64 + 0.5))
    back = np.float64(lo) + np.float64(hi) * TWO64
    return hi, hi >= 0 and abs(back - approx) <= APPROX_SLACK + approx * 1e-12


@nb.njit(cache=True)
def _accumulate(acc, slot, s, e, w, lo, hi):
    """acc[slot, s, e] (four 32-bit limbs in uint64 words, carried) += w x (lo + hi x 2**64)."""
    w = np.uint64(w)
    p0 = w * (lo & LIMB)
    p1 = w * (lo >> np.uint64(32))
    p2 = w * np.uint64(hi)
    t = acc[slot, s, e, 0] + (p0 & LIMB)
    acc[slot, s, e, 0] = t & LIMB
    t = acc[slot, s, e, 1] + (p0 >> np.uint64(32)) + (p1 & LIMB) + (t >> np.uint64(32))
    acc[slot, s, e, 1] = t & LIMB
    t = acc[slot, s, e, 2] + (p1 >> np.uint64(32)) + (p2 & LIMB) + (t >> np.uint64(32))
    acc[slot, s, e, 2] = t & LIMB
    acc[slot, s, e, 3] += (p2 >> np.uint64(32)) + (t >> np.uint64(32))


@nb.njit(cache=True, nogil=True)
def block_counts(rank_next, last, first6, flush_value, boards, starts, types, in_deck, suits, x, y, kmax, acc):
    """The counts of the hands of ranks x >= y on the board types ``types`` (their boards are
    ``boards[starts[t]:starts[t + 1]]``), added to ``acc`` uint64 [3 (pair, suited, offsuit), kmax + 1 (s),
    kmax + 1 (e), 4 limbs]: over every board of those types and every hand of ranks x, y of the deck
    (``in_deck`` [52]) off the board, the number of sets of s disjoint opponent hands from the cards left none
    of which beats the hand and e tie with it. Returns (board-type hands counted, states visited, count
    errors: a float64 copy too far from its integer)."""
    K1 = kmax + 1
    ws = workspace(kmax, 4096)
    lo = np.zeros((K1, K1), dtype=np.uint64)
    approx = np.zeros((K1, K1), dtype=np.float64)
    tally = np.zeros((4, 3), dtype=np.int64)
    board = np.empty(5, dtype=np.int64)
    counted = 0
    work = 0
    errors = 0
    for t in types:
        tally[:, :] = 0
        for b in range(starts[t], starts[t + 1]):
            for i in range(5):
                board[i] = boards[b, i]
            f = _flush_suit_of(board)
            for sa in range(suits):
                ca = 4 * x + sa
                if not in_deck[ca] or _holds(board, ca):
                    continue
                for sb in range(suits):
                    cb = 4 * y + sb
                    if (x == y and sb <= sa) or not in_deck[cb] or _holds(board, cb):
                        continue
                    fa = 1 if sa == f else 0
                    fb = 1 if sb == f else 0
                    key = fa + fb if x == y else 2 * fa + fb
                    slot = PAIR if x == y else (SUITED if sa == sb else OFFSUIT)
                    tally[key, slot] += 1
        for i in range(5):
            board[i] = boards[starts[t], i]
        cnt, tval = type_values(board, in_deck, rank_next, last, first6, flush_value)
        for key in range(4):
            if tally[key].sum() == 0:
                continue
            if x == y:  # key: how many of the two cards are of the flush suit (0 or 1)
                ta, tb = 2 * x + key, 2 * x
            else:
                ta, tb = 2 * x + key // 2, 2 * y + key % 2
            if cnt[ta] < 1 or cnt[tb] < 1 or (ta == tb and cnt[ta] < 2):
                errors += 1
                continue
            got = hand_type_counts(cnt, tval, ta, tb, kmax, ws, lo, approx)
            while got < 0:
                ws = workspace(kmax, 2 * ws[0].shape[1])
                got = hand_type_counts(cnt, tval, ta, tb, kmax, ws, lo, approx)
            work += got
            counted += 1
            for s in range(K1):
                for e in range(s + 1):
                    hi, ok = exact_entry(lo[s, e], approx[s, e])
                    if not ok:
                        errors += 1
                    if lo[s, e] == 0 and hi == 0:
                        continue
                    for slot in range(3):
                        if tally[key, slot]:
                            _accumulate(acc, slot, s, e, tally[key, slot], lo[s, e], hi)
    return counted, work, errors


@nb.njit(cache=True)
def _holds(board, card):
    for c in board:
        if c == card:
            return True
    return False


# ---------------------------------------------------------------------------------------------------------
# One task's counts (everything that decides them is in this module and the kernels it calls: the parts of a
# build are reused only while the files of its import closure are unchanged, pipeline.poker.multiway.COUNT_MODULES).


@dataclass(frozen=True)
class Deck:
    """The cards of ``ranks`` (0..12 = 2..A) in suits 0..suits - 1 (card ``4 * rank + suit``)."""

    ranks: tuple[int, ...]
    suits: int

    def cards(self) -> np.ndarray:
        return np.array(sorted(4 * r + s for r in self.ranks for s in range(self.suits)), dtype=np.int64)

    def in_deck(self) -> np.ndarray:
        mask = np.zeros(52, dtype=np.bool_)
        mask[self.cards()] = True
        return mask

    def size(self) -> int:
        return len(self.ranks) * self.suits

    def max_opponents(self) -> int:
        """Most opponents a deal can seat: two cards each beside our two and the five of the board."""
        return (self.size() - 7) // 2

    def rank_pairs(self) -> list[tuple[int, int]]:
        """Every (x, y), x >= y, of the deck's ranks, highest first: the starting hands' ranks."""
        ranks = sorted(self.ranks, reverse=True)
        return [(x, y) for i, x in enumerate(ranks) for y in ranks[i:]]

    def combos(self, x: int, y: int, kind: int) -> int:
        """Specific hands of ranks x, y of a kind (pair, suited, offsuit)."""
        s = self.suits
        return comb(s, 2) if kind == PAIR else (s if kind == SUITED else s * (s - 1))


FULL_DECK = Deck(tuple(range(13)), 4)


@dataclass(frozen=True)
class BoardTypes:
    """The deck's boards grouped by type: type t's boards are ``boards[starts[t]:starts[t + 1]]`` (the first
    one is where its values are computed); ``codes[t]`` its type code (``board_types.board_code``)."""

    boards: np.ndarray
    starts: np.ndarray
    codes: np.ndarray

    @property
    def count(self) -> int:
        return len(self.codes)


@lru_cache(maxsize=4)
def board_types(deck: Deck) -> BoardTypes:
    """Every board of the deck, grouped by type in code order (boards of a type in lexicographic order)."""
    boards, codes = deck_boards(deck.cards())
    types, inverse = np.unique(codes, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.zeros(len(types) + 1, dtype=np.int64)
    starts[1:] = np.cumsum(np.bincount(inverse, minlength=len(types)))
    return BoardTypes(boards[order].astype(np.int64), starts, types)


def block_types(types: int, block: int, blocks: int) -> np.ndarray:
    """The board types of a block: every ``blocks``-th type from ``block`` (interleaved, so that blocks of
    flush and non-flush types, which cost differently, get the same mix)."""
    return np.arange(block, types, blocks, dtype=np.int64)


def limbs_to_int(limbs: np.ndarray) -> int:
    """The integer held in 32-bit limbs (least significant first) of uint64 words."""
    return sum(int(w) << (32 * i) for i, w in enumerate(limbs))


@dataclass(frozen=True)
class TaskCounts:
    """One task's counts: ``counts[kind][s][e]`` (kind: pair, suited, offsuit), over the task's board types
    and every hand of ranks (x, y) of that kind, of the sets of s disjoint opponent hands (unordered) that
    none beats the hand and e tie with it; ``hands`` the (board type, hand type) pairs counted, ``work`` the
    programme's states (see ``seating.seat_counts``)."""

    counts: list[list[list[int]]]
    hands: int
    work: int


def task_counts(deck: Deck, tables: Any, last: np.ndarray, first6: int, x: int, y: int, block: int, blocks: int,
                kmax: int) -> TaskCounts:
    """The counts of one task (ranks x >= y, board block ``block`` of ``blocks``) with up to ``kmax``
    opponents; ``tables`` the evaluator tables, ``last``, ``first6`` their fused table."""
    types = board_types(deck)
    acc = np.zeros((3, kmax + 1, kmax + 1, 4), dtype=np.uint64)
    hands, work, errors = block_counts(tables.rank_next, last, first6, tables.flush_value,
                                       types.boards, types.starts,
                                       block_types(types.count, block, blocks), deck.in_deck(), deck.suits, x, y,
                                       kmax, acc)
    if errors:
        raise RuntimeError(f"multi-way counts for ranks {x}, {y}, block {block}: {errors} inexact entries")
    counts = [[[limbs_to_int(acc[k, s, e]) for e in range(kmax + 1)] for s in range(kmax + 1)] for k in KINDS]
    return TaskCounts(counts, int(hands), int(work))
