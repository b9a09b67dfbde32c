"""`dicetables yahtzee ...`: advice and values from the Yahtzee tables."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from lookup.yahtzee.rules import DEFAULT_RULES, RULE_SETS
from pipeline import cli_options as opt


def _read_sheet(path: Path | None) -> Any:
    from lookup.store import read_json

    return {} if path is None else read_json(path, "sheet file not found")  # {}: every box open


sheet_option = click.option(
    "--sheet", "sheet_path", type=click.Path(dir_okay=False, path_type=Path), default=None,
    help="JSON score sheet: {box name: points or null, ...} or a list in sheet order, one entry per box of "
         "the rule set (default: empty).")


@click.group(name="yahtzee")
def cli() -> None:
    """Optimal Yahtzee play from the precomputed tables, and the strategy lab."""


@cli.command()
@click.argument("dice", nargs=-1, type=int, required=True)
@click.option("--rerolls", type=int, default=2, show_default=True, help="Rerolls left (2, 1 or 0).")
@sheet_option
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many ranked options to show.")
@click.option("--goal", type=int, default=None,
              help="Play to win: maximise P(final score >= GOAL) instead of the expected score.")
@click.option("--beat", type=int, default=None,
              help="Play to win: maximise P(beating an opponent whose final score is BEAT), ties half.")
def decide(dice: tuple[int, ...], rerolls: int, sheet_path: Path | None, rules_name: str,
           artifacts_dir: Path | None, top: int, goal: int | None, beat: int | None) -> None:
    """Advice for DICE (the five faces) with --rerolls left on --sheet, and the ranked options."""
    from lookup.yahtzee.play import decide as decide_
    from lookup.yahtzee.play import explain

    sheet = _read_sheet(sheet_path)
    if goal is not None or beat is not None:
        decision = decide_(list(dice), rerolls, sheet, rules_name, goal=goal, beat=beat, artifacts_dir=artifacts_dir)
        click.echo(f"{rules_name}: {decision} ({decision.needed} points still needed)")
        options = explain(list(dice), rerolls, sheet, rules_name, goal=goal, beat=beat, artifacts_dir=artifacts_dir)
        click.echo(f"{'rank':>4}  {'option':<28} {'probability':>12} {'regret':>10}")
        for rank, option in enumerate(options[:top], start=1):
            click.echo(f"{rank:>4}  {option.action:<28} {option.probability:>12.6f} {option.regret:>10.6f}")
        return
    decision = decide_(list(dice), rerolls, sheet, rules_name, artifacts_dir=artifacts_dir)
    click.echo(f"{rules_name}: {decision}")
    if decision.reroll is not None:
        marks = " ".join(f"{d}{'*' if r else ''}" for d, r in zip(decision.dice, decision.reroll, strict=True))
        click.echo(f"dice (* = reroll): {marks}")
    options = explain(list(dice), rerolls, sheet, rules_name, artifacts_dir=artifacts_dir)
    click.echo(f"{'rank':>4}  {'option':<28} {'expected final':>14} {'regret':>9}")
    for rank, option in enumerate(options[:top], start=1):
        click.echo(f"{rank:>4}  {option.action:<28} {option.expected_final:>14.4f} {option.regret:>9.4f}")
    if len(options) > top:
        click.echo(f"      ... {len(options) - top} more (--top)")


@cli.command()
@sheet_option
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
def value(sheet_path: Path | None, rules_name: str, artifacts_dir: Path | None) -> None:
    """Expected final score under optimal play from the next turn on --sheet."""
    from lookup.yahtzee.play import value as value_

    click.echo(f"{value_(_read_sheet(sheet_path), rules_name, artifacts_dir=artifacts_dir):.7f}")


@cli.command("towin-build")
@opt.params_option
@opt.artifacts_option
@click.option("--scheduler", default=None, help="Address of a running Dask scheduler (tcp://host:8786); "
              "default: params yahtzee.towin_cluster.scheduler, else a LocalCluster.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes of the LocalCluster (default: yahtzee.towin_cluster.workers).")
@click.option("--force", is_flag=True, help="Rebuild even when an artifact with the same fingerprint exists.")
def towin_build(params_path: Path | None, artifacts_dir: Path | None, scheduler: str | None, workers: int | None,
                force: bool) -> None:
    """Build the play-to-win tables of yahtzee.towin.rule_sets as Dask tasks (docs/yahtzee.md)."""
    from pipeline.family import DEFAULT_PARAMS, build_family, load_params
    from pipeline.yahtzee.towin_build import SCHEDULER_ENV, families

    params = load_params(params_path or DEFAULT_PARAMS)
    section = dict(opt.params_section(params_path, "yahtzee"))
    cluster = dict(section.get("towin_cluster") or {})
    if scheduler:
        cluster["scheduler"] = scheduler
        os.environ[SCHEDULER_ENV] = scheduler  # the one setting that wins over params
    if workers:
        cluster["workers"] = workers
    section["towin_cluster"] = cluster
    params = {**params, "yahtzee": section}
    for family in families(section):
        build_family(family, params, opt.artifacts_root(artifacts_dir), force=force)


cli.add_command(opt.report_command(
    "yahtzee-towin", "pipeline.yahtzee.towin_report",
    "Write the play-to-win report: P(final >= t) of the goal policy against the expected-score policy, exact.",
    section="yahtzee"), "towin-report")
