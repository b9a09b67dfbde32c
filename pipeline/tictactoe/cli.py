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
    """The square to play on BOARD: 9 characters from X, O and '.', row by row from the top left
    (e.g. X.O......). Squares are named as a player names them: 1..9 row by row from the top left, or
    row and column 1..3; the board is drawn with the numbers of the empty squares."""
    from lookup.tictactoe import GAME, best_moves, parse_board, value

    root = opt.artifacts_root(artifacts_dir)
    state = parse_board(board)
    moves = best_moves(board, model, artifacts_dir=root)
    v = value(board, model, artifacts_dir=root)
    side = "XO"[GAME.to_move(state)]
    if as_json:
        opt.echo_json({"board": board, "model": model, "to_move": side, "move": moves[0], "best_moves": list(moves),
                       "square": moves[0] + 1, "row": moves[0] // 3 + 1, "column": moves[0] % 3 + 1,
                       "best_squares": [m + 1 for m in moves], "value": v})
        return
    for r in range(3):
        click.echo(" " + " | ".join(".XO"[state[3 * r + c]] if state[3 * r + c] else str(3 * r + c + 1)
                                    for c in range(3)))
        if r < 2:
            click.echo("---+---+---")
    m = moves[0]
    others = f"; equally good: {', '.join(str(x + 1) for x in moves[1:])}" if len(moves) > 1 else ""
    click.echo(f"{side} to move: play square {m + 1} (row {m // 3 + 1}, column {m % 3 + 1}){others}")
    click.echo(f"value {v:+.6f} for {side} (+1 win, -1 loss; "
               f"{'perfect play' if model is None else 'best response to ' + model})")


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
