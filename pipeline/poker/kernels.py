"""Numba kernels of the poker engine: the 7-card evaluator walked incrementally during nested enumeration.

Why numba (and not a library): exhaustive equity needs hundreds of millions of evaluations per second,
and the public evaluators on PyPI (phevaluator, eval7) evaluate one hand per Python call (~1 M/s).

Every kernel takes the evaluator tables of ``lookup.poker.tables`` (``rank_next``, ``rank_value``,
``flush_value``) plus a *fused* table ``last[s - first6, r] = rank_value[rank_next[s, r]]`` for the six-card
states ``s >= first6`` (``fused_table``), so that the innermost loop of an enumeration costs one lookup.
Suits are tracked packed: ``sc`` holds a 4-bit count per suit (``1 << 4 * suit``), ``sm`` a 13-bit rank mask
per suit (``1 << 16 * suit + rank``); seven cards have a flush when a nibble of ``sc`` reaches 5.

The small helpers (``_add``, ``_value2``, ...) are plain ``nb.njit`` functions, not ``inline="always"``: numba
types and lowers an inlined body again at every call site, which only lengthened compiling; LLVM inlines the
calls anyway (same counts, same speed: docs/benchmarks.md, test-suite section).

No kernel is ``parallel=True``: numba's parfor passes would type and lower each ``prange`` body a second time
(as a gufunc), so each kernel's per-task loop is a ``nogil`` chunk kernel run on threads by
``pipeline.jit.run_chunks``, and a Python function of the kernel's name allocates the per-task outputs and
reduces them as before.
"""

from __future__ import annotations

import numba as nb
import numpy as np

from lookup.poker.rules import CATEGORY_SHIFT
from pipeline.jit import run_chunks


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


@nb.njit
def flush_suit(sc):
    """Index of the suit with five or more cards in the packed counts ``sc``, or -1."""
    hit = (sc + 0x3333) & 0x8888
    if hit == 0:
        return -1
    s = 0
    while not (hit >> (4 * s + 3)) & 1:
        s += 1
    return s


@nb.njit(cache=True, nogil=True)
def _seven_card_census_chunk(chunk, start, stop, rank_next, last, first6, flush_value, census, cats, seen, total):
    """First cards ``start .. stop - 1`` of ``seven_card_census`` into their rows of cats, seen and total."""
    for c1 in range(start, stop):
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
                                    v = flush_value[(m7 >> 16 * s) & 0x1FFF]
                                else:
                                    v = last[s6, c7 >> 2]
                                acc += v
                                if census:
                                    cats[c1, v >> CATEGORY_SHIFT] += 1
                                    seen[c1, v] += 1
        total[c1] = acc


def seven_card_census(rank_next, last, first6, flush_value, census):
    """Evaluate every one of the C(52, 7) seven-card hands in enumeration order (the evaluator's test and
    benchmark). Returns (count per category [9], count per value [1 << 16], sum of all values); the counts
    only when ``census`` (the benchmark times the evaluation alone). Parallel over the first card, one chunk
    each (their work differs 10^4-fold: threads take them one by one).
    """
    rows = 52 if census else 1
    cats = np.zeros((rows, 9), dtype=np.int64)
    seen = np.zeros((rows, 1 << 16), dtype=np.int64)
    total = np.zeros(52, dtype=np.int64)
    run_chunks(_seven_card_census_chunk, 52, 52, rank_next, last, first6, flush_value, census, cats, seen, total)
    return cats.sum(axis=0), seen.sum(axis=0), int(total.sum())


# ---------------------------------------------------------------------------------------------------------
# Exact equity: enumerate the board completions (one suit-orbit representative each, weighted by the
# orbit's size) and, on each full board, count the unknown opponents' hands instead of dealing them.


@nb.njit
def _add(state, sc, sm, card, rank_next):
    return rank_next[state, card >> 2], sc + (1 << 4 * (card & 3)), sm | (1 << 16 * (card & 3) + (card >> 2))


@nb.njit
def _value2(state5, sc5, sm5, a, b, rank_next, last, first6, flush_value):
    """Value of the five board cards (state5, sc5, sm5) plus the cards a and b."""
    sc = sc5 + (1 << 4 * (a & 3)) + (1 << 4 * (b & 3))
    if (sc + 0x3333) & 0x8888:
        s = flush_suit(sc)
        sm = sm5 | (1 << 16 * (a & 3) + (a >> 2)) | (1 << 16 * (b & 3) + (b >> 2))
        return flush_value[(sm >> 16 * s) & 0x1FFF]
    return last[rank_next[state5, a >> 2] - first6, b >> 2]


@nb.njit(cache=True)
def matching_tally(eu, ev, color, n_edges, nmax, budget, tally):
    """Count the matchings of at most ``nmax`` edges among the first ``n_edges`` edges (endpoints eu, ev <
    64), by size j and number e of edges of color 1: ``tally[j, e] += 1`` per matching (the empty one
    included). Each matching is visited once, as an increasing sequence of edge indices. Returns the
    nodes visited, or -1 when that exceeds ``budget`` (tally is then incomplete)."""
    emask = np.empty(n_edges, dtype=np.uint64)
    for j in range(n_edges):
        emask[j] = (np.uint64(1) << np.uint64(eu[j])) | (np.uint64(1) << np.uint64(ev[j]))
    pos = np.zeros(nmax + 1, dtype=np.int64)
    chosen = np.zeros(nmax + 1, dtype=np.int64)
    depth = 0
    mask = np.uint64(0)
    ecount = 0
    work = 0
    tally[0, 0] += 1
    while True:
        j = pos[depth]
        if depth < nmax:
            while j < n_edges and (mask & emask[j]) != 0:
                j += 1
            work += j - pos[depth] + 1
        else:
            j = n_edges
        if j < n_edges:
            chosen[depth] = j
            pos[depth] = j + 1
            mask |= emask[j]
            ecount += color[j]
            depth += 1
            pos[depth] = j + 1
            tally[depth, ecount] += 1
            if work > budget:
                return -1
        else:
            if depth == 0:
                return work
            depth -= 1
            j = chosen[depth]
            mask ^= emask[j]
            ecount -= color[j]


@nb.njit(cache=True)
def _orbit_weight(cards, k, perms):
    """|G| / |stabiliser| if the sorted ``cards[:k]`` is the smallest of its orbit under the suit
    permutations ``perms`` (row 0 = identity), else 0."""
    g = perms.shape[0]
    if g == 1:
        return 1
    stab = 1
    img = np.empty(5, dtype=np.int64)
    for p in range(1, g):
        for i in range(k):
            img[i] = perms[p, cards[i]]
        for i in range(1, k):  # insertion sort of at most 5 cards
            x = img[i]
            j = i - 1
            while j >= 0 and img[j] > x:
                img[j + 1] = img[j]
                j -= 1
            img[j + 1] = x
        cmp = 0
        for i in range(k):
            if img[i] != cards[i]:
                cmp = -1 if img[i] < cards[i] else 1
                break
        if cmp < 0:
            return 0
        if cmp == 0:
            stab += 1
    return g // stab


@nb.njit(cache=True)
def _weak_equal_counts(s5, q5, z5, pool, p, vmax, n, rank_next, last, first6, flush_value, table, dl, de):
    """(nl, ne, sum C(dl, 2), sum dl de, sum C(de, 2)): opponent hands from ``pool[:p]`` weaker than /
    equal to ``vmax`` on the full board (s5, q5, z5), and the degree sums that count disjoint pairs of them
    (the last three only for n = 2).

    Without a flush a hand's value depends on its two ranks only: the 13 x 13 values are looked up once and
    weighted by the number of cards of each rank in the pool. The hands that do make a flush (both cards of
    the suit when the board holds three of it, at least one with four, all with five) are corrected one by
    one."""
    cr = np.zeros(13, dtype=np.int64)
    for a in range(p):
        cr[pool[a] >> 2] += 1
    for ra in range(13):
        sa = rank_next[s5, ra]
        for rb in range(13):
            if sa < 0 or cr[ra] == 0 or cr[rb] == 0:
                table[ra, rb] = 2
                continue
            v = np.int64(last[sa - first6, rb])
            table[ra, rb] = 0 if v < vmax else (1 if v == vmax else 2)
    nl = 0
    ne = 0
    for ra in range(13):
        for rb in range(ra, 13):
            pairs = cr[ra] * cr[rb] if ra != rb else cr[ra] * (cr[ra] - 1) // 2
            if table[ra, rb] == 0:
                nl += pairs
            elif table[ra, rb] == 1:
                ne += pairs
    if n == 2:
        for a in range(p):
            ra = pool[a] >> 2
            x = 0
            y = 0
            for rb in range(13):
                c = cr[rb] - (1 if rb == ra else 0)
                if table[ra, rb] == 0:
                    x += c
                elif table[ra, rb] == 1:
                    y += c
            dl[a] = x
            de[a] = y
    fs = flush_suit(q5 + 0x2222)  # a suit with three or more board cards
    if fs >= 0:
        cs = (q5 >> 4 * fs) & 0xF
        for a in range(p):
            ca = pool[a]
            ina = 1 if (ca & 3) == fs else 0
            if cs == 3 and ina == 0:
                continue
            for b in range(a + 1, p):
                cb = pool[b]
                inb = 1 if (cb & 3) == fs else 0
                if cs + ina + inb < 5:
                    continue
                old = table[ca >> 2, cb >> 2]
                sm = z5 | (1 << 16 * (ca & 3) + (ca >> 2)) | (1 << 16 * (cb & 3) + (cb >> 2))
                v = np.int64(flush_value[(sm >> 16 * fs) & 0x1FFF])
                new = 0 if v < vmax else (1 if v == vmax else 2)
                if new == old:
                    continue
                dlx = (1 if new == 0 else 0) - (1 if old == 0 else 0)
                dex = (1 if new == 1 else 0) - (1 if old == 1 else 0)
                nl += dlx
                ne += dex
                if n == 2:
                    dl[a] += dlx
                    dl[b] += dlx
                    de[a] += dex
                    de[b] += dex
    sll = 0
    sle = 0
    see = 0
    if n == 2:
        for a in range(p):
            sll += dl[a] * (dl[a] - 1) // 2
            see += de[a] * (de[a] - 1) // 2
            sle += dl[a] * de[a]
    return nl, ne, sll, sle, see


@nb.njit(cache=True, nogil=True)
def _exact_counts_chunk(chunk, first, stop, rank_next, last, first6, flush_value, hands, board, rem, k, n, perms,
                        order, budget, method, D, A, failed):
    """Tasks ``first .. stop - 1`` of ``exact_counts`` (first cards ``order[task]``) into ``D[task]``,
    ``A[task]`` and ``failed[task]`` (``start`` is the body's first changed depth)."""
    m = hands.shape[0]
    R = rem.shape[0]
    s0, q0, z0 = 0, 0, 0
    for c in board:
        s0, q0, z0 = _add(s0, q0, z0, c, rank_next)
    p = R - k
    for task in range(first, stop):
        idx = np.empty(max(k, 1), dtype=np.int64)
        st = np.zeros(6, dtype=np.int64)
        qs = np.zeros(6, dtype=np.int64)
        zs = np.zeros(6, dtype=np.int64)
        cards = np.empty(5, dtype=np.int64)
        vals = np.empty(m, dtype=np.int64)
        pool = np.empty(p, dtype=np.int64)
        ps = np.empty(p, dtype=np.int64)
        dl = np.zeros(p, dtype=np.int64)
        de = np.zeros(p, dtype=np.int64)
        npairs = p * (p - 1) // 2
        eu = np.empty(npairs, dtype=np.int64)
        ev = np.empty(npairs, dtype=np.int64)
        ec = np.empty(npairs, dtype=np.int64)
        hu = np.empty(npairs, dtype=np.int64)
        hv = np.empty(npairs, dtype=np.int64)
        hc = np.empty(npairs, dtype=np.int64)
        tally = np.zeros((n + 1, n + 1), dtype=np.int64)
        table = np.zeros((13, 13), dtype=np.int64)
        st[0], qs[0], zs[0] = s0, q0, z0
        if k == 0:
            if task > 0:
                continue
            start = 0
        else:
            idx[0] = order[task]
            if idx[0] > R - k:
                continue
            for i in range(1, k):
                idx[i] = idx[0] + i
            start = 0
        while True:
            for d in range(start, k):
                c = rem[idx[d]]
                cards[d] = c
                st[d + 1], qs[d + 1], zs[d + 1] = _add(st[d], qs[d], zs[d], c, rank_next)
            w = _orbit_weight(cards, k, perms)
            if w > 0:
                s5, q5, z5 = st[k], qs[k], zs[k]
                vmax = -1
                ktop = 0
                for i in range(m):
                    v = _value2(s5, q5, z5, hands[i, 0], hands[i, 1], rank_next, last, first6, flush_value)
                    vals[i] = v
                    if v > vmax:
                        vmax = v
                        ktop = 1
                    elif v == vmax:
                        ktop += 1
                if n == 0:
                    for i in range(m):
                        if vals[i] == vmax:
                            D[task, i, ktop, 0] += w
                else:
                    # The pool: rem without this completion (both sorted).
                    j = 0
                    t = 0
                    for r in range(R):
                        if t < k and idx[t] == r:
                            t += 1
                        else:
                            pool[j] = rem[r]
                            ps[j] = rank_next[s5, rem[r] >> 2]
                            j += 1
                    if n <= 2:
                        nl, ne, sll, sle, see = _weak_equal_counts(s5, q5, z5, pool, p, vmax, n, rank_next, last,
                                                                   first6, flush_value, table, dl, de)
                        if n == 1:
                            c0, c1, c2 = nl, ne, 0
                        else:
                            c0 = nl * (nl - 1) // 2 - sll
                            c1 = nl * ne - sle
                            c2 = ne * (ne - 1) // 2 - see
                        for i in range(m):
                            if vals[i] == vmax:
                                D[task, i, ktop, 0] += w * c0
                                D[task, i, ktop, 1] += w * c1
                                if n == 2:
                                    D[task, i, ktop, 2] += w * c2
                    else:
                        # n >= 3: the hands as edges of the weak-or-equal (eu, ev) and equal-or-strong (hu, hv)
                        # graphs, then their matchings are counted.
                        nw = 0
                        nh = 0
                        for a in range(p):
                            ca = pool[a]
                            for b in range(a + 1, p):
                                cb = pool[b]
                                sc = q5 + (1 << 4 * (ca & 3)) + (1 << 4 * (cb & 3))
                                if (sc + 0x3333) & 0x8888:
                                    s = flush_suit(sc)
                                    sm = z5 | (1 << 16 * (ca & 3) + (ca >> 2)) | (1 << 16 * (cb & 3) + (cb >> 2))
                                    v = flush_value[(sm >> 16 * s) & 0x1FFF]
                                else:
                                    v = last[ps[a] - first6, cb >> 2]
                                if v < vmax:
                                    eu[nw] = a
                                    ev[nw] = b
                                    ec[nw] = 0
                                    nw += 1
                                elif v == vmax:
                                    eu[nw] = a
                                    ev[nw] = b
                                    ec[nw] = 1
                                    nw += 1
                                    hu[nh] = a
                                    hv[nh] = b
                                    hc[nh] = 1
                                    nh += 1
                                else:
                                    hu[nh] = a
                                    hv[nh] = b
                                    hc[nh] = 0
                                    nh += 1
                        tally[:, :] = 0
                        direct = nw <= nh if method == 0 else method == 1
                        if direct:
                            got = matching_tally(eu, ev, ec, nw, n, budget, tally)
                        else:
                            got = matching_tally(hu, hv, hc, nh, n, budget, tally)
                        if got < 0:
                            failed[task] += 1
                            break
                        for i in range(m):
                            if vals[i] == vmax:
                                if direct:
                                    for t2 in range(n + 1):
                                        D[task, i, ktop, t2] += w * tally[n, t2]
                                else:
                                    for j2 in range(n + 1):
                                        for e2 in range(j2 + 1):
                                            A[task, i, ktop, j2, e2] += w * tally[j2, e2]
            # Next combination sharing idx[0]; ``start`` = first depth whose card changed.
            if k <= 1:
                break
            d = k - 1
            while d >= 1 and idx[d] == R - k + d:
                d -= 1
            if d == 0:
                break
            idx[d] += 1
            for i in range(d + 1, k):
                idx[i] = idx[i - 1] + 1
            start = d


def exact_counts(rank_next, last, first6, flush_value, hands, board, rem, k, n, perms, order, budget, method):
    """Exact counts over every completion of ``board`` by ``k`` cards of ``rem`` (sorted), with ``n`` unknown
    opponents dealt from what is left.

    Returns (D [m, m + 1, n + 1], A [m, m + 1, n + 1, n + 1], failed). For known player i on a board where
    the best known value is shared by k_top players including i: ``D[i, k_top, t]`` sums, over boards
    (weighted by suit-orbit size), the number of unordered sets of n opponent hands with none better and
    exactly t equal to it when counted directly, and ``A[i, k_top, j, e]`` sums the j-matchings with e
    equal-valued edges among the hands that are at least as good (inclusion-exclusion; the caller finishes
    it with exact integers); ``method`` 0 picks the smaller edge set per board, 1 forces direct counting and
    2 inclusion-exclusion (tests compare them). ``failed`` > 0 when a board needed more than ``budget``
    steps of matching enumeration (then the counts are incomplete). ``order``: the first-card indices,
    run in parallel.
    """
    m = hands.shape[0]
    tasks = order.shape[0]
    D = np.zeros((tasks, m, m + 1, n + 1), dtype=np.int64)
    A = np.zeros((tasks, m, m + 1, n + 1, n + 1), dtype=np.int64)
    failed = np.zeros(tasks, dtype=np.int64)
    # One chunk per first card: their work differs widely, threads take them one by one.
    run_chunks(_exact_counts_chunk, tasks, tasks, rank_next, last, first6, flush_value, hands, board, rem, k, n,
               perms, order, budget, method, D, A, failed)
    return D.sum(axis=0), A.sum(axis=0), int(failed.sum())


@nb.njit
def _next_random(x):
    # xorshift64*: a small, seedable generator with independent streams per task (seeded by splitmix64).
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    return x, (x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32)


@nb.njit
def _splitmix(z):
    z = z + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@nb.njit(cache=True, nogil=True)
def _monte_carlo_chunk(chunk, start, stop, rank_next, last, first6, flush_value, hands, board, rem, k, n, samples,
                       tasks, seed, out):
    """Streams ``start .. stop - 1`` of ``monte_carlo`` into ``out[task]``."""
    m = hands.shape[0]
    R = rem.shape[0]
    s0, q0, z0 = 0, 0, 0
    for c in board:
        s0, q0, z0 = _add(s0, q0, z0, c, rank_next)
    for task in range(start, stop):
        x = _splitmix(np.uint64(seed) * np.uint64(1000003) + np.uint64(task)) | np.uint64(1)
        deck = rem.copy()
        vals = np.empty(m, dtype=np.int64)
        mine = samples // tasks + (1 if task < samples % tasks else 0)
        need = k + 2 * n
        for _ in range(mine):
            for i in range(need):  # partial Fisher-Yates shuffle
                x, r = _next_random(x)
                j = i + ((r * np.uint64(R - i)) >> np.uint64(32))
                deck[i], deck[j] = deck[j], deck[i]
            s5, q5, z5 = s0, q0, z0
            for i in range(k):
                s5, q5, z5 = _add(s5, q5, z5, deck[i], rank_next)
            best = -1
            nbest = 0
            for i in range(m):
                v = _value2(s5, q5, z5, hands[i, 0], hands[i, 1], rank_next, last, first6, flush_value)
                vals[i] = v
                if v > best:
                    best = v
                    nbest = 1
                elif v == best:
                    nbest += 1
            for o in range(n):
                a = deck[k + 2 * o]
                b = deck[k + 2 * o + 1]
                if a > b:
                    a, b = b, a
                v = _value2(s5, q5, z5, a, b, rank_next, last, first6, flush_value)
                if v > best:
                    best = v
                    nbest = 1
                elif v == best:
                    nbest += 1
            for i in range(m):
                if vals[i] == best:
                    share = 1.0 / nbest
                    out[task, 0, i] += share
                    out[task, 1, i] += share * share
                    if nbest == 1:
                        out[task, 2, i] += 1
                    else:
                        out[task, 3, i] += 1


def monte_carlo(rank_next, last, first6, flush_value, hands, board, rem, k, n, samples, tasks, seed):
    """Seeded Monte Carlo: ``samples`` random deals (board completion + n opponent hands from ``rem``),
    split into ``tasks`` independent streams. Returns per known player (share sum, share sum of squares,
    deals won alone, deals tied for best)."""
    out = np.zeros((tasks, 4, hands.shape[0]), dtype=np.float64)
    run_chunks(_monte_carlo_chunk, tasks, tasks, rank_next, last, first6, flush_value, hands, board, rem, k, n,
               samples, tasks, seed, out)
    return out.sum(axis=0)


# ---------------------------------------------------------------------------------------------------------
# Preflop tables: every hole-card pair on each board at once.


@nb.njit(cache=True, nogil=True)
def _preflop_heads_up_chunk(chunk, start, stop, rank_next, last, first6, flush_value, perms, pair_class, order, win):
    """Tasks ``start .. stop - 1`` of ``preflop_heads_up`` into ``win[task]``."""
    for task in range(start, stop):
        c1 = order[task, 0]
        hv = np.empty(1081, dtype=np.int64)
        ha = np.empty(1081, dtype=np.int64)
        hb = np.empty(1081, dtype=np.int64)
        cnt = np.zeros(169, dtype=np.int64)
        cntc = np.zeros((52, 169), dtype=np.int64)
        cards = np.empty(5, dtype=np.int64)
        on_board = np.zeros(52, dtype=np.bool_)
        cards[0] = c1
        for c2 in range(order[task, 1], order[task, 1] + 1):  # one (c1, c2) per task
            cards[1] = c2
            for c3 in range(c2 + 1, 50):
                cards[2] = c3
                for c4 in range(c3 + 1, 51):
                    cards[3] = c4
                    for c5 in range(c4 + 1, 52):
                        cards[4] = c5
                        w = _orbit_weight(cards, 5, perms)
                        if w == 0:
                            continue
                        s5, q5, z5 = 0, 0, 0
                        for i in range(5):
                            s5, q5, z5 = _add(s5, q5, z5, cards[i], rank_next)
                            on_board[cards[i]] = True
                        nh = 0
                        for a in range(52):
                            if on_board[a]:
                                continue
                            for b in range(a + 1, 52):
                                if on_board[b]:
                                    continue
                                hv[nh] = _value2(s5, q5, z5, a, b, rank_next, last, first6, flush_value)
                                ha[nh] = a
                                hb[nh] = b
                                nh += 1
                        for i in range(5):
                            on_board[cards[i]] = False
                        idx = np.argsort(hv[:nh])
                        cnt[:] = 0
                        cntc[:, :] = 0
                        i = 0
                        while i < nh:
                            j = i
                            while j < nh and hv[idx[j]] == hv[idx[i]]:
                                j += 1
                            for g in range(i, j):  # strictly weaker, disjoint hands: wins
                                h = idx[g]
                                a, b = ha[h], hb[h]
                                x = pair_class[a, b]
                                for y in range(169):
                                    win[task, x, y] += w * (cnt[y] - cntc[a, y] - cntc[b, y])
                            for g in range(i, j):
                                h = idx[g]
                                x = pair_class[ha[h], hb[h]]
                                cnt[x] += 1
                                cntc[ha[h], x] += 1
                                cntc[hb[h], x] += 1
                            i = j


def preflop_heads_up(rank_next, last, first6, flush_value, perms, pair_class, order):
    """Exact heads-up wins between the 169 classes over every board (one per suit orbit, weighted).

    Returns win int64 [169, 169]: over all (board, hand of class X, disjoint hand of class Y), the number where
    X's hand is strictly better. The ties follow (``preflop.heads_up``): every such triple is a win of X, a win
    of Y or a tie, so counting them here too would only double the per-hand loop over the classes. On each
    board the 1081 hands are ranked once and sorted; walking them by value, the hands already passed that
    share no card with the current one are counted per class as total - (those holding its first card) -
    (its second card): no pair is compared. ``order`` lists the two lowest board cards (c1, c2), one parallel
    task each (``preflop.board_tasks``).
    """
    tasks = order.shape[0]
    win = np.zeros((tasks, 169, 169), dtype=np.int64)
    run_chunks(_preflop_heads_up_chunk, tasks, tasks, rank_next, last, first6, flush_value, perms, pair_class, order,
               win)
    return win.sum(axis=0)


@nb.njit(cache=True, nogil=True)
def _preflop_known_chunk(chunk, start, stop, rank_next, last, first6, flush_value, hands, rem, order, D):
    """Tasks ``start .. stop - 1`` of ``preflop_known`` into ``D[task]``."""
    m = hands.shape[0]
    R = rem.shape[0]
    hole_q = np.zeros(m, dtype=np.int64)
    hole_z = np.zeros(m, dtype=np.int64)
    hole_s = np.zeros(m, dtype=np.int64)
    for i in range(m):
        hole_s[i], hole_q[i], hole_z[i] = _add(0, 0, 0, hands[i, 0], rank_next)
        hole_s[i], hole_q[i], hole_z[i] = _add(hole_s[i], hole_q[i], hole_z[i], hands[i, 1], rank_next)
    for task in range(start, stop):
        f1 = order[task]
        st = np.empty((5, m), dtype=np.int64)
        vals = np.empty(m, dtype=np.int64)
        c1 = rem[f1]
        q1 = 1 << 4 * (c1 & 3)
        z1 = 1 << 16 * (c1 & 3) + (c1 >> 2)
        for i in range(m):
            st[1, i] = rank_next[hole_s[i], c1 >> 2]
        for f2 in range(f1 + 1, R - 3):
            c2 = rem[f2]
            q2 = q1 + (1 << 4 * (c2 & 3))
            z2 = z1 | (1 << 16 * (c2 & 3) + (c2 >> 2))
            for i in range(m):
                st[2, i] = rank_next[st[1, i], c2 >> 2]
            for f3 in range(f2 + 1, R - 2):
                c3 = rem[f3]
                q3 = q2 + (1 << 4 * (c3 & 3))
                z3 = z2 | (1 << 16 * (c3 & 3) + (c3 >> 2))
                for i in range(m):
                    st[3, i] = rank_next[st[2, i], c3 >> 2]
                for f4 in range(f3 + 1, R - 1):
                    c4 = rem[f4]
                    q4 = q3 + (1 << 4 * (c4 & 3))
                    z4 = z3 | (1 << 16 * (c4 & 3) + (c4 >> 2))
                    for i in range(m):
                        st[4, i] = rank_next[st[3, i], c4 >> 2] - first6
                    for f5 in range(f4 + 1, R):
                        c5 = rem[f5]
                        q5 = q4 + (1 << 4 * (c5 & 3))
                        r5 = c5 >> 2
                        vmax = -1
                        ktop = 0
                        for i in range(m):
                            q = q5 + hole_q[i]
                            if (q + 0x3333) & 0x8888:
                                s = flush_suit(q)
                                z = z4 | (1 << 16 * (c5 & 3) + r5) | hole_z[i]
                                v = np.int64(flush_value[(z >> 16 * s) & 0x1FFF])
                            else:
                                v = np.int64(last[st[4, i], r5])
                            vals[i] = v
                            if v > vmax:
                                vmax = v
                                ktop = 1
                            elif v == vmax:
                                ktop += 1
                        for i in range(m):
                            if vals[i] == vmax:
                                D[task, i, ktop, 0] += 1


def preflop_known(rank_next, last, first6, flush_value, hands, rem, order):
    """Exact counts of known hands with no opponent and no board yet (all five board cards to come): the
    fast path of ``exact_counts`` for that case. Each player's rank state walks hole cards first, then the
    board card by card, so the innermost loop costs one lookup per player; no suit-orbit reduction (an
    orbit test would cost more than the two or three evaluations it saves). Returns D [m, m + 1, 1].
    The five levels are written out (not the generic stepper of ``exact_counts``) to keep them tight."""
    m = hands.shape[0]
    tasks = order.shape[0]
    D = np.zeros((tasks, m, m + 1, 1), dtype=np.int64)
    # One chunk per first card: their work differs widely, threads take them one by one.
    run_chunks(_preflop_known_chunk, tasks, tasks, rank_next, last, first6, flush_value, hands, rem, order, D)
    return D.sum(axis=0)


@nb.njit
def _sort_desc(keys, n, out, tmp, bucket):
    """out[:n] = indices of keys[:n] (values < 65536) by decreasing key: a two-pass radix sort, much faster
    than argsort on the 1081 hands of a board (docs/benchmarks.md, "Poker")."""
    for i in range(n):
        tmp[i] = i
    src, dst = tmp, out
    for shift in (0, 8):
        bucket[:] = 0
        for i in range(n):
            bucket[255 - ((keys[src[i]] >> shift) & 255)] += 1
        acc = 0
        for b in range(257):
            c = bucket[b]
            bucket[b] = acc
            acc += c
        for i in range(n):
            k = src[i]
            b = 255 - ((keys[k] >> shift) & 255)
            dst[bucket[b]] = k
            bucket[b] += 1
        src, dst = dst, src
    # Two passes: the result is back in tmp's buffer (src); copy it out.
    for i in range(n):
        out[i] = src[i]


@nb.njit(cache=True, nogil=True)
def _preflop_boards_chunk(chunk, start, stop, rank_next, last, first6, flush_value, perms, pair_class, ns, deals, order,
                          seed, est, var, empty):
    """Tasks ``start .. stop - 1`` of ``preflop_boards`` into ``est[task]``, ``var[task]`` and ``empty[task]``."""
    rows = ns.shape[0]
    for task in range(start, stop):
        c1 = order[task, 0]
        x = _splitmix(np.uint64(seed) * np.uint64(1000003) + np.uint64(52 * c1 + order[task, 1])) | np.uint64(1)
        hv = np.empty(1081, dtype=np.int64)
        hm = np.empty(1081, dtype=np.int64)
        hc = np.empty(1081, dtype=np.int64)
        ha = np.empty(1081, dtype=np.int64)
        hb = np.empty(1081, dtype=np.int64)
        srt = np.empty(1081, dtype=np.int64)
        tmp = np.empty(1081, dtype=np.int64)
        bucket = np.empty(257, dtype=np.int64)
        sv = np.empty(1081, dtype=np.int64)
        smk = np.empty(1081, dtype=np.int64)
        val = np.zeros((52, 52), dtype=np.int64)
        pool = np.empty(47, dtype=np.int64)
        ssum = np.zeros((2, 1081), dtype=np.float64)
        single = np.zeros((2, 52), dtype=np.int64)
        pair = np.zeros((2, 52, 52), dtype=np.int64)
        dsum = np.zeros(169, dtype=np.float64)
        cards = np.empty(5, dtype=np.int64)
        on_board = np.zeros(52, dtype=np.bool_)
        cards[0] = c1
        for c2 in range(order[task, 1], order[task, 1] + 1):  # one (c1, c2) per task
            cards[1] = c2
            for c3 in range(c2 + 1, 50):
                cards[2] = c3
                for c4 in range(c3 + 1, 51):
                    cards[3] = c4
                    for c5 in range(c4 + 1, 52):
                        cards[4] = c5
                        w = _orbit_weight(cards, 5, perms)
                        if w == 0:
                            continue
                        s5, q5, z5 = 0, 0, 0
                        for i in range(5):
                            s5, q5, z5 = _add(s5, q5, z5, cards[i], rank_next)
                            on_board[cards[i]] = True
                        nh = 0
                        npool = 0
                        for a in range(52):
                            if on_board[a]:
                                continue
                            pool[npool] = a
                            npool += 1
                            for b in range(a + 1, 52):
                                if on_board[b]:
                                    continue
                                v = _value2(s5, q5, z5, a, b, rank_next, last, first6, flush_value)
                                hv[nh] = v
                                hm[nh] = (1 << a) | (1 << b)
                                ha[nh] = a
                                hb[nh] = b
                                hc[nh] = pair_class[a, b]
                                val[a, b] = v
                                nh += 1
                        for i in range(5):
                            on_board[cards[i]] = False
                        _sort_desc(hv, nh, srt, tmp, bucket)
                        for k in range(nh):
                            sv[k] = hv[srt[k]]
                            smk[k] = hm[srt[k]]
                        for r in range(rows):
                            n = ns[r]
                            need = 2 * n
                            ssum[:, :] = 0.0
                            single[:, :] = 0
                            pair[:, :, :] = 0
                            for d in range(deals[r]):
                                half = d & 1
                                dm = 0
                                for i in range(need):  # partial Fisher-Yates over the 47 cards off the board
                                    x, rnd = _next_random(x)
                                    j = i + ((rnd * np.uint64(47 - i)) >> np.uint64(32))
                                    pool[i], pool[j] = pool[j], pool[i]
                                    dm |= 1 << pool[i]
                                # Deals disjoint from hand {a, b} = all - holding a - holding b + holding both.
                                for i in range(need):
                                    single[half, pool[i]] += 1
                                    for j in range(i + 1, need):
                                        pair[half, pool[i], pool[j]] += 1
                                        pair[half, pool[j], pool[i]] += 1
                                best = -1
                                nbest = 0
                                for o in range(n):
                                    a = pool[2 * o]
                                    b = pool[2 * o + 1]
                                    v = val[a, b] if a < b else val[b, a]
                                    if v > best:
                                        best = v
                                        nbest = 1
                                    elif v == best:
                                        nbest += 1
                                tie_share = 1.0 / (nbest + 1)
                                sh = ssum[half]
                                for k in range(nh):
                                    v = sv[k]
                                    if v < best:
                                        break
                                    if (smk[k] & dm) == 0:
                                        sh[k] += 1.0 if v > best else tie_share
                            dsum[:] = 0.0
                            for k in range(nh):
                                h = srt[k]
                                a = ha[h]
                                b = hb[h]
                                y = hc[h]
                                n0 = (deals[r] + 1) // 2 - single[0, a] - single[0, b] + pair[0, a, b]
                                n1 = deals[r] // 2 - single[1, a] - single[1, b] + pair[1, a, b]
                                if n0 == 0 or n1 == 0:
                                    empty[task, r] += 1
                                    est[task, r, y] += w * (ssum[0, k] + ssum[1, k]) / max(n0 + n1, 1)
                                    continue
                                p0 = ssum[0, k] / n0
                                p1 = ssum[1, k] / n1
                                est[task, r, y] += w * 0.5 * (p0 + p1)
                                dsum[y] += p0 - p1
                            for y in range(169):
                                var[task, r, y] += w * w * 0.25 * dsum[y] * dsum[y]


def preflop_boards(rank_next, last, first6, flush_value, perms, pair_class, ns, deals, order, seed):
    """Every class against ``ns[r]`` random hands (each r), board-stratified Monte Carlo: every board (one per
    suit orbit, weighted by its size) is visited and its 1081 hands ranked once, so the board's variation
    costs nothing; on each, ``deals[r]`` random deals of ``ns[r]`` opponent hands (from the 47 cards off the
    board) are drawn and *every* hand left is scored against each of them (common random numbers), where it
    shares no card with the deal (hands by value, best first: a deal's winners and ties are a prefix).

    A hand's equity on a board is estimated by the ratio (share sum) / (deals disjoint from it): given how
    many deals are disjoint, those are uniform over the deals from its 45 cards, so the ratio is unbiased.
    Deals alternate between two halves with a ratio each; the board's contribution per class is their mean,
    and (sum over the class's hands of the half differences)^2 / 4 estimates its variance without bias
    (boards are independent; the boards of one orbit share one estimate, hence weight^2).

    Returns (est [R, 169], var [R, 169], empty [R]): per class, sum over boards of weight x the sum of its
    hands' equities; sum of weight^2 x the variance estimates; the (board, hand) with a half that had no
    disjoint deal (that hand then takes the pooled ratio and adds nothing to the variance; 0 when both
    halves are empty, a bias: ``deals`` should make that improbable, see ``preflop.min_deals``).
    ``order``: the two lowest board cards (c1, c2), one parallel task each, seeded per task (the result
    does not depend on the threads)."""
    tasks = order.shape[0]
    rows = ns.shape[0]
    est = np.zeros((tasks, rows, 169), dtype=np.float64)
    var = np.zeros((tasks, rows, 169), dtype=np.float64)
    empty = np.zeros((tasks, rows), dtype=np.int64)
    run_chunks(_preflop_boards_chunk, tasks, tasks, rank_next, last, first6, flush_value, perms, pair_class, ns, deals,
               order, seed, est, var, empty)
    return est.sum(axis=0), var.sum(axis=0), empty.sum(axis=0)


@nb.njit
def _disjoint_pairs(size, s2, da, db, corr):
    """Unordered pairs of card-disjoint hands in a set of ``size`` hands, once cards a and b are gone:
    C(size, 2) - sum over cards c of C(deg(c), 2) (two distinct hands share at most one card); ``s2`` the sum
    over all cards before removal, ``da``, ``db`` the degrees of a and b, ``corr`` what removing the hands
    holding a or b takes off the other cards' terms."""
    return size * (size - 1) // 2 - (s2 - da * (da - 1) // 2 - db * (db - 1) // 2 - corr)


@nb.njit(cache=True, nogil=True)
def _preflop_two_chunk(chunk, start, stop, rank_next, last, first6, flush_value, perms, pair_class, order, out):
    """Tasks ``start .. stop - 1`` of ``preflop_two`` into ``out[task]``."""
    for task in range(start, stop):
        c1 = order[task, 0]
        hv = np.empty(1081, dtype=np.int64)
        ha = np.empty(1081, dtype=np.int64)
        hb = np.empty(1081, dtype=np.int64)
        srt = np.empty(1081, dtype=np.int64)
        tmp = np.empty(1081, dtype=np.int64)
        bucket = np.empty(257, dtype=np.int64)
        val = np.zeros((52, 52), dtype=np.int64)
        pool = np.empty(47, dtype=np.int64)
        dl = np.zeros(52, dtype=np.int64)
        dw = np.zeros(52, dtype=np.int64)
        de = np.zeros(52, dtype=np.int64)
        cards = np.empty(5, dtype=np.int64)
        on_board = np.zeros(52, dtype=np.bool_)
        cards[0] = c1
        for c2 in range(order[task, 1], order[task, 1] + 1):  # one (c1, c2) per task
            cards[1] = c2
            for c3 in range(c2 + 1, 50):
                cards[2] = c3
                for c4 in range(c3 + 1, 51):
                    cards[3] = c4
                    for c5 in range(c4 + 1, 52):
                        cards[4] = c5
                        w = _orbit_weight(cards, 5, perms)
                        if w == 0:
                            continue
                        s5, q5, z5 = 0, 0, 0
                        for i in range(5):
                            s5, q5, z5 = _add(s5, q5, z5, cards[i], rank_next)
                            on_board[cards[i]] = True
                        nh = 0
                        npool = 0
                        for a in range(52):
                            if on_board[a]:
                                continue
                            pool[npool] = a
                            npool += 1
                            for b in range(a + 1, 52):
                                if on_board[b]:
                                    continue
                                v = _value2(s5, q5, z5, a, b, rank_next, last, first6, flush_value)
                                hv[nh] = v
                                ha[nh] = a
                                hb[nh] = b
                                val[a, b] = v
                                val[b, a] = v
                                nh += 1
                        for i in range(5):
                            on_board[cards[i]] = False
                        _sort_desc(hv, nh, srt, tmp, bucket)
                        dl[:] = 0
                        nl = 0
                        s2l = 0
                        hi = nh  # walk from the weakest (the end of srt) up, one value group at a time
                        while hi > 0:
                            v = hv[srt[hi - 1]]
                            lo = hi - 1
                            while lo > 0 and hv[srt[lo - 1]] == v:
                                lo -= 1
                            # W = L + this group, E = this group: degrees and sums of C(degree, 2).
                            dw[:] = dl
                            s2w = s2l
                            s2e = 0
                            for g in range(lo, hi):
                                h = srt[g]
                                for c in (ha[h], hb[h]):
                                    s2w += dw[c]
                                    dw[c] += 1
                                    s2e += de[c]
                                    de[c] += 1
                            nw = nl + hi - lo
                            ne = hi - lo
                            for g in range(lo, hi):
                                h = srt[g]
                                a = ha[h]
                                b = hb[h]
                                cl = 0
                                cw = 0
                                ce = 0
                                for i in range(npool):
                                    c = pool[i]
                                    if c == a or c == b:
                                        continue
                                    va = val[a, c]
                                    vb = val[b, c]
                                    ia = 1 if va < v else 0
                                    ib = 1 if vb < v else 0
                                    cl += (ia + ib) * (dl[c] - 1) - ia * ib
                                    ia = 1 if va <= v else 0
                                    ib = 1 if vb <= v else 0
                                    cw += (ia + ib) * (dw[c] - 1) - ia * ib
                                    ia = 1 if va == v else 0
                                    ib = 1 if vb == v else 0
                                    ce += (ia + ib) * (de[c] - 1) - ia * ib
                                n0 = _disjoint_pairs(nl - dl[a] - dl[b], s2l, dl[a], dl[b], cl)
                                nwp = _disjoint_pairs(nw - dw[a] - dw[b] + 1, s2w, dw[a], dw[b], cw)
                                n2 = _disjoint_pairs(ne - de[a] - de[b] + 1, s2e, de[a], de[b], ce)
                                n1 = nwp - n0 - n2
                                out[task, pair_class[a, b]] += w * (6 * n0 + 3 * n1 + 2 * n2)
                            for g in range(lo, hi):
                                h = srt[g]
                                de[ha[h]] = 0
                                de[hb[h]] = 0
                            dl[:] = dw
                            s2l = s2w
                            nl = nw
                            hi = lo


def preflop_two(rank_next, last, first6, flush_value, perms, pair_class, order):
    """Exact equity of every class against two random hands, counted board by board (one per suit orbit).

    On a board, for hand h = {a, b} of value v, the opponents' unordered pairs of disjoint hands from the 45
    cards left split by how many hands equal v (none may beat it): N0 both weaker, N1 one equal, N2 both
    equal; h's pot share is N0 + N1 / 2 + N2 / 3. Each N comes from the sets L (value < v), W (<= v), E (= v)
    of the board's hands: disjoint pairs in a set = C(size, 2) - sum over cards of C(degree, 2), corrected for
    the hands that hold a or b (one pass over the 45 cards); N0 = pairs(L), N2 = pairs(E), N1 = pairs(W) -
    N0 - N2. Hands are walked by value, so L's degrees grow group by group; nothing is dealt.

    Returns int64 [169]: per class, the sum over boards (weighted by orbit size) and its hands of
    6 N0 + 3 N1 + 2 N2; equity = that / (6 x 446,985 pairs x hands of the class x C(50, 5) boards).
    ``order``: the two lowest board cards (c1, c2), one parallel task each."""
    tasks = order.shape[0]
    out = np.zeros((tasks, 169), dtype=np.int64)
    run_chunks(_preflop_two_chunk, tasks, tasks, rank_next, last, first6, flush_value, perms, pair_class, order, out)
    return out.sum(axis=0)
