"""`dicetables yahtzee ...`: advice and values from the Yahtzee tables."""

from __future__ import annotations

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


@cli.command()
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
@click.option("--at-least", "thresholds", type=int, multiple=True,
              help="Also print P(final score >= T) for this T (points; repeatable).")
@opt.json_option
def distribution(rules_name: str, artifacts_dir: Path | None, thresholds: tuple[int, ...], as_json: bool) -> None:
    """The exact law of the final score under optimal play: mean, sd, quantiles, P(score >= t), P(bonus)."""
    import json

    from lookup.yahtzee.score_law import distribution as distribution_

    law = distribution_(rules_name, artifacts_dir=artifacts_dir)
    s = law.stats
    extra = {str(t): law.p_at_least(t) for t in thresholds}
    if as_json:
        click.echo(json.dumps({"rules": rules_name, **s, "p_at_least": {**s["p_at_least"], **extra}}, indent=2))
        return
    q1, med, q3 = law.quartiles
    click.echo(f"{rules_name}: final score under optimal play (exact, {s['min_score']}..{s['max_score']} points)")
    click.echo(f"mean {law.mean:.7f}  sd {law.std:.7f}  median {med}  quartiles {q1} / {q3}")
    click.echo("percentiles  " + "  ".join(f"{p}%: {v}" for p, v in s["percentiles"].items()))
    click.echo(f"P(upper bonus) {law.p_upper_bonus:.7f}")
    for t, p in {**s["p_at_least"], **extra}.items():
        click.echo(f"P(score >= {t}) = {p:.10f}")
