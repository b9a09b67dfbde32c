"""The dice-race report (``artifacts/reports/dicerace/``, DVC stage ``dicerace-report``).

For every game of ``dicerace.grid``, from the verified artifacts:

- ``sequential_d{D}_n{N}.png``: heatmaps of the smallest optimal d*(i, j), of the number of tied optimal
  d, and of EG(i, j);
- ``simultaneous_d{D}_n{N}.png``: EG1(i, j), the expected number of dice of the stored optimal
  strategy, and where the optimal strategies are mixed (support size) or not unique;
- ``matchups_d{D}_n{N}.png`` and ``matchups.json``: the exact match-up tables (win / draw / loss of
  policy A against policy B), each next to a seeded Monte Carlo estimate (``dicerace.report``
  simulation_games games, standard errors and z-scores).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np

from lookup.dicerace.rules import rules_dict
from lookup.dicerace.tables import (
    MATCHUPS_NAME,
    MATCHUPS_SCHEMA,
    MIXED,
    NOT_UNIQUE,
    ONESHOT_NAME,
    ONESHOT_SCHEMA,
    STRATEGY_VERSIONS,
    built_grid,
    grid_key,
    sequential_table,
    simultaneous_table,
)
from lookup.store import open_artifact
from pipeline.dicerace import policies
from pipeline.dicerace.matchups import Outcome
from pipeline.dicerace.sequential import lowest_bit
from pipeline.dicerace.simulate import simulate
from pipeline.progress import progress
from pipeline.reports import publish_report, pyplot, save_figure, write_json

OUTCOMES = ("win", "draw", "loss")


def read_matchups(artifacts: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(metadata, arrays) of the verified match-ups artifact."""
    with open_artifact(artifacts / f"{MATCHUPS_NAME}.zarr", schema=MATCHUPS_SCHEMA, versions=STRATEGY_VERSIONS,
                       rules=rules_dict()) as art:
        return art.meta, {name: art.read(name) for name in art.handles}


def _oneshot_strategy(artifacts: Path, dice: int) -> np.ndarray:
    with open_artifact(artifacts / f"{ONESHOT_NAME}.zarr", schema=ONESHOT_SCHEMA, versions=STRATEGY_VERSIONS,
                       rules=rules_dict()) as art:
        return art.read(f"d{dice}_strategy")


def game_policies(artifacts: Path, dice: int, target: int) -> dict[str, dict[str, policies.Policy]]:
    """The match-up policies of one game, from the stored tables: {"sequential": ..., "simultaneous": ...}."""
    base = {"blind": policies.blind(dice), "random": policies.uniform(dice)}
    seq = sequential_table(dice, target, artifacts_dir=artifacts)
    sim = simultaneous_table(dice, target, artifacts_dir=artifacts)
    oneshot = SimpleNamespace(dice=dice, strategy=_oneshot_strategy(artifacts, dice))
    return {"sequential": {**base, "optimal": policies.sequential_optimal(seq)},
            "simultaneous": {**base, "optimal": policies.simultaneous_optimal(sim),
                             "oneshot": policies.oneshot_optimal(oneshot)}}


def _entry(a: str, b: str, first: str | None, exact: Outcome, sim: Any | None) -> dict[str, Any]:
    entry: dict[str, Any] = {"a": a, "b": b, "exact": exact.as_dict()}
    if first is not None:
        entry["first"] = first
    if sim is not None:
        se = sim.standard_errors()
        got = sim.outcome
        entry["simulated"] = {**got.as_dict(), "games": sim.games,
                              "standard_error": {k: getattr(se, k) for k in OUTCOMES},
                              "z": {k: z_score(getattr(exact, k), getattr(got, k), sim.games) for k in OUTCOMES}}
    return entry


def z_score(exact: float, got: float, games: int) -> float:
    """(simulated - exact) frequency in standard errors of the exact probability over ``games`` games
    (the null hypothesis' own spread, defined even when no game of a rare outcome was seen)."""
    se = (exact * (1.0 - exact) / games) ** 0.5
    if se < 1e-15:
        return 0.0 if abs(exact - got) < 1e-12 else float("inf")
    return (got - exact) / se


def matchup_entries(meta: dict[str, Any], arrays: dict[str, np.ndarray], pols: dict[str, dict[str, Any]] | None,
                    dice: int, target: int, games: int, seed: int) -> dict[str, list[dict[str, Any]]]:
    """The exact match-ups of one game, each pair of distinct policies with a simulation of ``games`` games beside
    it (none at 0 games: ``pols`` is then not needed; `dicetables dicerace show --json`)."""
    key = grid_key(dice, target)
    out: dict[str, list[dict[str, Any]]] = {"sequential": [], "simultaneous": []}
    names = meta["stats"]["sequential_policies"]
    table = arrays[f"{key}_sequential"]
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            for first, label in enumerate(("a", "b")):
                exact = Outcome(*table[a, b, first])
                sim = None
                if a < b and games:
                    sim = simulate(pols["sequential"][name_a], pols["sequential"][name_b], target, "sequential",
                                   games, seed + 2 * (a * len(names) + b) + first, a_first=first == 0)
                out["sequential"].append(_entry(name_a, name_b, label, exact, sim))
    names = meta["stats"]["simultaneous_policies"]
    table = arrays[f"{key}_simultaneous"]
    for a, name_a in enumerate(names):
        for b, name_b in enumerate(names):
            sim = None
            if a < b and games:
                sim = simulate(pols["simultaneous"][name_a], pols["simultaneous"][name_b], target, "simultaneous",
                               games, seed + 1000 + a * len(names) + b)
            out["simultaneous"].append(_entry(name_a, name_b, None, Outcome(*table[a, b]), sim))
    return out


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Write every picture and matchups.json for the games built in the artifacts into ``out_dir`` (the
    directory at once; simulation settings: ``section["report"]``); returns ``out_dir``."""
    settings = section.get("report") or {}
    games, seed = int(settings.get("simulation_games", 100_000)), int(settings.get("seed", 1))
    artifacts, out_dir = Path(artifacts_dir), Path(out_dir)
    publish_report(out_dir, lambda tmp: _write(artifacts, tmp, games, seed))
    return out_dir


def _write(artifacts: Path, out_dir: Path, games: int, seed: int) -> None:
    meta, arrays = read_matchups(artifacts)
    grid = built_grid(meta)
    report: dict[str, Any] = {"simulation": {"games": games, "seed": seed}, "games": {}}
    worst = 0.0
    with progress("dice-race report", len(grid)) as advance:
        for dice, target in grid:
            key = grid_key(dice, target)
            pols = game_policies(artifacts, dice, target)
            entries = matchup_entries(meta, arrays, pols, dice, target, games, seed)
            for entry in entries["sequential"] + entries["simultaneous"]:
                if "simulated" in entry:
                    worst = max(worst, *(abs(z) for z in entry["simulated"]["z"].values()))
            report["games"][key] = {"dice": dice, "target": target,
                                    "blind_dice": meta["stats"][f"{key}_blind_dice"], **entries}
            _sequential_figure(artifacts, dice, target, out_dir / f"sequential_{key}.png")
            _simultaneous_figure(artifacts, dice, target, out_dir / f"simultaneous_{key}.png")
            _matchups_figure(meta, arrays, dice, target, out_dir / f"matchups_{key}.png")
            advance()
    report["max_abs_z"] = worst
    write_json(out_dir / "matchups.json", report, indent=1)


def _heatmap(ax: Any, data: np.ndarray, title: str, cmap: str, label: str, **kwargs: Any) -> None:
    image = ax.imshow(data, origin="lower", cmap=cmap, interpolation="nearest", aspect="auto", **kwargs)
    ax.set_title(title, fontsize=9)
    ax.set_xlabel("other's score j")
    ax.set_ylabel("my score i")
    ax.figure.colorbar(image, ax=ax, label=label, shrink=0.85)


def _sequential_figure(artifacts: Path, dice: int, target: int, path: Path) -> None:
    plt = pyplot()
    table = sequential_table(dice, target, artifacts_dir=artifacts)
    optimal = np.asarray(table.optimal)
    ties = np.bitwise_count(optimal)
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    _heatmap(axes[0], lowest_bit(optimal), f"optimal dice d*(i, j) (smallest of ties), D={dice}", "viridis",
             "d", vmin=1, vmax=dice)
    _heatmap(axes[1], ties, "number of tied optimal d", "magma", "ties", vmin=1)
    _heatmap(axes[2], np.asarray(table.value), "EG(i, j), player to move", "RdBu", "EG", vmin=-1, vmax=1)
    fig.suptitle(f"Sequential dice race, D={dice}, N={target}")
    save_figure(fig, path)


def _simultaneous_figure(artifacts: Path, dice: int, target: int, path: Path) -> None:
    from pipeline.dicerace.simultaneous import dense_policy

    plt = pyplot()
    table = simultaneous_table(dice, target, artifacts_dir=artifacts)
    flags = np.asarray(table.flags)
    mixed = np.asarray(table.mixed)
    strategies = dense_policy(np.asarray(table.pure), np.asarray(table.mixed_row), np.nan_to_num(mixed))
    expected_d = strategies @ np.arange(1, dice + 1)
    support = (strategies > 0).sum(axis=2).astype(float)
    support[(flags & MIXED) == 0] = np.nan
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.6))
    _heatmap(axes[0], np.asarray(table.value), "EG1(i, j), my view", "RdBu", "EG1", vmin=-1, vmax=1)
    _heatmap(axes[1], expected_d, "expected d of the optimal strategy", "viridis", "E[d]", vmin=1, vmax=dice)
    _heatmap(axes[2], support, f"mixed strategies: support size ({int((flags & MIXED > 0).sum())} states); "
             "x = not unique", "plasma", "support")
    i, j = np.nonzero(flags & NOT_UNIQUE)
    axes[2].scatter(j, i, marker="x", s=2, c="grey", linewidths=0.3)
    axes[2].set_xlim(-0.5, target - 0.5)
    axes[2].set_ylim(-0.5, target - 0.5)
    fig.suptitle(f"Simultaneous dice race, D={dice}, N={target}")
    save_figure(fig, path)


def _matchups_figure(meta: dict[str, Any], arrays: dict[str, np.ndarray], dice: int, target: int,
                     path: Path) -> None:
    plt = pyplot()
    key = grid_key(dice, target)
    seq = arrays[f"{key}_sequential"]
    sim = arrays[f"{key}_simultaneous"]
    panels = [(seq[:, :, 0], meta["stats"]["sequential_policies"], "sequential, A moves first"),
              (seq[:, :, 1], meta["stats"]["sequential_policies"], "sequential, B moves first"),
              (sim, meta["stats"]["simultaneous_policies"], "simultaneous")]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8))
    for ax, (table, names, title) in zip(axes, panels, strict=True):
        win = table[..., 0]
        ax.imshow(win, cmap="RdBu", vmin=0, vmax=1)
        for a in range(len(names)):
            for b in range(len(names)):
                w, d, lo = table[a, b]
                text = f"{w:.4f}" + (f"\ndraw {d:.4f}" if d > 0 else "") + f"\nloss {lo:.4f}"
                ax.text(b, a, text, ha="center", va="center", fontsize=7)
        ax.set_xticks(range(len(names)), [f"B={n}" for n in names], fontsize=8)
        ax.set_yticks(range(len(names)), [f"A={n}" for n in names], fontsize=8)
        ax.set_title(f"P(A wins), {title}", fontsize=9)
    fig.suptitle(f"Exact match-ups, D={dice}, N={target}")
    save_figure(fig, path)
