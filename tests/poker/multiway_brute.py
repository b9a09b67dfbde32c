"""Plain enumeration of multi-way deals on a reduced deck, independent of the counting by board and card types
(``pipeline.poker.board_types``, ``pipeline.poker.seating``): every board, every hand of ours, every set of
disjoint opponent hands, one at a time. Values come from the numpy evaluator (``lookup.poker.evaluate``,
itself checked against phevaluator); nothing is grouped, merged or weighted.
"""

from __future__ import annotations

from itertools import combinations

import numba as nb
import numpy as np

from lookup.poker.evaluate import values


@nb.njit(cache=False)
def _enumerate(n, boards, val, kmax, key_of, out):
    """out[key_of[i, j], s, e] += 1 for every board, every hand (i, j) of ours off it, and every set of s <= kmax
    disjoint opponent hands from the cards left none of which beats ours, e of them equal to it (cards are
    indices 0..n-1 of the deck; val[b, i, j] the value of board b with cards i, j)."""
    hand_u = np.empty(n * n, dtype=np.int64)
    hand_v = np.empty(n * n, dtype=np.int64)
    hand_e = np.empty(n * n, dtype=np.int64)
    stack = np.empty(kmax + 1, dtype=np.int64)
    for b in range(boards.shape[0]):
        on = 0
        for c in boards[b]:
            on |= 1 << c
        for i in range(n):
            if on >> i & 1:
                continue
            for j in range(i + 1, n):
                if on >> j & 1:
                    continue
                v = val[b, i, j]
                used0 = on | (1 << i) | (1 << j)
                m = 0
                for p in range(n):
                    if used0 >> p & 1:
                        continue
                    for q in range(p + 1, n):
                        if used0 >> q & 1 or val[b, p, q] > v:
                            continue
                        hand_u[m] = p
                        hand_v[m] = q
                        hand_e[m] = 1 if val[b, p, q] == v else 0
                        m += 1
                key = key_of[i, j]
                # Depth-first over increasing hand indices: each set of hands once.
                depth = 0
                stack[0] = -1
                used = used0
                ties = 0
                out[key, 0, 0] += 1
                while depth >= 0:
                    h = stack[depth] + 1
                    while h < m and (used >> hand_u[h] & 1 or used >> hand_v[h] & 1):
                        h += 1
                    if h < m and depth < kmax:
                        stack[depth] = h
                        used |= (1 << hand_u[h]) | (1 << hand_v[h])
                        ties += hand_e[h]
                        depth += 1
                        out[key, depth, ties] += 1
                        stack[depth] = h
                    else:
                        depth -= 1
                        if depth >= 0:
                            g = stack[depth]
                            used &= ~((1 << hand_u[g]) | (1 << hand_v[g]))
                            ties -= hand_e[g]
    return out


def brute_counts(deck, tables, kmax: int) -> dict[tuple[int, int, int], list[list[int]]]:
    """{(x, y, kind): counts[s][e]} over the deck (``pipeline.poker.board_types.Deck``): kind 0 pair, 1 suited,
    2 offsuit; counts of (board, hand of ours, set of s disjoint opponent hands) with none better than ours
    and e equal."""
    cards = deck.cards()
    n = len(cards)
    boards = np.array(list(combinations(range(n), 5)), dtype=np.int64)
    pairs = np.array(list(combinations(range(n), 2)), dtype=np.int64)
    val = np.full((len(boards), n, n), -1, dtype=np.int64)
    for b, board in enumerate(boards):
        free = pairs[~np.isin(pairs, board).any(axis=1)]
        seven = np.concatenate([np.broadcast_to(cards[board], (len(free), 5)), cards[free]], axis=1)
        v = values(seven, tables).astype(np.int64)
        val[b, free[:, 0], free[:, 1]] = v
        val[b, free[:, 1], free[:, 0]] = v
    keys = {}
    key_of = np.full((n, n), -1, dtype=np.int64)
    for i, j in pairs:
        a, c = int(cards[i]), int(cards[j])
        x, y = max(a >> 2, c >> 2), min(a >> 2, c >> 2)
        kind = 0 if x == y else (1 if a % 4 == c % 4 else 2)
        key_of[i, j] = keys.setdefault((x, y, kind), len(keys))
    out = _enumerate(n, boards, val, kmax, key_of, np.zeros((len(keys), kmax + 1, kmax + 1), dtype=np.int64))
    return {k: out[i].tolist() for k, i in keys.items()}
