"""The Farkle report: for every built size, the first player's chance when both play to win (certified bounds
beside it) and a seeded simulation through the protocol (``lookup.simulate``: the tables against themselves, and
against a player who chooses uniformly at random); the turn-start chances as a figure; and the solitaire numbers,
the expected points of a turn from each turn total and dice to roll, with the turn total from which to bank."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.farkle.rules import DEFAULT_RULES, FACES, get_rules
from lookup.farkle.tables import built_sizes, load_points, load_table
from lookup.games import open_setup
from lookup.simulate import simulate
from pipeline.reports import publish_report, pyplot, save_figure, write_json

STAT_KEYS = ("states", "first_player_wins", "first_player_low", "first_player_high", "error_bound", "sweeps",
             "certification_sweeps")


def bank_from(E: np.ndarray, unit: int, min_bank: int) -> list[int]:
    """For n = 1 .. dice: the smallest turn total from which banking is best at every total (the table ends where
    banking is best with any dice: its length, when rolling n dice still pays at its last row)."""
    out = []
    t = np.arange(len(E)) * unit
    for n in range(1, E.shape[1]):
        rolls = (E[:, n] > t) | (t < min_bank)
        out.append(int(np.flatnonzero(rolls)[-1] + 1) * unit)
    return out


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Reads the verified tables; writes summary.json, report.md and the figures into ``out_dir`` at once."""
    settings = section.get("report") or {}
    games, seed = int(settings.get("simulation_games", 200)), int(settings.get("seed", 1))
    rules = get_rules(DEFAULT_RULES)
    sizes = built_sizes(rules, artifacts_dir)
    results = []
    for size in sizes:
        table = load_table(rules, size, artifacts_dir)
        setup = {"target": size.target, "floor": size.floor, "dice": size.dice}
        advisor = open_setup("farkle", setup, artifacts_dir)
        optimal = simulate(advisor, ["table", "table"], games, seed)
        random = simulate(advisor, ["table", "random"], games, seed, swap=True)
        results.append({"size": list(size), **{k: table.stats[k] for k in STAT_KEYS},
                        "optimal_vs_optimal": optimal.as_dict(), "optimal_vs_random": random.as_dict()})
    points = {}
    for dice in range(1, FACES + 1):
        E = load_points(rules, dice, artifacts_dir)
        points[str(dice)] = {"start": float(E[0, dice]), "bank_from": bank_from(E, rules.unit, rules.min_bank),
                             "expected": {str(t * rules.unit): [float(x) for x in E[t, 1:]]
                                          for t in range(0, min(len(E), 61), 6)}}

    def write(tmp: Path) -> None:
        write_json(tmp / "summary.json", {"games": results, "points": points})
        plt = pyplot()
        if sizes:
            size = sizes[0]
            table = load_table(rules, size, artifacts_dir)
            scores = size.floor + np.arange(table.layout.NB) * rules.unit
            fig, ax = plt.subplots(figsize=(6.5, 5.5))
            image = ax.imshow(table.start[:, 0, :, 0], origin="lower", cmap="viridis", vmin=0, vmax=1,
                              extent=(scores[0], scores[-1], scores[0], scores[-1]))
            ax.set_xlabel("other player's banked score")
            ax.set_ylabel("mover's banked score")
            ax.set_title(f"Farkle to {size.target}: P(mover wins) at the start of its turn")
            fig.colorbar(image, ax=ax)
            save_figure(fig, tmp / "start.png")
        E = load_points(rules, FACES, artifacts_dir)
        fig, ax = plt.subplots(figsize=(7, 4.5))
        t = np.arange(len(E)) * rules.unit
        for n in range(1, FACES + 1):
            ax.plot(t[1:], E[1:, n] - t[1:], label=f"{n} dice to roll")
        ax.set_xlabel("turn total")
        ax.set_ylabel("expected points gained by playing on")
        ax.set_title("Farkle, one turn for points: what the dice left are worth")
        ax.legend(fontsize=8)
        save_figure(fig, tmp / "points.png")
        (tmp / "report.md").write_text(_markdown(results, points, bool(sizes)))

    publish_report(out_dir, write)
    return Path(out_dir)


def _markdown(results: list[dict[str, Any]], points: dict[str, Any], figure: bool) -> str:
    lines = ["# Farkle", "", "Two players, both playing to win (docs/farkle.md). The first player's probability of "
             "winning, the certified bounds around it, and a seeded simulation of the tables' play (95 % interval).",
             "", "| game (target, floor, dice) | states | first player wins | certified within | simulated | "
             "games | against random (share) |", "|---|---|---|---|---|---|---|"]
    for r in results:
        sim, rnd = r["optimal_vs_optimal"], r["optimal_vs_random"]
        lines.append(f"| {', '.join(map(str, r['size']))} | {r['states']:,} | {r['first_player_wins']:.12f} | "
                     f"{r['error_bound']:.1e} | {sim['mean'][0]:.4f} ± {sim['half_width_95'][0]:.4f} | {sim['games']} "
                     f"| {rnd['mean'][0]:.4f} ± {rnd['half_width_95'][0]:.4f} |")
    if figure:
        lines += ["", "![turn-start chances](start.png)"]
    six = points[str(FACES)]
    lines += ["", "## One turn for points", "",
              f"Playing one turn for the most points, six dice score {six['start']:.4f} points on average. Bank from "
              "these turn totals on (below them, roll on):", "",
              "| dice to roll | " + " | ".join(str(n) for n in range(1, FACES + 1)) + " |",
              "|---|" + "---|" * FACES,
              "| bank from | " + " | ".join(str(b) for b in six["bank_from"]) + " |",
              "", "![expected points](points.png)", ""]
    return "\n".join(lines)
