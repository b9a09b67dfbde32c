"""Poker routes: the equity of known hands (exact or estimated, ``lookup.poker.equity``), of hands and ranges
against ranges with call or fold (``lookup.poker.range_equity``, ``call_decision``) and the preflop chart
(every starting-hand class against 1..n random hands, ``lookup.poker.preflop``)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from fastapi import APIRouter, Depends

from lookup.poker import Equity, class_name, equity, preflop, range_equity
from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES
from lookup.poker.equity import MAX_BUDGET as LIBRARY_MAX_BUDGET
from lookup.poker.equity import MAX_SAMPLES as LIBRARY_MAX_SAMPLES
from lookup.poker.play import MAX_CHIPS, call_decision
from lookup.poker.tables import load_preflop
from lookup.validate import integer, number
from lookup.words import noun_for
from webapp.common import StrictModel, artifacts_dir

router = APIRouter(prefix="/api/poker", tags=["poker"])
Artifacts = Annotated[Path, Depends(artifacts_dir)]

# The defaults are the library's (lookup.poker.equity: DEFAULT_BUDGET seconds for an exact count by the engine's
# estimate, DEFAULT_SAMPLES Monte Carlo deals beyond it), so that the page answers as precisely as the command line
# and the library. What one request may ask for is capped at those defaults: the engine is lookup's numpy one (the
# web app never compiles or loads the numba kernels, which live in ``pipeline``), which draws 2,000,000 deals
# in 0.6-1.6 s, the command line's time (docs/benchmarks.md, "Poker", page_vs_cli); a request asking more is a 422
# naming the cap.
MAX_BUDGET = DEFAULT_BUDGET
MAX_SAMPLES = DEFAULT_SAMPLES
MAX_CARDS_TEXT = 200  # "AsKh" is 4 characters; no real board, hand or dead list comes near


class EquityQuery(StrictModel):
    """hands: each known player's two hole cards ("AsKh", "As Kh"); opponents: players with unknown cards
    (random hands; default: 1 with one known hand, else 0, as the library and the command line); board: 0, 3,
    4 or 5 cards; dead: cards out of play; budget: seconds the exact count may take by lookup's estimate, else an
    estimate from ``samples`` deals drawn with ``seed``: the library's defaults, and the most a request may ask."""

    hands: list[str]
    opponents: int | None = None
    board: str = ""
    dead: str = ""
    budget: float = DEFAULT_BUDGET
    samples: int = DEFAULT_SAMPLES
    seed: int = 0


def _cards(text: str, what: str) -> str:
    if len(text) > MAX_CARDS_TEXT:
        raise ValueError(f"{what}: at most {MAX_CARDS_TEXT} characters of cards, got {len(text)}")
    return text


def _capped(budget: object, samples: object) -> tuple[float, int | None]:
    """The request's budget and samples (None: as many as the budget allows), refused by name beyond the web's
    caps, the library's defaults."""
    budget = number(budget, "budget", 0, LIBRARY_MAX_BUDGET)  # junk refused as the library refuses it
    if budget > MAX_BUDGET:
        raise ValueError(f"budget must be at most {MAX_BUDGET:g} seconds on the web (the library's default; the "
                         f"command line allows more), got {budget:g}")
    if samples is None:
        return budget, None
    samples = integer(samples, "samples", 2, LIBRARY_MAX_SAMPLES)
    if samples > MAX_SAMPLES:
        raise ValueError(f"samples must be at most {MAX_SAMPLES:,} deals on the web (the library's default; the "
                         f"command line allows more), got {samples:,}")
    return budget, samples


def _answer(e: Equity) -> dict[str, object]:
    """The equity as JSON: per known player win, tie (None where the preflop table has no counts), equity,
    and its standard error (0 when exact); ``deals`` the equally likely deals counted (exact) or sampled."""
    players = []
    for i, hand in enumerate(e.hands):
        share = e.shares[i]
        players.append({"hand": hand, "equity": e.equity[i], "se": e.se[i],
                        "win": None if e.win is None else e.win[i], "tie": None if e.tie is None else e.tie[i],
                        "wins": None if e.wins is None else e.wins[i], "ties": None if e.ties is None else e.ties[i],
                        "shares": f"{share.numerator}/{share.denominator}" if e.exact else None})
    return {"hands": list(e.hands), "board": e.board, "opponents": e.opponents, "exact": e.exact, "deals": e.deals,
            "source": e.source, "method": e.method, "notes": list(e.notes), "seconds": e.seconds, "players": players}


@router.post("/equity")
def equity_route(q: EquityQuery, root: Artifacts) -> dict[str, object]:
    """Win, tie and equity (share of the pot won on average) of each known hand, in the order given: exact
    (integer counts over every deal) when the count fits the budget, else a seeded Monte Carlo estimate
    with its standard error; answered from the preflop table for one hand against random opponents."""
    if not 1 <= len(q.hands) <= 9:
        raise ValueError(f"hands: give 1..9 known hands (two cards each, e.g. 'AsKh'), got {len(q.hands)}")
    hands = [_cards(h, f"hand {i + 1}") for i, h in enumerate(q.hands)]
    budget, samples = _capped(q.budget, q.samples)
    e = equity(hands, _cards(q.board, "board"), q.opponents, _cards(q.dead, "dead"), budget=budget,
               samples=samples, seed=q.seed, artifacts_dir=root)
    return _answer(e)


class RangeQuery(StrictModel):
    """players: each player's hand ("AsAh") or range ("QQ+, AKs", the notation of ``lookup.poker.ranges``), the
    first one "yours"; opponents: random hands besides them; board: 0, 3, 4 or 5 cards; dead: cards out of play;
    pot and to_call (both or neither): call or fold for the first player, every opponent all-in; budget: seconds
    an exact count may take by lookup's estimate; samples: Monte Carlo deals beyond it (None: as many as the budget
    allows), drawn with ``seed``: the library's defaults, and the most a request may ask."""

    players: list[str]
    opponents: int = 0
    board: str = ""
    dead: str = ""
    pot: float | None = None
    to_call: float | None = None
    budget: float = DEFAULT_BUDGET
    samples: int | None = None
    seed: int = 0


@router.post("/range")
def range_route(q: RangeQuery, root: Artifacts) -> dict[str, object]:
    """Equity of each player's hand or range against the others and the random opponents: exact (the preflop
    table's heads-up counts, or every deal counted) when it fits the budget, else a seeded Monte Carlo estimate
    with its standard error; the fields of ``lookup.poker.RangeEquity`` (``as_dict``). With pot and to_call,
    ``decision``: call or fold for the first player, the equity the call needs (``break_even``) and its gain."""
    if not 1 <= len(q.players) <= 9:
        raise ValueError(f"players: give 1..9 hands or ranges (e.g. ['AsAh', 'QQ+, AKs']), got {len(q.players)}")
    if (q.pot is None) != (q.to_call is None):
        raise ValueError("give both pot and to_call (call or fold), or neither")
    budget, samples = _capped(q.budget, q.samples)
    if q.pot is not None:  # checked before counting
        for name, amount in (("pot", q.pot), ("to_call", q.to_call)):
            number(amount, name, 0, MAX_CHIPS)
    e = range_equity(q.players, _cards(q.board, "board"), q.opponents, _cards(q.dead, "dead"), budget=budget,
                     samples=samples, seed=q.seed, artifacts_dir=root)
    out = e.as_dict()
    out["decision"] = None
    if q.pot is not None:
        d = call_decision(e, q.pot, q.to_call)
        out["decision"] = {"pot": q.pot, "to_call": q.to_call, "action": d.action, "equity": d.equity,
                           "break_even": d.break_even, "gain": d.gain, "exact": d.exact}
    return out


def built_rows(root: Path) -> list[int]:
    """The numbers of random opponents the preflop table answers: 1 (exact counts) and every row beyond it
    that is exact or estimated (a row still being built has neither)."""
    a = load_preflop(root).arrays
    return [1] + [n for n in range(2, a["multi_equity"].shape[0] + 1)
                  if int(a["multi_exact"][n - 1]) == 1 or int(a["multi_samples"][n - 1]) > 0]


def _chart(opponents: int, root: Path) -> dict[str, object]:
    cells = []
    for x in range(169):
        p = preflop(class_name(x), opponents, artifacts_dir=root)
        cells.append({"hand": p.hand, "equity": p.equity, "exact": p.exact, "se": p.se,
                      "fraction": None if p.fraction is None else f"{p.fraction.numerator}/{p.fraction.denominator}",
                      "wins": p.wins, "ties": p.ties, "deals": p.deals})
    return {"opponents": opponents, "against": p.against, "exact": p.exact, "cells": cells}


@router.get("/preflop")
def preflop_route(root: Artifacts, opponents: int = 1) -> dict[str, object]:
    """The preflop chart against ``opponents`` random hands: ``cells[13 * i + j]`` is the class at row i,
    column j (0 = ace ... 12 = deuce; pairs on the diagonal, suited above it, offsuit below), with its
    equity (share of the pot won on average), exact or estimated (``se``), and ``rows``: every number of
    opponents the table answers."""
    rows = built_rows(root)
    if opponents not in rows:
        raise ValueError(f"opponents: the preflop table here answers {', '.join(map(str, rows))} random "
                         f"{noun_for(rows[-1], 'opponent')}, not {opponents}")
    return {**_chart(opponents, root), "rows": rows}
