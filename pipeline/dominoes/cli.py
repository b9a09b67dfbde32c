"""`dicetables dominoes ...`: a player's move from what it has seen, seeded match-ups against a model,
the report."""

from __future__ import annotations

import click

from pipeline import cli_options as opt


@click.group(name="dominoes")
def cli() -> None:
    """Dominoes against opponent models: decisions with the opponent's hand hidden, match-ups, the report."""


_search_options = (
    click.option("--depth", type=int, default=3, show_default=True,
                 help="Placements searched after the move (decide: at most lookup.dominoes.MAX_DEPTH, 3)."),
    click.option("--samples", type=int, default=8, show_default=True,
                 help="Opponent hands consistent with the history drawn per model when there are too many to list."),
    click.option("--max-exact", type=int, default=200, show_default=True,
                 help="List (and weigh exactly) every consistent opponent hand when there are at most this many."),
    click.option("--endgame", type=int, default=2, show_default=True,
                 help="Search to the end of the game once the boneyard holds at most this many tiles (-1: never)."),
    click.option("--budget", type=int, default=0, show_default=True,
                 help="Deepen the search while it is expected to visit at most this many positions (0: fixed depth)."),
)


def _with_search_options(f):  # noqa: ANN001, ANN202 (a click decorator)
    for option in reversed(_search_options):
        f = option(f)
    return f


@cli.command()
@click.argument("history", nargs=-1)
@click.option("--hand", required=True, help="Your 7 dealt tiles, comma-separated (6-6,1-2,3-5,...).")
@click.option("--seat", type=int, required=True, help="Your seat: 0 opens, 1 second.")
@click.option("--player", default="realistic", show_default=True, help="predictive, realistic or bayesian.")
@click.option("--model", default=None, help="The model a predictive player assumes.")
@_with_search_options
@opt.seed_option(0)
@opt.json_option
def decide(history: tuple[str, ...], hand: str, seat: int, player: str, model: str | None, depth: int, samples: int,
           max_exact: int, endgame: int, budget: int, seed: int, as_json: bool) -> None:
    """The move to play after HISTORY (moves in turn order: 6-6 6-3R draw pass ...; your own draws as
    draw:2-4), with every legal move's value."""
    from lookup.dominoes import move_values

    values = move_values(hand.split(","), list(history), seat, player=player, model=model, depth=depth,
                         samples=samples, max_exact=max_exact, endgame=endgame, budget=budget,
                         seed=seed)
    best = max(v for _, v in values)
    move = next(m for m, v in values if v == best)
    if as_json:
        opt.echo_json({"hand": hand.split(","), "history": list(history), "seat": seat, "player": player,
                       "model": model, "move": move, "move_values": [{"move": m, "value": v} for m, v in values]})
        return
    click.echo(f"play {move}; " + ", ".join(f"{m} {v:+.4f}" for m, v in values)
               + " (expected result for you: +1 win, -1 loss)")


@cli.command()
@click.argument("player")
@click.argument("model")
@opt.games_option(10_000, "Games per seat (the same deals from both seats).")
@opt.seed_option(3)
@_with_search_options
@click.option("--rollouts", type=int, default=0, show_default=True, help="Play-outs per search leaf (0: estimate).")
@click.option("--models", default="random,first,last,strong,greedy", show_default=True,
              help="The models a realistic or Bayesian player starts from.")
@opt.json_option
def match(player: str, model: str, games: int, seed: int, depth: int, samples: int, max_exact: int, endgame: int,
          budget: int, rollouts: int, models: str, as_json: bool) -> None:
    """Play PLAYER (predictive, realistic, bayesian) against MODEL (random, first, last, strong, greedy):
    GAMES seeded games from each seat, with 95 % intervals."""
    import json
    import time

    from pipeline.dominoes.experiment import Settings, counts, play, wilson

    settings = Settings.from_params({"experiment": {
        "players": [player], "models": [m for m in models.split(",") if m], "games": games, "seed": seed,
        "depth": depth, "samples": samples, "max_exact": max_exact, "rollouts": rollouts,
        "endgame": endgame, "budget": budget}})
    if model not in settings.models:
        raise ValueError(f"model {model!r} must be one of --models ({', '.join(settings.models)})")
    rows = []
    start = time.perf_counter()
    for seat in (0, 1):
        w, d, lo = counts(play(settings, player, model, seat))
        rows.append({"seat": ("first", "second")[seat], "win": w, "draw": d, "loss": lo,
                     "win_ci95": wilson(w, games)})
    seconds = time.perf_counter() - start
    wins = sum(r["win"] for r in rows)
    pooled = {"seat": "both", "win": wins, "draw": sum(r["draw"] for r in rows),
              "loss": sum(r["loss"] for r in rows), "win_ci95": wilson(wins, 2 * games)}
    if as_json:
        click.echo(json.dumps({"player": player, "model": model, "settings": settings.to_dict(),
                               "rows": [*rows, pooled], "seconds": seconds}, indent=2))
        return
    for r in (*rows, pooled):
        n = games * (2 if r["seat"] == "both" else 1)
        lo_ci, hi_ci = r["win_ci95"]
        click.echo(f"{player} vs {model}, seat {r['seat']}: win {r['win']} ({r['win'] / n:.2%}, 95 % "
                   f"[{lo_ci:.2%}, {hi_ci:.2%}]) draw {r['draw']} loss {r['loss']}")
    click.echo(f"{2 * games} games in {seconds:.1f} s ({2 * games / seconds:.0f} games/s, compilation included "
               "on a first run)")
