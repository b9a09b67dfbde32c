"""`dicetables tictactoe ...`: the move and value of a board (perfect play or best response to a model),
exact match-ups, the report."""

from __future__ import annotations

from pathlib import Path

import click

from pipeline import cli_options as opt


@click.group(name="tictactoe")
def cli() -> None:
    """Tic-tac-toe: best moves against opponent models, exact match-ups, the report."""


@cli.command()
@click.argument("board")
@click.option("--model", default=None, help="Opponent model to best respond to (default: perfect play).")
@opt.artifacts_option
@opt.json_option
def decide(board: str, model: str | None, artifacts_dir: Path | None, as_json: bool) -> None:
    """The cell (0..8, row by row) to play on BOARD (9 characters from X, O, '.', e.g. X.O......)."""
    from lookup.tictactoe import best_moves, value

    root = opt.artifacts_root(artifacts_dir)
    moves = best_moves(board, model, artifacts_dir=root)
    v = value(board, model, artifacts_dir=root)
    if as_json:
        opt.echo_json({"board": board, "model": model, "move": moves[0], "best_moves": list(moves), "value": v})
        return
    click.echo(f"play {moves[0]} (row {moves[0] // 3}, column {moves[0] % 3}); best moves {moves}; "
               f"value {v:+.6f} for the player to move "
               f"({'perfect play' if model is None else 'best response to ' + model})")


@cli.command()
@click.argument("player")
@click.argument("model")
@opt.json_option
def match(player: str, model: str, as_json: bool) -> None:
    """Exact win / draw / loss of PLAYER (perfect, predictive, predictive-random, realistic, bayesian)
    against MODEL, moving first and second."""
    from lookup.opponents import get_model
    from pipeline.tictactoe.matchups import PLAYERS, matchups

    if player not in PLAYERS:
        raise ValueError(f"unknown player {player!r}; known: {', '.join(PLAYERS)}")
    get_model(model)
    models = [model, *[m for m in ("random", "first", "last", "greedy", "perfect") if m != model]]
    rows = [e for e in matchups(models, (player,)) if e["model"] == model]
    if as_json:
        opt.echo_json(rows)
        return
    for e in rows:
        click.echo(f"{player} vs {model}, moving {e['seat']}: win {e['win']} ({e['win_f']:.2%}) draw {e['draw']} "
                   f"({e['draw_f']:.2%}) loss {e['loss']} ({e['loss_f']:.2%})")
