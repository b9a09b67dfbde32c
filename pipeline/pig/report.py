"""The Pig report: the first player's chance to win under optimal play (exact), a seeded simulation beside it
(the protocol's ``lookup.simulate``: the tables against themselves and against a player who rolls or holds at
random), and the roll / hold boundary: for each opponent score, the turn total at which to hold."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.games import open_setup
from lookup.simulate import simulate
from pipeline.reports import publish_report, pyplot, save_figure, write_json

OPPONENT_SCORES = (0, 25, 50, 75, 90)  # the opponent's scores drawn (those below the target)


def hold_from(advisor: Any, target: int, other: int) -> list[int | None]:
    """For each own score i: the smallest turn total at which holding is optimal against ``other`` (None where the
    tables roll on to the target)."""
    table, out = advisor.table, []
    for i in range(target):
        ks = [k for k in range(2, target - i) if float(table.hold[i, other, k]) > float(table.roll[i, other, k])]
        out.append(ks[0] if ks else None)
    return out


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Reads the verified tables of every target of ``pig.targets``; writes summary.json, report.md and one
    boundary figure per target into ``out_dir`` at once."""
    settings = section.get("report") or {}
    games, seed = int(settings.get("simulation_games", 20_000)), int(settings.get("seed", 1))
    results = []
    for target in sorted(section["targets"]):
        advisor = open_setup("pig", {"target": target}, artifacts_dir)
        start = advisor.value(advisor.game.initial_state(), 0)
        optimal = simulate(advisor, ["table", "table"], games, seed)
        random = simulate(advisor, ["table", "random"], games, seed, swap=True)
        others = [j for j in OPPONENT_SCORES if j < target]
        results.append({"target": target, "first_player_wins": start, "optimal_vs_optimal": optimal.as_dict(),
                        "optimal_vs_random": random.as_dict(),
                        "hold_from": {str(j): hold_from(advisor, target, j) for j in others}})

    def write(tmp: Path) -> None:
        write_json(tmp / "summary.json", {"targets": results})
        plt = pyplot()
        for r in results:
            fig, ax = plt.subplots(figsize=(7, 4.5))
            for j, ks in r["hold_from"].items():
                ax.plot(np.arange(len(ks)), [np.nan if k is None else k for k in ks], label=f"opponent at {j}")
            ax.set_xlabel("own banked score")
            ax.set_ylabel("hold from this turn total")
            ax.set_title(f"Pig to {r['target']}: when to hold (optimal play)")
            ax.legend(fontsize=8)
            save_figure(fig, tmp / f"hold_{r['target']}.png")
        (tmp / "report.md").write_text(_markdown(results))

    publish_report(out_dir, write)
    return Path(out_dir)


def _markdown(results: list[dict[str, Any]]) -> str:
    lines = ["# Pig", "", "Exact probability that the first player wins when both play optimally, and a seeded "
             "simulation of the same play beside it (95 % interval).", "",
             "| target | first player wins (exact) | simulated | games | optimal against random (share) |",
             "|---|---|---|---|---|"]
    for r in results:
        sim, rnd = r["optimal_vs_optimal"], r["optimal_vs_random"]
        lines.append(f"| {r['target']} | {r['first_player_wins']:.10f} | {sim['mean'][0]:.4f} ± "
                     f"{sim['half_width_95'][0]:.4f} | {sim['games']} | {rnd['mean'][0]:.4f} ± "
                     f"{rnd['half_width_95'][0]:.4f} |")
    lines += [""] + [f"![when to hold, target {r['target']}](hold_{r['target']}.png)" for r in results] + [""]
    return "\n".join(lines)
