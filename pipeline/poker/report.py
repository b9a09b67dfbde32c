"""The poker report (``artifacts/reports/poker``): 13x13 grids of preflop equity (PNG), the table as JSON,
and a Markdown summary with the published figures beside ours. Published atomically."""

from __future__ import annotations

import json
import os
import uuid
from pathlib import Path

import numpy as np

from lookup.poker.cards import class_name
from lookup.poker.tables import load_preflop
from pipeline.store import _remove, _replace

# Published preflop figures (equity against one random hand, heads-up class averages), to their digits.
PUBLISHED = {"AA vs random": 85.2, "KK vs random": 82.4, "72o vs random": 34.6, "AKs vs random": 67.0,
             "AA vs KK": 81.9}


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _grid(values: np.ndarray, title: str, path: Path) -> str:
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(9, 8))
    grid = values.reshape(13, 13)
    im = ax.imshow(grid, cmap="RdYlGn", vmin=grid.min(), vmax=grid.max())
    for index in range(169):
        i, j = divmod(index, 13)
        ax.text(j, i, f"{class_name(index)}\n{100 * grid[i, j]:.1f}", ha="center", va="center", fontsize=6)
    ax.set_xticks([])
    ax.set_yticks([])
    ax.set_title(title + "\n(suited above the diagonal, offsuit below)")
    fig.colorbar(im, ax=ax, shrink=0.8, label="equity")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path.name


def write_report(artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Write the report from the built preflop artifact."""
    tables = load_preflop(artifacts_dir)
    a = tables.arrays
    equity, se = a["multi_equity"], a["multi_se"]
    out_dir = Path(out_dir)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    tag = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmp = out_dir.with_name(f".tmp-{tag}-{out_dir.name}")
    aa, kk = 0, 14
    ours = {"AA vs random": equity[0, aa], "KK vs random": equity[0, kk], "72o vs random": equity[0, 13 * 12 + 7],
            "AKs vs random": equity[0, 1], "AA vs KK": a["hu_equity"][aa, kk]}
    try:
        tmp.mkdir()
        plots = [_grid(equity[0], "Exact equity against one random hand", tmp / "vs1.png")]
        for n in range(2, equity.shape[0] + 1):
            plots.append(_grid(equity[n - 1], f"Equity against {n} random hands (Monte Carlo, max SE "
                               f"{se[n - 1].max():.1e})", tmp / f"vs{n}.png"))
        rows = [{"class": class_name(x), "vs": {str(n + 1): {"equity": float(equity[n, x]), "se": float(se[n, x]),
                                                           "exact": bool(a["multi_exact"][n])}
                                                for n in range(equity.shape[0])}} for x in range(169)]
        (tmp / "preflop.json").write_text(json.dumps({"params": tables.params, "classes": rows}, indent=1) + "\n")
        lines = ["# Poker: preflop tables", "", "| figure | published | ours |", "|---|---|---|"]
        lines += [f"| {k} | {v} % | {100 * ours[k]:.4f} % |" for k, v in PUBLISHED.items()]
        lines += ["", f"Against 2..{equity.shape[0]} random hands: Monte Carlo, {int(a['multi_samples'][1:].max())} "
                  f"deals per opponent count, largest standard error {se[1:].max():.2e}.", ""]
        lines += [f"![{p}]({p})" for p in plots]
        (tmp / "report.md").write_text("\n".join(lines) + "\n")
        _replace(tmp, out_dir, tag)
    finally:
        _remove(tmp)
    return out_dir
