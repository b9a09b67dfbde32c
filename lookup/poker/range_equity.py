"""Equity of hands and ranges against ranges (and random hands), with a board and dead cards: exact when it can
be counted within the budget, a seeded Monte Carlo estimate with its standard error otherwise.

**What is computed.** Each player holds a range (``lookup.poker.ranges``; a specific hand is a range of one
hand). The hands that share a card with the board or the dead cards are removed; the players' hands are then
dealt together with probability proportional to the product of their weights, over every tuple of hands
that share no card (card removal between the players); the board is completed and the ``opponents`` random
players get their hands uniformly from the cards left. A player's equity is its expected share of the pot.
Exactly: ``deals`` = sum over the tuples of (product of weights) x (deals per tuple), the same number of
deals for every tuple, and ``shares[i]`` the same weighted sum of player i's pot shares.

**How**, in this order (``RangeEquity.source`` and ``method`` say which):

1. *The preflop table* (two players, or one player and one random hand; no board, no dead cards): the table
   ``poker-preflop`` holds, for every pair of classes (X, Y), the wins and ties of X summed over every pair
   of disjoint hands (x in X, y in Y) and every board, and the number of such pairs. A suit permutation
   maps a hand of X onto any other of X, fixes Y as a set and keeps disjointness and every showdown, so each
   hand x of X has exactly 1 / |X| of the cell's counts against the whole of Y (and each y of Y 1 / |Y| of
   them against the whole of X). So whenever one of the two sides of a pair of parts is a whole class with
   one weight, the weighted counts are the cell's times the weights (divided by |X| or |Y| for a single
   hand): exact integers, nothing enumerated. Only specific hands against specific hands are enumerated.
2. *Pairwise enumeration* (two players, no random hands): every board completion, the value of every hand
   of both ranges on it, and every pair compared; integer counts per pair of hands, then weighted.
3. *Per tuple*: every tuple of disjoint hands, one per suit orbit of the board and the dead cards (suit
   permutations fixing them map tuples onto tuples with equal counts), counted by ``lookup.poker.equity``
   (with its random opponents, exactly).

The cheapest that fits ``budget`` (by the same kind of estimate as ``equity``'s) runs; when none does, a
seeded Monte Carlo: tuples drawn by weight (tuples sharing a card are redrawn), then the board and the
random hands; ``se`` its standard error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb, lcm, sqrt
from pathlib import Path
from typing import Any

import numpy as np

from lookup.poker.cards import DECK_SIZE, N_CLASSES, card_text, class_name, hand_class
from lookup.poker.equity import (
    DEFAULT_BUDGET,
    FORMULA_OPPONENTS,
    MAX_BUDGET,
    MAX_SAMPLES,
    SOURCE_ENUMERATION,
    SOURCE_MONTE_CARLO,
    SOURCE_TABLE,
    Engine,
    NumpyEngine,
    budget_samples,
    combinations_array,
    combos_of,
    draw_cards,
    equity,
    preflop_question,
    tally_showdowns,
    work_units,
)
from lookup.poker.evaluate import values_on_board
from lookup.poker.problem import Problem, make_problem
from lookup.poker.ranges import Range, parse_range
from lookup.poker.rules import MAX_PLAYERS
from lookup.poker.tables import PreflopTables, built_multiway, built_preflop, load_evaluator
from lookup.store import ArtifactError
from lookup.validate import integer, number
from lookup.validate import seed as validate_seed
from lookup.words import counted

PREFLOP_BOARDS = comb(48, 5)  # boards of a heads-up preflop pair of hands: 1,712,304
# Assumed speeds of the numpy work of the pairwise enumeration (pessimistic: measured ~1.3e6 hand values and
# ~5e8 comparisons a second on the shared 2-core machine) and the cost of one call of ``equity`` per tuple.
EVAL_RATE = 1e6
COMPARE_RATE = 1e8
CALL_SECONDS = 5e-3
MAX_TUPLES = 50_000  # tuples of hands the per-tuple method lists at most
MAX_SEARCH = 100_000  # steps of the search for one possible deal of three or more ranges


@dataclass(frozen=True)
class RangeEquity:
    """Equity of each player's range (in the order given) against the others and ``opponents`` random hands.

    Exact (``exact`` True): ``deals`` the weighted number of equally likely deals (an int when every weight
    is 1, else a Fraction), ``wins[i]`` / ``ties[i]`` the weighted deals player i wins alone / shares,
    ``shares[i]`` its weighted pot shares (equity = shares / deals), ``matchups`` the weighted number of tuples
    of players' hands. Estimated (``exact`` False): ``deals`` the sampled deals, ``se[i]`` the standard error
    of ``equity[i]``; ``wins`` / ``ties`` None when the answer does not split them.
    ``hands[i]``: the hands of player i's range left after the board and the dead cards.
    """

    players: tuple[str, ...]
    hands: tuple[int, ...]
    board: str
    dead: str
    opponents: int
    exact: bool
    deals: int | Fraction
    wins: tuple[int | Fraction, ...] | None
    ties: tuple[int | Fraction, ...] | None
    shares: tuple[Fraction, ...]
    se: tuple[float, ...]
    method: str
    seconds: float
    notes: tuple[str, ...] = field(default=())
    source: str = SOURCE_ENUMERATION
    matchups: int | Fraction | None = None

    @property
    def equity(self) -> tuple[float, ...]:
        return tuple(float(Fraction(s) / self.deals) for s in self.shares)

    @property
    def win(self) -> tuple[float, ...] | None:
        return None if self.wins is None else tuple(float(Fraction(w) / self.deals) for w in self.wins)

    @property
    def tie(self) -> tuple[float, ...] | None:
        return None if self.ties is None else tuple(float(Fraction(t) / self.deals) for t in self.ties)

    def as_dict(self) -> dict[str, Any]:
        """The fields (and ``equity``, ``win``, ``tie``, and ``equity_exact``: each player's exact equity or None)
        as JSON values, under the same names: what ``dicetables poker range --json`` and the web API return.
        ``shares`` and ``equity_exact`` are texts "numerator/denominator"; a count (``deals``, ``wins``,
        ``ties``, ``matchups``) is an integer, or such a text when weights make it a fraction."""
        def count(x: Any) -> Any:
            return f"{x.numerator}/{x.denominator}" if isinstance(x, Fraction) and x.denominator != 1 else \
                (int(x) if isinstance(x, Fraction) else x)

        def ratio(x: Fraction) -> str:
            x = Fraction(x)
            return f"{x.numerator}/{x.denominator}"

        out: dict[str, Any] = {name: getattr(self, name) for name in self.__dataclass_fields__}
        for name in ("players", "hands", "se", "notes"):
            out[name] = list(out[name])
        for name in ("wins", "ties"):
            out[name] = None if out[name] is None else [count(x) for x in out[name]]
        out["shares"] = [ratio(x) for x in self.shares]
        out["deals"], out["matchups"] = count(self.deals), count(self.matchups)
        for name in ("equity", "win", "tie"):
            value = getattr(self, name)
            out[name] = None if value is None else list(value)
        out["equity_exact"] = [ratio(Fraction(s) / self.deals) for s in self.shares] if self.exact else None
        return out


def _number(x: Fraction) -> int | Fraction:
    return int(x) if x.denominator == 1 else x


@dataclass
class _Player:
    """One player's range after card removal: hands [K, 2] (cards), hand indices, integer weights (the
    range's weights times ``scale``)."""

    text: str
    range: Range
    cards: np.ndarray
    weights: list[int]
    scale: int


def _player(text: Any, i: int, removed: tuple[int, ...]) -> _Player:
    r = parse_range(text)
    label = r.text if isinstance(text, Range) else str(text).strip()
    left = r.without(removed)
    if not len(left):
        raise ValueError(f"player {i + 1} ({label!r}): every hand of the range shares a card with the board or "
                         "the dead cards")
    scale = lcm(*(w.denominator for w in left.weights))
    return _Player(label, left, np.array(left.cards(), dtype=np.int64).reshape(-1, 2),
                   [int(w * scale) for w in left.weights], scale)


def range_equity(players: Any, board: Any = (), opponents: int = 0, dead: Any = (), *,
                 budget: float = DEFAULT_BUDGET, samples: int | None = None, seed: int = 0,
                 engine: Engine | None = None, artifacts_dir: str | Path | None = None,
                 use_table: bool = True) -> RangeEquity:
    """Equity of each of ``players`` (each a range such as ``"QQ+, AKs"`` or a hand such as ``"AsAh"``) against
    the others and ``opponents`` random hands, on ``board`` (0, 3, 4 or 5 cards) with ``dead`` cards out.

    Exact when a method (see the module) fits ``budget`` seconds by its estimate; otherwise a seeded Monte
    Carlo of ``samples`` deals (default: as many as the budget allows, ``lookup.poker.equity.budget_samples``).
    ``engine`` counts the tuples (default numpy; the CLI passes the numba one). ``use_table=False`` never reads the
    preflop table. Bad input (a range token, a card, too many players, a range with no hand left, ranges that
    cannot be dealt together) is a ValueError naming it.
    """
    start = time.perf_counter()
    if isinstance(players, str | Range):
        players = [players]
    try:
        texts = list(players)
    except TypeError:
        raise ValueError(f"players: expected a list of ranges or hands such as ['AsAh', 'QQ+, AKs'], "
                         f"got {type(players).__name__}") from None
    base = make_problem([], board, opponents, dead)  # checks the board, the dead cards and opponents
    n, m = base.opponents, len(texts)
    if not 1 <= m <= MAX_PLAYERS:
        raise ValueError(f"players: give 1..{MAX_PLAYERS} ranges or hands, got {m}")
    if m + n < 2:
        raise ValueError("give at least two players: a second range or hand, or random opponents")
    if m + n > MAX_PLAYERS:
        raise ValueError(f"{m + n} players: at most {MAX_PLAYERS} players sit at a hold'em table")
    left = DECK_SIZE - len(base.board) - len(base.dead) - 2 * m - base.k
    if left < 2 * n:
        raise ValueError(f"not enough cards: {left} left for {counted(n, 'random opponent hand')}")
    budget = number(budget, "budget", 0, MAX_BUDGET)
    if samples is None:
        samples = budget_samples(budget, m + n)
    samples = integer(samples, "samples", 2, MAX_SAMPLES)
    seed = validate_seed(seed)
    removed = base.board + base.dead
    ps = [_player(t, i, removed) for i, t in enumerate(texts)]
    _check_dealable(ps)
    common = {"players": tuple(p.text for p in ps), "hands": tuple(len(p.range) for p in ps),
              "board": " ".join(card_text(c) for c in base.board), "dead": " ".join(card_text(c) for c in base.dead),
              "opponents": n}
    notes: list[str] = []

    def done(c: _Counts, scale: int) -> RangeEquity:
        scale = scale if c.exact else 1  # estimates are in deals drawn, not in weights
        def unscale(x: int | Fraction | None) -> int | Fraction | None:
            return None if x is None else _number(Fraction(x) / scale)

        wins = None if c.wins is None else tuple(unscale(x) for x in c.wins[:m])
        ties = None if c.ties is None else tuple(unscale(x) for x in c.ties[:m])
        return RangeEquity(**common, exact=c.exact, deals=unscale(c.deals), wins=wins, ties=ties,
                           shares=tuple(Fraction(s) / scale for s in c.shares[:m]), se=tuple(c.se[:m]),
                           method=c.method, seconds=time.perf_counter() - start, notes=tuple(notes),
                           source=c.source, matchups=unscale(c.matchups))

    tables = None
    if use_table and not base.board and not base.dead and (m, n) in ((2, 0), (1, 1)):
        try:
            tables = built_preflop(artifacts_dir)
        except ArtifactError as exc:
            notes.append(f"the preflop table was not used: {exc}")
    if tables is not None:
        # One random hand is the range of every hand, each with weight 1 (the same law: every hand of the first
        # player leaves 1,225 hands to the random one).
        pair = ps if m == 2 else [ps[0], _player("random", 1, ())]
        got = _from_table(pair, tables, base, budget, engine, artifacts_dir, notes)
        if got is not None:
            return done(got, pair[0].scale * pair[1].scale)
    scale = 1
    for p in ps:
        scale *= p.scale
    plans: list[tuple[float, str, Any]] = []
    if m == 2 and n == 0:
        plans.append((_pairwise_seconds(ps, base), "pairs of hands", None))
    idx = _tuples(ps, MAX_TUPLES)
    perms = base.symmetry()
    if idx is None:
        notes.append(f"more than {MAX_TUPLES:,} tuples of hands to count one by one")
    elif len(idx):
        # At least len(idx) / len(perms) orbits: the orbits themselves are listed only for this plan.
        first = [tuple(ps[j].cards[h]) for j, h in enumerate(idx[0])]
        low = _per_tuple_seconds(-(-len(idx) // len(perms)), first, base, engine, artifacts_dir, use_table)
        plans.append((low, "tuple by tuple", idx))
    for seconds, how, tuples in sorted(plans, key=lambda p: p[0]):
        if tuples is not None and seconds <= budget:
            orbits = _orbits(tuples, ps, perms)
            seconds = _per_tuple_seconds(len(orbits[0]), first, base, engine, artifacts_dir, use_table)
        if seconds > budget:
            notes.append(f"an exact count ({how}) needs ~{seconds:.3g} s, over the {budget:g} s budget")
            continue
        evaluator = load_evaluator(artifacts_dir)
        if tuples is None:
            return done(_pairwise(ps, base, evaluator), scale)
        engine = engine or NumpyEngine(evaluator)
        got = _per_tuple(orbits, base, engine, budget, artifacts_dir, use_table, notes)
        if got is not None:
            return done(got, scale)
    sums, drawn = _monte_carlo(ps, base, samples, seed, load_evaluator(artifacts_dir))
    mean = sums[0] / drawn
    var = np.maximum(sums[1] / drawn - mean ** 2, 0.0) * drawn / (drawn - 1)
    shares = [Fraction(float(s)).limit_denominator(1 << 40) for s in sums[0]]
    return done(_Counts(False, drawn, [int(w) for w in sums[2]], [int(t) for t in sums[3]], shares,
                        [float(sqrt(v / drawn)) for v in var], None, f"Monte Carlo (numpy, seed {seed})",
                        SOURCE_MONTE_CARLO), 1)



@dataclass
class _Counts:
    """What a method found (see ``RangeEquity``): exact counts in the players' scaled weights (each range's
    weights times the ``scale`` that makes them integers), estimates in deals drawn."""

    exact: bool
    deals: int | Fraction
    wins: list[int] | None
    ties: list[int] | None
    shares: list[Fraction]
    se: list[float]
    matchups: int | None
    method: str
    source: str = SOURCE_ENUMERATION


# ---------------------------------------------------------------------------------------------------------
# Checks.


def _disjoint(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """[len(a), len(b)] True where hand a[i] and hand b[j] share no card."""
    return ~(a[:, None, :, None] == b[None, :, None, :]).any(axis=(2, 3))


def _check_dealable(ps: list[_Player]) -> None:
    """ValueError when no tuple of hands, one from each range, shares no card (searched with a bound on the
    steps for three or more players: past it, the Monte Carlo finds out)."""
    if len(ps) == 1:
        return
    if len(ps) == 2:
        if not _disjoint(ps[0].cards, ps[1].cards).any():
            raise ValueError(f"no deal is possible: every hand of player 1 ({ps[0].text!r}) shares a card with every "
                             f"hand of player 2 ({ps[1].text!r})")
        return
    order = sorted(range(len(ps)), key=lambda i: len(ps[i].cards))
    steps = 0

    def search(depth: int, used: set[int]) -> bool:
        nonlocal steps
        if depth == len(order):
            return True
        for a, b in ps[order[depth]].cards.tolist():
            steps += 1
            if steps > MAX_SEARCH:
                return True
            if a not in used and b not in used and search(depth + 1, used | {a, b}):
                return True
        return False

    if not search(0, set()):
        raise ValueError("no deal is possible: the players' ranges cannot all be dealt without sharing a card")


# ---------------------------------------------------------------------------------------------------------
# 1. The preflop table.


def _table_ok(a: dict[str, np.ndarray]) -> bool:
    """Whether every cell of the heads-up counts divides by the combinations of both classes (what the suit
    symmetry guarantees; checked, not assumed)."""
    c = _class_combos()
    return not any(((a[k] % c[:, None]).any() or (a[k] % c[None, :]).any()) for k in ("hu_win", "hu_tie", "hu_combos"))


def _class_combos() -> np.ndarray:
    return np.array([combos_of(class_name(x)) for x in range(N_CLASSES)], dtype=np.int64)


def _from_table(pair: list[_Player], tables: PreflopTables, base: Problem, budget: float, engine: Engine | None,
                artifacts_dir: str | Path | None, notes: list[str]) -> _Counts | None:
    """The counts of two players from the heads-up cells (in the players' scaled weights), the specific hands
    of both sides enumerated; None (with a note) when it cannot."""
    a = tables.arrays
    if not _table_ok(a):
        notes.append("the preflop table's heads-up counts do not divide over the classes' combinations")
        return None
    cells = [np.asarray(a[k], dtype=np.int64) for k in ("hu_win", "hu_tie", "hu_combos")]
    c = _class_combos()
    (cls0, single0), (cls1, single1) = (_table_parts(p) for p in pair)
    win = tie = pairs = 0
    # Whole classes against whole classes, grouped by weight: sums of cells times the two weights.
    for w0, xs in cls0.items():
        for w1, ys in cls1.items():
            cw, ct, cp = (int(t[np.ix_(xs, ys)].sum()) for t in cells)
            win, tie, pairs = win + w0 * w1 * cw, tie + w0 * w1 * ct, pairs + w0 * w1 * cp
    # A specific hand of one side (class x) against the whole classes of the other: 1 / |x| of the cells.
    for singles, classes, first in ((single0, cls1, True), (single1, cls0, False)):
        for x, w, _cards in singles:
            for wc, ys in classes.items():
                cw, ct, cp = (int((t[x, ys] if first else t[ys, x]).sum()) for t in cells)
                k = int(c[x])
                win, tie, pairs = win + w * wc * cw // k, tie + w * wc * ct // k, pairs + w * wc * cp // k
    deals = pairs * PREFLOP_BOARDS
    wins, ties = [win, deals - win - tie], [tie, tie]
    method = "preflop table (heads-up counts of every pair of classes"
    if single0 and single1:  # specific hands against specific hands: counted pair by pair, one per suit orbit
        sub = [_Player(p.text, p.range, np.array([h for _, _, h in s], dtype=np.int64).reshape(-1, 2),
                       [w for _, w, _ in s], p.scale) for p, s in zip(pair, (single0, single1), strict=True)]
        idx = _tuples(sub, MAX_TUPLES)
        if idx is None:
            notes.append(f"more than {MAX_TUPLES:,} pairs of specific hands to count")
            return None
        if len(idx):
            orbits = _orbits(idx, sub, base.symmetry())
            first = [tuple(c) for c in orbits[0][0].tolist()]
            seconds = _per_tuple_seconds(len(orbits[0]), first, base, engine, artifacts_dir, False)
            if seconds > budget:
                notes.append(f"the specific hands against specific hands need ~{seconds:.3g} s of counting, over the "
                             f"{budget:g} s budget")
                return None
            engine = engine or NumpyEngine(load_evaluator(artifacts_dir))
            got = _per_tuple(orbits, base, engine, budget, artifacts_dir, False, notes)
            if got is None:
                return None
            wins = [wins[i] + got.wins[i] for i in range(2)]
            ties = [ties[i] + got.ties[i] for i in range(2)]
            deals += got.deals
            pairs += got.matchups
            method += f", and {counted(len(orbits[0]), 'pair')} of specific hands counted ({engine.name})"
    shares = [Fraction(2 * wins[i] + ties[i], 2) for i in range(2)]
    return _Counts(True, deals, wins, ties, shares, [0.0, 0.0], pairs, method + ")", SOURCE_TABLE)


def _table_parts(p: _Player) -> tuple[dict[int, list[int]], list[tuple[int, int, tuple[int, int]]]]:
    """(whole classes grouped by integer weight: weight -> classes, specific hands as (class, weight, cards))."""
    classes, singles = p.range.blocks()
    by_weight: dict[int, list[int]] = {}
    for x, w in classes.items():
        by_weight.setdefault(int(w * p.scale), []).append(x)
    cards = dict(zip(p.range.hands, p.range.cards(), strict=True))
    return by_weight, [(hand_class(cards[h]), int(w * p.scale), cards[h]) for h, w in singles]


# ---------------------------------------------------------------------------------------------------------
# 2. Pairwise enumeration (two players, no random hands).


def _pairwise_seconds(ps: list[_Player], base: Problem) -> float:
    boards = comb(len(base.rem), base.k)
    k0, k1 = len(ps[0].cards), len(ps[1].cards)
    return boards * (k0 + k1) / EVAL_RATE + boards * k0 * k1 / COMPARE_RATE


def _pairwise(ps: list[_Player], base: Problem, tables: Any) -> _Counts:
    """Per pair of hands, integer wins and ties over the board completions that share no card with either;
    then weighted (in the players' scaled weights)."""
    h0, h1 = ps[0].cards, ps[1].cards
    rem = base.rem
    comps = rem[combinations_array(len(rem), base.k)]
    fixed = np.array(base.board, dtype=np.int64)
    per_pair = comb(len(rem) - 4, base.k)
    win = np.zeros((len(h0), len(h1)), dtype=np.int64)
    tie = np.zeros_like(win)
    block = max(1, min(4096, 4_000_000 // (len(h0) * len(h1)), 1_000_000 // (len(h0) + len(h1))))
    for lo in range(0, len(comps), block):
        comp = comps[lo:lo + block]
        full = np.concatenate([np.broadcast_to(fixed, (len(comp), len(fixed))), comp], axis=1)
        v, ok = [], []
        for h in (h0, h1):
            v.append(values_on_board(full, h[None], tables).astype(np.int32))
            ok.append(~((h[None, :, 0, None] == comp[:, None, :]) | (h[None, :, 1, None] == comp[:, None, :])).any(2))
        both = ok[0][:, :, None] & ok[1][:, None, :]
        win += ((v[0][:, :, None] > v[1][:, None, :]) & both).sum(axis=0)
        tie += ((v[0][:, :, None] == v[1][:, None, :]) & both).sum(axis=0)
    disjoint = _disjoint(h0, h1).astype(np.int64)
    w1 = np.array(ps[1].weights, dtype=np.int64)
    matchups = sum(w * int(disjoint[i] @ w1) for i, w in enumerate(ps[0].weights))
    win0 = sum(w * int((win[i] * disjoint[i]) @ w1) for i, w in enumerate(ps[0].weights))
    ties = sum(w * int((tie[i] * disjoint[i]) @ w1) for i, w in enumerate(ps[0].weights))
    deals = matchups * per_pair
    wins = [win0, deals - win0 - ties]
    return _Counts(True, deals, wins, [ties, ties], [Fraction(2 * w + ties, 2) for w in wins], [0.0, 0.0], matchups,
                   "exact (every pair of hands on every board completion, numpy)")


# ---------------------------------------------------------------------------------------------------------
# 3. Tuple by tuple, one per suit orbit, through ``equity``.


def _tuples(ps: list[_Player], limit: int) -> np.ndarray | None:
    """Every tuple of pairwise disjoint hands, one per player, as rows of indices into the players' ``cards``
    [T, m]; None when there are more than ``limit``."""
    idx = np.arange(len(ps[0].cards))[:, None]
    for p in ps[1:]:
        ok = np.ones((len(idx), len(p.cards)), dtype=bool)
        for j in range(idx.shape[1]):
            ok &= _disjoint(ps[j].cards[idx[:, j]], p.cards)
        if int(ok.sum()) > limit:
            return None
        t, h = np.nonzero(ok)
        idx = np.concatenate([idx[t], h[:, None]], axis=1)
    return idx if len(idx) <= limit else None


def _orbits(idx: np.ndarray, ps: list[_Player], perms: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Representatives [O, m, 2] (cards) of the orbits of the tuples ``idx`` under the suit permutations
    ``perms`` (those fixing the board and the dead cards: a tuple and its image have equal counts), and the
    summed integer weights of each orbit."""
    cards = np.stack([ps[j].cards[idx[:, j]] for j in range(idx.shape[1])], axis=1)  # [T, m, 2]
    best = None
    for perm in perms:
        mapped = np.sort(perm[cards], axis=2)
        code = mapped[..., 0] * DECK_SIZE + mapped[..., 1]  # [T, m]
        if best is None:
            best = code
            continue
        less = np.zeros(len(code), dtype=bool)
        equal = np.ones(len(code), dtype=bool)
        for j in range(code.shape[1]):
            less |= equal & (code[:, j] < best[:, j])
            equal &= code[:, j] == best[:, j]
        best = np.where(less[:, None], code, best)
    if best is None or not len(best):
        return np.zeros((0, len(ps), 2), dtype=np.int64), []
    keys, inverse = np.unique(best, axis=0, return_inverse=True)
    weights = [0] * len(keys)
    for row, o in zip(idx.tolist(), inverse.reshape(-1).tolist(), strict=True):
        w = 1
        for j, h in enumerate(row):
            w *= ps[j].weights[h]
        weights[o] += w
    return np.stack([keys // DECK_SIZE, keys % DECK_SIZE], axis=2), weights


def _table_answers(problem: Problem, artifacts_dir: str | Path | None, use_table: bool) -> bool:
    """Whether ``equity`` answers this question from a preflop table (nothing counted)."""
    if not (use_table and preflop_question(problem)):
        return False
    try:
        multi = built_multiway(artifacts_dir)
        if multi is not None and multi.rows >= problem.opponents:
            return True
        pre = built_preflop(artifacts_dir)
    except ArtifactError:
        return False
    return pre is not None and problem.opponents <= pre.arrays["multi_equity"].shape[0]


def _per_tuple_seconds(count: int, first: list[tuple[int, int]], base: Problem, engine: Engine | None,
                       artifacts_dir: str | Path | None, use_table: bool) -> float:
    """Estimated seconds of counting ``count`` tuples like ``first`` (``equity``'s own estimate, per tuple)."""
    if not count:
        return 0.0
    problem = make_problem(first, base.board, base.opponents, base.dead)
    if _table_answers(problem, artifacts_dir, use_table):
        return count * 1e-3
    if (engine is None or isinstance(engine, NumpyEngine)) and base.opponents > FORMULA_OPPONENTS:
        return float("inf")  # the numpy engine's matchings take a time known only as they run, per tuple
    # The numpy engine's own rate (2e7) is its best case; per tuple it ran 1.7-6e6 evaluations a second (heads-up
    # preflop 0.46-1.5 s, docs/benchmarks.md "Poker") and ~1e6 on a flop with a random hand, at load 9.
    rate = EVAL_RATE if engine is None or isinstance(engine, NumpyEngine) else engine.rate
    return count * (work_units(problem, len(problem.symmetry())) / rate + CALL_SECONDS)


def _per_tuple(orbits: tuple[np.ndarray, list[int]], base: Problem, engine: Engine, budget: float,
               artifacts_dir: str | Path | None, use_table: bool, notes: list[str]) -> _Counts | None:
    """The counts of ``equity`` for one tuple per orbit, times the orbit's weight. When some tuples are answered
    from estimated rows of the preflop table (one hand against random hands), an estimate: the weighted mean,
    its standard error at most the weighted mean of theirs (they are correlated). None (with a note) when a
    tuple was not counted exactly otherwise."""
    reps, weights = orbits
    m = reps.shape[1]
    wins, ties, shares = [0] * m, [0] * m, [Fraction(0)] * m
    deals = exact_w = 0
    estimates = []
    sources = set()
    for rep, w in zip(reps.tolist(), weights, strict=True):
        e = equity([tuple(h) for h in rep], base.board, base.opponents, base.dead, budget=budget, samples=1000,
                   engine=engine, artifacts_dir=artifacts_dir, use_table=use_table)
        sources.add(e.source)
        if not e.exact:
            if e.source != SOURCE_TABLE:
                notes.append(f"a tuple of hands was not counted exactly ({e.method})")
                return None
            estimates.append((w, e.equity, e.se, e.deals))
            continue
        exact_w += w
        deals += w * e.deals
        for i in range(m):
            shares[i] += w * Fraction(e.shares[i])
            if e.wins is not None and wins is not None:
                wins[i] += w * e.wins[i]
                ties[i] += w * e.ties[i]
            else:
                wins = ties = None
    matchups = exact_w + sum(w for w, _, _, _ in estimates)
    source = SOURCE_TABLE if sources == {SOURCE_TABLE} else SOURCE_ENUMERATION
    if estimates:
        eq = [(float(shares[i] / deals) * exact_w if exact_w else 0.0) + sum(w * e[i] for w, e, _, _ in estimates)
              for i in range(m)]
        drawn = max(d for _, _, _, d in estimates)  # the deals behind the table's row (as ``equity`` reports)
        return _Counts(False, drawn, None, None, [Fraction(x / matchups) * drawn for x in eq],
                       [sum(w * s[i] for w, _, s, _ in estimates) / matchups for i in range(m)], None,
                       "weighted mean of the preflop table's answers for each hand (estimated rows: the standard "
                       "error is at most the weighted mean of theirs)", SOURCE_TABLE)
    how = "read from the preflop table" if source == SOURCE_TABLE else f"counted by {engine.name}"
    return _Counts(True, deals, wins, ties, shares, [0.0] * m, matchups,
                   f"exact ({counted(len(reps), 'tuple')} of hands, one per suit orbit, {how})", source)


# ---------------------------------------------------------------------------------------------------------
# Monte Carlo.


def _monte_carlo(ps: list[_Player], base: Problem, samples: int, seed: int, tables: Any) -> tuple[np.ndarray, int]:
    """(sums [4, m]: share sum, sum of squares, wins, ties; deals drawn) over ``samples`` seeded deals: hands by
    weight (redrawn when two share a card), then the board and the random hands from the cards left."""
    rng = np.random.default_rng(seed)
    m, n, k = len(ps), base.opponents, base.k
    fixed = np.array(base.board + base.dead, dtype=np.int64)
    board = np.array(base.board, dtype=np.int64)
    probs = [np.array(p.weights, dtype=float) / sum(p.weights) for p in ps]
    out = np.zeros((4, m))
    done = tries = 0
    while done < samples:
        size = min(1 << 15, max(1024, 2 * (samples - done)))
        cards = np.stack([p.cards[rng.choice(len(p.cards), size=size, p=q)] for p, q in zip(ps, probs, strict=True)],
                         axis=1)  # [size, m, 2]
        flat = np.sort(cards.reshape(size, 2 * m), axis=1)
        cards = cards[(np.diff(flat, axis=1) != 0).all(axis=1)][:samples - done]
        tries += size
        if tries >= 100_000 and done + len(cards) < tries * 1e-3:
            raise ValueError("the players' ranges almost never fit together (fewer than 1 in 1,000 draws share no "
                             "card): narrow them")
        size = len(cards)
        if not size:
            continue
        seen = np.zeros((size, DECK_SIZE), dtype=bool)
        seen[:, fixed] = True
        seen[np.arange(size)[:, None], cards.reshape(size, -1)] = True
        # Each deal's deck: the cards it has not seen (a stable sort of booleans puts them first, in order).
        deck = np.argsort(seen, axis=1, kind="stable")[:, :DECK_SIZE - len(fixed) - 2 * m]
        deal = draw_cards(rng, deck, size, k + 2 * n)
        full = np.concatenate([np.broadcast_to(board, (size, len(board))), deal[:, :k]], axis=1)
        holes = np.concatenate([cards, deal[:, k:].reshape(size, n, 2)], axis=1)
        tally_showdowns(values_on_board(full, holes, tables).astype(np.int64), out)
        done += size
    return out, done
