"""`dicetables yahtzee ...`: advice and values from the Yahtzee tables."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from lookup.yahtzee.rules import DEFAULT_RULES, RULE_SETS
from pipeline.cli_options import artifacts_option, artifacts_root, out_option, params_option


def _read_sheet(path: Path | None) -> Any:
    from lookup.store import read_json

    return {} if path is None else read_json(path, "sheet file not found")  # {}: every box open


sheet_option = click.option(
    "--sheet", "sheet_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="JSON score sheet: {box name: points or null, ...} or a list in sheet order, one entry per box of "
         "the rule set (default: empty).")
rules_option = click.option("--rules", "rules_name", type=click.Choice(list(RULE_SETS)), default=DEFAULT_RULES,
                            show_default=True, help="Rule set.")


@click.group()
def yahtzee() -> None:
    """Optimal Yahtzee play from the precomputed tables."""


@yahtzee.command()
@click.argument("dice", nargs=-1, type=int, required=True)
@click.option("--rerolls", type=int, default=2, show_default=True, help="Rerolls left (2, 1 or 0).")
@sheet_option
@rules_option
@artifacts_option
@click.option("--top", type=int, default=10, show_default=True, help="How many ranked options to show.")
def decide(dice: tuple[int, ...], rerolls: int, sheet_path: Path | None, rules_name: str,
           artifacts_dir: Path | None, top: int) -> None:
    """Advice for DICE (the five faces) with --rerolls left on --sheet, and the ranked options."""
    from lookup.yahtzee.play import decide as decide_
    from lookup.yahtzee.play import explain

    sheet = _read_sheet(sheet_path)
    decision = decide_(list(dice), rerolls, sheet, rules_name, artifacts_dir=artifacts_dir)
    click.echo(f"{rules_name}: {decision}")
    if decision.reroll is not None:
        marks = " ".join(f"{d}{'*' if r else ''}" for d, r in zip(decision.dice, decision.reroll, strict=True))
        click.echo(f"dice (* = reroll): {marks}")
    options = explain(list(dice), rerolls, sheet, rules_name, artifacts_dir=artifacts_dir)
    click.echo(f"{'rank':>4}  {'option':<28} {'expected final':>14} {'regret':>9}")
    for rank, opt in enumerate(options[:top], start=1):
        click.echo(f"{rank:>4}  {opt.action:<28} {opt.expected_final:>14.4f} {opt.regret:>9.4f}")
    if len(options) > top:
        click.echo(f"      ... {len(options) - top} more (--top)")


@yahtzee.command()
@sheet_option
@rules_option
@artifacts_option
def value(sheet_path: Path | None, rules_name: str, artifacts_dir: Path | None) -> None:
    """Expected final score under optimal play from the next turn on --sheet."""
    from lookup.yahtzee.play import value as value_

    click.echo(f"{value_(_read_sheet(sheet_path), rules_name, artifacts_dir=artifacts_dir):.7f}")


# ---------------------------------------------------------------------------------------------------
# The strategy lab: simulate, match, tournament (pipeline.yahtzee.match / tournament).

game_rules_option = click.option("--rules", "rules_name", type=click.Choice(list(RULE_SETS)), default=DEFAULT_RULES,
                                  show_default=True, help="Rules the games are played and scored by.")
seed_option = click.option("--seed", type=int, default=0, show_default=True, help="Seed of the dice streams.")
threads_option = click.option("--threads", type=int, default=None, help="Numba threads (default: all cores).")
hist_option = click.option("--hist", "hist_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
                           help="Write a score histogram (PNG) here.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print the statistics as JSON.")


def lab_options(command):
    """The options every game-playing command takes: seed, rules, artifacts, threads, histogram, JSON."""
    for option in (json_option, hist_option, threads_option, artifacts_option, game_rules_option, seed_option):
        command = option(command)
    return command


def _played(games_n: int, run) -> Any:
    from pipeline.progress import progress

    with progress("games", games_n) as advance:
        return run(advance)


def _show_summary(label: str, s: dict[str, Any]) -> None:
    click.echo(f"{label}: mean {s['mean']:.3f} [{s['mean_ci'][0]:.3f}, {s['mean_ci'][1]:.3f}]  std {s['std']:.2f}  "
               f"q1 {s['q1']:.0f}  median {s['median']:.0f}  q3 {s['q3']:.0f}  upper bonus "
               f"{100 * s['p_upper_bonus']:.1f}%  (n = {s['n']:,})")


@yahtzee.command()
@click.option("--player", "player_name", default="optimal", show_default=True,
              help="optimal, optimal:RULES, esperance, random, decision_une, perturbation or module:callable.")
@click.option("--games", type=int, default=100000, show_default=True)
@lab_options
def simulate(player_name: str, games: int, seed: int, rules_name: str, artifacts_dir: Path | None,
             threads: int | None, hist_path: Path | None, as_json: bool) -> None:
    """Solo games of one player: score statistics with 95% intervals."""
    import time

    from pipeline.yahtzee.match import simulate as simulate_
    from pipeline.yahtzee.stats import summary

    start = time.perf_counter()
    result = _played(games, lambda advance: simulate_(player_name, games, seed=seed, rules=rules_name,
                                                      artifacts_dir=artifacts_dir, threads=threads, progress=advance))
    elapsed = time.perf_counter() - start
    s = summary(result.scores[:, 0], result.upper_bonus[:, 0])
    if hist_path is not None:
        from pipeline.yahtzee.plots import histogram

        histogram(hist_path, {player_name: result.scores[:, 0]}, f"{player_name}, {games:,} games")
    if as_json:
        click.echo(json.dumps({"player": player_name, "seed": seed, "rules": rules_name, "summary": s}, indent=2))
        return
    _show_summary(player_name, s)
    click.echo(f"{games:,} games in {elapsed:.2f} s ({games / elapsed:,.0f} games/s)")


@yahtzee.command()
@click.argument("player_a")
@click.argument("player_b")
@click.option("--games", type=int, default=100000, show_default=True, help="Games (antithetic: even, 2 per set).")
@click.option("--mode", type=click.Choice(["coupled", "antithetic", "independent"]), default="coupled",
              show_default=True, help="Same dice for both, swapped dice in a second game, or independent dice.")
@lab_options
def match(player_a: str, player_b: str, games: int, mode: str, seed: int, rules_name: str,
          artifacts_dir: Path | None, threads: int | None, hist_path: Path | None, as_json: bool) -> None:
    """PLAYER_A against PLAYER_B: scores, win / draw / loss with intervals, paired difference, set wins."""
    from pipeline.yahtzee.match import play
    from pipeline.yahtzee.stats import pair, summary

    result = _played(games, lambda advance: play(player_a, player_b, games, seed=seed, mode=mode, rules=rules_name,
                                                 artifacts_dir=artifacts_dir, threads=threads, progress=advance))
    sa = summary(result.scores[:, 0], result.upper_bonus[:, 0])
    sb = summary(result.scores[:, 1], result.upper_bonus[:, 1])
    p = pair(result.scores, mode)
    if hist_path is not None:
        from pipeline.yahtzee.plots import histogram

        histogram(hist_path, {player_a: result.scores[:, 0], player_b: result.scores[:, 1]},
                  f"{player_a} vs {player_b} ({mode}, {games:,} games)")
    if as_json:
        click.echo(json.dumps({"a": player_a, "b": player_b, "mode": mode, "seed": seed, "summary_a": sa,
                               "summary_b": sb, "pair": p}, indent=2))
        return
    _show_summary(player_a, sa)
    _show_summary(player_b, sb)
    for key, who in (("win", player_a), ("draw", "draws"), ("loss", player_b)):
        r = p[key]
        click.echo(f"{who + ' wins' if key != 'draw' else who:<24} {100 * r['rate']:6.2f}%  "
                   f"[{100 * r['ci'][0]:.2f}, {100 * r['ci'][1]:.2f}]")
    click.echo(f"difference {player_a} - {player_b}: {p['difference_mean']:.3f} points "
               f"[{p['difference_ci'][0]:.3f}, {p['difference_ci'][1]:.3f}]; variance reduction "
               f"x{p['variance_reduction']:.2f} against independent games")
    if "sets" in p:
        s = p["sets"]
        click.echo(f"sets: {s['sets']:,}; {player_a} {s['a']['total']:,} total + {s['a']['partial']:,} partial wins "
                   f"= {s['a']['points']:,.1f} points; {player_b} {s['b']['total']:,} total + {s['b']['partial']:,} "
                   f"partial = {s['b']['points']:,.1f}")


@yahtzee.command()
@params_option
@artifacts_option
@out_option
@click.option("--scheduler", default=None, help="Address of a Dask scheduler to run the game batches on.")
@click.option("--local-cluster", "local_cluster", type=int, default=None,
              help="Start a local Dask cluster of N worker processes for the game batches.")
@click.option("--games", type=int, default=None, help="Override the games per match.")
def tournament(params_path: Path | None, artifacts_dir: Path | None, out_dir: Path | None, scheduler: str | None,
               local_cluster: int | None, games: int | None) -> None:
    """Every pair of players (params: yahtzee_lab.tournament); writes JSON, Markdown and PNG histograms."""
    from pipeline import stages
    from pipeline.progress import say
    from pipeline.yahtzee.distributed import runner
    from pipeline.yahtzee.report import write_report
    from pipeline.yahtzee.tournament import run_tournament

    params = stages.load_params(params_path or stages.DEFAULT_PARAMS)
    section = dict((params.get("yahtzee_lab") or {}).get("tournament") or {})
    if games is not None:
        section["games"] = games
    root = artifacts_root(artifacts_dir)
    with runner(scheduler, local_cluster) as run:
        results, scores = run_tournament(section, root, run)
    paths = write_report(results, scores, out_dir or root / "reports" / "yahtzee")
    say(f"wrote {paths[1]} and {len(paths) - 1} other files")
