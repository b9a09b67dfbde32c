"""The exact score distributions in the Yahtzee report: one figure, one Markdown section, their JSON.

The laws come from the verified ``yahtzee-RULES-distribution`` artifacts (``lookup.yahtzee.distribution``):
exact, not simulated. Scores are real final scores in points.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.yahtzee.score_law import ScoreDistribution
from pipeline.reports import pyplot, save_figure

FIGURE = "score-distributions.png"
SHOWN_THRESHOLDS = ("200", "250", "300", "400")


def laws_json(laws: Mapping[str, ScoreDistribution]) -> dict[str, Any]:
    """Every law's statistics and its pmf (points -> probability, nonzero entries only)."""
    return {name: {**law.stats, "pmf": {str(int(x)): float(law.pmf[x]) for x in np.flatnonzero(law.pmf)}}
            for name, law in laws.items()}


def laws_markdown(laws: Mapping[str, ScoreDistribution]) -> list[str]:
    """The Markdown section: headline numbers of each rule set's law, the figure linked."""
    head = " | ".join(f"P(>= {t})" for t in SHOWN_THRESHOLDS)
    lines = ["## Exact score distributions of optimal play", "",
             "The probability of every final score under the expected-score-optimal policy, computed exactly by a "
             "pass over every turn-start state and number of points (no simulation; `dicetables yahtzee "
             "distribution`, `lookup.yahtzee.distribution`). Quantile q: the smallest score x with P(score <= x) "
             ">= q.", "",
             f"| rules | mean | sd | q1 | median | q3 | 5 % | 95 % | {head} | upper bonus | max |",
             "|---|---|---|---|---|---|---|---|" + "---|" * len(SHOWN_THRESHOLDS) + "---|---|"]
    for name, law in laws.items():
        s = law.stats
        q1, med, q3 = s["quartiles"]
        tails = " | ".join(f"{s['p_at_least'][t]:.4f}" for t in SHOWN_THRESHOLDS)
        lines.append(f"| {name} | {s['mean']:.4f} | {s['std']:.4f} | {q1} | {med} | {q3} | "
                     f"{s['percentiles']['5']} | {s['percentiles']['95']} | {tails} | "
                     f"{100 * law.p_upper_bonus:.2f} % | {s['max_score']} |")
    return [*lines, "", f"![exact score distributions]({FIGURE})", ""]


def plot_laws(path: str | Path, laws: Mapping[str, ScoreDistribution]) -> Path:
    """Two panels: P(score = x) and P(score >= x) of each law, x in points; returns ``path`` (PNG)."""
    plt = pyplot()
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.5))
    top = max(s for law in laws.values() for s in [law.percentile(99.9)]) + 20
    for name, law in laws.items():
        x = np.arange(len(law.pmf))
        line, = left.plot(x, law.pmf, linewidth=1.0, label=f"{name} (mean {law.mean:.1f}, median {law.median})")
        tail = np.cumsum(law.pmf[::-1])[::-1]
        right.plot(x, tail, linewidth=1.2, color=line.get_color(), label=name)
    left.set_xlim(0, top)
    left.set_xlabel("final score (points)")
    left.set_ylabel("P(score = x)")
    left.set_title("exact law of the final score (optimal play)")
    left.legend(fontsize=8)
    right.set_xlim(0, top)
    right.set_ylim(0, 1.01)
    right.set_xlabel("t (points)")
    right.set_ylabel("P(score >= t)")
    right.set_title("chance to reach t points")
    right.legend(fontsize=8)
    for ax in (left, right):
        ax.grid(alpha=0.3)
    return save_figure(fig, Path(path), dpi=100)
