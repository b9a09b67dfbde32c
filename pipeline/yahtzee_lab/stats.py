"""Statistics of simulated games with 95% confidence intervals.

All scores are real final scores in points. Intervals are two-sided 95%:

* mean: mean +- 1.96 s / sqrt(n);
* standard deviation: +- 1.96 se, se = sqrt((m4 - s^4) / n) / (2 s) (delta method, no normality assumed);
* quantiles: distribution-free, between the order statistics of ranks n p -+ 1.96 sqrt(n p (1 - p));
* win / draw / loss rates: Wilson intervals over games, except antithetic matches, whose two games of a
  set are dependent: there the interval comes from the spread of the per-set means (same for the score
  difference, whose unit is then the set);
* paired score difference A - B: its mean with the interval above; ``variance_reduction`` = the variance
  of the difference had the games been independent (var A + var B) over the variance actually achieved
  (per game; 1 for independent games, above 1 when coupling or antithetic sets help).

The seed's set wins (antithetic matches): a *total* win takes both games of a set, a
*partial* win exactly one of them with the higher mean over the set; points = total + partial / 2.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

Z95 = 1.959963984540054


def _ci(centre: float, se: float) -> list[float]:
    return [centre - Z95 * se, centre + Z95 * se]


def wilson(k: int, n: int) -> list[float]:
    """95% Wilson interval of a proportion k / n."""
    if n == 0:
        return [0.0, 1.0]
    p = k / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return [max(0.0, centre - half), min(1.0, centre + half)]


def _quantile(sorted_x: np.ndarray, p: float) -> tuple[float, list[float]]:
    n = len(sorted_x)
    value = float(np.quantile(sorted_x, p))
    half = Z95 * math.sqrt(n * p * (1 - p))
    lo = int(max(0, math.floor(n * p - half)))
    hi = int(min(n - 1, math.ceil(n * p + half)))
    return value, [float(sorted_x[lo]), float(sorted_x[hi])]


def summary(scores: np.ndarray, upper_bonus: np.ndarray | None = None) -> dict[str, Any]:
    """n, mean, std, median, quartiles (each with ``*_ci``), min, max and the upper-bonus rate of one
    player's scores (points)."""
    x = np.asarray(scores, dtype=np.float64)
    n = len(x)
    mean = float(x.mean())
    std = float(x.std(ddof=1)) if n > 1 else 0.0
    m4 = float(((x - mean) ** 4).mean())
    se_std = math.sqrt(max(m4 - std ** 4, 0.0) / n) / (2 * std) if std > 0 else 0.0
    ordered = np.sort(x)
    out: dict[str, Any] = {"n": n, "mean": mean, "mean_ci": _ci(mean, std / math.sqrt(n)), "std": std,
                           "std_ci": _ci(std, se_std)}
    for name, p in (("q1", 0.25), ("median", 0.5), ("q3", 0.75)):
        out[name], out[f"{name}_ci"] = _quantile(ordered, p)
    out["min"], out["max"] = float(ordered[0]), float(ordered[-1])
    if upper_bonus is not None:
        k = int(np.asarray(upper_bonus).sum())
        out["p_upper_bonus"], out["p_upper_bonus_ci"] = k / n, wilson(k, n)
    return out


def _units(values: np.ndarray, antithetic: bool) -> np.ndarray:
    """Independent units: games, or the means over each antithetic set."""
    return values.reshape(-1, 2).mean(axis=1) if antithetic else values


def _mean_ci(values: np.ndarray, antithetic: bool) -> tuple[float, list[float]]:
    units = _units(values.astype(np.float64), antithetic)
    se = units.std(ddof=1) / math.sqrt(len(units)) if len(units) > 1 else 0.0
    return float(values.mean()), _ci(float(units.mean()), float(se))


def pair(scores: np.ndarray, mode: str) -> dict[str, Any]:
    """Win / draw / loss of player A (column 0) against B (column 1), the paired difference and, for
    antithetic matches, the seed's set wins. Rates are fractions of games."""
    a = scores[:, 0].astype(np.int64)
    b = scores[:, 1].astype(np.int64)
    n = len(a)
    anti = mode == "antithetic"
    out: dict[str, Any] = {"games": n, "mode": mode}
    for name, hit in (("win", a > b), ("draw", a == b), ("loss", a < b)):
        k = int(hit.sum())
        rate, ci = _mean_ci(hit, anti) if anti else (k / n, wilson(k, n))
        out[name] = {"count": k, "rate": rate, "ci": ci}
    decided = out["win"]["count"] + out["loss"]["count"]
    out["win_excluding_draws"] = out["win"]["count"] / decided if decided else 0.5
    diff = a - b
    out["difference_mean"], out["difference_ci"] = _mean_ci(diff, anti)
    achieved = _units(diff.astype(np.float64), anti).var(ddof=1) * (2 if anti else 1)
    independent = a.var(ddof=1) + b.var(ddof=1)
    out["variance_reduction"] = float(independent / achieved) if achieved > 0 else float("inf")
    for name, hit, sign in (("a", a > b, 1), ("b", a < b, -1)):
        gaps = sign * diff[hit]
        out[f"gap_when_{name}_wins"] = float(gaps.mean()) if len(gaps) else 0.0
    if anti:
        out["sets"] = set_wins(scores)
    return out


def set_wins(scores: np.ndarray) -> dict[str, Any]:
    """The seed's set results of an antithetic match (rows 2s, 2s + 1 = set s): total and partial wins
    and points (total + partial / 2) of A and of B, as counts and fractions of sets."""
    a = scores[:, 0].astype(np.int64).reshape(-1, 2)
    b = scores[:, 1].astype(np.int64).reshape(-1, 2)
    sets = len(a)
    wins_a = (a > b).sum(axis=1)
    wins_b = (b > a).sum(axis=1)
    higher_a = a.sum(axis=1) > b.sum(axis=1)
    higher_b = b.sum(axis=1) > a.sum(axis=1)
    out: dict[str, Any] = {"sets": sets}
    for name, wins, higher in (("a", wins_a, higher_a), ("b", wins_b, higher_b)):
        total = int((wins == 2).sum())
        partial = int(((wins == 1) & higher).sum())
        out[name] = {"total": total, "partial": partial, "points": total + 0.5 * partial,
                     "points_rate": (total + 0.5 * partial) / sets}
    return out
