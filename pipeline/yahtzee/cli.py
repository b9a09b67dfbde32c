"""`dicetables yahtzee ...`: advice and values from the Yahtzee tables, and a whole game with hints."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import click

from lookup.words import counted
from lookup.yahtzee.rules import DEFAULT_RULES, RULE_SETS, get_rules
from pipeline import cli_options as opt

SHEET_LIMIT = 1 << 20  # bytes of a --sheet file or of standard input (a sheet is a few hundred bytes)


def read_sheet(source: str | None, boxes: tuple[str, ...], rules: str, option: str = "--sheet") -> Any:
    """The score sheet of ``--sheet SOURCE`` (a JSON file, or ``-``: standard input) with the ``--box
    NAME=POINTS`` entries on top (a box given twice is refused). Empty when neither is given.

    The sheet is checked by the library when used (``Sheet.parse``); this only reads it, as a regular file
    (a FIFO or a device is refused without blocking) or standard input, of at most ``SHEET_LIMIT`` bytes and
    ``lookup.files.JSON_DEPTH_LIMIT`` levels of nesting. ValueError naming the source or the ``--box`` entry
    that cannot be read. ``option``: the option named in messages (``--opponent`` reads a sheet too).
    """
    from lookup.files import parse_json_bounded
    from lookup.store import read_json
    from lookup.yahtzee import Sheet

    if source is None:
        sheet: Any = {}
    elif source == "-":
        # At most SHEET_LIMIT bytes are read: `yes | dicetables yahtzee value --sheet -` ends at once.
        data = sys.stdin.buffer.read(SHEET_LIMIT + 1)
        if len(data) > SHEET_LIMIT:
            raise ValueError(f"{option} -: standard input holds more than {SHEET_LIMIT} bytes; refused "
                             "(a sheet is a few hundred bytes)")
        sheet = parse_json_bounded(data, f"{option} -: standard input")
    else:
        try:
            sheet = read_json(Path(source), "sheet file not found", limit=SHEET_LIMIT)
        except OSError as exc:  # no permission: named, not a traceback
            raise ValueError(f"{option} {source}: cannot be read ({exc.strerror})") from exc
        except ValueError as exc:  # missing, a directory or a FIFO (never read), too large, not JSON
            raise ValueError(f"{option} {source}: cannot be read ({str(exc).removeprefix(f'{source}: ')})") from exc
    if not boxes:
        return sheet
    if not isinstance(sheet, dict):  # a list in sheet order: name its boxes so --box can replace one
        sheet = {k: v for k, v in Sheet.parse(sheet, rules).to_dict().items() if v is not None}
    given: set[str] = set()
    for entry in boxes:
        name, sep, points = entry.partition("=")
        name = name.strip()
        if not sep or not name:
            raise ValueError(f"--box {entry!r}: expected NAME=POINTS, e.g. --box ones=3")
        if name in given:
            raise ValueError(f"--box {name} is given twice")
        given.add(name)
        try:
            sheet[name] = None if points.strip() in ("", "null") else int(points)
        except ValueError:
            raise ValueError(f"--box {entry!r}: points must be a whole number (or null: open)") from None
    return sheet


def sheet_options(command: Any) -> Any:
    """``--sheet SOURCE`` and ``--box NAME=POINTS`` (repeatable), read by ``read_sheet``."""
    command = click.option(
        "--box", "boxes", multiple=True, metavar="NAME=POINTS",
        help="A filled box, e.g. --box ones=3 --box chance=22 (repeatable; on top of --sheet; "
             "yahtzee_bonus=100 for bonuses earned).")(command)
    return click.option(
        "--sheet", "sheet_source", default=None, metavar="FILE|-",
        help="JSON score sheet, a file or - for standard input: {box name: points or null, ...} or a list "
             "in sheet order, one entry per box of the rule set (default: empty; examples/sheet.json).")(command)


@click.group(name="yahtzee")
def cli() -> None:
    """Optimal Yahtzee play from the precomputed tables, and the strategy lab."""


def _print_chances(rules_name: str, decision: Any, options: list[Any], top: int, as_json: bool,
                   fields: dict[str, Any], note: str = "") -> None:
    """A play-to-win decision and its ranked options (each with its probability and regret), as text or JSON
    (``fields`` added to the JSON object)."""
    if as_json:
        opt.echo_json({"rules": rules_name, **fields, "decision": str(decision),
                       "options": [{"action": o.action, "probability": o.probability, "regret": o.regret}
                                   for o in options]})
        return
    click.echo(f"{rules_name}: {decision}{note}")
    click.echo(f"{'rank':>4}  {'option':<28} {'probability':>12} {'regret':>10}")
    for rank, option in enumerate(options[:top], start=1):
        click.echo(f"{rank:>4}  {option.action:<28} {option.probability:>12.6f} {option.regret:>10.6f}")


def objective_options(command: Any) -> Any:
    """--goal, --beat, --opponent (repeatable) and --opponent-plays: what a play-to-win question aims at."""
    for option in reversed((
        click.option("--goal", type=int, default=None,
                     help="Play to win: P(final score >= GOAL) instead of the expected score."),
        click.option("--beat", type=int, default=None,
                     help="Play to win: P(beating an opponent whose final score is BEAT), ties half."),
        click.option("--opponent", "opponent_sources", multiple=True, metavar="FILE|-",
                     help="Play to win against another player whose sheet (JSON, as --sheet) is FILE; ties half. "
                          "Free order: one opponent who plays for expected score. Forced order "
                          "(scandinavian+forced): every player playing to win (--opponent-plays expected for the "
                          "other model); twice for three players, in turn order after you (those still to play "
                          "this box first)."),
        click.option("--opponent-plays", "opponent_model", type=click.Choice(["to-win", "expected"]), default=None,
                     help="How the --opponent plays: to-win (forced order only, the exact game of all players) or "
                          "expected (for expected score; one opponent). Default: to-win for forced order, else "
                          "expected."))):
        command = option(command)
    return command


def objective(rules_name: str, goal: int | None, beat: int | None, opponent_sources: tuple[str, ...],
              opponent_model: str | None) -> dict[str, Any]:
    """The library's keyword arguments for the objective options: ``goal`` / ``beat``, ``opponent`` (one sheet:
    an expected-score player) or ``opponents`` (sheets of players who all play to win); {} = expected score."""
    if opponent_model is not None and not opponent_sources:
        raise click.UsageError("--opponent-plays needs --opponent")
    aims = {"goal": goal, "beat": beat} if goal is not None or beat is not None else {}
    if not opponent_sources:
        return aims
    # With --goal or --beat too, the library refuses the mix (one message for every caller).
    forced = get_rules(rules_name).forced_order
    if opponent_model == "expected" or (opponent_model is None and not forced):
        if len(opponent_sources) != 1:
            raise click.UsageError("against an opponent who plays for expected score give one --opponent")
        return {**aims, "opponent": read_sheet(opponent_sources[0], (), rules_name, option="--opponent")}
    if not forced:
        raise click.UsageError("--opponent-plays to-win needs a forced-order rule set (scandinavian+forced): "
                               "free-order games of players who all play to win are not solved")
    return {**aims, "opponents": [read_sheet(source, (), rules_name, option="--opponent")
                                  for source in opponent_sources]}


def dice_faces(tokens: tuple[str, ...]) -> tuple[int, ...]:
    """The faces of DICE in the one notation of typed dice (``lookup.validate.dice_text``): one die per
    argument (1 3 3 5 6), or several digits together (13356), commas ignored (1,3,3,5,6)."""
    from lookup.validate import dice_text

    try:
        return dice_text(" ".join(tokens))
    except ValueError as exc:
        raise click.BadParameter(str(exc)) from None


@cli.command()
@click.argument("dice", nargs=-1, required=True, callback=lambda _ctx, _param, value: dice_faces(value))
@click.option("--rerolls", type=int, default=2, show_default=True, help="Rerolls left (2, 1 or 0).")
@sheet_options
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
@click.option("--top", type=click.IntRange(min=1), default=10, show_default=True,
              help="How many ranked options to show (text output; --json lists them all).")
@objective_options
@opt.json_option
def decide(dice: tuple[int, ...], rerolls: int, sheet_source: str | None, boxes: tuple[str, ...], rules_name: str,
           artifacts_dir: Path | None, top: int, goal: int | None, beat: int | None,
           opponent_sources: tuple[str, ...], opponent_model: str | None, as_json: bool) -> None:
    """Advice for DICE (the faces: five, six for Maxi Yatzy) with --rerolls left on the sheet, and the ranked
    options."""
    from lookup.yahtzee.play import decide as decide_
    from lookup.yahtzee.play import explain

    sheet = read_sheet(sheet_source, boxes, rules_name)
    aim = objective(rules_name, goal, beat, opponent_sources, opponent_model)
    if aim:
        decision = decide_(list(dice), rerolls, sheet, rules_name, **aim, artifacts_dir=artifacts_dir)
        options = explain(list(dice), rerolls, sheet, rules_name, **aim, artifacts_dir=artifacts_dir)
        if "opponents" in aim:
            _print_chances(rules_name, decision, options, top, as_json, {"seat": decision.seat})  # 0: first
        elif "opponent" in aim:
            _print_chances(rules_name, decision, options, top, as_json,
                           {"opponent_plays": "expected", "opponent_points": decision.target,
                            "behind": decision.needed},
                           f" (the opponent's lead: {counted(decision.needed, 'point', spec='+d')})")
        else:
            _print_chances(rules_name, decision, options, top, as_json,
                           {"goal": goal, "beat": beat, "needed": decision.needed},
                           f" ({counted(decision.needed, 'point')} still needed)")
        return
    decision = decide_(list(dice), rerolls, sheet, rules_name, artifacts_dir=artifacts_dir)
    options = explain(list(dice), rerolls, sheet, rules_name, artifacts_dir=artifacts_dir)
    if as_json:
        opt.echo_json({**decision.as_dict(), "options": [o.as_dict() for o in options]})
        return
    click.echo(f"{rules_name}: {decision}")
    if decision.reroll is not None:
        marks = " ".join(f"{d}{'*' if r else ''}" for d, r in zip(decision.dice, decision.reroll, strict=True))
        click.echo(f"dice (* = reroll): {marks}")
    click.echo(f"{'rank':>4}  {'option':<28} {'expected final':>14} {'regret':>9}")
    for rank, option in enumerate(options[:top], start=1):
        click.echo(f"{rank:>4}  {option.action:<28} {option.expected_final:>14.4f} {option.regret:>9.4f}")
    if len(options) > top:
        click.echo(f"      ... {len(options) - top} more (--top)")


@cli.command()
@sheet_options
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
@opt.json_option
def value(sheet_source: str | None, boxes: tuple[str, ...], rules_name: str, artifacts_dir: Path | None,
          as_json: bool) -> None:
    """Expected final score under optimal play from the next turn on the sheet."""
    from lookup.yahtzee import Sheet
    from lookup.yahtzee.play import value as value_

    sheet = read_sheet(sheet_source, boxes, rules_name)
    v = value_(sheet, rules_name, artifacts_dir=artifacts_dir)
    if as_json:
        parsed = Sheet.parse(sheet, rules_name)
        opt.echo_json({"rules": rules_name, "value": v, "total": parsed.total, "sheet": parsed.to_dict()})
        return
    click.echo(f"{v:.7f}")


@cli.command()
@sheet_options
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
@objective_options
@opt.json_option
def chance(sheet_source: str | None, boxes: tuple[str, ...], rules_name: str, artifacts_dir: Path | None,
           goal: int | None, beat: int | None, opponent_sources: tuple[str, ...], opponent_model: str | None,
           as_json: bool) -> None:
    """From the start of the next turn on the sheet: the best P(final >= --goal), P(beating --beat), or the
    chance of winning against --opponent (P(win) + P(tie) / 2; three players: the share, m tied winners 1/m)."""
    from lookup.yahtzee.play import chance as chance_

    sheet = read_sheet(sheet_source, boxes, rules_name)
    aim = objective(rules_name, goal, beat, opponent_sources, opponent_model)
    if not aim:
        raise click.UsageError("give --goal, --beat or --opponent")
    p = chance_(sheet, rules_name, **aim, artifacts_dir=artifacts_dir)
    if as_json:
        kind = next(k for k in ("opponents", "opponent", "goal", "beat") if aim.get(k) is not None)
        opt.echo_json({"rules": rules_name, "probability": p, "objective": kind})
        return
    click.echo(f"{p:.10f}")


@cli.command()
@opt.rules_option(RULE_SETS, DEFAULT_RULES)
@opt.artifacts_option
@click.option("--at-least", "thresholds", type=int, multiple=True,
              help="Also print P(final score >= T) for this T (points; repeatable).")
@opt.json_option
def distribution(rules_name: str, artifacts_dir: Path | None, thresholds: tuple[int, ...], as_json: bool) -> None:
    """The exact law of the final score under optimal play: mean, sd, quantiles, P(score >= t), P(bonus)."""
    from lookup.yahtzee.score_law import distribution as distribution_

    law = distribution_(rules_name, artifacts_dir=artifacts_dir)
    s = law.stats
    extra = {str(t): law.p_at_least(t) for t in thresholds}
    if as_json:
        opt.echo_json({**law.as_dict(), "p_at_least": {**s["p_at_least"], **extra}})
        return
    q1, med, q3 = law.quartiles
    click.echo(f"{rules_name}: final score under optimal play (exact, {s['min_score']}..{s['max_score']} points)")
    click.echo(f"mean {law.mean:.7f}  sd {law.sd:.7f}  median {med}  quartiles {q1} / {q3}")
    click.echo("percentiles  " + "  ".join(f"{p}%: {v}" for p, v in s["percentiles"].items()))
    click.echo(f"P(upper bonus) {law.p_upper_bonus:.7f}")
    for t, p in {**s["p_at_least"], **extra}.items():
        click.echo(f"P(score >= {t}) = {p:.10f}")


@cli.command("distribution-plot")
@click.argument("out", type=opt.output_file)
@click.option("--rules", "rule_sets", type=click.Choice(list(RULE_SETS)), multiple=True, required=True,
              help="A rule set whose law is drawn (repeatable).")
@opt.artifacts_option
def distribution_plot(out: Path, rule_sets: tuple[str, ...], artifacts_dir: Path | None) -> None:
    """Draw the exact laws of the final score of the rule sets (their yahtzee-RULES-distribution artifacts) into
    the PNG file OUT: P(score = x) and P(score >= t), in the Yahtzee report's style. For laws outside the
    report (Maxi Yatzy's, built only on request: yahtzee.law.rule_sets)."""
    from lookup.yahtzee.score_law import distribution as distribution_
    from pipeline.yahtzee.score_laws import plot_laws

    plot_laws(out, {name: distribution_(name, artifacts_dir=artifacts_dir) for name in rule_sets})
    click.echo(str(out))


@cli.command("dask-build")
@opt.params_option
@opt.artifacts_option
@click.option("--scheduler", default=None, help="Address of a running Dask scheduler (tcp://host:8786); "
              "default: params yahtzee.cluster.scheduler, else a LocalCluster.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Worker processes of the LocalCluster (default: yahtzee.cluster.workers).")
@click.option("--force", is_flag=True, help="Rebuild even when an artifact with the same fingerprint exists.")
def dask_build(params_path: Path | None, artifacts_dir: Path | None, scheduler: str | None, workers: int | None,
               force: bool) -> None:
    """Build the tables built as Dask tasks: play to win (yahtzee.towin.rule_sets) and the layered value tables
    (yahtzee.layered.rule_sets: Maxi Yatzy), on a LocalCluster or a scheduler (docs/yahtzee.md)."""
    from pipeline.family import DEFAULT_PARAMS, build_family, load_params
    from pipeline.yahtzee import layered_values, towin_build
    from pipeline.yahtzee.layered import SCHEDULER_ENV

    params = load_params(params_path or DEFAULT_PARAMS)
    section = dict(opt.params_section(params_path, "yahtzee"))
    cluster = dict(section.get("cluster") or {})
    if scheduler:
        cluster["scheduler"] = scheduler
        os.environ[SCHEDULER_ENV] = scheduler  # the one setting that wins over params
    if workers:
        cluster["workers"] = workers
    section["cluster"] = cluster
    params = {**params, "yahtzee": section}
    for family in towin_build.families(section) + layered_values.families(section):
        build_family(family, params, opt.artifacts_root(artifacts_dir), force=force)
