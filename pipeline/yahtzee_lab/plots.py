"""Score histograms as PNG, like the seed's figures 3, 5 and 6 (one outline per player, 5-point bins)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import numpy as np

from pipeline.reports import pyplot, save_figure

BIN = 5  # points per bin


def histogram(path: str | Path, scores: Mapping[str, np.ndarray], title: str) -> Path:
    """Write a histogram of each player's final scores (points) to ``path`` (PNG); returns the path."""
    plt = pyplot()
    path = Path(path)
    top = max(int(np.max(s)) for s in scores.values())
    bins = np.arange(0, top + 2 * BIN, BIN)
    fig, ax = plt.subplots(figsize=(8, 4.5))
    for label, s in scores.items():
        ax.hist(s, bins=bins, histtype="step", linewidth=1.4, density=True,
                label=f"{label} (mean {np.mean(s):.1f}, n = {len(s):,})")
    ax.set_xlabel("final score (points)")
    ax.set_ylabel(f"fraction of games per point ({BIN}-point bins)")
    ax.set_title(title)
    ax.legend()
    ax.grid(alpha=0.3)
    return save_figure(fig, path, dpi=100)
