"""`dicetables poker ...`: exact equity of known hands, the preflop tables, the evaluator, the report."""

from __future__ import annotations

import dataclasses
import time
from fractions import Fraction
from pathlib import Path
from typing import Any

import click

from lookup.words import counted
from pipeline import cli_options as opt
from pipeline.cli_options import artifacts_option, artifacts_root

# The library's defaults (lookup.poker.equity), named here without importing it (numpy) when the CLI starts; the
# numbers in the help are checked against the library's by tests/poker/test_poker_defaults.py.
BUDGET_HELP = ("Seconds an exact count may take by the engine's estimate; beyond it, a Monte Carlo estimate "
               "[default: the library's, lookup.poker.equity.DEFAULT_BUDGET = 5].")


@click.group(name="poker")
def cli() -> None:
    """Texas hold'em: exact equity, preflop tables, hand values."""


@cli.command()
@click.argument("hands", nargs=-1)
@click.option("--board", default="", help="0, 3, 4 or 5 cards, e.g. 2c7d9h.")
@click.option("--opponents", type=int, default=None,
              help="Players with unknown cards [default: 1 with one hand (as `poker preflop`), else 0].")
@click.option("--dead", default="", help="Cards out of play.")
@click.option("--budget", type=float, default=None, help=BUDGET_HELP)
@click.option("--samples", type=int, default=None,
              help="Monte Carlo deals [default: the library's, lookup.poker.equity.DEFAULT_SAMPLES = 2,000,000].")
@click.option("--seed", type=int, default=0, show_default=True, help="Monte Carlo seed.")
@click.option("--no-table", "no_table", is_flag=True,
              help="Enumerate even when the preflop table holds the answer (one hand, no board, no dead cards).")
@artifacts_option
@opt.json_option
def equity(hands: tuple[str, ...], board: str, opponents: int | None, dead: str, budget: float | None,
           samples: int | None, seed: int, no_table: bool, artifacts_dir: Path | None, as_json: bool) -> None:
    """Win / tie / equity of each of HANDS (e.g. AsAh KsKd), exact or estimated; from the preflop table when
    it holds the question."""
    from lookup.poker.equity import DEFAULT_BUDGET, DEFAULT_SAMPLES
    from lookup.poker.equity import equity as equity_
    from pipeline.progress import console, say

    if not hands:
        raise ValueError("no hand: give at least one two-card hand, e.g. `dicetables poker equity AsAh KdKc` "
                         "(or AsAh --opponents 2 for random opponents)")
    start = time.perf_counter()
    root = artifacts_root(artifacts_dir)
    engine = _engine(root)
    with console.status("counting...") if not _quiet() else _null():
        result = equity_(list(hands), board, opponents, dead, budget=DEFAULT_BUDGET if budget is None else budget,
                         samples=DEFAULT_SAMPLES if samples is None else samples, seed=seed,
                         engine=engine, artifacts_dir=root, use_table=not no_table)
    for note in result.notes:
        say(f"[yellow]note[/]: {note}")
    win, tie = result.win, result.tie  # None when the preflop table stores the equity only
    if as_json:
        opt.echo_json({"method": result.method, "source": result.source, "exact": result.exact,
                       "deals": result.deals, "board": result.board, "opponents": result.opponents,
                       "notes": list(result.notes), "hands": [
                           {"hand": label, "win": win and win[i], "tie": tie and tie[i], "equity": result.equity[i],
                            "equity_exact": opt.fraction_text(Fraction(result.shares[i]) / result.deals)
                            if result.exact else None,
                            "wins": result.wins and result.wins[i], "ties": result.ties and result.ties[i],
                            "se": result.se[i]}
                           for i, label in enumerate(result.hands)]})
        return
    kind = f"exact over {result.deals:,} deals" if result.exact else \
        f"ESTIMATE from {result.deals:,} random deals (+- 1.96 standard errors)"
    click.echo(f"{result.method}: {kind}; board [{result.board or '-'}], "
               f"{counted(result.opponents, 'unknown opponent')}; source: {result.source}")
    for i, label in enumerate(result.hands):
        split = "" if win is None else f"win {100 * win[i]:8.4f} %  tie {100 * tie[i]:8.4f} %  "
        if result.exact:
            if result.wins is None:  # an exact table row without counts: the rational itself
                share = Fraction(result.shares[i]) / result.deals
                counts = f"   (= {share.numerator}/{share.denominator})"
            else:
                counts = f"   (wins {result.wins[i]:,}, ties {result.ties[i]:,})"
            click.echo(f"  {label}: {split}equity {100 * result.equity[i]:8.4f} %{counts}")
        else:
            half = 1.96 * result.se[i]
            click.echo(f"  {label}: {split}equity {100 * result.equity[i]:8.4f} % +- {100 * half:.4f} %  "
                       f"(se {result.se[i]:.2e})")
    click.echo(f"time {time.perf_counter() - start:.3f} s")


@cli.command(name="range")
@click.argument("players", nargs=-1)
@click.option("--board", default="", help="0, 3, 4 or 5 cards, e.g. 2c7d9h.")
@click.option("--opponents", type=int, default=0, show_default=True,
              help="Random hands besides the PLAYERS.")
@click.option("--dead", default="", help="Cards out of play.")
@click.option("--budget", type=float, default=None, help=BUDGET_HELP)
@click.option("--samples", type=int, default=None,
              help="Monte Carlo deals [default: as many as the budget allows, at most the library's DEFAULT_SAMPLES].")
@click.option("--seed", type=int, default=0, show_default=True, help="Monte Carlo seed.")
@click.option("--pot", type=float, default=None, help="Chips in the pot (with --to-call: call or fold, for the first "
                                                      "player, every opponent all-in).")
@click.option("--to-call", "to_call", type=float, default=None, help="Chips to call.")
@click.option("--no-table", "no_table", is_flag=True, help="Never read the preflop table (count instead).")
@artifacts_option
@opt.json_option
def range_(players: tuple[str, ...], board: str, opponents: int, dead: str, budget: float | None, samples: int | None,
           seed: int, pot: float | None, to_call: float | None, no_table: bool, artifacts_dir: Path | None,
           as_json: bool) -> None:
    """Equity of each of PLAYERS, each a hand (AsAh) or a range ("QQ+, AKs, A2s+, 76s+, 99-66, AKs:0.5"),
    against the others and --opponents random hands; exact (preflop table or enumeration) or estimated.
    With --pot and --to-call: call or fold for the first player."""
    from lookup.poker.equity import DEFAULT_BUDGET
    from lookup.poker.play import call_decision
    from lookup.poker.range_equity import range_equity
    from pipeline.progress import console, say

    if not players:
        raise ValueError("no player: give hands or ranges, e.g. `dicetables poker range AsAh \"QQ+, AKs\"`")
    if (pot is None) != (to_call is None):
        raise ValueError("give both --pot and --to-call (call or fold), or neither")
    start = time.perf_counter()
    root = artifacts_root(artifacts_dir)
    engine = _engine(root)
    with console.status("counting...") if not _quiet() else _null():
        result = range_equity(list(players), board, opponents, dead,
                              budget=DEFAULT_BUDGET if budget is None else budget, samples=samples, seed=seed,
                              engine=engine, artifacts_dir=root, use_table=not no_table)
    decision = None if pot is None else call_decision(result, pot, to_call)
    for note in result.notes:
        say(f"[yellow]note[/]: {note}")
    if as_json:
        out = result.as_dict()
        if decision is not None:
            out["decision"] = {"pot": pot, "to_call": to_call, **dataclasses.asdict(decision)}
        opt.echo_json(out)
        return
    kind = f"exact over {result.deals:,} weighted deals" if result.exact else \
        f"ESTIMATE from {result.deals:,} random deals (+- 1.96 standard errors)"
    click.echo(f"{result.method}: {kind}; board [{result.board or '-'}], dead [{result.dead or '-'}], "
               f"{counted(result.opponents, 'random opponent')}; source: {result.source}")
    win, tie = result.win, result.tie
    for i, label in enumerate(result.players):
        split = "" if win is None else f"win {100 * win[i]:8.4f} %  tie {100 * tie[i]:8.4f} %  "
        hands = f"{label} ({result.hands[i]} hand{'s' if result.hands[i] != 1 else ''})"
        if result.exact:
            share = Fraction(result.shares[i]) / result.deals
            click.echo(f"  {hands}: {split}equity {100 * result.equity[i]:8.4f} %   (= {share.numerator}/"
                       f"{share.denominator})")
        else:
            click.echo(f"  {hands}: {split}equity {100 * result.equity[i]:8.4f} % +- {196 * result.se[i]:.4f} %  "
                       f"(se {result.se[i]:.2e})")
    if decision is not None:
        verb = ">" if decision.action == "call" else "<="
        click.echo(f"{decision.action.upper()}: equity {100 * decision.equity:.4f} % {verb} "
                   f"{100 * decision.break_even:.4f} % needed to call {to_call:g} into {pot:g}; calling nets "
                   f"{decision.gain:+.4f} chips on average")
    click.echo(f"time {time.perf_counter() - start:.3f} s")


def _engine(root: Path) -> Any:
    """The compiled engine when its kernels are cached, else None (the library's numpy engine), said in a note.
    Compiling takes 25-75 s: never on a user's call, whose --budget it would blow (`dicetables compile`, which
    `make run` and `make test` run, fills the cache)."""
    from pipeline.poker.engine import NumbaEngine
    from pipeline.poker.warm import kernels_cached
    from pipeline.progress import say

    if kernels_cached():
        return NumbaEngine(root)
    say("[yellow]note[/]: the compiled poker kernels are not cached yet (run `dicetables compile poker`; "
        "`make run` does): counting with the slower numpy engine, within the budget")
    return None


def _fraction(p: Fraction | None) -> str | None:
    """An exact probability as JSON text "numerator/denominator" (null when estimated)."""
    return None if p is None else f"{p.numerator}/{p.denominator}"


def _quiet() -> bool:
    from pipeline.progress import _state

    return bool(_state["quiet"])


class _null:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@cli.command()
@click.argument("hand")
@click.option("--opponents", type=int, default=1, show_default=True, help="Random opponents (1..9).")
@click.option("--against", default=None, help="A class (e.g. KK): exact heads-up equity instead.")
@artifacts_option
@opt.json_option
def preflop(hand: str, opponents: int, against: str | None, artifacts_dir: Path | None, as_json: bool) -> None:
    """Preflop equity of class HAND (AKs, T9o, QQ) from the tables."""
    from lookup.poker.play import heads_up
    from lookup.poker.play import preflop as preflop_

    root = artifacts_root(artifacts_dir)
    r = heads_up(hand, against, artifacts_dir=root) if against else preflop_(hand, opponents, artifacts_dir=root)
    if as_json:
        opt.echo_json({"hand": r.hand, "against": r.against, "equity": r.equity, "exact": r.exact, "se": r.se,
                       "fraction": opt.fraction_text(r.fraction), "wins": r.wins, "ties": r.ties, "deals": r.deals})
        return
    if r.exact:
        extra = f" (wins {r.wins:,}, ties {r.ties:,} of {r.deals:,})" if r.deals else ""
        click.echo(f"{r.hand} vs {r.against}: equity {100 * r.equity:.4f} % exact{extra}")
    else:
        click.echo(f"{r.hand} vs {r.against}: equity {100 * r.equity:.4f} % +- {196 * r.se:.4f} % "
                   f"(Monte Carlo estimate, standard error {r.se:.2e})")


@cli.command()
@click.argument("cards", nargs=-1)
@artifacts_option
@opt.json_option
def value(cards: tuple[str, ...], artifacts_dir: Path | None, as_json: bool) -> None:
    """Value and category of the best five of 5 to 7 CARDS."""
    from lookup.poker.evaluate import hand_value

    v, category = hand_value(" ".join(cards), artifacts_dir=artifacts_root(artifacts_dir))
    if as_json:
        opt.echo_json({"cards": " ".join(cards), "value": v, "category": category})
        return
    click.echo(f"{category} (value {v})")
