"""The strategy lab's commands: ``simulate`` and ``match`` (its ``report``, alias ``tournament``, is declared in
``pipeline/yahtzee_lab/game.py``).

They stand in the ``dicetables yahtzee`` group (``pipeline/cli.py`` adds them there, the lab's declaration
naming that game): ``dicetables yahtzee match esperance decision_une ...``. The group here, ``cli``, only holds them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from lookup.words import counted
from lookup.yahtzee.rules import DEFAULT_RULES, RULE_SETS
from pipeline import cli_options as opt


@click.group(name="yahtzee")
def cli() -> None:
    """The Yahtzee strategy lab: players, matches, the tournament."""


threads_option = click.option("--threads", type=int, default=None, help="Numba threads (default: all cores).")
hist_option = click.option("--hist", "hist_path", type=opt.output_file, default=None,
                           help="Write a score histogram (PNG) here (its directory must exist).")


def lab_options(command):
    """The options every game-playing command takes: seed, rules, artifacts, threads, histogram, JSON."""
    for option in (opt.json_option, hist_option, threads_option, opt.artifacts_option,
                   opt.rules_option(RULE_SETS, DEFAULT_RULES, "Rules the games are played and scored by."),
                   opt.seed_option(0, "Seed of the dice streams.")):
        command = option(command)
    return command


def _played(games_n: int, run) -> Any:
    from pipeline.progress import progress

    with progress("games", games_n) as advance:
        return run(advance)


def _show_summary(label: str, s: dict[str, Any]) -> None:
    click.echo(f"{label}: mean {s['mean']:.3f} [{s['mean_ci'][0]:.3f}, {s['mean_ci'][1]:.3f}]  sd {s['std']:.2f}  "
               f"q1 {s['q1']:.0f}  median {s['median']:.0f}  q3 {s['q3']:.0f}  upper bonus "
               f"{100 * s['p_upper_bonus']:.1f}%  (n = {s['n']:,})")


@cli.command()
@click.option("--player", "player_name", default="optimal", show_default=True,
              help="optimal, optimal:RULES, esperance, random, decision_une, perturbation or module:callable.")
@opt.games_option()
@lab_options
def simulate(player_name: str, games: int, seed: int, rules_name: str, artifacts_dir: Path | None,
             threads: int | None, hist_path: Path | None, as_json: bool) -> None:
    """Solo games of one player: score statistics with 95% intervals."""
    import time

    from pipeline.yahtzee_lab.match import simulate as simulate_
    from pipeline.yahtzee_lab.stats import summary

    start = time.perf_counter()
    result = _played(games, lambda advance: simulate_(player_name, games, seed=seed, rules=rules_name,
                                                      artifacts_dir=artifacts_dir, threads=threads, progress=advance))
    elapsed = time.perf_counter() - start
    s = summary(result.scores[:, 0], result.upper_bonus[:, 0])
    if hist_path is not None:
        from pipeline.yahtzee_lab.plots import histogram

        histogram(hist_path, {player_name: result.scores[:, 0]}, f"{player_name}, {counted(games, 'game', spec=',')}")
    if as_json:
        click.echo(json.dumps({"player": player_name, "seed": seed, "rules": rules_name, "summary": s}, indent=2))
        return
    _show_summary(player_name, s)
    click.echo(f"{counted(games, 'game', spec=',')} in {elapsed:.2f} s ({games / elapsed:,.0f} games/s)")


@cli.command()
@click.argument("player_a")
@click.argument("player_b")
@opt.games_option(help="Games (antithetic: even, 2 per set).")
@click.option("--mode", type=click.Choice(["coupled", "antithetic", "independent"]), default="coupled",
              show_default=True, help="Same dice for both, swapped dice in a second game, or independent dice.")
@lab_options
def match(player_a: str, player_b: str, games: int, mode: str, seed: int, rules_name: str,
          artifacts_dir: Path | None, threads: int | None, hist_path: Path | None, as_json: bool) -> None:
    """PLAYER_A against PLAYER_B: scores, win / draw / loss with intervals, paired difference, set wins."""
    from pipeline.yahtzee_lab.match import play
    from pipeline.yahtzee_lab.stats import pair, summary

    result = _played(games, lambda advance: play(player_a, player_b, games, seed=seed, mode=mode, rules=rules_name,
                                                 artifacts_dir=artifacts_dir, threads=threads, progress=advance))
    sa = summary(result.scores[:, 0], result.upper_bonus[:, 0])
    sb = summary(result.scores[:, 1], result.upper_bonus[:, 1])
    p = pair(result.scores, mode)
    if hist_path is not None:
        from pipeline.yahtzee_lab.plots import histogram

        histogram(hist_path, {player_a: result.scores[:, 0], player_b: result.scores[:, 1]},
                  f"{player_a} vs {player_b} ({mode}, {counted(games, 'game', spec=',')})")
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
