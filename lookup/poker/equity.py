"""Equity of known hold'em hands: exact integer counts when the enumeration fits the time budget, a seeded
Monte Carlo estimate with its standard error otherwise.

The exact method enumerates the board completions (one per suit orbit, weighted by the orbit's size) and,
on each full board, *counts* the unknown opponents' hands instead of dealing them: with V the best known
value, the opponents' possible hands split into weaker (L), equal (E) and stronger (G) ones, and the known
players at V share the pot unless an opponent holds a G hand. For n = 1 and 2 opponents closed formulas
count the disjoint choices (degree sums); for n >= 3 the numba engine enumerates the n-matchings among L and E
(the seed's n! symmetry: each set of hands once) or, when fewer, counts by inclusion-exclusion over the
matchings of E and G. The numpy engine counts n = 3 by a closed formula too (``three_matchings``: degree
sums and triangles) and n >= 4 by card type (``lookup.poker.matchings``: a board's cards of one rank, or of
one rank and the flush suit, are interchangeable, and the matchings are counted as multigraphs on the types, in
a time that does not grow with the number of matchings: on the river and the turn it counts where the numba
enumeration runs out of budget). The counts are finished with Python integers (they exceed 64 bits).

Two engines run the same method: the numpy one here (``lookup`` imports numpy only) and the numba one in
``pipeline.poker.engine`` (compiled; much faster where the enumeration is short), passed as ``engine=``. Both
count any number of opponents exactly when it fits the budget.

Before either runs, a question the preflop tables answer (one known hand, no board, no dead cards, n random
opponents within the table's rows) is answered by indexing them (``source`` "preflop table"): from the exact
multi-way counts (``poker-multiway``) when they are built and hold the class and n, else from the preflop
table, exact rows exactly, estimated rows with their standard error.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from fractions import Fraction
from math import comb, factorial, lcm, sqrt
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from lookup.poker.cards import card_text, class_name, hand_class
from lookup.poker.evaluate import values_on_board
from lookup.poker.matchings import (
    EQUAL,
    STRONG,
    TYPES,
    WEAK,
    card_types,
    colours,
    count_dtype,
    type_matchings,
)
from lookup.poker.problem import Problem, make_problem, unordered_matchings
from lookup.poker.tables import (
    EvaluatorTables,
    MultiwayTables,
    PreflopTables,
    built_multiway,
    built_preflop,
    load_evaluator,
)
from lookup.store import ArtifactError
from lookup.validate import integer, number
from lookup.validate import seed as validate_seed
from lookup.words import counted

# The defaults of every equity answer: the library's ``equity``, ``range_equity`` and ``decide``, the command line's
# ``poker equity`` and ``poker range`` and the web's poker routes all use these two (none writes them again).
# DEFAULT_BUDGET: seconds an exact count may take by the engine's estimate; DEFAULT_SAMPLES: Monte Carlo deals
# drawn when it does not fit (standard error ~0.0003 on an equity near 1/2).
DEFAULT_BUDGET = 5.0
DEFAULT_SAMPLES = 2_000_000
# The most unknown opponents the numpy engine counts by closed formulas, in a time ``work_units`` tells beforehand;
# beyond, by ``type_matchings``, whose time depends on each board's colours and is known only as it runs (it stops
# when its share of the budget is spent). Callers that must know the time beforehand (``range_equity`` over many
# tuples, the protocol's game) hold to it.
FORMULA_OPPONENTS = 3
MIN_DEALS = 1_000  # the fewest Monte Carlo deals a budget-bounded answer draws, whatever its budget (milliseconds)
# Bounds of the arguments: an hour of counting and a billion deals (about a minute and a half of the numba
# Monte Carlo) are beyond any use of one answer, and keep every derived count inside int64.
MAX_BUDGET = 3600.0
MAX_SAMPLES = 10**9
SOURCE_TABLE = "preflop table"
SOURCE_ENUMERATION = "enumeration"
SOURCE_MONTE_CARLO = "monte carlo"


@dataclass(frozen=True)
class Equity:
    """Win, tie and equity of each known hand (in the order given).

    Exact (``exact`` True): ``deals`` equally likely deals (board completions x ordered opponent hands),
    ``wins[i]`` deals won alone, ``ties[i]`` deals shared, ``shares[i]`` the exact sum of pot shares (a
    Fraction; equity = shares / deals). Estimated (``exact`` False): ``deals`` is the number of sampled
    deals, wins/ties count sampled deals, ``se[i]`` is the standard error of ``equity[i]``.

    ``source`` says where the answer comes from: "enumeration" (the exact count), "monte carlo" (sampled
    here) or "preflop table" (indexed, see ``equity``). The preflop table stores win and tie counts only
    against one random hand: for more opponents ``wins`` and ``ties`` (and ``win``, ``tie``) are None, and
    an estimated row's ``shares`` is its equity x ``deals`` (the deals behind the table row).
    """

    hands: tuple[str, ...]
    board: str
    opponents: int
    exact: bool
    deals: int
    wins: tuple[int, ...] | None
    ties: tuple[int, ...] | None
    shares: tuple[Fraction, ...]
    se: tuple[float, ...]
    method: str
    seconds: float
    notes: tuple[str, ...] = field(default=())
    source: str = SOURCE_ENUMERATION

    @property
    def equity(self) -> tuple[float, ...]:
        return tuple(float(s / self.deals) for s in self.shares)

    @property
    def win(self) -> tuple[float, ...] | None:
        return None if self.wins is None else tuple(w / self.deals for w in self.wins)

    @property
    def tie(self) -> tuple[float, ...] | None:
        return None if self.ties is None else tuple(t / self.deals for t in self.ties)


class Engine(Protocol):
    """What runs the enumeration: ``rate`` (pair evaluations per second, for the budget), ``exact``
    (returns (D, A, failed) as documented in ``pipeline.poker.kernels.exact_counts``, or None when it cannot
    count this problem) and ``monte_carlo`` (per-player share sum, sum of squares, wins, ties)."""

    name: str
    rate: float

    def exact(self, problem: Problem, perms: np.ndarray, budget: int) -> tuple[np.ndarray, np.ndarray, int] | None:
        ...

    def monte_carlo(self, problem: Problem, samples: int, seed: int) -> np.ndarray:
        ...


def work_units(problem: Problem, orbits: int) -> float:
    """Evaluations an exact count needs before any matching enumeration: per board, the known hands and
    (with opponents) every pair of the pool."""
    per_board = len(problem.hands) + (problem.pool * (problem.pool - 1) // 2 if problem.opponents else 0)
    return problem.boards() / max(orbits, 1) * per_board + problem.boards()


def finish(problem: Problem, d: np.ndarray, a: np.ndarray) -> tuple[list[int], list[int], list[Fraction]]:
    """(wins, ties, shares) per known player from the engine's counts, with exact integers."""
    n, p = problem.opponents, problem.pool
    seat_orders = factorial(n)
    wins, ties, shares = [], [], []
    for i in range(len(problem.hands)):
        win = tie = 0
        share = Fraction(0)
        for k in range(1, d.shape[1]):
            for t in range(n + 1):
                count = int(d[i, k, t])
                for j in range(n + 1):
                    for e in range(j + 1):
                        cell = int(a[i, k, j, e]) if a.size else 0
                        if cell and e >= t:
                            count += (cell * (-1) ** (j - e) * comb(e, t) * (-1) ** (e - t)
                                      * unordered_matchings(p - 2 * j, n - j))
                count *= seat_orders
                if count:
                    if k == 1 and t == 0:
                        win += count
                    else:
                        tie += count
                    share += Fraction(count, k + t)
        wins.append(win)
        ties.append(tie)
        shares.append(share)
    return wins, ties, shares


def budget_samples(budget: float, players: int) -> int:
    """Monte Carlo deals that fit ``budget`` seconds at ``NumpyEngine.mc_rate`` hand values a second for
    ``players`` players, at least ``MIN_DEALS`` and at most ``DEFAULT_SAMPLES``: what ``range_equity`` and
    ``decide`` draw when no number of deals is given."""
    return int(min(DEFAULT_SAMPLES, max(MIN_DEALS, budget * NumpyEngine.mc_rate / players)))


def preflop_question(problem: Problem) -> bool:
    """Whether the preflop table can hold the answer: one known hand, no board, no dead cards, and random
    opponents (the table's rows decide how many)."""
    return len(problem.hands) == 1 and not problem.board and not problem.dead and problem.opponents >= 1


def exact_share(value: float, deals: int, players: int) -> Fraction | None:
    """The exact equity behind ``value`` (the float64 nearest to it) when every deal's pot share is a multiple
    of 1 / lcm(1..players) (a pot split k ways, k <= players): equity x lcm x deals is then an integer, and
    while lcm x deals < 2**52 the float pins it down (its error, < 2**-53, moves it by < 1/2). None when it
    cannot (too many deals, or no such rational rounds to ``value``)."""
    scale = lcm(*range(1, players + 1)) * deals
    if scale >= 1 << 52 or not 0.0 <= value <= 1.0:
        return None
    share = Fraction(round(Fraction(value) * scale), scale)
    return share if float(share) == value else None


def combos_of(name: str) -> int:
    """Suit combinations of a starting-hand class: 6 for a pair, 4 suited, 12 offsuit."""
    return 6 if len(name) == 2 else 4 if name.endswith("s") else 12


def from_multiway_table(problem: Problem, tables: MultiwayTables, start: float) -> Equity | str:
    """The answer to a ``preflop_question`` from the exact multi-way counts, or why they cannot give it. Every
    suit combination of a class has the same counts, so a specific hand gets its class's counts divided by
    the class's combinations: the same ``deals``, wins, ties and shares as an exact enumeration."""
    n, x = problem.opponents, hand_class(problem.hands[0])
    name = class_name(x)
    if not tables.has(x, n):
        return f"the exact multi-way table does not hold {name} against {n} random hands"
    combos, deals = combos_of(name), problem.deals()
    counts = tables.counts(x, n)
    if tables.deals(x, n) != combos * deals or any(c % combos for c in counts):
        return f"the exact multi-way counts of {name} do not divide over its {combos} suit combinations"
    counts = [c // combos for c in counts]
    share = sum((Fraction(c, j + 1) for j, c in enumerate(counts)), Fraction(0))
    return Equity(hands=tuple(problem.labels()), board="", opponents=n, exact=True, deals=deals, wins=(counts[0],),
                  ties=(sum(counts[1:]),), shares=(share,), se=(0.0,),
                  method=f"preflop table ({name} against {n} random hands, exact counts of poker-multiway)",
                  seconds=time.perf_counter() - start, source=SOURCE_TABLE)


def from_preflop_table(problem: Problem, tables: PreflopTables, start: float) -> Equity | str:
    """The answer to a ``preflop_question`` by indexing the preflop table, or why the table cannot give it.

    The table holds each class averaged over its suit combinations, and every combination of a class has the
    same counts (a suit permutation maps one onto another), so a specific hand gets its class's values:
    against one random hand the integer counts divided by the class's combinations (the same ``deals``,
    wins, ties and shares as the exact enumeration), against n from an exact row the rational
    (``exact_share``), from an estimated row the estimate and its standard error."""
    a = tables.arrays
    n, rows = problem.opponents, a["multi_equity"].shape[0]
    x = hand_class(problem.hands[0])
    name = class_name(x)
    if not 1 <= n <= rows:
        return f"the preflop table covers 1..{rows} random opponents, not {n}"
    deals = problem.deals()
    combos = combos_of(name)
    common = {"hands": tuple(problem.labels()), "board": "", "opponents": n, "source": SOURCE_TABLE}
    if n == 1:
        win, tie, total = int(a["random_win"][x]), int(a["random_tie"][x]), int(a["random_total"][x])
        if total != combos * deals or win % combos or tie % combos:
            return f"the preflop table's counts for {name} do not divide over its {combos} suit combinations"
        win, tie = win // combos, tie // combos
        return Equity(exact=True, deals=deals, wins=(win,), ties=(tie,), shares=(Fraction(2 * win + tie, 2),),
                      se=(0.0,), method=f"preflop table ({name} against 1 random hand, exact counts)",
                      seconds=time.perf_counter() - start, **common)
    flag, value = int(a["multi_exact"][n - 1]), float(a["multi_equity"][n - 1, x])
    if flag == 1:
        share = exact_share(value, deals, n + 1)
        if share is None:
            return (f"the preflop table's exact entry for {name} against {counted(n, 'hand')} is not a rational over "
                    "its deals")
        return Equity(exact=True, deals=deals, wins=None, ties=None, shares=(share * deals,), se=(0.0,),
                      method=f"preflop table ({name} against {counted(n, 'random hand')}, exact)",
                      seconds=time.perf_counter() - start, **common)
    samples, se = int(a["multi_samples"][n - 1]), float(a["multi_se"][n - 1, x])
    if flag != 0 or samples <= 0 or not (np.isfinite(value) and np.isfinite(se) and se > 0):
        return f"the preflop table's row for {counted(n, 'random hand')} is incomplete"
    return Equity(exact=False, deals=samples, wins=None, ties=None, shares=(Fraction(value) * samples,), se=(se,),
                  method=f"preflop table ({name} against {counted(n, 'random hand')}, board-stratified Monte Carlo "
                         f"over {samples:,} deals)", seconds=time.perf_counter() - start, **common)


def equity(hands: Any, board: Any = (), opponents: int | None = None, dead: Any = (), *,
           budget: float = DEFAULT_BUDGET,
           samples: int = DEFAULT_SAMPLES, seed: int = 0, engine: Engine | None = None,
           artifacts_dir: str | Path | None = None, use_table: bool = True) -> Equity:
    """Equity of each known hand against the others and ``opponents`` players with unknown cards (default: one
    random hand against a single known hand, none beside two or more: ``problem.default_opponents``).

    ``hands``: two-card hands (``["AsAh", "Kd Kc"]`` or card indices); ``board``: 0, 3, 4 or 5 cards;
    ``dead``: cards out of play. One hand with no board and no dead cards against random opponents is
    answered from the preflop table in ``artifacts_dir`` when it is built and has the row (``source``
    "preflop table"; exact rows exactly, estimated rows with their standard error); ``use_table=False``
    enumerates anyway. Otherwise exact (integer counts) when the engine estimates that the enumeration takes
    at most ``budget`` seconds (the count of four or more opponents' hands, whose work shows only as it runs,
    stops when it would not: ``type_matchings``, ``NumpyEngine.matching_rate``); otherwise ``samples`` seeded
    random deals, marked ``exact=False`` with standard errors. ``engine``: default the numpy engine;
    ``pipeline.poker.engine.NumbaEngine()`` is the compiled one. Bad input is a ValueError naming the problem.
    """
    start = time.perf_counter()
    problem = make_problem(hands, board, opponents, dead)
    budget = number(budget, "budget", 0, MAX_BUDGET)
    samples = integer(samples, "samples", 2, MAX_SAMPLES)
    seed = validate_seed(seed)
    notes = []
    if use_table and preflop_question(problem):
        for built, answer, what in ((built_multiway, from_multiway_table, "exact multi-way table"),
                                    (built_preflop, from_preflop_table, "preflop table")):
            try:
                tables = built(artifacts_dir)
            except ArtifactError as exc:
                notes.append(f"the {what} was not used: {exc}")
                continue
            if tables is not None:
                got = answer(problem, tables, start)
                if isinstance(got, Equity):
                    return replace(got, notes=tuple(notes)) if notes else got
                notes.append(got)
    engine = engine or NumpyEngine(load_evaluator(artifacts_dir))
    labels = tuple(problem.labels())
    board_text = " ".join(card_text(c) for c in problem.board)
    if not problem.hands:
        return Equity(labels, board_text, problem.opponents, True, problem.deals(), (), (), (), (), "none", 0.0)
    perms = problem.symmetry()
    work = work_units(problem, len(perms))
    if work <= budget * engine.rate:
        # Counting the opponents' hands (n >= 3) gets what the budget leaves, per board.
        per_board = int(max(1e4, (budget * engine.rate - work) / max(problem.boards() / len(perms), 1)))
        got = engine.exact(problem, perms, per_board)
        if got is not None and got[2] == 0:
            wins, ties, shares = finish(problem, got[0], got[1])
            return Equity(labels, board_text, problem.opponents, True, problem.deals(), tuple(wins), tuple(ties),
                          tuple(shares), tuple(0.0 for _ in wins), f"exact ({engine.name})",
                          time.perf_counter() - start, tuple(notes))
        notes.append("the opponents' hands were too many to count within the budget" if got is not None
                     else f"the {engine.name} engine cannot count this question exactly")
    else:
        notes.append(f"an exact count needs ~{work:.3g} evaluations, over the {budget:g} s budget "
                     f"at ~{engine.rate:.3g}/s")
    sums = engine.monte_carlo(problem, int(samples), int(seed))
    mean = sums[0] / samples
    var = np.maximum(sums[1] / samples - mean ** 2, 0.0) * samples / (samples - 1)
    se = tuple(float(sqrt(v / samples)) for v in var)
    shares = tuple(Fraction(float(s)).limit_denominator(1 << 40) for s in sums[0])
    return Equity(labels, board_text, problem.opponents, False, int(samples), tuple(int(w) for w in sums[2]),
                  tuple(int(t) for t in sums[3]), shares, se, f"Monte Carlo ({engine.name}, seed {seed})",
                  time.perf_counter() - start, tuple(notes), SOURCE_MONTE_CARLO)


# ---------------------------------------------------------------------------------------------------------
# The numpy engine.


def tally_showdowns(vals: np.ndarray, out: np.ndarray) -> None:
    """Add sampled showdowns to a Monte Carlo tally: ``vals[deal, player]`` the hand values of one block of deals
    (higher wins; the first ``out.shape[1]`` players are tallied); per tallied player, ``out`` rows 0..3 gain the
    sum of its pot shares (1/m for a tie of m), of their squares (for the standard error), its wins alone and its
    ties."""
    best = vals.max(axis=1)
    nbest = (vals == best[:, None]).sum(axis=1)
    for i in range(out.shape[1]):
        at_top = vals[:, i] == best
        share = np.where(at_top, 1.0 / nbest, 0.0)
        out[0, i] += share.sum()
        out[1, i] += (share ** 2).sum()
        out[2, i] += (at_top & (nbest == 1)).sum()
        out[3, i] += (at_top & (nbest > 1)).sum()


def draw_cards(rng: np.random.Generator, deck: np.ndarray, size: int, m: int) -> np.ndarray:
    """``[size, m]``: for each of ``size`` deals, the first m cards of a uniformly random order of ``deck`` (one
    deck ``[N]`` for every deal, or ``[size, N]`` a deck each). A partial Fisher-Yates shuffle, its m swaps
    vectorised over the deals: about five times faster than sorting N random keys a deal (docs/benchmarks.md)."""
    deck = np.array(np.broadcast_to(deck, (size, np.shape(deck)[-1])))
    rows = np.arange(size)
    for j in range(m):
        r = rng.integers(j, deck.shape[1], size)
        picked = deck[rows, r]
        deck[rows, r] = deck[:, j]
        deck[:, j] = picked
    return deck[:, :m]


def combinations_array(n: int, k: int) -> np.ndarray:
    """Every k-subset of range(n) as rows of increasing indices, in lexicographic order."""
    rows = np.zeros((1, 0), dtype=np.int64)
    for depth in range(k):
        last = rows[:, -1] if depth else np.full(len(rows), -1)
        # Extend each row by every index above its last one and below n - (k - depth - 1).
        stop = n - (k - depth - 1)
        counts = np.maximum(stop - (last + 1), 0)
        base = np.repeat(rows, counts, axis=0)
        starts = np.repeat(last + 1, counts)
        offsets = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.concatenate([base, (starts + offsets)[:, None]], axis=1)
    return rows


def orbit_weights(boards: np.ndarray, perms: np.ndarray) -> np.ndarray:
    """|G| / |stabiliser| for boards (sorted rows) that are the smallest of their suit orbit, else 0."""
    if len(perms) == 1 or boards.shape[1] == 0:
        return np.ones(len(boards), dtype=np.int64)
    scale = 52 ** np.arange(boards.shape[1] - 1, -1, -1, dtype=np.int64)
    code = boards @ scale
    smaller = np.zeros(len(boards), dtype=bool)
    stab = np.zeros(len(boards), dtype=np.int64)
    for perm in perms:
        mapped = np.sort(perm[boards], axis=1) @ scale
        smaller |= mapped < code
        stab += mapped == code
    return np.where(smaller, 0, len(perms) // stab)


def three_matchings(weak: np.ndarray, equal: np.ndarray, pairs: np.ndarray, deg: list[np.ndarray]) -> list[np.ndarray]:
    """Per board, the sets of three opponents' hands that share no card, all weaker than the best known hand or
    equal to it, by how many are equal (0 to 3): ``weak[b, p]``, ``equal[b, p]`` whether pair p (``pairs[p]``, two
    card indices) is such a hand on board b; ``deg``: the weak and the equal hands that hold each card, per board
    (``[board, card]``, as ``_opponent_counts`` counts them).

    The hands are the edges of a graph on the cards; the ordered triples of edges, weighed by colour, with the
    product of (1 - [two of them meet]) expanded: all triples, less those where a given two meet, plus those where
    one meets both others, less those where all three meet (a star on a card, or a triangle: the trace of the
    adjacency matrices' product). Each term is a sum of degree products, so whole blocks of boards are counted
    with array operations (tests: a plain enumeration of the deals)."""
    boards, cards = deg[0].shape
    u, v = pairs[:, 0], pairs[:, 1]
    w = [weak.astype(np.int64), equal.astype(np.int64)]
    total = [x.sum(axis=1) for x in w]
    meeting = [deg[c][:, u] + deg[c][:, v] - w[c] for c in (0, 1)]  # [board, pair]: the hands meeting pair p
    adjacency = []
    for c in (0, 1):  # float64: BLAS products, exact (entries at most cards^2)
        a = np.zeros((boards, cards, cards))
        a[:, u, v] = a[:, v, u] = w[c]
        adjacency.append(a)

    def meet(a: int, b: int) -> np.ndarray:  # ordered pairs of hands (colours a, b) that meet
        return (deg[a] * deg[b]).sum(axis=1) - (w[a] * w[b]).sum(axis=1)

    def ordered(a: int, b: int, c: int) -> np.ndarray:  # ordered disjoint triples of colours a, b, c
        triangles = np.rint(((adjacency[a] @ adjacency[b]) * adjacency[c]).sum(axis=(1, 2))).astype(np.int64)
        all_meet = (deg[a] * deg[b] * deg[c]).sum(axis=1) - (w[a] * w[b] * w[c]).sum(axis=1) + triangles
        return (total[a] * total[b] * total[c] - meet(a, b) * total[c] - meet(a, c) * total[b]
                - meet(b, c) * total[a] + (w[a] * meeting[b] * meeting[c]).sum(axis=1)
                + (w[b] * meeting[a] * meeting[c]).sum(axis=1) + (w[c] * meeting[a] * meeting[b]).sum(axis=1)
                - all_meet)

    return [ordered(0, 0, 0) // 6, ordered(0, 0, 1) // 2, ordered(0, 1, 1) // 2, ordered(1, 1, 1) // 6]


# A board's three-opponent count (``three_matchings``) costs about pool^3 / THREE_COST pair evaluations (its
# adjacency products; measured 0.28 ms a board for a pool of 45 cards, about 5,700 evaluations at ``rate``).
THREE_COST = 16


class NumpyEngine:
    """The exact method vectorised over blocks of boards (any number of unknown opponents; four or more by card
    type, ``type_matchings``) and a vectorised Monte Carlo; its time budget assumes ``rate`` evaluations per second
    and ``matching_rate`` matching state entries per second (measured: docs/benchmarks.md, "Poker")."""

    name = "numpy"
    rate = 2e7
    # Hand evaluations per second of its Monte Carlo (one per player per deal), for a caller that must bound its
    # time (``lookup.poker.decide``): pessimistic, measured 10-14 million on the shared 2-core machine (load 3.5,
    # docs/benchmarks.md "The page beside the command line"; 0.5-3 million before the board was shared).
    mc_rate = 2e6
    # State entries per second of four or more opponents' matchings (``type_matchings``): pessimistic, measured
    # 5.5e7 (n = 8: memory-bound) to 1.6e8 in int64 (docs/benchmarks.md, "Poker").
    matching_rate = 5e7

    def __init__(self, tables: EvaluatorTables, block: int = 2048) -> None:
        self.tables = tables
        self.block = block

    def exact(self, problem: Problem, perms: np.ndarray, budget: int) -> tuple[np.ndarray, np.ndarray, int] | None:
        """Counts as ``NumbaEngine.exact`` (``D`` only: the opponents counted directly), failed (1) when what
        ``budget`` leaves a board (evaluations) does not cover three opponents' count, or when four or more
        opponents' matchings (``type_matchings``) would take longer than the budget of all the boards."""
        n = problem.opponents
        hands = problem.hands_array()
        m = len(hands)
        rem = problem.rem
        d = np.zeros((m, m + 1, n + 1), dtype=count_dtype(problem.pool, n, problem.boards()))
        if n == 3 and problem.pool ** 3 // THREE_COST > budget:  # "failed": what the budget leaves a board is less
            return d, d[:, :, :0, None], 1
        completions = rem[combinations_array(len(rem), problem.k)]
        weights = orbit_weights(completions, perms)
        keep = weights > 0
        completions, weights = completions[keep], weights[keep]
        # The matchings' share of the budget, in their own unit (state entries, at ``matching_rate``).
        allowance = budget * len(completions) / self.rate * self.matching_rate
        pairs = combinations_array(len(rem), 2)
        fixed = np.array(problem.board, dtype=np.int64)
        for lo in range(0, len(completions), self.block):
            comp = completions[lo:lo + self.block]
            w = weights[lo:lo + self.block]
            full = np.concatenate([np.broadcast_to(fixed, (len(comp), len(fixed))), comp], axis=1)
            vals = values_on_board(full, hands[None], self.tables).astype(np.int64)
            vmax = vals.max(axis=1)
            top = vals == vmax[:, None]
            ktop = top.sum(axis=1)
            if n == 0:
                counts = [np.ones(len(comp), dtype=np.int64)]
            else:
                got = self._opponent_counts(full, comp, rem, pairs, vmax, n, allowance)
                if got is None:
                    return d, d[:, :, :0, None], 1
                counts, spent = got
                allowance -= spent
            for t, c in enumerate(counts):
                for i in range(m):
                    np.add.at(d[i, :, t], ktop[top[:, i]], (w * c)[top[:, i]])
        return d, np.zeros((m, m + 1, n + 1, n + 1), dtype=np.int64)[:, :, :0, :0], 0

    def _opponent_counts(self, full: np.ndarray, comp: np.ndarray, rem: np.ndarray, pairs: np.ndarray,
                         vmax: np.ndarray, n: int, allowance: float) -> tuple[list[np.ndarray], float] | None:
        """(per t, the sets of n opponents' hands on each board with none stronger than ``vmax`` and t equal to
        it; the matchings' work spent), or None when four or more opponents' matchings would pass ``allowance``."""
        cards = rem[pairs]  # [P, 2]
        v = values_on_board(full, cards[None], self.tables).astype(np.int64)
        clash = np.zeros(v.shape, dtype=bool)
        for j in range(comp.shape[1]):
            clash |= (cards[None, :, 0] == comp[:, j, None]) | (cards[None, :, 1] == comp[:, j, None])
        weak = (v < vmax[:, None]) & ~clash
        equal = (v == vmax[:, None]) & ~clash
        if n > 3:
            types = card_types(full, rem)
            colour = np.where(weak, WEAK, np.where(equal, EQUAL, STRONG)).astype(np.int8)
            in_pool = ~(rem[None, :, None] == comp[:, None, :]).any(axis=2)
            caps = np.stack([((types == t) & in_pool).sum(axis=1) for t in range(TYPES)], axis=1)
            counts, spent = type_matchings(caps, colours(types, pairs, colour, ~clash), n, allowance)
            return None if counts is None else (list(counts.T), spent)
        nl, ne = weak.sum(axis=1), equal.sum(axis=1)
        if n == 1:
            return [nl, ne], 0
        incidence = np.zeros((len(pairs), len(rem)), dtype=np.int64)
        incidence[np.arange(len(pairs)), pairs[:, 0]] = 1
        incidence[np.arange(len(pairs)), pairs[:, 1]] = 1
        dl, de = weak.astype(np.int64) @ incidence, equal.astype(np.int64) @ incidence
        if n == 3:
            return three_matchings(weak, equal, pairs, [dl, de]), 0
        return [nl * (nl - 1) // 2 - (dl * (dl - 1) // 2).sum(axis=1),
                nl * ne - (dl * de).sum(axis=1),
                ne * (ne - 1) // 2 - (de * (de - 1) // 2).sum(axis=1)], 0

    def monte_carlo(self, problem: Problem, samples: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        hands = problem.hands_array()
        m, n, k = len(hands), problem.opponents, problem.k
        rem = problem.rem
        fixed = np.array(problem.board, dtype=np.int64)
        out = np.zeros((4, m))
        for lo in range(0, samples, 1 << 16):
            size = min(1 << 16, samples - lo)
            deal = draw_cards(rng, rem, size, k + 2 * n)
            full = np.concatenate([np.broadcast_to(fixed, (size, len(fixed))), deal[:, :k]], axis=1)
            holes = np.concatenate([np.broadcast_to(hands, (size, m, 2)), deal[:, k:].reshape(size, n, 2)], axis=1)
            tally_showdowns(values_on_board(full, holes, self.tables).astype(np.int64), out)
        return out
