"""`dicetables dicerace ...`: the dice race's tables in the terminal, decisions, match-ups, the report."""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np

from lookup.words import counted
from pipeline import cli_options as opt

dice_option = click.option("--dice", type=int, default=10, show_default=True, help="Most dice a turn may roll (D).")
target_option = click.option("--target", type=int, default=100, show_default=True, help="Points to reach (N).")
mode_option = click.option("--mode", type=click.Choice(["sequential", "simultaneous"]), default="sequential",
                           show_default=True, help="Game variant.")
POLICY_NAMES = ("optimal", "blind", "random", "oneshot")
POLICY_FILE_LIMIT = 64 << 20  # bytes of a .npy policy: (N, N, D) float64 for N = 1000, D = 8 fits


@click.group(name="dicerace")
def cli() -> None:
    """The dice race: optimal dice counts, values, exact match-ups, the report."""



@cli.command()
@dice_option
@target_option
@click.option("--step", type=click.IntRange(min=1), default=None,
              help="Score step of the printed d* map (default: N/10).")
@opt.artifacts_option
@opt.json_option
def show(dice: int, target: int, step: int | None, artifacts_dir: Path | None, as_json: bool) -> None:
    """A readable summary of one game: values, the optimal-dice map, mixed states, exact match-ups."""
    from lookup.dicerace.tables import MIXED, NO_SADDLE, NOT_UNIQUE, grid_key, sequential_table, simultaneous_table
    from pipeline.dicerace.report import matchup_entries, read_matchups
    from pipeline.dicerace.sequential import lowest_bit

    root = opt.artifacts_root(artifacts_dir)
    seq = sequential_table(dice, target, artifacts_dir=root)
    sim = simultaneous_table(dice, target, artifacts_dir=root)
    flags = np.asarray(sim.flags)
    counts = {name: int(np.count_nonzero(flags & bit))
              for name, bit in (("mixed", MIXED), ("not_unique", NOT_UNIQUE), ("no_saddle", NO_SADDLE))}
    step = step or max(1, target // 10)
    scores = list(range(0, target, step))
    meta, arrays = read_matchups(root)
    if as_json:
        # The tables' own names (SequentialTable, SimultaneousTable and its flags, the match-ups' Outcome): the
        # values at the start, every optimal d on the printed grid, the flags counted, the report's match-ups.
        optimal = [[[d + 1 for d in range(dice) if int(seq.optimal[i, j]) >> d & 1] for j in scores] for i in scores]
        opt.echo_json({"dice": dice, "target": target,
                       "sequential": {"value": float(seq.value[0, 0]), "win": float(seq.win[0, 0]),
                                      "lose": float(seq.lose[0, 0]), "scores": scores, "optimal": optimal},
                       "simultaneous": {"value": float(sim.value[0, 0]), "states": target * target, "flags": counts},
                       "matchups": matchup_entries(meta, arrays, None, dice, target, 0, 0)})
        return
    from rich.console import Console
    from rich.table import Table

    con = Console()
    con.print(f"[bold]Dice race, D={dice} dice at most, target N={target}[/]")
    con.print(f"sequential: EG(0, 0) = {seq.value[0, 0]:+.9f} for the first player "
              f"(wins with probability {seq.win[0, 0]:.9f})")
    con.print(f"simultaneous: EG1(0, 0) = {sim.value[0, 0]:+.9f}; states without a pure saddle point "
              f"{counts['no_saddle']}, mixed optimal strategies {counts['mixed']}, non-unique "
              f"{counts['not_unique']} of {target * target}")
    best = lowest_bit(np.asarray(seq.optimal))
    table = Table(title="sequential d*(my score, other's score) (smallest optimal d; * = tied)")
    table.add_column("my \\ other", justify="right")
    for j in scores:
        table.add_column(str(j), justify="right")
    for i in scores:
        cells = [f"{best[i, j]}{'*' if bin(int(seq.optimal[i, j])).count('1') > 1 else ''}" for j in scores]
        table.add_row(str(i), *cells)
    con.print(table)
    key = grid_key(dice, target)
    for mode, names in (("sequential", meta["stats"]["sequential_policies"]),
                        ("simultaneous", meta["stats"]["simultaneous_policies"])):
        data = arrays[f"{key}_{mode}"]
        # The sequential race has no draws: its cells are P(A wins) with A first | with B first.
        out = Table(title="exact match-ups, sequential: P(A wins), A first | B first"
                    if mode == "sequential" else
                    "exact match-ups, simultaneous: P(A wins) / P(draw) / P(A loses)")
        out.add_column("A \\ B")
        for name in names:
            out.add_column(name, justify="right")
        for a, name_a in enumerate(names):
            if mode == "sequential":
                row = [f"{data[a, b, 0, 0]:.4f} | {data[a, b, 1, 0]:.4f}" for b in range(len(names))]
            else:
                row = [" / ".join(f"{x:.4f}" for x in data[a, b]) for b in range(len(names))]
            out.add_row(name_a, *row)
        con.print(out)


@cli.command()
@click.argument("my_score", type=int)
@click.argument("other_score", type=int)
@dice_option
@target_option
@mode_option
@opt.seed_option(None, "Seed for sampling a mixed strategy.")
@opt.artifacts_option
@opt.json_option
def decide(my_score: int, other_score: int, dice: int, target: int, mode: str, seed: int | None,
           artifacts_dir: Path | None, as_json: bool) -> None:
    """How many dice to roll at MY_SCORE against OTHER_SCORE, and what each choice is worth."""
    from lookup.dicerace import decide as decide_
    from lookup.dicerace import explain

    root = opt.artifacts_root(artifacts_dir)
    d = decide_(my_score, other_score, dice=dice, target=target, mode=mode, rng=seed, artifacts_dir=root)
    info = explain(my_score, other_score, dice=dice, target=target, mode=mode, artifacts_dir=root)
    if as_json:
        opt.echo_json({"mode": mode, "dice": dice, "target": target, "my_score": my_score,
                       "other_score": other_score, "dice_to_roll": d, "value": info.value,
                       "strategy": {str(k): p for k, p in info.strategy.items()}, "optimal": list(info.optimal),
                       "option_values": {str(k): v for k, v in info.option_values.items()},
                       "mixed": info.mixed, "unique": info.unique, "saddle_point": info.saddle_point})
        return
    click.echo(f"{mode}, D={dice}, N={target}, scores {my_score} vs {other_score}: roll {counted(d, 'die')} "
               f"(value {info.value:+.9f})")
    click.echo("optimal strategy: " + ", ".join(f"d={k}: {p:.6f}" for k, p in info.strategy.items()))
    if mode == "simultaneous":
        click.echo(f"mixed: {info.mixed}, unique: {info.unique}, pure saddle point: {info.saddle_point}")
    against = "then optimal play" if mode == "sequential" else "against the opponent's optimal strategy"
    click.echo(f"expected gain of each d ({against}):")
    for k, v in info.option_values.items():
        mark = " <- optimal" if k in info.optimal else ""
        click.echo(f"  d={k:>2}: {v:+.9f}{mark}")


def _policy(spec: str, dice: int, target: int, mode: str, root: Path):
    """A named policy (optimal, blind, random, oneshot) or a user table from a .npy file."""
    from pipeline.dicerace import policies
    from pipeline.dicerace.report import game_policies

    if spec in POLICY_NAMES:
        if spec in ("blind", "random"):
            return policies.blind(dice) if spec == "blind" else policies.uniform(dice)
        found = game_policies(root, dice, target)[mode]
        if spec not in found:
            raise click.BadParameter(f"policy {spec!r} is not defined for the {mode} game")
        return found[spec]
    import io

    from lookup.files import read_regular

    path = Path(spec)
    if path.suffix != ".npy":
        raise click.BadParameter(f"{spec!r}: expected one of {', '.join(POLICY_NAMES)} or a .npy table")
    try:  # a regular file of bounded size (a FIFO or /dev/zero is refused without blocking), no pickles
        data = read_regular(path, POLICY_FILE_LIMIT, follow_symlinks=True)
        table = np.load(io.BytesIO(data), allow_pickle=False)
    except FileNotFoundError:
        raise click.BadParameter(f"{spec!r}: no such file") from None
    except OSError as exc:
        raise click.BadParameter(f"{spec!r}: cannot be read ({exc.strerror or exc})") from None
    return policies.from_table(table, dice, target, name=path.stem)


@cli.command()
@click.argument("policy_a")
@click.argument("policy_b")
@dice_option
@target_option
@mode_option
@click.option("--simulate", "games", type=click.IntRange(0, opt.MAX_GAMES), default=0,
              help="Also simulate this many games (seeded).")
@opt.seed_option(1, "Seed of the simulation.")
@opt.artifacts_option
def match(policy_a: str, policy_b: str, dice: int, target: int, mode: str, games: int, seed: int,
          artifacts_dir: Path | None) -> None:
    """Exact outcome of POLICY_A against POLICY_B (optimal, blind, random, oneshot, or a .npy table of
    shape (N, N) dice counts, (N, N, D) probabilities or (D,) probabilities)."""
    from pipeline.dicerace.matchups import match as match_
    from pipeline.dicerace.simulate import simulate

    root = opt.artifacts_root(artifacts_dir)
    a = _policy(policy_a, dice, target, mode, root)
    b = _policy(policy_b, dice, target, mode, root)
    for key, o in match_(a, b, target, mode).items():
        line = f"{key:>12}: A wins {o.win:.9f}, draw {o.draw:.9f}, A loses {o.loss:.9f} (gain {o.gain:+.9f})"
        if games:
            sim = simulate(a, b, target, mode, games, seed, a_first=key != "b_first")
            got, se = sim.outcome, sim.standard_errors()
            line += f"\n{'simulated':>12}: A wins {got.win:.6f} +- {se.win:.6f} over {counted(games, 'game')}"
        click.echo(line)
