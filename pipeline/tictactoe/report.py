"""The tic-tac-toe report: the tables' counts, and the exact match-ups of every player against every
model (both seats) beside the seed's tables 1 and 2 (10,000 simulated games each)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lookup.store import read_meta
from lookup.tictactoe.tables import TABLES_NAME, load_tables
from pipeline.reports import publish_report, pyplot, save_figure, write_json

# Seed 003, tables 1 (predictive MinMax) and 2 (realistic MinMax): wins, draws, losses of 10,000 games.
SEED_TABLES = {
    "predictive": {"random": (9902, 98, 0), "first": (10000, 0, 0), "last": (10000, 0, 0)},
    "realistic": {"random": (9909, 91, 0), "first": (10000, 0, 0), "last": (10000, 0, 0)},
}


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Reads the verified tables (their counts and start values), computes the exact match-ups, writes
    summary.json, report.md and matchups.png into ``out_dir`` at once."""
    from pipeline.tictactoe.matchups import PLAYERS, matchups
    from pipeline.tictactoe.stage import model_names

    settings = section.get("report") or {}
    players = tuple(settings.get("players", PLAYERS))
    tables = load_tables(artifacts_dir=artifacts_dir)  # verified
    stats = read_meta(Path(artifacts_dir) / f"{TABLES_NAME}.zarr")["stats"]
    entries = matchups(model_names(section), players)

    def write(tmp: Path) -> None:
        write_json(tmp / "summary.json", {"tables": stats, "models": list(tables.models),
                                          "matchups": entries, "seed_tables": SEED_TABLES})
        plt = pyplot()
        fig, axes = plt.subplots(1, 2, figsize=(11, 4.5), sharey=True)
        for ax, seat in zip(axes, ("first", "second"), strict=True):
            rows = [e for e in entries if e["seat"] == seat]
            models = list(dict.fromkeys(e["model"] for e in rows))
            width = 0.8 / len(players)
            for i, name in enumerate(players):
                wins = [next(e["win_f"] for e in rows if e["player"] == name and e["model"] == m) for m in models]
                ax.bar([j + i * width for j in range(len(models))], wins, width, label=name)
            ax.set_xticks([j + 0.4 - width / 2 for j in range(len(models))], models)
            ax.set_title(f"player moving {seat}: exact P(win)")
        axes[0].legend(fontsize=8)
        save_figure(fig, tmp / "matchups.png")
        (tmp / "report.md").write_text(_markdown(stats, entries))

    publish_report(out_dir, write)
    return Path(out_dir)


def _markdown(stats: Mapping[str, Any], entries: list[dict[str, Any]]) -> str:
    lines = ["# Tic-tac-toe against opponent models", "",
             f"Tables: {stats['positions']} reachable positions, {stats['terminal']} terminal, minimax value of "
             f"the empty board {stats['empty_board_minimax']}.", "",
             "Exact match-ups (fractions, no simulation): win / draw / loss of the player.", "",
             "| player | model | seat | win | draw | loss |", "|---|---|---|---|---|---|"]
    for e in entries:
        lines.append(f"| {e['player']} | {e['model']} | {e['seat']} | {e['win']} ({e['win_f']:.2%}) | "
                     f"{e['draw']} ({e['draw_f']:.2%}) | {e['loss']} ({e['loss_f']:.2%}) |")
    lines += ["", "## Beside the seed (tables 1 and 2: 10,000 games each, seat not stated)", "",
              "| player | model | seed win / draw / loss | ours first | ours second |", "|---|---|---|---|---|"]
    for player, rows in SEED_TABLES.items():
        for model, (w, d, lo) in rows.items():
            ours = {e["seat"]: e for e in entries if e["player"] == player and e["model"] == model}
            cells = [f"{ours[s]['win_f']:.2%} / {ours[s]['draw_f']:.2%} / {ours[s]['loss_f']:.2%}"
                     if s in ours else "-" for s in ("first", "second")]
            lines.append(f"| {player} | {model} | {w / 100:.1f}% / {d / 100:.1f}% / {lo / 100:.1f}% | "
                         f"{cells[0]} | {cells[1]} |")
    lines += ["", "![win probabilities](matchups.png)", ""]
    return "\n".join(lines)
