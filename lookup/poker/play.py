"""Play-time answers: ``preflop(hand, opponents)`` and ``heads_up(a, b)`` by indexing the preflop tables,
``value`` (a class's preflop equity) and ``decide`` (call or fold an all-in bet, from the exact equity)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

from lookup.poker.cards import class_name, parse_class
from lookup.poker.equity import DEFAULT_BUDGET, MAX_BUDGET, Equity, budget_samples, equity
from lookup.poker.problem import count_arg
from lookup.poker.tables import built_multiway, load_preflop
from lookup.validate import number
from lookup.words import counted

if TYPE_CHECKING:
    from lookup.poker.range_equity import RangeEquity

MAX_CHIPS = 1e15  # pot and to_call: any real stake, and far inside the exact range of a float


@dataclass(frozen=True)
class PreflopEquity:
    """Equity of a starting-hand class before the flop, averaged over its suit combinations.

    ``exact``: an exact value (``fraction`` holds it) or a Monte Carlo estimate with standard error ``se``.
    Heads-up answers also carry the integer counts ``wins``, ``ties`` out of ``deals``, and so do the answers
    from the exact multi-way counts, with ``splits[j]`` the deals in which the hand ties with exactly j
    opponents (j = 0: wins alone; the pot is then split j + 1 ways): over every suit combination of the
    class, board and ordered opponent hands.
    """

    hand: str
    against: str
    equity: float
    exact: bool
    se: float
    fraction: Fraction | None = None
    wins: int | None = None
    ties: int | None = None
    deals: int | None = None
    splits: tuple[int, ...] | None = None


def preflop(hand: str, opponents: int = 1, *, artifacts_dir: str | Path | None = None) -> PreflopEquity:
    """Equity of ``hand`` (``"AKs"``, ``"T9o"``, ``"QQ"`` or a specific ``"AsKs"``, which answers for its
    class) against ``opponents`` random hands (1..9): exact from the multi-way counts when they are built
    (``poker-multiway``, optional) and hold the class and n; else from the preflop table, exact for 1, an
    estimate with its standard error for more (unless the table holds an exact row)."""
    x = parse_class(hand)
    n = count_arg(opponents, "opponents")
    multi = built_multiway(artifacts_dir)
    if multi is not None and multi.has(x, n):
        splits, deals = tuple(multi.counts(x, n)), multi.deals(x, n)
        frac = sum((Fraction(c, j + 1) for j, c in enumerate(splits)), Fraction(0)) / deals
        return PreflopEquity(class_name(x), f"{n} random hand{'s' if n > 1 else ''}", float(frac), True, 0.0, frac,
                             splits[0], sum(splits[1:]), deals, splits)
    tables = load_preflop(artifacts_dir)
    rows = tables.arrays["multi_equity"].shape[0]
    if not 1 <= n <= rows:
        raise ValueError(f"opponents must be in 1..{rows} (the preflop table covers 1..{rows} random hands), "
                         f"got {n}")
    a = tables.arrays
    if n == 1:
        wins, ties, deals = int(a["random_win"][x]), int(a["random_tie"][x]), int(a["random_total"][x])
        frac = Fraction(2 * wins + ties, 2 * deals)
        return PreflopEquity(class_name(x), "1 random hand", float(frac), True, 0.0, frac, wins, ties, deals)
    exact = bool(a["multi_exact"][n - 1])
    return PreflopEquity(class_name(x), f"{n} random hands", float(a["multi_equity"][n - 1, x]), exact,
                         float(a["multi_se"][n - 1, x]))


def heads_up(hand: str, other: str, *, artifacts_dir: str | Path | None = None) -> PreflopEquity:
    """Exact equity of class ``hand`` against class ``other`` heads-up, averaged over every pair of disjoint
    suit combinations (``deals`` = combinations x 1,712,304 boards)."""
    x, y = parse_class(hand), parse_class(other)
    a = load_preflop(artifacts_dir).arrays
    wins, ties = int(a["hu_win"][x, y]), int(a["hu_tie"][x, y])
    deals = int(a["hu_combos"][x, y]) * 1_712_304
    frac = Fraction(2 * wins + ties, 2 * deals)
    return PreflopEquity(class_name(x), class_name(y), float(frac), True, 0.0, frac, wins, ties, deals)


def value(hand: str, opponents: int = 1, *, artifacts_dir: str | Path | None = None) -> float:
    """Preflop equity of ``hand`` (a class or a specific hand) against ``opponents`` random hands: the share of
    the pot it wins on average (``preflop(...).equity``; exact for one opponent, see ``preflop``)."""
    return preflop(hand, opponents, artifacts_dir=artifacts_dir).equity


@dataclass(frozen=True)
class CallDecision:
    """``action``: "call" or "fold" an all-in bet; ``equity``: the caller's share of the final pot (exact or
    estimated, see ``Equity``); ``break_even``: the equity at which calling and folding are worth the same,
    to_call / (pot + to_call); ``gain``: expected chips won by calling rather than folding."""

    action: str
    equity: float
    break_even: float
    gain: float
    exact: bool


def decide(hand: str, *, pot: float, to_call: float, board: object = (), opponents: int = 1, dead: object = (),
           budget: float = DEFAULT_BUDGET, artifacts_dir: str | Path | None = None,
           ranges: object = None) -> CallDecision:
    """Call or fold when every opponent is all-in: ``pot`` chips already in the middle (the opponents' bets
    included), ``to_call`` chips to put in. No later betting remains, so calling is right exactly when the
    equity (``lookup.poker.equity`` of ``hand`` against ``opponents`` unknown hands, exact within ``budget``
    seconds) exceeds to_call / (pot + to_call). Ties of gain answer "fold" (keep the chips).

    ``budget`` (the default of every equity answer, ``lookup.poker.equity.DEFAULT_BUDGET``) bounds the whole call:
    when no exact count fits in it, the seeded Monte Carlo that answers instead draws as many deals as its
    engine evaluates in ``budget`` seconds at its pessimistic rate (``lookup.poker.equity.budget_samples``).

    ``ranges``: the ranges of the first opponents (``"QQ+, AKs"``, or a list, one per opponent; notation of
    ``lookup.poker.ranges``), the others holding random hands: the equity is then
    ``lookup.poker.range_equity``'s (exact from the preflop table or by enumeration within ``budget``, else
    its Monte Carlo, drawn as above). More ranges than ``opponents`` is a ValueError."""
    for name, amount in (("pot", pot), ("to_call", to_call)):
        if number(amount, name, 0, MAX_CHIPS) == 0:
            raise ValueError(f"{name} must be a positive number of chips, got 0")
    # The validated int, not the argument: a numpy uint64 opponents would wrap around in 1 + opponents.
    seats = count_arg(opponents, "opponents")
    if seats < 1:
        raise ValueError(f"opponents must be at least 1 (the all-in players to call against), got {seats}")
    budget = number(budget, "budget", 0, MAX_BUDGET)
    deals = budget_samples(budget, 1 + seats)
    if ranges is not None:
        from lookup.poker.range_equity import range_equity
        from lookup.poker.ranges import Range

        listed = [ranges] if isinstance(ranges, str | Range) else ranges
        try:
            listed = list(listed)
        except TypeError:
            raise ValueError(f"ranges: expected a range such as 'QQ+, AKs' or a list of ranges, got "
                             f"{type(ranges).__name__}") from None
        if len(listed) > seats:
            raise ValueError(f"{counted(len(listed), 'range')} for {counted(seats, 'opponent')}: give at most one "
                             "range per opponent (raise opponents)")
        result = range_equity([hand, *listed], board, seats - len(listed), dead, budget=budget,
                              artifacts_dir=artifacts_dir, samples=deals)
    else:
        result = equity([hand], board, seats, dead, budget=budget, artifacts_dir=artifacts_dir,
                        samples=deals)
    return call_decision(result, pot, to_call)


def call_decision(result: Equity | RangeEquity, pot: float, to_call: float) -> CallDecision:
    """Call or fold ``to_call`` chips into ``pot`` (every opponent all-in) with the first player's equity in
    ``result``: what ``decide`` answers from the equity it computes."""
    for name, amount in (("pot", pot), ("to_call", to_call)):
        if number(amount, name, 0, MAX_CHIPS) == 0:
            raise ValueError(f"{name} must be a positive number of chips, got 0")
    share, gain = call_gain(result, pot, to_call)
    return CallDecision("call" if gain > 0 else "fold", float(share), to_call / (pot + to_call), float(gain),
                        result.exact)


def call_gain(result: Equity | RangeEquity, pot: float, to_call: float) -> tuple[Fraction | float, Fraction | float]:
    """(share, gain) of the first hand of ``result``: its share of the final pot (``pot + to_call``) and the chips
    calling ``to_call`` nets against folding, ``share * (pot + to_call) - to_call``; exact rationals when the
    equity is exact (then the sign of the gain is exact too), else floats."""
    if result.exact:
        share = Fraction(result.shares[0]) / result.deals
        return share, share * (Fraction(pot) + Fraction(to_call)) - Fraction(to_call)
    return result.equity[0], result.equity[0] * (pot + to_call) - to_call
