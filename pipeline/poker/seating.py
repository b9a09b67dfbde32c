"""Numba kernels that count, on one full board, the ways to seat random opponents against a known hand:
the number of sets of s disjoint opponent hands (s = 0..kmax) of which none beats the known hand and e tie
with it (``seat_counts``), without dealing a single set.

Why numba: the exact multi-way preflop table runs this count some ten million times (every board up to
suits, every starting hand), and the count is a dynamic programme over small integer states; numpy cannot
vectorise it and Python is ~300 times slower.

**Card types.** On a fixed board the value of an opponent's hand depends on its two cards only through
their ranks, and, when the board holds three or more cards of a suit f (the only suit that can make a
flush), on which of them are of suit f. So the cards left form at most 26 *types* (rank, of suit f or not),
with ``n[t]`` cards each, and the hand of two cards of types a, b is weaker than / equal to / stronger than
the known hand by a colour ``col[a, b]`` (0 L, 1 E, 2 G) that depends on the types alone.

**Seating as a matching count.** A set of s disjoint opponent hands is a matching of s edges on the cards.
The programme takes the types one at a time (order below); each card of the current type a is left out,
paired with another card of a (if ``col[a, a]`` allows), paired with a *pending* card of a type already
taken, or left pending itself (to be paired with a card of a later type). A pending card needs only its
*profile*: the colours of its type against the types still to come; pending cards of equal profiles are
interchangeable, and a state is the number of pending cards of each profile (at most kmax in all). Each
state carries a polynomial: the number of partial matchings by edges s and equal edges e. Every matching
is built exactly once (an edge is made when its later card's type is taken), so the end state without
pending cards holds the counts. Weights: for the n cards of type a, choosing which do what is a
multinomial; pairing j of them with j of the p pending cards of a profile is p! / (p - j)! ways; l pairs
within a are (2l - 1)!! ways.

**Order.** Types are taken greedily: next the type that leaves the fewest distinct profiles among the cards
that could be pending (on the full deck, a few hundred states summed over the steps at kmax = 9).

**Exact integers.** The counts reach 5.9e19 (9 hands from 45 cards) > 2**64: the programme runs in uint64
(exact modulo 2**64) and, for the entries of 8 and 9 hands (``SHADOW_FROM``), also in float64 (every term is
a sum of products of non-negative integers, relative error < 1e-13); the float fixes the multiple of 2**64
(``board_types.exact_entry`` checks that it is unambiguous).
"""

from __future__ import annotations

import numba as nb
import numpy as np

# Colours of an opponent's hand against the known hand, and their 2-bit codes in a profile (G is 0, so a
# profile with no hand left to make is the code 0).
WEAKER, EQUAL, STRONGER = 0, 1, 2
MAX_TYPES = 26  # 13 ranks x (of the flush suit or not)
MAX_CLASSES = 32
TWO64 = 18446744073709551616.0
# Below 8 edges every count of the programme is < 2**64 (at most the s-matchings of 45 cards times the ways
# to pick its pending cards, s + pending <= 9: 1.05e19 at s = 7), so only entries from 8 edges carry a
# float64 copy (at s = 8 with a pending card they reach 3.8e19).
SHADOW_FROM = 8


@nb.njit(cache=True)
def _encode(colour):
    return 1 if colour == WEAKER else (2 if colour == EQUAL else 0)


@nb.njit(cache=True)
def _distinct_nonzero(codes, m, mask):
    """Number of distinct nonzero values among ``codes[:m] & mask``."""
    out = 0
    for i in range(m):
        x = codes[i] & mask
        if x == 0:
            continue
        seen = False
        for j in range(i):
            if codes[j] & mask == x:
                seen = True
                break
        if not seen:
            out += 1
    return out


@nb.njit(cache=True)
def greedy_order(n, col):
    """The order in which ``seat_counts`` takes the types with cards: each time the type that leaves the
    fewest distinct nonzero profiles among the types taken (ties: the lowest index). Returns (order, m)."""
    T = n.shape[0]
    code = np.zeros(T, dtype=np.int64)
    for b in range(T):
        if n[b] == 0:
            continue
        for c in range(T):
            if n[c] > 0 and c != b:
                code[b] |= np.int64(_encode(col[b, c])) << np.int64(2 * c)
    order = np.empty(T, dtype=np.int64)
    left = np.zeros(T, dtype=np.bool_)
    rest = np.int64(0)
    m = 0
    for b in range(T):
        if n[b] > 0:
            left[b] = True
            rest |= np.int64(3) << np.int64(2 * b)
            m += 1
    taken = np.empty(T + 1, dtype=np.int64)
    for i in range(m):
        best = -1
        score = 1 << 30
        for a in range(T):
            if not left[a]:
                continue
            mask = rest & ~(np.int64(3) << np.int64(2 * a))
            taken[i] = code[a]
            s = _distinct_nonzero(taken, i + 1, mask)
            if s < score:
                score = s
                best = a
        order[i] = best
        taken[i] = code[best]
        left[best] = False
        rest &= ~(np.int64(3) << np.int64(2 * best))
    return order, m


@nb.njit(cache=True)
def merge_types(n, col):
    """Types that no hand can tell apart, merged: a group of types (with cards) is one type when any two of
    its cards make a hand of one colour and every other type has one colour with all of its cards. Returns
    (n, col) of the groups (the same cards, the same hands)."""
    T = n.shape[0]
    group = np.full(T, -1, dtype=np.int64)
    reps = np.empty(T, dtype=np.int64)
    inner = np.empty(T, dtype=np.int64)  # colour of two cards of a group, -1 while it holds one card
    g = 0
    for b in range(T):
        if n[b] == 0:
            continue
        for h in range(g):
            a = reps[h]
            if inner[h] >= 0 and col[a, b] != inner[h]:
                continue
            if n[b] >= 2 and col[b, b] != col[a, b]:
                continue
            same = True
            for c in range(T):
                if n[c] > 0 and c != b and group[c] != h and col[c, a] != col[c, b]:
                    same = False
                    break
            if same:
                group[b] = h
                inner[h] = col[a, b]
                break
        if group[b] < 0:
            group[b] = g
            reps[g] = b
            inner[g] = col[b, b] if n[b] >= 2 else -1
            g += 1
    n2 = np.zeros(g, dtype=np.int64)
    col2 = np.full((g, g), STRONGER, dtype=np.int64)
    for b in range(T):
        if group[b] >= 0:
            n2[group[b]] += n[b]
    for h in range(g):
        for k in range(g):
            col2[h, k] = col[reps[h], reps[k]] if h != k else (inner[h] if inner[h] >= 0 else STRONGER)
    return n2, col2


@nb.njit(cache=True)
def _find_or_add(codes, count, x):
    for i in range(count):
        if codes[i] == x:
            return i, count
    codes[count] = x
    return count, count + 1


@nb.njit(cache=True)
def seat_counts(n, col, kmax, lo, approx, ws):
    """Matchings of the cards (``n[t]`` cards of type t) into s disjoint hands, s = 0..kmax, none of colour
    STRONGER, by number e of EQUAL hands: ``lo[s, e]`` = count mod 2**64 (uint64), ``approx[s, e]`` the same
    count in float64 (both [kmax + 1, kmax + 1], overwritten); ``ws`` = ``workspace(kmax, cap)``. Returns the
    number of states visited (summed over the steps: the work), or -1 when a step has more than ``cap``
    states (the caller retries with a larger workspace). See the module docstring for the method."""
    K1 = kmax + 1
    order, m = greedy_order(n, col)
    T = n.shape[0]
    code = np.zeros(T, dtype=np.int64)
    rest = np.int64(0)
    for b in range(T):
        if n[b] > 0:
            rest |= np.int64(3) << np.int64(2 * b)
            for c in range(T):
                if n[c] > 0 and c != b:
                    code[b] |= np.int64(_encode(col[b, c])) << np.int64(2 * c)
    keys, cnt, poly, polyf, hkeys, hidx, hslot, binom, fact, rows = ws
    cap = keys.shape[1]
    hsize = hkeys.shape[0]
    cur = 0
    nstates = 1
    keys[0, 0] = 0
    poly[0, 0] = 0
    polyf[0, 0] = 0.0
    poly[0, 0, 0, 0] = 1
    polyf[0, 0, 0, 0] = 1.0
    rows[0, 0] = 1
    ccode = np.zeros(MAX_CLASSES, dtype=np.int64)
    nclass = 0
    ncode = np.zeros(MAX_CLASSES, dtype=np.int64)
    cmap = np.zeros(MAX_CLASSES, dtype=np.int64)
    ccol = np.zeros(MAX_CLASSES, dtype=np.int64)
    work = 0
    mc = np.zeros(MAX_CLASSES, dtype=np.int64)
    jv = np.zeros(MAX_CLASSES, dtype=np.int64)
    jlo = np.zeros(MAX_CLASSES, dtype=np.int64)
    jhi = np.zeros(MAX_CLASSES, dtype=np.int64)
    jc = np.zeros(MAX_CLASSES, dtype=np.int64)
    basecnt = np.zeros(MAX_CLASSES, dtype=np.int64)
    newcnt = np.zeros(MAX_CLASSES, dtype=np.int64)
    for step in range(m):
        a = order[step]
        na = n[a]
        nxt = 1 - cur
        rest_next = rest & ~(np.int64(3) << np.int64(2 * a))
        self_col = col[a, a] if na >= 2 else STRONGER
        nnext = 0
        for c in range(nclass):
            x = ccode[c] & rest_next
            if x == 0:
                cmap[c] = -1
            else:
                cmap[c], nnext = _find_or_add(ncode, nnext, x)
            ccol[c] = (ccode[c] >> np.int64(2 * a)) & 3  # 1 L, 2 E, 0 G
        anew = -1
        if code[a] & rest_next:
            anew, nnext = _find_or_add(ncode, nnext, code[a] & rest_next)
        nn = 0
        for st in range(nstates):
            pend = 0
            nm = 0
            dead = False
            for c in range(nclass):
                p = cnt[cur, st, c]
                if p == 0:
                    continue
                pend += p
                if ccol[c] != 0:
                    mc[nm] = c
                    nm += 1
                elif cmap[c] < 0:
                    dead = True  # pending cards with no partner left
            if dead:
                continue
            # Odometer over j[0..nm): jlo_i <= j_i <= jhi_i, sum <= na, where a class with no later partner
            # must pair all its cards now (jlo = jhi = its count).
            used = 0
            for i in range(nm):
                c = mc[i]
                jhi[i] = cnt[cur, st, c] if cmap[c] < 0 else min(cnt[cur, st, c], na)
                jlo[i] = cnt[cur, st, c] if cmap[c] < 0 else 0
                jv[i] = jlo[i]
                used += jlo[i]
            while True:
                if used <= na:
                    # Which `used` cards of a pair with pending cards, C(na, used), and how: (used)! / prod j!
                    # ways to split them among the profiles, p! / (p - j)! pairings in each.
                    base = binom[na, used] * fact[used]
                    de0 = 0
                    for i in range(nm):
                        c = mc[i]
                        base = base * binom[cnt[cur, st, c], jv[i]]
                        if ccol[c] == 2:
                            de0 += jv[i]
                    # The pending cards left, by next profile (before this type's own).
                    for c in range(nnext):
                        basecnt[c] = 0
                    for c in range(nclass):
                        jc[c] = 0
                    for i in range(nm):
                        jc[mc[i]] = jv[i]
                    for c in range(nclass):
                        left = cnt[cur, st, c] - jc[c]
                        if left > 0:
                            basecnt[cmap[c]] += left
                    lmax = (na - used) // 2 if self_col != STRONGER else 0
                    for loops in range(lmax + 1):
                        qmax = na - used - 2 * loops if anew >= 0 else 0
                        dfact = np.uint64(1)
                        for t in range(1, 2 * loops, 2):
                            dfact *= np.uint64(t)
                        for q in range(qmax + 1):
                            pend2 = pend - used + q
                            ds = used + loops
                            smax = kmax - pend2 - ds
                            if smax < 0:
                                break
                            # Then which 2l cards pair within a, (2l - 1)!! ways, and which q wait.
                            coef = base * binom[na - used, 2 * loops] * dfact * binom[na - used - 2 * loops, q]
                            # The coefficient itself passes 2**64 in a merged type of 45 cards (C(45, 18) x
                            # 17!!): exact modulo 2**64 above, its float64 from the factors.
                            cf = (np.float64(base) * np.float64(binom[na - used, 2 * loops]) * np.float64(dfact)
                                  * np.float64(binom[na - used - 2 * loops, q]))
                            de = de0 + (loops if self_col == EQUAL else 0)
                            for c in range(nnext):
                                newcnt[c] = basecnt[c]
                            if q > 0:
                                newcnt[anew] += q
                            # The state's key: the sorted profile ids of its pending cards (at most 9), 6 bits
                            # each; then its slot in the open-addressing table, the key mixed first (its low
                            # bits hold the first id only). Written out here, not called: a call passing an
                            # array costs two atomic reference counts, which were most of the time.
                            key = np.int64(0)
                            shift = np.int64(0)
                            for c in range(nnext):
                                for _ in range(newcnt[c]):
                                    key |= np.int64(c + 1) << shift
                                    shift += 6
                            x = np.uint64(key)
                            x ^= x >> np.uint64(31)
                            x *= np.uint64(0x9E3779B97F4A7C15)
                            x ^= x >> np.uint64(29)
                            h = np.int64(x & np.uint64(hsize - 1))
                            while hkeys[h] != -1 and hkeys[h] != key:
                                h = (h + 1) & (hsize - 1)
                            if hkeys[h] == -1:
                                if nn == cap:  # out of room: empty the table, the caller retries with more
                                    for t in range(nn):
                                        hkeys[hslot[t]] = -1
                                    return -1
                                hkeys[h] = key
                                hidx[h] = nn
                                hslot[nn] = h
                                keys[nxt, nn] = key
                                for c in range(nnext):
                                    cnt[nxt, nn, c] = newcnt[c]
                                poly[nxt, nn] = 0
                                for t in range(SHADOW_FROM, K1):
                                    polyf[nxt, nn, t] = 0.0
                                rows[nxt, nn] = 0
                                nn += 1
                            tgt = hidx[h]
                            live = rows[cur, st] & ((np.int64(2) << smax) - 1)  # the nonzero rows s
                            rows[nxt, tgt] |= live << ds
                            for s in range(smax + 1):
                                if not (live >> s) & 1:
                                    continue
                                for e in range(s + 1):
                                    x = poly[cur, st, s, e]
                                    if x != 0:
                                        poly[nxt, tgt, s + ds, e + de] += coef * x
                                        if s + ds >= SHADOW_FROM:
                                            src = polyf[cur, st, s, e] if s >= SHADOW_FROM else np.float64(x)
                                            polyf[nxt, tgt, s + ds, e + de] += cf * src
                # next j vector
                i = 0
                while i < nm:
                    if jv[i] < jhi[i]:
                        jv[i] += 1
                        used += 1
                        break
                    used -= jv[i] - jlo[i]
                    jv[i] = jlo[i]
                    i += 1
                if i == nm:
                    break
        for t in range(nn):  # empty the table for the next step
            hkeys[hslot[t]] = -1
        work += nn
        nstates = nn
        cur = nxt
        for c in range(nnext):
            ccode[c] = ncode[c]
        nclass = nnext
        rest = rest_next
    lo[:, :] = 0
    approx[:, :] = 0.0
    for st in range(nstates):
        if keys[cur, st] == 0:
            for s in range(K1):
                for e in range(K1):
                    lo[s, e] = poly[cur, st, s, e]
                    approx[s, e] = polyf[cur, st, s, e] if s >= SHADOW_FROM else np.float64(lo[s, e])
    return work


@nb.njit(cache=True)
def workspace(kmax, cap=4096):
    """The arrays ``seat_counts`` keeps its states in, for ``cap`` states per step (reused from call to call:
    allocating them per call cost more than the counting)."""
    K1 = kmax + 1
    return (np.empty((2, cap), dtype=np.int64), np.empty((2, cap, MAX_CLASSES), dtype=np.int8),
            np.empty((2, cap, K1, K1), dtype=np.uint64), np.empty((2, cap, K1, K1), dtype=np.float64),
            np.full(4 * cap, -1, dtype=np.int64), np.zeros(4 * cap, dtype=np.int64), np.zeros(cap, dtype=np.int64),
            _binomials(64), _factorials(21), np.empty((2, cap), dtype=np.int64))


@nb.njit(cache=True)
def _binomials(size):
    out = np.zeros((size, size), dtype=np.uint64)
    for i in range(size):
        out[i, 0] = 1
        for j in range(1, i + 1):
            out[i, j] = out[i - 1, j - 1] + out[i - 1, j]
    return out


@nb.njit(cache=True)
def _factorials(size):
    out = np.ones(size, dtype=np.uint64)
    for i in range(1, size):
        out[i] = out[i - 1] * np.uint64(i)
    return out
