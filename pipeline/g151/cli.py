"""`dicetables g151 ...`: optimal 151 play from the tables, exact roll law, exact strategy evaluation."""

from __future__ import annotations

from pathlib import Path

import click

from lookup.g151.game import DEFAULT_TARGET
from lookup.g151.rules import DEFAULT_RULES, RULE_SETS, UNIT
from pipeline import cli_options as opt

target_option = click.option("--target", type=int, default=DEFAULT_TARGET, show_default=True,
                             help="Points to reach exactly (a multiple of 50).")
other_option = click.option("--other", "other_banked", type=int, default=None,
                            help="Opponent's banked points (two-player policy); omit for solitaire.")


@click.group(name="g151")
def cli() -> None:
    """The game of 151: exact roll law, optimal policies, exact match-ups."""


@cli.command()
@click.argument("banked", type=int)
@click.argument("turn_total", type=int)
@other_option
@target_option
@opt.rules_option(RULE_SETS, DEFAULT_RULES, "Variant.")
@opt.artifacts_option
@opt.json_option
def decide(banked: int, turn_total: int, other_banked: int | None, target: int, rules_name: str,
           artifacts_dir: Path | None, as_json: bool) -> None:
    """Roll or bank with BANKED points and TURN_TOTAL points in the turn, and what each is worth."""
    from lookup.g151.play import action_values
    from lookup.g151.play import decide as decide_

    action = decide_(banked, turn_total, other_banked, target, rules_name, artifacts_dir=artifacts_dir)
    values = action_values(banked, turn_total, other_banked, target, rules_name, artifacts_dir=artifacts_dir)
    unit = "expected turns" if other_banked is None else "win probability"
    if as_json:
        opt.echo_json({**_state(banked, turn_total, other_banked, target, rules_name), "action": action,
                       "measure": unit, "action_values": values})
        return
    shown = ", ".join(f"{k} {v:.9f}" for k, v in values.items())
    click.echo(f"{rules_name}, target {target}: {action} ({unit}: {shown})")


@cli.command()
@click.argument("banked", type=int)
@click.argument("turn_total", type=int, default=0)
@other_option
@target_option
@opt.rules_option(RULE_SETS, DEFAULT_RULES, "Variant.")
@opt.artifacts_option
@opt.json_option
def value(banked: int, turn_total: int, other_banked: int | None, target: int, rules_name: str,
          artifacts_dir: Path | None, as_json: bool) -> None:
    """Expected turns (alone) or win probability (with --other) under optimal play."""
    from lookup.g151.play import value as value_

    v = value_(banked, turn_total, other_banked, target, rules_name, artifacts_dir=artifacts_dir)
    if as_json:
        opt.echo_json({**_state(banked, turn_total, other_banked, target, rules_name),
                       "measure": "expected turns" if other_banked is None else "win probability", "value": v})
        return
    click.echo(f"{v:.12f}")


def _state(banked: int, turn_total: int, other_banked: int | None, target: int, rules: str) -> dict[str, object]:
    """The state a --json answer is about (points; other_banked null: alone)."""
    return {"rules": rules, "target": target, "banked": banked, "turn_total": turn_total,
            "other_banked": other_banked}


@cli.command()
@opt.rules_option(RULE_SETS, DEFAULT_RULES, "Variant.")
@opt.json_option
def distribution(rules_name: str, as_json: bool) -> None:
    """Exact law of the points of one roll, with its mean and standard deviation."""
    from lookup.g151.rules import roll_distribution, roll_moments

    law = roll_distribution(rules_name)
    mean, var = roll_moments(rules_name)
    sd = float(var) ** 0.5
    if as_json:  # roll_distribution's {points: probability} and roll_moments' (mean, variance), exact
        opt.echo_json({"rules": rules_name, "distribution": {str(pts): opt.fraction_text(p) for pts, p in law.items()},
                       "mean": opt.fraction_text(mean), "variance": opt.fraction_text(var), "sd": sd})
        return
    for pts, p in law.items():
        click.echo(f"{pts:>4} points  {str(p):>7}  {float(p):.6f}")
    click.echo(f"mean {mean} = {float(mean):.6f} points; variance {var}; sd {sd:.6f} points")


@cli.command()
@click.argument("player")
@click.option("--against", default=None, help="Opponent strategy (two-player match-up); omit for solitaire.")
@target_option
@opt.rules_option(RULE_SETS, DEFAULT_RULES, "Variant.")
def evaluate(player: str, against: str | None, target: int, rules_name: str) -> None:
    """Exact expected turns of strategy PLAYER alone, or its match-up --against another.

    Strategies: unCoup, jusquauBout, auMoins<X>, bernoulli_<p>, optimal, optimalSolitaire.
    """
    from lookup.g151.rules import target_units
    from pipeline.g151.evaluate import matchup, solitaire_turns
    from pipeline.g151.strategies import strategy

    n = target_units(target)
    if against is None:
        ev = solitaire_turns(strategy(player).solitaire(n, rules_name), rules_name, n)
        click.echo(f"{player}, {rules_name}, target {target}: expected turns {ev.turns[0]:.9f}, "
                   f"expected scoring turns {ev.scoring_turns[0]:.9f}")
        return
    m = matchup(strategy(player).duel(n, rules_name), strategy(against).duel(n, rules_name), rules_name, n)
    for i, first in enumerate((player, against)):
        click.echo(f"{player} vs {against}, {first} first: P({player} wins) = {m.p1_wins[i]:.9f}, "
                   f"P({against} wins) = {m.p2_wins[i]:.9f}; mean final scores {m.p1_final[i]:.3f} / "
                   f"{m.p2_final[i]:.3f}")


@cli.command()
@click.argument("player")
@click.option("--against", default=None, help="Opponent strategy; omit for solitaire.")
@opt.games_option()
@opt.seed_option()
@target_option
@opt.rules_option(RULE_SETS, DEFAULT_RULES, "Variant.")
def simulate(player: str, against: str | None, games: int, seed: int, target: int, rules_name: str) -> None:
    """Seeded simulation of PLAYER (alone or --against), beside the exact value."""
    from pipeline.g151.report import simulation_checks

    for row in simulation_checks(rules_name, target // UNIT, player, against, games, seed):
        click.echo(f"{row['quantity']}: exact {row['exact']:.6f}, simulated {row['simulated']:.6f} "
                   f"+- {row['se']:.6f} (z = {row['z']:+.2f})")
