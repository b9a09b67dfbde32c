"""The commands every game gets from the protocol (``lookup.protocol``, ``lookup.games``), written once:

    dicetables GAME setups                      what the built tables answer (setups)
    dicetables GAME advise [--setup K=V] [--position JSON | --record FILE]   every option's value, the advice
    dicetables GAME review FILE [--seat N]      each decision's cost and each event's luck, in the game's unit
    dicetables GAME play [--seat N] [--enter]   a whole game in the terminal with advice and a coach
    dicetables GAME simulate --player P ...     seeded games between the tables and opponent models
    dicetables GAME map [--position JSON | --record FILE] [--plot PNG]   the strategy over two coordinates

``pipeline/cli.py`` adds them to the group of every game registered in ``lookup`` (a command the game defines
itself under the same name is kept instead). Every one takes ``--json`` where it answers, with the library's
objects as JSON (``docs/cli.md``): the same JSON as the web page.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from lookup.words import counted
from pipeline.cli_options import artifacts_option, artifacts_root, echo_json, json_option, output_file, seed_option

SETUP_HELP = "A setup option KEY=VALUE (repeatable; VALUE read as JSON when it is JSON, else as text)."


def parse_setup(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``("target=100", "rules=hasbro")`` as {"target": 100, "rules": "hasbro"}; ValueError for a pair without =."""
    out: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key:
            raise ValueError(f"--setup {pair!r}: expected KEY=VALUE")
        try:
            out[key] = json.loads(text)
        except ValueError:
            out[key] = text
    return out


def _json_arg(text: str, what: str) -> Any:
    from lookup.files import parse_json_bounded

    return parse_json_bounded(text.encode(), what, 16)


def _advisor(game: str, setup: tuple[str, ...], artifacts_dir: Path | None, record: Any = None) -> Any:
    from lookup.games import open_setup

    given = parse_setup(setup)
    if record is not None:
        given = {**record.setup, **given}
    return open_setup(game, given, artifacts_root(artifacts_dir))


def _read_record(path: str) -> Any:
    from lookup.records import load_record, parse_record_text

    return parse_record_text(sys.stdin.buffer.read(), "standard input") if path == "-" else load_record(path)


def _print_advice(data: dict[str, Any], digits: int) -> None:
    click.echo(data["text"])
    if data["over"]:
        click.echo("the game is over: returns " + ", ".join(f"{r:g}" for r in data["returns"]))
        return
    if data["to_move"] < 0:
        click.echo("chance:")
        for n, o in enumerate(data["options"], start=1):
            click.echo(f" {n:>2}. {o['text']:<32} p = {o['exact']}")
        return
    click.echo(f"player {data['to_move'] + 1} to move; value of each option ({data['unit']}, * = best):")
    for n, o in enumerate(data["options"], start=1):
        mark = "*" if o["best"] else " "
        cost = "" if o["best"] or o["cost"] is None else f"   (costs {o['cost']:.{digits}f})"
        value = "not valued" if o["value"] is None else f"{o['value']:.{digits}f}"  # (a forced move, dominoes' draw)
        click.echo(f" {n:>2}.{mark} {o['text']:<32} {value}{cost}")
    click.echo(f"advice: {next(o['text'] for o in data['options'] if o['action'] == data['advice'])}")


def protocol_commands(game: str) -> list[click.Command]:
    """The commands above for ``game`` (a registered ``lookup`` game)."""
    setup_option = click.option("--setup", "setup", multiple=True, metavar="KEY=VALUE", help=SETUP_HELP)

    @click.command("setups")
    @json_option
    @artifacts_option
    def setups(as_json: bool, artifacts_dir: Path | None) -> None:
        """The setups of this game the built tables answer, and every setup option."""
        from lookup.games import get_spec

        spec = get_spec(game)
        found = spec.setups(artifacts_root(artifacts_dir))
        if as_json:
            echo_json({"game": game, "setups": found,
                       "options": {k: {"default": o.default, "help": o.help, "choices": list(o.choices)}
                                   for k, o in spec.options.items()}})
            return
        click.echo(f"{spec.title}: {spec.summary}")
        for key, o in spec.options.items():
            click.echo(f"  option {key} (default {json.dumps(o.default)}): {o.help}")
        click.echo("built here:" if found else "nothing built here")
        for s in found:
            click.echo("  " + " ".join(f"{k}={json.dumps(v)}" for k, v in s.items()))

    position_option = click.option("--position", help="A position as JSON (the game's form: docs/GAME.md); default: "
                                                      "the start.")
    record_option = click.option("--record", "record_path", help="A game record (FILE, or - for standard input): the "
                                                                 "position at its end.")

    def _position(setup: tuple[str, ...], position: str | None, record_path: str | None,
                  artifacts_dir: Path | None) -> tuple[Any, Any]:
        """The advisor and the position of --position or --record (the start without either)."""
        from lookup.records import replay, start_state

        if position is not None and record_path is not None:
            raise ValueError("give --position or --record, not both")
        record = _read_record(record_path) if record_path else None
        advisor = _advisor(game, setup, artifacts_dir, record)
        if record is not None:
            return advisor, replay(advisor.game, record.events, record.start)[1]
        return advisor, start_state(advisor.game, None if position is None else _json_arg(position, "--position"))

    @click.command("advise")
    @setup_option
    @position_option
    @record_option
    @json_option
    @artifacts_option
    def advise(setup: tuple[str, ...], position: str | None, record_path: str | None, as_json: bool,
               artifacts_dir: Path | None) -> None:
        """Every option at a position with its value in the game's unit, and the tables' advice."""
        from lookup.advice import advice

        advisor, state = _position(setup, position, record_path, artifacts_dir)
        data = advice(advisor, state)
        echo_json(data) if as_json else _print_advice(data, advisor.game.unit.digits)

    @click.command("review")
    @click.argument("path")
    @click.option("--seat", type=click.IntRange(0, 8), default=None,
                  help="The seat whose decisions are judged (0 = the first player; default: the record's, else 0).")
    @json_option
    @artifacts_option
    def review(path: str, seat: int | None, as_json: bool, artifacts_dir: Path | None) -> None:
        """Review a game record (PATH, or - for standard input): each decision's cost, each event's luck."""
        from lookup.review import review as review_record

        record = _read_record(path)
        advisor = _advisor(game, (), artifacts_dir, record)
        result = review_record(advisor, record, seat)
        if as_json:
            echo_json(result.as_dict())
        else:
            click.echo("\n".join(result.summary(advisor.game.unit.digits)))

    @click.command("play")
    @setup_option
    @click.option("--seat", type=click.IntRange(0, 8), default=None,
                  help="Your seat (0 = the first player; default: the setup's you where it has one, else 0).")
    @click.option("--opponent", default=None,
                  help="Who plays the other seats: table (the tables' play), an opponent model (random, ...) or none "
                       "(you type their moves, as seen at a real table). Default: table, or none where the tables do "
                       "not play them (a dominoes game seen from your seat).")
    @click.option("--enter", is_flag=True, help="Type what chance brings (dice rolled at a real table).")
    @click.option("--auto", is_flag=True, help="Follow the advice at your seat without asking (an optimal game).")
    @click.option("--position", help="Start from this position (JSON, the game's form) instead of the game's start.")
    @click.option("--record", "record_out", type=click.Path(dir_okay=False, path_type=Path),
                  help="Write the game record (JSON) there at the end.")
    @seed_option(None, "Seed of the dice and cards (default: unseeded).")
    @artifacts_option
    def play(setup: tuple[str, ...], seat: int | None, opponent: str | None, enter: bool, auto: bool,
             position: str | None, record_out: Path | None, seed: int | None, artifacts_dir: Path | None) -> None:
        """A whole game in the terminal: at your turn the options with their values, your choice's cost at
        once; at the end the review. Answer with an option's number or its JSON, Enter for the advice; q quits."""
        if seed is not None and enter:
            raise ValueError("--seed draws what chance brings, --enter has you type it: give one of the two")
        start = None if position is None else _json_arg(position, "--position")
        play_in_terminal(game, parse_setup(setup), seat, opponent, enter, record_out, seed, artifacts_dir,
                         auto=auto, start=start)

    @click.command("simulate")
    @setup_option
    @click.option("--player", "players", multiple=True,
                  help="Who plays each seat, in order: table or an opponent model (default: table everywhere).")
    @click.option("--games", type=click.IntRange(1, 10**7), default=1000, show_default=True, help="Games to play.")
    @click.option("--swap", is_flag=True, help="Two seats: play every seed twice, the players exchanged.")
    @seed_option(0)
    @json_option
    @artifacts_option
    def simulate(setup: tuple[str, ...], players: tuple[str, ...], games: int, swap: bool, seed: int,
                 as_json: bool, artifacts_dir: Path | None) -> None:
        """Seeded games through the protocol; each player's mean return with its 95 % interval, beside the
        tables' exact value from the start."""
        from lookup.simulate import simulate as run

        advisor = _advisor(game, setup, artifacts_dir)
        names = players or ("table",) * advisor.game.seats
        result = run(advisor, names, games, seed, swap)
        start = advisor.game.initial_state()
        exact = [advisor.value(start, s) for s in range(advisor.game.seats)]
        if as_json:
            echo_json({**result.as_dict(), "exact_table_values": exact})
            return
        for i, name in enumerate(names):
            click.echo(f"{name:<10} mean {result.mean[i]:.4f} ± {result.half_width[i]:.4f} ({advisor.game.unit.name}"
                       f", {counted(result.games, 'game')})")
        click.echo("the tables against themselves, exactly: " + ", ".join(f"{v:.6f}" for v in exact if v is not None))

    @click.command("map")
    @setup_option
    @position_option
    @record_option
    @click.option("--plot", "plot_path", type=output_file, default=None, help="Also draw the map in this PNG file.")
    @json_option
    @artifacts_option
    def map_(setup: tuple[str, ...], position: str | None, record_path: str | None, plot_path: Path | None,
             as_json: bool, artifacts_dir: Path | None) -> None:
        """The tables' action and the mover's value over the two coordinates the game's declaration names (a game
        without one says so), the rest of the position held: at a decision (default: the first of a game)."""
        from lookup.games import game_map
        from lookup.maps import strategy_map
        from pipeline.strategy_maps import map_lines, plot_map

        spec = game_map(game)  # a game without one says so before any table is read
        advisor, state = _position(setup, position, record_path, artifacts_dir)
        g = advisor.game
        if position is None and record_path is None and g.to_move(state) < 0:  # the start is chance's: the first
            state = next((s for s in (g.apply(state, o) for o, _ in g.chance_outcomes(state))  # outcome that
                          if not g.is_terminal(s) and g.to_move(s) >= 0), state)  # leaves a decision
        found = strategy_map(advisor, state, spec)
        if plot_path is not None:
            plot_map(found, plot_path)
        echo_json(found.as_dict()) if as_json else click.echo("\n".join(map_lines(found)))

    return [setups, advise, review, play, simulate, map_]


def play_in_terminal(game: str, setup: dict[str, Any], seat: int | None, opponent: str | None, enter: bool,
                     record_out: Path | None, seed: int | None, artifacts_dir: Path | None, *, auto: bool = False,
                     start: Any = None,
                     ask: Callable[[str], str] = lambda text: click.prompt(text, default="", show_default=False,
                                                                           prompt_suffix=" ")) -> None:
    """The loop of ``dicetables GAME play`` (``ask`` reads an answer: a prompt in the terminal; input that ends
    before the game does stops it with exit status 1)."""
    from lookup.advice import advice
    from lookup.games import get_spec, open_setup
    from lookup.protocol import CHANCE
    from lookup.records import Step, record_of, start_state
    from lookup.review import review as review_record
    from lookup.simulate import draw, player

    advisor = open_setup(game, setup, artifacts_root(artifacts_dir))
    g = advisor.game
    full = get_spec(game).setup(setup)
    if seat is None:
        seat = full.get("you") or 0  # (a setup's "you": the seat it is played from)
    if not 0 <= seat < g.seats:
        raise ValueError(f"--seat {seat}: {g.name} has seats 0..{g.seats - 1}")
    if opponent is None:
        opponent = "table" if advisor.plays_others else "none"
    others = None if opponent == "none" else player(advisor, opponent)  # none: the other seats' moves typed
    if record_out is not None and (record_out.is_dir() or not record_out.parent.is_dir()):
        raise ValueError(f"--record {record_out}: not a file in an existing directory")  # said before the game
    rng = random.Random(seed)
    state, steps = start_state(g, start), []
    while not g.is_terminal(state):
        mover = g.to_move(state)
        if mover == CHANCE:
            action = _typed(g, state, ask) if enter else draw(g.chance_outcomes(state), rng)
            if action is None:
                break
        elif mover == seat:
            data = advice(advisor, state)
            _print_advice(data, g.unit.digits)
            action = advisor.decide(state) if auto else _typed(g, state, ask, advisor)
            if action is None:
                break
            cost = next(o["cost"] for o in data["options"] if o["action"] == g.action_json(state, action))
            click.echo("  not valued" if cost is None else "  optimal" if not cost else
                       f"  that cost {cost:.{g.unit.digits}f} ({g.unit.name})")
        else:
            action = _typed(g, state, ask) if others is None else others(state, rng)
            if action is None:
                break
        click.echo(f"{'chance' if mover == CHANCE else f'player {mover + 1}'}: {g.action_text(state, action)}")
        after = g.apply(state, action)
        steps.append(Step(len(steps) + 1, state, mover, action, after))
        state = after
        if record_out is not None:  # after every event: an interrupted game keeps its record
            _write_atomic(record_out, record_of(g, full, steps, start, seat).to_json())
    record = record_of(g, full, steps, start, seat)
    click.echo(g.state_text(state))
    click.echo("\n".join(review_record(advisor, record, seat).summary(g.unit.digits)))
    if record_out is not None:
        click.echo(f"game record: {record_out} (review it with `dicetables {game} review {record_out}`)")


def _write_atomic(path: Path, text: str) -> None:
    """``text`` into ``path`` through a temporary sibling renamed over it: never half a file."""
    import os
    import uuid

    tmp = path.with_name(f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}-{path.name}")
    try:
        tmp.write_text(text)
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def _typed(g: Any, state: Any, ask: Callable[[str], str], advisor: Any = None) -> Any:
    """An option typed by its number (1..) or its JSON, the advice for an empty answer (at a decision); None for
    q. Asks again after a bad answer."""
    options = g.options(state)
    while True:
        text = ask("your choice (number or JSON; Enter: the advice; q quits):" if advisor else
                   "what happened (number or JSON):").strip()
        if text in ("q", "quit"):
            return None
        if not text and advisor is not None:
            return advisor.decide(state)
        if text.isdigit() and 1 <= int(text) <= len(options):
            return options[int(text) - 1]
        try:
            data = json.loads(text)
        except ValueError:
            data = text  # a word: a box's name, "roll", ...
        try:
            return g.parse_action(state, data)
        except ValueError as exc:
            click.echo(f"  {exc}")
