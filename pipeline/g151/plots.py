"""Figures of the 151 report (drawn through ``pipeline.reports``: one style for every game)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from lookup.g151.rules import UNIT
from pipeline.reports import pyplot, save_figure

NOTEBOOK = "notebook"


def write_plots(out: Path, roll_rows: list[dict], winrates: list[dict], solitaire: list[dict],
                solutions: dict) -> list[str]:
    """Write every figure into ``out``; returns the file names."""
    plt = pyplot()
    names = []

    fig, ax = plt.subplots(figsize=(8, 4))
    variants = sorted({r["rules"] for r in roll_rows})
    for i, v in enumerate(variants):
        rows = [r for r in roll_rows if r["rules"] == v]
        xs = np.arange(len(rows)) + (i - 1) * 0.27
        ax.bar(xs, [r["probability_float"] for r in rows], width=0.27, label=v)
        ax.set_xticks(np.arange(len(rows)), [str(r["points"]) for r in rows])
    ax.set(xlabel="points of one roll", ylabel="probability", title="Exact law of one roll of three dice")
    ax.legend()
    names.append(_save(fig, out, "rolls.png"))

    for key in dict.fromkeys(r["plot"] for r in winrates):
        fig, ax = plt.subplots(figsize=(8, 4.5))
        for rules, style in ((NOTEBOOK, "o-"), ("stated", "s--")):
            rows = [r for r in winrates if r["plot"] == key and r["rules"] == rules]
            xs = [r["target"] for r in rows]
            ax.plot(xs, [r["p_player1_wins"] for r in rows], style, ms=3, label=f"{rows[0]['player1']} ({rules})")
            ax.plot(xs, [r["p_optimal_wins"] for r in rows], style, ms=3, alpha=0.6, label=f"optimal ({rules})")
        ax.axhline(0.5, color="grey", lw=0.5)
        ax.set(xlabel="target (points)", ylabel="P(player 1 wins), player 0 first", ylim=(0, 1),
               title=f"Against {rows[0]['player0']} (player 0, moves first): exact win probability")
        ax.legend(fontsize=8)
        names.append(_save(fig, out, f"winrate_{key}.png"))

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, (rules, field) in zip(axes, ((NOTEBOOK, "scoring_turns"), ("stated", "turns")), strict=True):
        for player in dict.fromkeys(r["player"] for r in solitaire):
            rows = [r for r in solitaire if r["rules"] == rules and r["player"] == player]
            ax.plot([r["target"] for r in rows], [r[field] for r in rows], "o-", ms=2, label=player)
        ax.set(xlabel="target (points)", ylabel=f"expected {field.replace('_', ' ')}", yscale="log",
               title=f"Alone, {rules} rules")
        ax.legend(fontsize=8)
    names.append(_save(fig, out, "solitaire_turns.png"))

    names += _policy_plots(plt, out, solutions)
    return names


def _regions(ax, policy: np.ndarray, n: int, title: str) -> None:
    """Bank/roll regions of policy[a, t - 1] (t >= 1): x = banked, y = turn total (points); white = no decision."""
    shown = np.where(policy == 2, np.nan, policy.astype(float)).T
    ax.imshow(shown, origin="lower", cmap="coolwarm_r", vmin=0, vmax=1, interpolation="nearest",
              extent=(-UNIT / 2, n * UNIT + UNIT / 2, UNIT / 2, n * UNIT + UNIT / 2), aspect="auto")
    ax.set(xlabel="banked (points)", ylabel="turn total (points)", title=title)


def _policy_plots(plt, out: Path, solutions: dict) -> list[str]:
    names = []
    variants = list(dict.fromkeys(r for r, _ in solutions))
    targets = list(dict.fromkeys(t for _, t in solutions))
    fig, axes = plt.subplots(len(variants), len(targets), figsize=(4 * len(targets), 3.6 * len(variants)),
                             squeeze=False)
    for i, rules in enumerate(variants):
        for j, target in enumerate(targets):
            solo, _ = solutions[(rules, target)]
            _regions(axes[i, j], solo.policy[:, 1:], solo.n, f"alone, {rules}, target {target}")
    fig.suptitle("Optimal solitaire policy: blue = roll, red = bank (turn total >= 50)")
    names.append(_save(fig, out, "policy_solitaire.png"))
    for rules in variants:
        target = 1000 if (rules, 1000) in solutions else targets[0]
        _, duel = solutions[(rules, target)]
        n = duel.n
        others = sorted({0, n // 4, n // 2, 3 * n // 4, n - 2, n - 1} - {-1})
        fig, axes = plt.subplots(2, 3, figsize=(13, 7.5), squeeze=False)
        for ax, b in zip(axes.flat, others, strict=False):
            _regions(ax, duel.policy[:, b, 1:], n, f"opponent at {b * UNIT}")
        fig.suptitle(f"Optimal two-player policy ({rules}, target {target}): blue = roll, red = bank")
        names.append(_save(fig, out, f"policy_duel_{rules}_{target}.png"))
    return names


def _save(fig, out: Path, name: str) -> str:
    save_figure(fig, out / name)
    return name
