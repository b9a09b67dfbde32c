"""The poker report (``artifacts/reports/poker``): 13x13 grids of preflop equity (PNG), the table as JSON,
and a Markdown summary with the published figures beside ours. Published atomically."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.poker.cards import class_name
from lookup.poker.tables import load_preflop
from lookup.words import noun_for
from pipeline.reports import publish_report, pyplot, save_figure, write_json

# Published preflop figures (equity against one random hand, heads-up class averages), to their digits.
PUBLISHED = {"AA vs random": 85.2, "KK vs random": 82.4, "72o vs random": 34.6, "AKs vs random": 67.0,
             "AA vs KK": 81.9}


def _grid(values: np.ndarray, title: str, path: Path) -> str:
    plt = pyplot()
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
    save_figure(fig, path, dpi=110)
    return path.name


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """Write the report from the built preflop artifact (``section``: params.yaml's ``poker``, unused: the
    report reads everything from the verified artifact)."""
    tables = load_preflop(artifacts_dir)
    a = tables.arrays
    equity, se = a["multi_equity"], a["multi_se"]
    aa, kk = 0, 14
    ours = {"AA vs random": equity[0, aa], "KK vs random": equity[0, kk], "72o vs random": equity[0, 13 * 12 + 7],
            "AKs vs random": equity[0, 1], "AA vs KK": a["hu_equity"][aa, kk]}

    def write(tmp: Path) -> None:
        plots = [_grid(equity[0], "Exact equity against one random hand", tmp / "vs1.png")]
        for n in range(2, equity.shape[0] + 1):
            how = "exact" if a["multi_exact"][n - 1] else f"Monte Carlo, max SE {se[n - 1].max():.1e}"
            plots.append(_grid(equity[n - 1], f"Equity against {n} random hands ({how})", tmp / f"vs{n}.png"))
        rows = [{"class": class_name(x), "vs": {str(n + 1): {"equity": float(equity[n, x]), "se": float(se[n, x]),
                                                           "exact": bool(a["multi_exact"][n])}
                                                for n in range(equity.shape[0])}} for x in range(169)]
        write_json(tmp / "preflop.json", {"params": tables.params, "classes": rows}, indent=1)
        lines = ["# Poker: preflop tables", "", "| figure | published | ours |", "|---|---|---|"]
        lines += [f"| {k} | {v} % | {100 * ours[k]:.4f} % |" for k, v in PUBLISHED.items()]
        exact_rows = [str(n + 1) for n in range(equity.shape[0]) if a["multi_exact"][n]]
        lines += ["", f"Exact against {', '.join(exact_rows)} random {noun_for(int(exact_rows[-1]), 'hand')}."]
        if not a["multi_exact"].all():
            lines += [f"Other rows up to {equity.shape[0]}: board-stratified Monte Carlo (every board, sampled "
                      f"opponents), up to {int(a['multi_samples'].max())} opponent deals per row, largest "
                      f"standard error {se.max():.2e}."]
        lines += [""]
        lines += [f"![{p}]({p})" for p in plots]
        (tmp / "report.md").write_text("\n".join(lines) + "\n")

    publish_report(out_dir, write)
    return Path(out_dir)
