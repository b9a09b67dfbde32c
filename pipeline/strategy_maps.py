"""``dicetables GAME map``: a strategy map (``lookup.maps``) in lines of words, and (``--plot FILE``) drawn with
matplotlib, the tables' action beside the mover's value, the position marked."""

from __future__ import annotations

from itertools import groupby
from pathlib import Path

import numpy as np

from lookup.maps import StrategyMap
from pipeline.reports import save_figure


def map_lines(m: StrategyMap) -> list[str]:
    """The map in words: a header, then each row's runs of equal actions along ``x`` (``*`` where several are
    optimal)."""
    out = [f"player {m.seat + 1} to move; {m.y.label} by row, {m.x.label} along it (* several optimal)"]
    for y, actions, ties in zip(m.rows, m.action, m.several, strict=True):
        runs = []
        for (a, tie), cells in groupby(zip(actions, ties, m.columns, strict=True), key=lambda c: c[:2]):
            xs = [c[2] for c in cells]
            if a is not None:
                runs.append(f"{m.actions[a][1]}{'*' if tie else ''} at {xs[0]}" + (f"..{xs[-1]}" if xs[1:] else ""))
        out.append(f"{y}: " + ("; ".join(runs) or "no decision"))
    return out


def plot_map(m: StrategyMap, path: Path) -> Path:
    """Write the two maps of ``m`` side by side to the PNG ``path`` (atomically); returns ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap

    def grid(rows: tuple) -> np.ndarray:
        return np.array([[np.nan if v is None else float(v) for v in r] for r in rows])

    extent = (m.columns.start - m.columns.step / 2, m.columns[-1] + m.columns.step / 2,
              m.rows.start - m.rows.step / 2, m.rows[-1] + m.rows.step / 2)
    fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    n = len(m.actions)
    colours = ListedColormap(plt.get_cmap("coolwarm")(np.linspace(0, 1, max(n, 2)))[:n])
    shown = axes[0].imshow(grid(m.action), origin="lower", extent=extent, aspect="auto", cmap=colours,
                           norm=BoundaryNorm(np.arange(n + 1) - 0.5, n), interpolation="nearest")
    bar = fig.colorbar(shown, ax=axes[0], ticks=range(n))
    bar.ax.set_yticklabels([name for _, name in m.actions])
    axes[0].set_title(f"the tables' play of player {m.seat + 1}")
    shown = axes[1].imshow(grid(m.value), origin="lower", extent=extent, aspect="auto",
                           cmap="viridis" if m.higher_is_better else "viridis_r", interpolation="nearest")
    fig.colorbar(shown, ax=axes[1]).set_label(m.unit)
    axes[1].set_title(f"value of player {m.seat + 1} ({m.unit})")
    for ax in axes:
        ax.set_xlabel(m.x.label)
        ax.set_ylabel(m.y.label)
        if m.at is not None:
            ax.plot(m.columns[m.at[1]], m.rows[m.at[0]], "o", mfc="none", mec="black", ms=10, mew=2)
    fig.suptitle(f"{m.game}: the strategy at a decision, the position circled")
    return save_figure(fig, path)
