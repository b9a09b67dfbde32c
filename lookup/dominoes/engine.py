"""Dominoes rules, opponent models and the hidden-hand players, written once in numba-compatible Python.

This module is the single definition: ``lookup.dominoes`` runs it as plain Python (one decision at a
time), ``pipeline.dominoes.kernels`` compiles a copy of it with ``numba.njit`` for the experiment (millions
of decisions). Keep it numba-compatible: ints, floats and numpy arrays only, no classes, no dicts.

Encoding (docs/dominoes.md, "Rules"). Tiles 0..27 are the double-six set in the order (0|0), (0|1), ..., (0|6),
(1|1), ..., (6|6) (``TILE_A[t] <= TILE_B[t]``). A hand is a 28-bit mask. The line is known by its two
open ends ``left``, ``right`` (both -1 on the empty board). A move is ``2 * tile + side`` (side 0 = the
left end, 1 = the right end; the opening tile is ``2 * tile``), ``DRAW`` or ``PASS``. Legal moves come in
the documented order: tile index ascending, the left end before the right end; a tile that fits both ends
of equal value is listed once (left), since both placements give the same line. A player with no tile to
place has exactly one legal move: ``DRAW`` while the boneyard has tiles (once per turn), else ``PASS``;
after drawing, the only legal placements are those of the drawn tile, and ``PASS`` when it does not fit.

Values are for the player ``me``: +1 win, 0 draw, -1 loss at the end of a game; below the search depth a
position is scored by :func:`leaf_value`, an estimate in [-0.95, 0.95].
"""

from __future__ import annotations

import numpy as np

N_TILES = 28
HAND_SIZE = 7
PASS_LIMIT = 4  # the seed's ``tours_sans_coup``: four passes in a row end a blocked game
DRAW = 56
PASS = 57
MAX_MOVES = 64
ALL_TILES = (1 << N_TILES) - 1

# Opponent models (lookup.opponents names them; the numbers are the kernels' codes).
RANDOM, FIRST, LAST, STRONG, GREEDY = 0, 1, 2, 3, 4
MODEL_CODES = {"random": RANDOM, "first": FIRST, "last": LAST, "strong": STRONG, "greedy": GREEDY}
# Players: predictive (one model), realistic (credible set, worst case), bayesian (posterior).
PREDICTIVE, REALISTIC, BAYESIAN = 0, 1, 2
PLAYER_CODES = {"predictive": PREDICTIVE, "realistic": REALISTIC, "bayesian": BAYESIAN}

# The seed's ``evaluer_coup`` (section 5.2) for the greedy model, for a placed tile (a|b): a valid move
# +5, +2 (a + b), a double +10, a tile matching both open ends +15, the other player surely left without a
# tile matching the new ends +20 (every such tile is in the mover's hand or on the line: the model reads
# only what the mover sees, where the seed's code read the other hand); plus, from the seed's global
# evaluation, +2 per tile of the mover's hand that
# matches a new end and +700 for emptying the hand (the seed's winning score).
SCORE_MOVE, SCORE_PIPS, SCORE_DOUBLE, SCORE_BOTH_ENDS, SCORE_BLOCK, SCORE_CONNECTABLE, SCORE_WIN = \
    5, 2, 10, 15, 20, 2, 700
# leaf_value: per tile and per pip of hand difference, per tile fitting an open end, and the cap (a leaf is
# never a certain result). Chosen on 3,000 paired deals per seat against the random model (docs/dominoes.md).
LEAF_WEIGHTS = (1.8519, 0.0178, 0.1467, 0.0119, 0.2978, 0.339, 0.1128, 0.5491)
# Event kinds of the opponent's observed history (see :func:`hand_weights`).
EV_PLACE, EV_VOID, EV_PLACE_DRAWN, EV_UNSEEN = 0, 1, 2, 3
HISTORY_ROWS = 8 * N_TILES  # room for every opponent event of a game (each turn writes at most two)
LIK_STACK = 512  # hand_likelihood's stack of partial histories (<= 14 unseen draws x 21 tiles)
ZERO = np.int64(0)
NO_TILE = np.int64(-1)  # typed, not a literal: the compiled recursive search gets one signature
# A search depth no game outlasts (each placement empties a hand by one tile, at most three passes come
# between two placements, the fourth ends the game): searching this deep is searching to the end.
DEPTH_TO_END = 200
DEEPEN_GROWTH = 8.0  # the adaptive depth's first guess of how much one more placement multiplies the search
TRY_FACTOR = 64
PARTICLE_CAP = 32  # belief_search keeps at most max(this, the root's count) particles after an unseen draw
DEEPEN_MAX = 12  # the adaptive depth deepens no further (fixed depths beyond, e.g. the endgame's, are kept)


def _tile_table() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a, b = [], []
    for i in range(7):
        for j in range(i, 7):
            a.append(i)
            b.append(j)
    match = [sum(1 << t for t in range(N_TILES) if a[t] == p or b[t] == p) for p in range(7)]
    return np.array(a, np.int64), np.array(b, np.int64), np.array(match, np.int64)


TILE_A, TILE_B, MATCH = _tile_table()  # pips of each tile; MATCH[p]: tiles showing pip p


def _tile_byte_tables() -> tuple[np.ndarray, np.ndarray]:
    """POP8[b]: bits set in the byte b; PIPS8[i, b]: pips of the tiles 8i..8i+7 whose bits b sets."""
    pop = np.array([bin(b).count("1") for b in range(256)], np.int64)
    pip = np.zeros((4, 256), np.int64)
    for i in range(4):
        for b in range(256):
            pip[i, b] = sum(int(TILE_A[8 * i + j] + TILE_B[8 * i + j]) for j in range(8) if b >> j & 1 and
                            8 * i + j < N_TILES)
    return pop, pip


POP8, PIPS8 = _tile_byte_tables()  # byte tables: the search counts tiles and pips of masks at every leaf


# --- rules --------------------------------------------------------------------------------------------


def popcount(x):
    """Tiles in the mask ``x`` (28 bits)."""
    return POP8[x & 255] + POP8[x >> 8 & 255] + POP8[x >> 16 & 255] + POP8[x >> 24 & 255]


def pips(mask):
    """Total pips of the tiles in ``mask``."""
    return PIPS8[0, mask & 255] + PIPS8[1, mask >> 8 & 255] + PIPS8[2, mask >> 16 & 255] + PIPS8[3, mask >> 24 & 255]


def legal_into(hand, left, right, drawn, bone_n, out):
    """Write the legal moves (documented order) into ``out``; returns their number (>= 1). ``drawn`` is
    the tile drawn this turn (-1 if none): then only its placements are legal."""
    n = 0
    if left < 0:
        for t in range(N_TILES):
            if hand >> t & 1:
                out[n] = 2 * t
                n += 1
        return n
    src = hand if drawn < 0 else (1 << drawn)
    for t in range(N_TILES):
        if src >> t & 1:
            a = TILE_A[t]
            b = TILE_B[t]
            if a == left or b == left:
                out[n] = 2 * t
                n += 1
            if right != left and (a == right or b == right):
                out[n] = 2 * t + 1
                n += 1
    if n == 0:
        out[0] = DRAW if (drawn < 0 and bone_n > 0) else PASS
        n = 1
    return n


def place(move, left, right):
    """The open ends after placing ``move`` (a tile move) on the line with ends ``left``, ``right``."""
    t = move >> 1
    a = TILE_A[t]
    b = TILE_B[t]
    if left < 0:
        return a, b
    if move & 1 == 0:
        return (b if a == left else a), right
    return left, (b if a == right else a)


def blocked_result(mine, theirs):
    """Result for the owner of ``mine`` when a blocked game ends: the lower pip total wins."""
    pm = pips(mine)
    pt = pips(theirs)
    return 1.0 if pm < pt else (-1.0 if pm > pt else 0.0)


def result(me, h0, h1, passes):
    """+1 / 0 / -1 for ``me`` when the game is over, 2.0 while it goes on."""
    if h0 == 0:
        return 1.0 if me == 0 else -1.0
    if h1 == 0:
        return 1.0 if me == 1 else -1.0
    if passes >= PASS_LIMIT:
        return blocked_result(h0, h1) if me == 0 else blocked_result(h1, h0)
    return 2.0


def step(h0, h1, left, right, to_move, passes, move):
    """The state after ``move`` (a placement or ``PASS``; a draw is applied by the caller, which knows the
    boneyard). Returns (h0, h1, left, right, to_move, passes); the turn passes to the other player."""
    if move == PASS:
        return h0, h1, left, right, 1 - to_move, passes + 1
    t = move >> 1
    nl, nr = place(move, left, right)
    if to_move == 0:
        h0 = h0 & ~(1 << t)
    else:
        h1 = h1 & ~(1 << t)
    return h0, h1, nl, nr, 1 - to_move, 0


# --- opponent models ----------------------------------------------------------------------------------


def seed_score(move, hand, unseen, left, right):
    """The greedy model's score of placing ``move`` from ``hand``; ``unseen``: the tiles the mover does
    not see (the other hand and the boneyard). See SCORE_*."""
    t = move >> 1
    a = TILE_A[t]
    b = TILE_B[t]
    nl, nr = place(move, left, right)
    after = hand & ~(1 << t)
    s = SCORE_MOVE + SCORE_PIPS * (a + b)
    if a == b:
        s += SCORE_DOUBLE
    if left >= 0 and ((a == left and b == right) or (a == right and b == left)):
        s += SCORE_BOTH_ENDS
    reach = MATCH[nl] | MATCH[nr]
    if unseen & reach == 0:
        s += SCORE_BLOCK
    s += SCORE_CONNECTABLE * popcount(after & reach)
    if after == 0:
        s += SCORE_WIN
    return s


def model_probs(kind, moves, n, hand, unseen, left, right, out):
    """Probability of each of the ``n`` legal ``moves`` under model ``kind`` for the mover holding
    ``hand`` (``unseen``: the tiles it does not see). Written into ``out[:n]``."""
    if n == 1:
        out[0] = 1.0
        return
    if kind == RANDOM:
        for i in range(n):
            out[i] = 1.0 / n
        return
    if kind == FIRST or kind == LAST:
        for i in range(n):
            out[i] = 0.0
        out[0 if kind == FIRST else n - 1] = 1.0
        return
    best = -1.0
    for i in range(n):
        t = moves[i] >> 1
        if kind == STRONG:
            s = float(TILE_A[t] + TILE_B[t])
        else:
            s = float(seed_score(moves[i], hand, unseen, left, right))
        out[i] = s
        if s > best:
            best = s
    ties = 0
    for i in range(n):
        if out[i] == best:
            ties += 1
    for i in range(n):
        out[i] = 1.0 / ties if out[i] == best else 0.0


# --- search on one deal -------------------------------------------------------------------------------


def suits(mask):
    """How many of the pips 0..6 the tiles of ``mask`` show."""
    n = 0
    for p in range(7):
        if mask & MATCH[p]:
            n += 1
    return n


def doubles(mask):
    n = 0
    for p in range(7):
        if mask >> (p * (15 - p) // 2) & 1:  # tile (p|p): index 7p - p(p-1)/2
            n += 1
    return n


def leaf_features(me, h0, h1, left, right, to_move, bone_n):
    """The features the leaf estimate weighs, each for ``me`` against the other player (positive: good
    for ``me``): tiles in hand (theirs - mine) over the tiles in both hands, pips in hand (theirs -
    mine), tiles fitting an open end (mine - theirs), the move (+1 when ``me`` is to move, else -1), no
    tile fitting (theirs - mine: 1 or 0 each), doubles in hand (theirs - mine), pips shown by the hand
    (mine - theirs), and the tile difference again when the boneyard is empty (a stuck player must pass
    instead of drawing)."""
    mine = h0 if me == 0 else h1
    theirs = h1 if me == 0 else h0
    nm = popcount(mine)
    nt = popcount(theirs)
    fit_m = 0
    fit_t = 0
    if left >= 0:
        reach = MATCH[left] | MATCH[right]
        fit_m = popcount(mine & reach)
        fit_t = popcount(theirs & reach)
    return ((nt - nm) / max(1.0, float(nt + nm)), float(pips(theirs) - pips(mine)), float(fit_m - fit_t),
            1.0 if to_move == me else -1.0, (1.0 if fit_t == 0 else 0.0) - (1.0 if fit_m == 0 else 0.0),
            float(doubles(theirs) - doubles(mine)), float(suits(mine) - suits(theirs)),
            float(nt - nm) if bone_n == 0 else 0.0)


def leaf_value(me, h0, h1, left, right, to_move, bone_n):
    """Value for ``me`` below the search depth: exact (+-1) when the player to move holds one tile and it
    fits; otherwise an estimate in (-1, 1), 2 P(win) - 1 under the logistic model
    P(win) = 1 / (1 + exp(-LEAF_WEIGHTS . leaf_features)), i.e. tanh(z / 2)."""
    mover = h0 if to_move == 0 else h1
    if popcount(mover) == 1 and left >= 0 and mover & (MATCH[left] | MATCH[right]):
        return 1.0 if to_move == me else -1.0  # its last tile fits: every model places it and wins
    f = leaf_features(me, h0, h1, left, right, to_move, bone_n)
    z = 0.0
    for i in range(len(LEAF_WEIGHTS)):
        z += LEAF_WEIGHTS[i] * f[i]
    return np.tanh(0.5 * z)


def search(me, h0, h1, bone, bone_n, left, right, to_move, passes, drawn, depth, kind, w, mk, rollouts, rng, nodes):
    """Expected value for ``me`` of the full-information position (hands ``h0``, ``h1``, the boneyard a
    set ``bone`` of ``bone_n`` tiles in uniformly random order), searching ``depth`` more placements or
    passes. ``me`` maximises; the other player moves by the models ``mk`` weighted by ``w`` as the player
    ``kind`` reads them (predictive: one weight 1; realistic: 0/1 credibility, worst model; bayesian:
    posterior weights). A draw is a chance node over the boneyard tiles. ``nodes[0]`` counts the
    positions visited (the cost the adaptive depth of :func:`move_values` reads)."""
    nodes[0] += 1
    r = result(me, h0, h1, passes)
    if r != 2.0:
        return r
    if depth <= 0:
        if rollouts <= 0:
            return leaf_value(me, h0, h1, left, right, to_move, bone_n)
        acc = 0.0
        for _ in range(rollouts):
            acc += rollout(me, h0, h1, bone, bone_n, left, right, to_move, passes, drawn, w, mk, rng)
        return acc / rollouts
    hand = h0 if to_move == 0 else h1
    unseen = (h1 if to_move == 0 else h0) | bone
    moves = np.empty(MAX_MOVES, np.int64)
    n = legal_into(hand, left, right, drawn, bone_n, moves)
    if moves[0] == DRAW:
        total = 0.0
        for y in range(N_TILES):
            if bone >> y & 1:
                bit = 1 << y
                if to_move == 0:
                    total += search(me, h0 | bit, h1, bone & ~bit, bone_n - 1, left, right, to_move, passes,
                                    y, depth, kind, w, mk, rollouts, rng, nodes)
                else:
                    total += search(me, h0, h1 | bit, bone & ~bit, bone_n - 1, left, right, to_move, passes,
                                    y, depth, kind, w, mk, rollouts, rng, nodes)
        return total / bone_n
    if to_move == me:
        best = -2.0
        for i in range(n):
            a0, a1, nl, nr, nt, npas = step(h0, h1, left, right, to_move, passes, moves[i])
            v = search(me, a0, a1, bone, bone_n, nl, nr, nt, npas, NO_TILE, depth - 1, kind, w, mk, rollouts, rng,
                       nodes)
            if v > best:
                best = v
        return best
    nm = len(mk)
    probs = np.zeros((nm, n))
    for j in range(nm):
        if w[j] > 0:
            model_probs(mk[j], moves, n, hand, unseen, left, right, probs[j])
    values = np.zeros(n)
    for i in range(n):
        q = 0.0
        for j in range(nm):
            q += w[j] * probs[j, i]
        if q <= 0:
            continue
        child = np.zeros(nm)
        for j in range(nm):
            if kind == REALISTIC:
                child[j] = 1.0 if (w[j] > 0 and probs[j, i] > 0) else 0.0
            else:
                child[j] = w[j] * probs[j, i] / q
        a0, a1, nl, nr, nt, npas = step(h0, h1, left, right, to_move, passes, moves[i])
        values[i] = search(me, a0, a1, bone, bone_n, nl, nr, nt, npas, NO_TILE, depth - 1, kind, child, mk, rollouts,
                           rng, nodes)
    if kind == REALISTIC:
        worst = 2.0
        for j in range(nm):
            if w[j] > 0:
                e = 0.0
                for i in range(n):
                    if probs[j, i] > 0:
                        e += probs[j, i] * values[i]
                if e < worst:
                    worst = e
        return worst
    total = 0.0
    for i in range(n):
        q = 0.0
        for j in range(nm):
            q += w[j] * probs[j, i]
        if q > 0:
            total += q * values[i]
    return total


def pick(rng, probs, n):
    """A move index drawn from ``probs[:n]`` (never one of probability 0)."""
    u = rand_next(rng) / 4294967296.0
    i = 0
    acc = probs[0]
    while i < n - 1 and u >= acc:
        i += 1
        acc += probs[i]
    while probs[i] == 0.0:  # rounding at the top end: the last move of positive probability
        i -= 1
    return i


def rollout(me, h0, h1, bone, bone_n, left, right, to_move, passes, drawn, w, mk, rng):
    """One game played out from a full-information position: ``me`` places its heaviest playable tile
    (first in the documented order among equals), the other player follows a model drawn from the
    weights ``w``, draws come from the boneyard set at random. Returns +1 / 0 / -1 for ``me``."""
    moves = np.empty(MAX_MOVES, np.int64)
    probs = np.empty(MAX_MOVES)
    total = 0.0
    for j in range(len(mk)):
        total += w[j]
    while True:
        r = result(me, h0, h1, passes)
        if r != 2.0:
            return r
        hand = h0 if to_move == 0 else h1
        unseen = (h1 if to_move == 0 else h0) | bone
        n = legal_into(hand, left, right, drawn, bone_n, moves)
        if moves[0] == DRAW:
            idx = rand_below(rng, bone_n)
            y = 0
            for t in range(N_TILES):
                if bone >> t & 1:
                    if idx == 0:
                        y = t
                        break
                    idx -= 1
            bit = 1 << y
            if to_move == 0:
                h0 |= bit
            else:
                h1 |= bit
            bone &= ~bit
            bone_n -= 1
            drawn = y
            continue
        if to_move == me:
            model_probs(STRONG, moves, n, hand, unseen, left, right, probs)
            i = 0
            while probs[i] == 0.0:
                i += 1
        else:
            u = rand_next(rng) / 4294967296.0 * total
            j = 0
            acc = w[0]
            while j < len(mk) - 1 and (u >= acc or w[j] <= 0):
                j += 1
                acc += w[j]
            model_probs(mk[j], moves, n, hand, unseen, left, right, probs)
            i = pick(rng, probs, n)
        h0, h1, left, right, to_move, passes = step(h0, h1, left, right, to_move, passes, moves[i])
        drawn = NO_TILE


# --- what the player knows of the opponent's hand ----------------------------------------------------


def n_choose_k(n, k):
    """C(n, k) as a float (the counts are compared with a budget, never used as exact integers)."""
    if k < 0 or k > n:
        return 0.0
    c = 1.0
    for i in range(k):
        c = c * (n - i) / (i + 1)
    return c


def rand_next(rng):
    """The next 32 random bits of the 48-bit linear congruential generator in ``rng[0]`` (the same
    numbers in plain Python and compiled: every product is reduced to its low 48 bits)."""
    s = (int(rng[0]) * 25214903917 + 11) & 0xFFFFFFFFFFFF
    rng[0] = s
    return s >> 16


def rand_below(rng, n):
    """A uniform integer in 0..n-1 (n < 2**31)."""
    return (rand_next(rng) * n) >> 32


def list_tiles(mask, tiles):
    """Write the tiles of ``mask`` into ``tiles`` (ascending); returns their number."""
    p = 0
    for t in range(N_TILES):
        if mask >> t & 1:
            tiles[p] = t
            p += 1
    return p


def sample_hand(rng, tiles, p, k):
    """A uniform k-subset of ``tiles[:p]`` as a mask (partial Fisher-Yates; ``tiles`` is reordered)."""
    h = 0
    for i in range(k):
        r = i + rand_below(rng, p - i)
        tmp = tiles[i]
        tiles[i] = tiles[r]
        tiles[r] = tmp
        h |= 1 << tiles[i]
    return h


def seed_rng(seed):
    rng = np.zeros(1, np.int64)
    rng[0] = (seed ^ 0x5DEECE66D) & 0xFFFFFFFFFFFF
    return rng


def event_likelihood(kind, hand, ev, e, after):
    """Probability that model ``kind`` plays the observed placement of event ``e`` (after the last kept
    unseen draw) when the opponent holds ``hand`` now (``after``: the tiles it placed from its hand after
    event ``e``)."""
    t = ev[e, 1] >> 1
    return placement_likelihood(kind, hand | after | (1 << t), ev, e, t if ev[e, 0] == EV_PLACE_DRAWN else -1)


def placement_likelihood(kind, held, ev, e, drawn):
    """Probability that model ``kind`` plays the placement of event ``e`` when the opponent holds ``held``
    (``drawn``: the tile it drew this turn, -1 if none)."""
    moves = np.empty(MAX_MOVES, np.int64)
    probs = np.empty(MAX_MOVES)
    n = legal_into(held, ev[e, 2], ev[e, 3], drawn, ev[e, 5], moves)
    model_probs(kind, moves, n, held, ALL_TILES & ~held & ~ev[e, 4], ev[e, 2], ev[e, 3], probs)
    for i in range(n):
        if moves[i] == ev[e, 1]:
            return probs[i]
    return 0.0


def hand_likelihood(kind, hand, ev, n_ev):
    """Probability that model ``kind`` plays every observed placement of the history ``ev[:n_ev]`` when the
    opponent holds ``hand`` now, summed over which of its tiles were the unseen draws it kept (0 when no
    assignment fits: a void broken, a kept draw that fitted an end).

    Read backwards from now: a placement adds its tile to the hand held before it; a kept unseen draw
    removes one tile of the hand, any that fits neither end then. Every such history has the same prior
    probability (a uniform deal, each draw uniform over the boneyard, whose size is public), so the sum
    is the likelihood of ``hand`` up to a factor common to every hand and model."""
    st_h = np.empty(LIK_STACK, np.int64)
    st_e = np.empty(LIK_STACK, np.int64)
    st_p = np.empty(LIK_STACK)
    st_h[0] = hand
    st_e[0] = n_ev - 1
    st_p[0] = 1.0
    sp = 1
    total = 0.0
    while sp > 0:
        sp -= 1
        h = st_h[sp]
        e = st_e[sp]
        p = st_p[sp]
        while e >= 0 and p > 0.0:
            k = ev[e, 0]
            ends = MATCH[ev[e, 2]] | MATCH[ev[e, 3]]
            if k == EV_VOID:
                if h & ends:
                    p = 0.0
            elif k == EV_PLACE:
                h |= 1 << (ev[e, 1] >> 1)
                p *= placement_likelihood(kind, h, ev, e, -1)
            elif k == EV_PLACE_DRAWN:
                t = ev[e, 1] >> 1
                p *= placement_likelihood(kind, h | (1 << t), ev, e, t)
            else:  # EV_UNSEEN: one tile of h, fitting neither end, was drawn here
                cand = h & ~ends
                if cand == 0:
                    p = 0.0
                else:
                    last = -1
                    for d in range(N_TILES):
                        if cand >> d & 1:
                            if last >= 0:
                                st_h[sp] = h & ~(1 << last)
                                st_e[sp] = e - 1
                                st_p[sp] = p
                                sp += 1
                            last = d
                    h &= ~(1 << last)
            e -= 1
        if p > 0.0:
            total += p
    return total


def window_start(ev, n_ev):
    """The first event after the opponent's last kept unseen draw (0 if none): from there on its hand at
    each event is its hand now plus the tiles it placed since."""
    for e in range(n_ev - 1, -1, -1):
        if ev[e, 0] == EV_UNSEEN:
            return e + 1
    return 0


def placed_after(ev, n_ev):
    """after[e]: tiles the opponent placed from its hand after event e (not those placed right after
    drawing them): after its last kept unseen draw, it held them at event e."""
    after = np.zeros(max(n_ev, 1), np.int64)
    acc = 0
    for e in range(n_ev - 1, -1, -1):
        after[e] = acc
        if ev[e, 0] == EV_PLACE:
            acc |= 1 << (ev[e, 1] >> 1)
    return after


def model_pool(kind, unknown, ev, n_ev, after):
    """Tiles the opponent may hold now under model ``kind``: the unknown tiles minus those that break a
    void since its last kept unseen draw and, for the models that rank each move on its own tile (first,
    last, strong), those whose holding would have made an observed placement since then impossible
    (before that draw, any one tile of the hand may be the one drawn: :func:`hand_likelihood` weighs it)."""
    pool = unknown
    e0 = window_start(ev, n_ev)
    for e in range(e0, n_ev):
        if ev[e, 0] == EV_VOID:
            pool &= ~(MATCH[ev[e, 2]] | MATCH[ev[e, 3]])
    if kind == FIRST or kind == LAST or kind == STRONG:
        for t in range(N_TILES):
            if pool >> t & 1:
                for e in range(e0, n_ev):
                    if ev[e, 0] == EV_PLACE and event_likelihood(kind, 1 << t, ev, e, after[e]) == 0.0:
                        pool &= ~(1 << t)
                        break
    return pool


def hand_weights(k, unknown, ev, n_ev, mk, active, samples, max_exact, rng, hands, lik, origin, tries, pool_sizes):
    """Candidate opponent hands of ``k`` tiles with each model's likelihood of the observed history
    ``ev[:n_ev]`` (see :func:`record` and :func:`hand_likelihood`).

    When the unknown tiles outside the voids since the last kept unseen draw allow at most ``max_exact``
    hands, every hand is listed once (``origin`` -1) and the result is exact; otherwise, for each active
    model, hands are drawn uniformly from its pool until ``samples`` of them have a positive likelihood
    under it, or ``samples * TRY_FACTOR`` were drawn (``origin`` = the model; ``tries[j]``: the draws, and
    ``pool_sizes[j]``: the pool's tiles, of the importance weight). Fills ``hands``, ``lik[h, j]`` and
    returns the count.
    """
    nm = len(mk)
    after = placed_after(ev, n_ev)
    base = model_pool(RANDOM, unknown, ev, n_ev, after)
    tiles = np.empty(N_TILES, np.int64)
    count = 0
    if n_choose_k(popcount(base), k) <= max_exact:
        p = list_tiles(base, tiles)
        if k > p:
            return 0
        idx = np.arange(k)
        while True:
            h = 0
            for i in range(k):
                h |= 1 << tiles[idx[i]]
            hands[count] = h
            origin[count] = -1
            for j in range(nm):
                lik[count, j] = hand_likelihood(mk[j], h, ev, n_ev) if active[j] else 0.0
            count += 1
            i = k - 1
            while i >= 0 and idx[i] == p - k + i:
                i -= 1
            if i < 0:
                break
            idx[i] += 1
            for m in range(i + 1, k):
                idx[m] = idx[m - 1] + 1
        return count
    for j0 in range(nm):
        if not active[j0]:
            continue
        p = list_tiles(model_pool(mk[j0], unknown, ev, n_ev, after), tiles)
        pool_sizes[j0] = p
        if k > p:
            continue
        kept = 0
        t_try = 0
        while kept < samples and t_try < samples * TRY_FACTOR:
            t_try += 1
            h = sample_hand(rng, tiles, p, k)
            own = hand_likelihood(mk[j0], h, ev, n_ev)
            if own <= 0.0:
                continue  # against a deterministic model most uniform hands are impossible: draw again
            hands[count] = h
            origin[count] = j0
            for j in range(nm):
                lik[count, j] = own if j == j0 else (hand_likelihood(mk[j], h, ev, n_ev) if active[j] else 0.0)
            count += 1
            kept += 1
        tries[j0] = t_try
    return count


def model_evidence(count, lik, origin, nm, pool_sizes, k, tries):
    """Each model's likelihood of the history, up to a factor common to all models: exact sums over the
    listed hands, or the pool's hand count times the mean likelihood over that model's draws."""
    z = np.zeros(nm)
    for h in range(count):
        o = origin[h]
        if o < 0:
            for j in range(nm):
                z[j] += lik[h, j]
        else:
            z[o] += lik[h, o]
    for j in range(nm):
        if tries[j] > 0:
            z[j] = z[j] / tries[j] * n_choose_k(pool_sizes[j], k)
    return z


def belief_weights(kind, w0, z):
    """The model weights given the history: realistic keeps the credible models (evidence > 0) at weight
    1; bayesian multiplies its prior by the evidence and normalises; predictive keeps its one model.
    When no model can explain the history (possible only when the opponent plays outside the model set,
    or with sampled hands), the prior weights are kept."""
    nm = len(w0)
    out = np.zeros(nm)
    total = 0.0
    for j in range(nm):
        if w0[j] > 0 and z[j] > 0:
            out[j] = 1.0 if kind == REALISTIC else w0[j] * z[j]
            total += out[j]
    if total == 0.0:
        for j in range(nm):
            out[j] = w0[j]
        return out
    if kind != REALISTIC:
        for j in range(nm):
            out[j] /= total
    return out


def weigh_hands(k, unknown, ev, n_ev, mk, w0, samples, max_exact, rng):
    """:func:`hand_weights` for the models of positive weight in ``w0``, with each model's evidence:
    returns (count, hands, lik, origin, z)."""
    nm = len(mk)
    cap = max(int(max_exact), samples * nm) + 1
    hands = np.zeros(cap, np.int64)
    lik = np.zeros((cap, nm))
    origin = np.zeros(cap, np.int64)
    tries = np.zeros(nm, np.int64)
    pool_sizes = np.zeros(nm, np.int64)
    count = hand_weights(k, unknown, ev, n_ev, mk, w0 > 0, samples, max_exact, rng, hands, lik, origin, tries,
                         pool_sizes)
    z = model_evidence(count, lik, origin, nm, pool_sizes, k, tries)
    return count, hands, lik, origin, z


def search_depth(depth, endgame, bone_n):
    """The placements searched after a move: to the end of the game (exact, no leaf estimate) once the
    boneyard holds at most ``endgame`` tiles (-1: never), else ``depth``."""
    return DEPTH_TO_END if bone_n <= endgame else depth


def move_values(me, my_hand, k, unknown, bone_n, left, right, passes, drawn, ev, n_ev, kind, w0, mk,
                depth, samples, max_exact, rollouts, endgame, budget, rng, moves, values, value_forced):
    """The player's value of each legal move (written into ``values``, moves into ``moves``; returns
    their number): :func:`belief_search` after the move, from the opponent hands it considers (see
    :func:`hand_weights`), each weighed by the models' likelihood of the opponent's history, searching
    ``depth`` placements (to the end with a boneyard of at most ``endgame`` tiles; with ``budget`` > 0
    one placement deeper at a time while the search is expected to visit at most ``budget`` positions).

    Weights of (hand, model): predictive, the one model's likelihood; realistic, each credible model's
    own hand posterior (the search takes the worst model); bayesian, the posterior over model and hand.
    When no model explains the history, ``samples`` hands of the unknown tiles, all alike.
    One legal move: a game played by the engine needs no value for it (``value_forced`` False: left at 0); a
    caller asking for values (``lookup.dominoes.move_values``) passes True and a forced placement is searched
    like any move. A forced draw or pass is not (the search places tiles only): its value stays 0.
    """
    nm = len(mk)
    n = legal_into(my_hand, left, right, drawn, bone_n, moves)
    for i in range(n):
        values[i] = 0.0
    if n == 1 and (not value_forced or moves[0] >= DRAW):
        return 1
    depth = search_depth(depth, endgame, bone_n)
    if depth >= DEEPEN_MAX:
        budget = 0
    count, hands, lik, origin, z = weigh_hands(k, unknown, ev, n_ev, mk, w0, samples, max_exact, rng)
    alpha = belief_weights(kind, w0, z)
    informed = False
    for j in range(nm):
        if alpha[j] > 0 and z[j] > 0:
            informed = True
    if informed and count > 0:
        norm = np.zeros(nm)  # each model's sum of likelihoods over its hands
        for h in range(count):
            o = origin[h]
            for j in range(nm):
                if o < 0 or o == j:
                    norm[j] += lik[h, j]
        hs, wt, ds, np_ = belief_particles(kind, count, hands, lik, origin, z, alpha, norm, nm)
    else:
        hs, wt, ds, np_ = uniform_particles(kind, k, unknown, w0, samples, rng)
    # Iterative deepening: one more placement while the last search, times its growth over the one
    # before (a first guess of DEEPEN_GROWTH), stays within ``budget`` positions.
    nodes = np.zeros(1, np.int64)
    prev = 0
    cap = max(np_, PARTICLE_CAP)
    while True:
        nodes[0] = 0
        belief_values(me, my_hand, unknown, bone_n, left, right, passes, kind, mk, depth, rollouts, cap, rng, moves, n,
                      hs, wt, ds, np_, values, nodes)
        if budget <= 0 or depth >= DEEPEN_MAX or nodes[0] == prev:  # (the same count: every line ended)
            break
        growth = nodes[0] / prev if prev > 0 else DEEPEN_GROWTH
        if nodes[0] * growth > budget:
            break
        prev = nodes[0]
        depth += 1
    return n


def uniform_particles(kind, k, unknown, w0, samples, rng):
    """``samples`` opponent hands of ``k`` unknown tiles drawn uniformly, each with the weights ``w0``
    (the realistic player: 1 for every credible model), for when no model explains the history."""
    tiles = np.empty(N_TILES, np.int64)
    p = list_tiles(unknown, tiles)
    nm = len(w0)
    hs = np.empty(samples, np.int64)
    wt = np.zeros((samples, nm))
    ds = np.empty(samples, np.int64)
    for q in range(samples):
        hs[q] = sample_hand(rng, tiles, p, k)
        ds[q] = NO_TILE
        for j in range(nm):
            wt[q, j] = (1.0 if w0[j] > 0 else 0.0) if kind == REALISTIC else w0[j]
    return hs, wt, ds, np.int64(samples)


# --- search over what the player knows (information sets) ---------------------------------------------


def belief_aggregate(vals, wt, np_, nm):
    """The value of a set of particles whose values are ``vals[:np_]`` (weights ``wt[p, j]``: particle p
    is the opponent's hand and model j): their weighted mean."""
    num = 0.0
    den = 0.0
    for p in range(np_):
        for j in range(nm):
            num += wt[p, j] * vals[p]
            den += wt[p, j]
    return num / den


def belief_merge(hs, wt, np_, nm):
    """The particles ``hs[:np_]`` (none with a drawn tile) with equal hands merged (weights added), in
    increasing order of hand. Returns (hands, weights, drawn tiles, count)."""
    order = np.argsort(hs[:np_])
    out_h = np.empty(max(np_, 1), np.int64)
    out_w = np.zeros((max(np_, 1), nm))
    out_d = np.empty(max(np_, 1), np.int64)
    c = ZERO
    for r in range(np_):
        p = order[r]
        if c == 0 or out_h[c - 1] != hs[p]:
            out_h[c] = hs[p]
            out_d[c] = NO_TILE
            c += 1
        for j in range(nm):
            out_w[c - 1, j] += wt[p, j]
    return out_h, out_w, out_d, c


def belief_resample(hs, wt, np_, nm, cap, rng):
    """At most ``cap`` particles (none with a drawn tile) drawn from ``np_`` in proportion to their
    weights (systematic resampling; a particle drawn r times keeps r / cap of the total, split among its
    models as before). Returns (hands, weights, drawn tiles, count)."""
    tot = np.zeros(np_)
    total = 0.0
    for p in range(np_):
        for j in range(nm):
            tot[p] += wt[p, j]
        total += tot[p]
    out_h = np.empty(cap, np.int64)
    out_w = np.zeros((cap, nm))
    out_d = np.empty(cap, np.int64)
    step_w = total / cap
    u = rand_next(rng) / 4294967296.0 * step_w
    acc = 0.0
    c = ZERO
    for p in range(np_):
        acc += tot[p]
        r = 0
        while u < acc and r + c < cap:
            r += 1
            u += step_w
        if r > 0 and tot[p] > 0.0:
            out_h[c] = hs[p]
            out_d[c] = NO_TILE
            for j in range(nm):
                out_w[c, j] = r * step_w * wt[p, j] / tot[p]
            c += 1
    return out_h, out_w, out_d, c


def belief_search(me, mine, my_drawn, hs, wt, ds, np_, unknown, bone_n, left, right, to_move, passes, depth, kind,
                  mk, rollouts, cap, rng, nodes):
    """Expected value for ``me`` of a position as the player sees it: its hand ``mine``, the tiles it
    has not seen ``unknown`` (the opponent's hand and the boneyard of ``bone_n`` tiles), and particles
    ``p < np_``: an opponent hand ``hs[p]`` (with ``ds[p]``: the tile it drew this turn, -1 if none) and
    weights ``wt[p, j]`` = the player's belief that the opponent holds that hand and plays model
    ``mk[j]``. Unlike :func:`search` on each hand (which lets the player choose its later moves knowing
    the hand), the player's moves are chosen here once per information set: after an opponent move
    the particles that could have played it go on together, weighed by how likely each made it; an
    unseen draw spreads each particle over the tiles it may have drawn (resampled to ``cap`` particles).
    Depth, leaf and end of game as in :func:`search`; at the other player's moves the realistic player
    takes, for each hand, its worst credible model's expectation (then the weighted mean over hands)."""
    nodes[0] += 1
    nm = len(mk)
    opp_n = popcount(hs[0])
    if mine == 0:
        return 1.0
    if opp_n == 0:
        return -1.0
    vals = np.empty(np_)
    if passes >= PASS_LIMIT or depth <= 0:
        for p in range(np_):
            h0 = mine if me == 0 else hs[p]
            h1 = hs[p] if me == 0 else mine
            if passes >= PASS_LIMIT:
                vals[p] = result(me, h0, h1, passes)
            elif rollouts <= 0:
                vals[p] = leaf_value(me, h0, h1, left, right, to_move, bone_n)
            else:
                acc = 0.0
                for _ in range(rollouts):
                    acc += rollout(me, h0, h1, unknown & ~hs[p], bone_n, left, right, to_move, passes, NO_TILE, wt[p],
                                   mk, rng)
                vals[p] = acc / rollouts
        return belief_aggregate(vals, wt, np_, nm)
    moves = np.empty(MAX_MOVES, np.int64)
    if to_move == me:
        n = legal_into(mine, left, right, my_drawn, bone_n, moves)
        if moves[0] == DRAW:
            total = 0.0
            wsum = 0.0
            for p in range(np_):
                for j in range(nm):
                    wsum += wt[p, j]
            cw = np.zeros((np_, nm))
            for y in range(N_TILES):
                if unknown >> y & 1:
                    wy = 0.0
                    for p in range(np_):
                        for j in range(nm):
                            cw[p, j] = 0.0 if hs[p] >> y & 1 else wt[p, j]
                            wy += cw[p, j]
                    if wy > 0.0:
                        total += wy * belief_search(me, mine | (1 << y), y, hs, cw, ds, np_, unknown & ~(1 << y),
                                                    bone_n - 1, left, right, to_move, passes, depth, kind, mk, rollouts,
                                                    cap, rng, nodes)
            return total / (wsum * bone_n)
        best = -2.0
        for i in range(n):
            if moves[i] == PASS:
                v = belief_search(me, mine, NO_TILE, hs, wt, ds, np_, unknown, bone_n, left, right, 1 - me,
                                  passes + 1, depth - 1, kind, mk, rollouts, cap, rng, nodes)
            else:
                nl, nr = place(moves[i], left, right)
                v = belief_search(me, mine & ~(1 << (moves[i] >> 1)), NO_TILE, hs, wt, ds, np_, unknown, bone_n, nl,
                                  nr, 1 - me, ZERO, depth - 1, kind, mk, rollouts, cap, rng, nodes)
            if v > best:
                best = v
        return best
    # The other player moves: each particle by its own legal moves and models; the player sees the move.
    seen = np.zeros(MAX_MOVES, np.int64)  # 1: some particle plays that move (codes: placements, DRAW, PASS)
    pm = np.empty((np_, MAX_MOVES), np.int64)
    pq = np.zeros((np_, MAX_MOVES, nm))
    pn = np.zeros(np_, np.int64)
    probs = np.empty(MAX_MOVES)
    for p in range(np_):
        n = legal_into(hs[p], left, right, ds[p], bone_n, pm[p])
        pn[p] = n
        for j in range(nm):
            if wt[p, j] > 0.0:
                model_probs(mk[j], pm[p], n, hs[p], mine | (unknown & ~hs[p]), left, right, probs)
                for i in range(n):
                    pq[p, i, j] = wt[p, j] * probs[i]
        for i in range(n):
            for j in range(nm):
                if pq[p, i, j] > 0.0:
                    seen[pm[p, i]] = 1
    value_of = np.zeros(MAX_MOVES)
    for c in range(MAX_MOVES):
        if seen[c] == 0:
            continue
        if c == DRAW:
            # Each drawing particle spreads over the tiles of its boneyard; the player sees only the draw.
            cnt = 0
            for p in range(np_):
                if pm[p, 0] == DRAW:
                    cnt += popcount(unknown & ~hs[p])
            ch = np.empty(cnt, np.int64)
            cw = np.zeros((cnt, nm))
            cd = np.empty(cnt, np.int64)
            q = ZERO
            for p in range(np_):
                if pm[p, 0] == DRAW:
                    for y in range(N_TILES):
                        if (unknown & ~hs[p]) >> y & 1:
                            ch[q] = hs[p] | (1 << y)
                            cd[q] = y
                            for j in range(nm):
                                cw[q, j] = pq[p, 0, j] / bone_n
                            q += 1
            value_of[c] = belief_search(me, mine, my_drawn, ch, cw, cd, q, unknown, bone_n - 1, left, right, to_move,
                                        passes, depth, kind, mk, rollouts, cap, rng, nodes)
            continue
        cnt = 0
        for p in range(np_):
            for i in range(pn[p]):
                if pm[p, i] == c:
                    cnt += 1
        ch = np.empty(cnt, np.int64)
        cw = np.zeros((cnt, nm))
        cd = np.empty(cnt, np.int64)
        q = ZERO
        for p in range(np_):
            for i in range(pn[p]):
                if pm[p, i] == c:
                    ok = False
                    for j in range(nm):
                        cw[q, j] = pq[p, i, j]
                        if cw[q, j] > 0.0:
                            ok = True
                    if ok:
                        ch[q] = hs[p] if c == PASS else hs[p] & ~(1 << (c >> 1))
                        cd[q] = NO_TILE
                        q += 1
        if c == PASS:
            # After an unseen draw different particles can reach the same hand: merge them, then keep at
            # most ``cap`` (the spread over the drawn tiles multiplies them).
            ch, cw, cd, q = belief_merge(ch, cw, q, nm)
            if q > cap:
                ch, cw, cd, q = belief_resample(ch, cw, q, nm, cap, rng)
            value_of[c] = belief_search(me, mine, NO_TILE, ch, cw, cd, q, unknown, bone_n, left, right, me, passes + 1,
                                        depth - 1, kind, mk, rollouts, cap, rng, nodes)
        else:
            nl, nr = place(c, left, right)
            value_of[c] = belief_search(me, mine, NO_TILE, ch, cw, cd, q, unknown & ~(1 << (c >> 1)), bone_n, nl, nr,
                                        me, ZERO, depth - 1, kind, mk, rollouts, cap, rng, nodes)
    if kind == REALISTIC:  # each hand's worst credible model, the hands weighed by their share
        num = 0.0
        den = 0.0
        for p in range(np_):
            omega = 0.0
            worst = 2.0
            e_w = 0.0
            w_w = 0.0
            for j in range(nm):
                if wt[p, j] > 0.0:
                    omega += wt[p, j]
                    e = 0.0
                    for i in range(pn[p]):
                        e += pq[p, i, j] * value_of[pm[p, i]]
                    if e / wt[p, j] < worst:
                        worst = e / wt[p, j]
                        e_w = e
                        w_w = wt[p, j]
            if omega > 0.0:
                # (one credible model: exactly the predictive player's sum, not omega * e / omega)
                num += e_w if w_w == omega else omega * worst
                den += omega
        return num / den
    num = 0.0
    den = 0.0
    for p in range(np_):
        e = 0.0
        for i in range(pn[p]):
            for j in range(nm):
                e += pq[p, i, j] * value_of[pm[p, i]]
        num += e
        for j in range(nm):
            den += wt[p, j]
    return num / den


def belief_particles(kind, count, hands, lik, origin, z, alpha, norm, nm):
    """The root particles of :func:`belief_search` from the weighed hands of :func:`weigh_hands`: hand h
    with weight alpha_j lik[h, j] / norm[j] for model j (its share of the posterior over model and hand;
    the realistic player: each credible model's own hand posterior, lik / norm), counting a sampled hand
    only for the model it was drawn for. Returns (hands, weights, drawn, count)."""
    hs = np.empty(max(count, 1), np.int64)
    wt = np.zeros((max(count, 1), nm))
    ds = np.empty(max(count, 1), np.int64)
    q = ZERO
    for h in range(count):
        ok = False
        for j in range(nm):
            o = origin[h]
            if (o < 0 or o == j) and alpha[j] > 0 and norm[j] > 0 and z[j] > 0 and lik[h, j] > 0:
                wt[q, j] = (alpha[j] if kind != REALISTIC else 1.0) * lik[h, j] / norm[j]
                ok = True
        if ok:
            hs[q] = hands[h]
            ds[q] = NO_TILE
            q += 1
    return hs, wt, ds, q


def belief_values(me, my_hand, unknown, bone_n, left, right, passes, kind, mk, depth, rollouts, cap, rng, moves, n,
                  hs, wt, ds, np_, values, nodes):
    """values[i] = :func:`belief_search` after the player's move ``moves[i]``."""
    # Typed copies: a literal (the -1 ends of the empty board, 0 passes) would give the recursion a second
    # signature, and numba's cache reloads such recursive functions wrongly (numba issue #6713).
    left = np.int64(left)
    right = np.int64(right)
    passes = np.int64(passes)
    np_ = np.int64(np_)
    for i in range(n):
        if moves[i] == PASS:
            values[i] = belief_search(me, my_hand, NO_TILE, hs, wt, ds, np_, unknown, bone_n, left, right, 1 - me,
                                      passes + 1, depth - 1, kind, mk, rollouts, cap, rng, nodes)
        else:
            nl, nr = place(moves[i], left, right)
            values[i] = belief_search(me, my_hand & ~(1 << (moves[i] >> 1)), NO_TILE, hs, wt, ds, np_, unknown,
                                      bone_n, nl, nr, 1 - me, ZERO, depth - 1, kind, mk, rollouts, cap, rng, nodes)


def best_index(values, n):
    """The first move of highest value (ties go to the documented order)."""
    b = 0
    for i in range(1, n):
        if values[i] > values[b]:
            b = i
    return b


def record(ev, n_ev, move, drawn, left, right, board, bone_n):
    """Write the opponent's observed ``move`` as event ``n_ev`` of its history (``drawn`` >= 0 when it drew
    this turn; the player does not see which tile): a placement (``EV_PLACE``, or ``EV_PLACE_DRAWN`` for the
    tile it just drew), a draw or a pass with an empty boneyard (``EV_VOID``: no tile of its hand matched
    either end), or a pass after drawing (``EV_UNSEEN``: it kept a tile the player never saw, which fitted
    neither end). Rows: kind, move, left end, right end, the tiles on the line, the boneyard's size."""
    if move == PASS and drawn >= 0:
        ev[n_ev, 0] = EV_UNSEEN  # it kept a tile the player does not see (its void was recorded with the draw)
    elif move == DRAW or move == PASS:
        ev[n_ev, 0] = EV_VOID  # it held no tile matching either end
    else:
        ev[n_ev, 0] = EV_PLACE_DRAWN if drawn >= 0 else EV_PLACE
    ev[n_ev, 1] = move
    ev[n_ev, 2] = left
    ev[n_ev, 3] = right
    ev[n_ev, 4] = board
    ev[n_ev, 5] = bone_n


# --- a seeded game: the player against one model ------------------------------------------------------


def deal(rng, order):
    """Shuffle the 28 tiles into ``order`` (Fisher-Yates): seat 0 gets order[0:7], seat 1 order[7:14],
    the boneyard is order[14:28] drawn from the front."""
    for t in range(N_TILES):
        order[t] = t
    for i in range(N_TILES - 1, 0, -1):
        j = rand_below(rng, i + 1)
        tmp = order[i]
        order[i] = order[j]
        order[j] = tmp


def play_game(seed, kind, seat, model, mk, w_init, depth, samples, max_exact, rollouts, endgame, budget, log):
    """One game of the player ``kind`` (seat ``seat``, models ``mk`` with prior weights ``w_init``)
    against the opponent playing model ``model`` (which sees the true state). Returns the result for the
    player (+1 / 0 / -1). ``log`` (rows: mover, move; -1 ends it) receives the moves when it has room
    (draws are logged as DRAW and followed by a row (-2, tile))."""
    rng = seed_rng(seed)
    order = np.empty(N_TILES, np.int64)
    deal(rng, order)
    h = np.zeros(2, np.int64)
    for i in range(HAND_SIZE):
        h[0] |= 1 << order[i]
        h[1] |= 1 << order[HAND_SIZE + i]
    bone_pos = 2 * HAND_SIZE
    left = -1
    right = -1
    to_move = 0
    passes = 0
    drawn = -1
    board = 0
    ev = np.zeros((HISTORY_ROWS, 6), np.int64)
    n_ev = 0
    moves = np.empty(MAX_MOVES, np.int64)
    values = np.empty(MAX_MOVES)
    probs = np.empty(MAX_MOVES)
    n_log = 0
    while True:
        r = result(seat, h[0], h[1], passes)
        if r != 2.0:
            if n_log < log.shape[0]:
                log[n_log, 0] = -1
            return r
        bone_n = N_TILES - bone_pos
        mover = to_move
        if mover == seat:
            unknown = ALL_TILES & ~h[seat] & ~board
            n = move_values(seat, h[seat], popcount(h[1 - seat]), unknown, bone_n, left, right, passes, drawn, ev,
                            n_ev, kind, w_init, mk, depth, samples, max_exact, rollouts, endgame, budget, rng,
                            moves, values, False)
            move = moves[best_index(values, n)]
        else:
            n = legal_into(h[mover], left, right, drawn, bone_n, moves)
            model_probs(model, moves, n, h[mover], ALL_TILES & ~h[mover] & ~board, left, right, probs)
            move = moves[pick(rng, probs, n)]
            record(ev, n_ev, move, drawn, left, right, board, bone_n)
            n_ev += 1
        if n_log < log.shape[0]:
            log[n_log, 0] = mover
            log[n_log, 1] = move
            n_log += 1
        if move == DRAW:
            y = order[bone_pos]
            bone_pos += 1
            h[mover] |= 1 << y
            drawn = y
            if n_log < log.shape[0]:
                log[n_log, 0] = -2
                log[n_log, 1] = y
                n_log += 1
            continue
        if move != PASS:
            board |= 1 << (move >> 1)
        h[0], h[1], left, right, to_move, passes = step(h[0], h[1], left, right, mover, passes, move)
        drawn = -1
    return 0.0


def play_games(seeds, kind, seat, model, mk, w_init, depth, samples, max_exact, rollouts, endgame, budget, out):
    """``out[g]`` = the result of ``play_game(seeds[g], ...)`` for every game (no move log)."""
    log = np.empty((0, 2), np.int64)
    for g in range(len(seeds)):
        out[g] = play_game(seeds[g], kind, seat, model, mk, w_init, depth, samples, max_exact, rollouts, endgame,
                           budget, log)
