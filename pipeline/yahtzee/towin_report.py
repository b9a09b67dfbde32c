"""The play-to-win report: the goal policy against the expected-score policy, by exact computation.

For each rule set of ``yahtzee.towin.rule_sets`` with a built ``goal`` table: from the start of a game,
P(final >= t) under the goal policy for t (the table: a different policy for each t) and under the
expected-score policy (``pipeline.yahtzee.solver``'s policy, evaluated exactly by the same backward pass
on a fixed policy: ``towin.evaluate``), at the targets of ``yahtzee.towin_report.targets`` and as curves.
No simulation: every number is exact up to float rounding. Writes ``artifacts/reports/yahtzee-towin/``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.rules import get_rules
from lookup.yahtzee.states import layer_name
from lookup.yahtzee.towin import load_towin
from pipeline.progress import say
from pipeline.reports import publish_report, pyplot, save_figure, write_json
from pipeline.yahtzee.towin_build import settings

DEFAULT_TARGETS = [100, 150, 200, 250, 300, 400]


def compare(rule_set: str, artifacts_dir: str | Path, targets: list[int]) -> dict[str, Any]:
    """Start-of-game P(final >= t) of both policies, for t = 0..min(start bound, max target)."""
    from pipeline.yahtzee import towin
    from pipeline.yahtzee.solver import solve

    rules = get_rules(rule_set)
    table = load_towin(rules, "goal", artifacts_dir)
    bound0 = int(table.bound[0])
    top = min(bound0, max(targets))
    goal = np.asarray(table.layers[0])[0, :top + 1]
    sol = solve(rules, policy=True)
    # The expected-score policy evaluated exactly up to the largest target (the cap keeps it exact there).
    expected = towin.start_vector(towin.evaluate(rules, sol.reroll, sol.category, max_points=top))
    rows = []
    for t in targets:
        pg = float(goal[t]) if t <= top else 0.0
        pe = float(expected[t]) if t <= top else 0.0
        rows.append({"target": t, "p_goal_policy": pg, "p_expected_policy": pe,
                     "ratio": pg / pe if pe > 0 else None})
    return {
        "rule_set": rules.name, "start_bound": bound0, "expected_score": sol.start_value,
        "table_max_points": table.max_points, "targets": rows,
        "goal_dominates": bool(np.all(goal >= expected - 1e-12)),
        "curve_t": list(range(top + 1)), "curve_goal": goal.tolist(), "curve_expected": expected.tolist(),
    }


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Compare both policies for every rule set of ``yahtzee.towin.rule_sets``; write out_dir at once."""
    towin = settings(section)
    targets = (section.get("towin_report") or {}).get("targets", DEFAULT_TARGETS)
    if not isinstance(targets, list) or not targets or not all(type(t) is int and t >= 0 for t in targets):
        raise ValueError("yahtzee.towin_report.targets must be a non-empty list of non-negative integers")
    results = []
    for name in towin["rule_sets"]:
        say(f"  play to win: comparing both policies ({name})")
        results.append(compare(name, artifacts_dir, targets))

    def write(tmp: Path) -> None:
        summary = [{k: v for k, v in r.items() if not k.startswith("curve")} for r in results]
        write_json(tmp / "summary.json", {"results": summary})
        lines = ["# Play to win: the goal policy against the expected-score policy", "",
                 "Exact probabilities from the start of a game (backward passes over every state, no simulation).",
                 "The goal policy maximises P(final >= t) for that t (a different policy for each t; table "
                 f"`yahtzee-RULES-goal`, layer `{layer_name(0)}`); the expected-score policy maximises the mean.", ""]
        plt = pyplot()
        for r in results:
            lines += [f"## {r['rule_set']}", "",
                      f"Expected score of the expected-score policy: {r['expected_score']:.4f}; most points "
                      f"reachable: {r['start_bound']}; goal dominates at every t: {r['goal_dominates']}.", "",
                      "| target t | P(>= t), goal policy | P(>= t), expected-score policy | ratio |",
                      "|---:|---:|---:|---:|"]
            for row in r["targets"]:
                ratio = f"{row['ratio']:.4f}" if row["ratio"] is not None else "-"
                lines.append(f"| {row['target']} | {row['p_goal_policy']:.6g} | {row['p_expected_policy']:.6g} "
                             f"| {ratio} |")
            fig, ax = plt.subplots(figsize=(8, 4.5))
            ax.semilogy(r["curve_t"], r["curve_goal"], label="goal policy (best for each t)")
            ax.semilogy(r["curve_t"], r["curve_expected"], label="expected-score policy", linestyle="--")
            ax.set_xlabel("target final score t")
            ax.set_ylabel("P(final score >= t)")
            ax.set_title(f"{r['rule_set']}: reaching a score")
            ax.legend()
            figure = f"{r['rule_set'].replace('+', '-')}-tail.png"
            save_figure(fig, tmp / figure)
            plt.close(fig)
            lines += ["", f"![P(final >= t)]({figure})", ""]
        (tmp / "report.md").write_text("\n".join(lines) + "\n")

    publish_report(out_dir, write)
    return Path(out_dir)
