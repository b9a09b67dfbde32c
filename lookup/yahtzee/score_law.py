"""The exact law of the final score of a Yahtzee game under optimal (expected-score) play.

    from lookup.yahtzee import distribution
    law = distribution("verhoeff"); law.median, law.p_at_least(300)

Read from the verified artifact ``yahtzee-RULES-distribution.zarr`` (``pipeline.yahtzee.distribution``
computes it exactly, by a pass over every turn-start state and number of points; no simulation). Scores are
real final scores in points: box points, the upper bonus when earned (also for ``seed``, whose policy
ignores it) and every Yahtzee bonus.

Quantiles: the q-quantile is the smallest score x with P(score <= x) >= q (so the median is the smallest
x with P(score <= x) >= 1/2).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from lookup.errors import not_built
from lookup.store import ArtifactError, artifact_path, artifact_stamp, default_artifacts_dir, open_artifact
from lookup.validate import integer
from lookup.yahtzee.rules import DEFAULT_RULES, Rules, get_rules
from lookup.yahtzee.tables import (
    DISTRIBUTION_SCHEMA,
    DISTRIBUTION_VERSIONS,
    LAW_COST,
    TABLES_COST,
    dashed,
    distribution_name,
    layered_only,
)

__all__ = ["PERCENTILES", "THRESHOLDS", "ScoreDistribution", "distribution", "score_statistics"]

PERCENTILES = (1, 5, 10, 25, 50, 75, 90, 95, 99)
# Scores whose P(score >= t) the artifact's statistics list (any t: ``ScoreDistribution.p_at_least``).
THRESHOLDS = (100, 150, 200, 250, 300, 350, 400, 500)


def _tail(pmf: np.ndarray) -> np.ndarray:
    # Summed from the small end: exact to rounding where the probabilities are tiny, and non-increasing.
    tail = np.cumsum(pmf[::-1])[::-1]
    tail.setflags(write=False)
    return tail


def _quantile(pmf: np.ndarray, cdf: np.ndarray, q: float) -> int:
    # q = 1 is the highest possible score: the rounded cdf may reach 1 before it, or never.
    x = int(np.searchsorted(cdf, q, side="left"))
    return int(np.flatnonzero(pmf)[-1]) if q >= 1 or x >= len(cdf) else x


def score_statistics(pmf: np.ndarray) -> dict[str, Any]:
    """Mean, standard deviation, quartiles, percentiles (``PERCENTILES``), P(score >= t) for ``THRESHOLDS``,
    the lowest and highest possible scores, of the law ``pmf[x]`` = P(score = x points)."""
    pmf = np.asarray(pmf, dtype=np.float64)
    x = np.arange(len(pmf), dtype=np.float64)
    mean = float(x @ pmf)
    var = float(((x - mean) ** 2) @ pmf)
    cdf = np.cumsum(pmf)
    tail = _tail(pmf)
    nonzero = np.flatnonzero(pmf > 0)
    return {
        "mean": mean,
        "std": math.sqrt(max(var, 0.0)),
        "median": _quantile(pmf, cdf, 0.5),
        "quartiles": [_quantile(pmf, cdf, 0.25), _quantile(pmf, cdf, 0.5), _quantile(pmf, cdf, 0.75)],
        "percentiles": {str(p): _quantile(pmf, cdf, p / 100) for p in PERCENTILES},
        "p_at_least": {str(t): float(tail[t]) if t < len(tail) else 0.0 for t in THRESHOLDS},
        "min_score": int(nonzero[0]),
        "max_score": int(nonzero[-1]),
        "total_probability": float(pmf.sum()),
    }


@dataclass(frozen=True, eq=False)
class ScoreDistribution:
    """The law of the final score of one game: ``pmf[x]`` = P(final score = x points), x = 0..len-1.

    ``p_upper_bonus``: probability that the upper bonus is earned. ``stats``: the artifact's statistics
    (``score_statistics`` plus ``p_upper_bonus``).
    """

    rules: Rules
    pmf: np.ndarray
    p_upper_bonus: float
    stats: dict[str, Any]

    @property
    def mean(self) -> float:
        """Expected final score (points)."""
        return float(self.stats["mean"])

    @property
    def sd(self) -> float:
        """Standard deviation of the final score (points); the artifact's statistics store it as ``std``."""
        return float(self.stats["std"])

    @property
    def median(self) -> int:
        return self.quantile(0.5)

    @property
    def quartiles(self) -> tuple[int, int, int]:
        return self.quantile(0.25), self.quantile(0.5), self.quantile(0.75)

    def quantile(self, q: float) -> int:
        """The smallest score x with P(score <= x) >= q, for q in (0, 1] (q = 1: the highest possible score)."""
        if isinstance(q, bool) or not isinstance(q, int | float | np.floating | np.integer) or not 0 < q <= 1:
            raise ValueError(f"q must be a number in (0, 1], got {q!r}")
        return _quantile(self.pmf, np.cumsum(self.pmf), float(q))

    def percentile(self, p: float) -> int:
        """``quantile(p / 100)``."""
        if isinstance(p, bool) or not isinstance(p, int | float | np.floating | np.integer) or not 0 < p <= 100:
            raise ValueError(f"p must be a number in (0, 100], got {p!r}")
        return self.quantile(p / 100)

    def p_at_least(self, t: int) -> float:
        """P(final score >= t) for an integer number of points ``t`` (1 for t <= 0)."""
        t = integer(t, "t")
        if t <= 0:
            return 1.0
        return float(self.tail[t]) if t < len(self.pmf) else 0.0

    @cached_property
    def tail(self) -> np.ndarray:
        """``tail[t]`` = P(final score >= t), summed from the highest score down (non-increasing in t)."""
        return _tail(self.pmf)

    def cdf(self) -> np.ndarray:
        """``cdf[x]`` = P(final score <= x)."""
        return np.cumsum(self.pmf)

    def as_dict(self) -> dict[str, Any]:
        """The statistics as the command line's ``--json`` prints them: the rule set's name and ``stats``, with
        the standard deviation named ``sd`` as everywhere a person reads it (the text, the web's answer)."""
        return {"rules": self.rules.name, **{"sd" if k == "std" else k: v for k, v in self.stats.items()}}


@lru_cache(maxsize=16)
def _load(rules: Rules, path: Path, stamp: int) -> ScoreDistribution:
    # ``stamp`` makes a republished artifact a new cache entry.
    if not stamp:
        missing, public = (f"{path}: the score distribution of {rules.name!r} is not built",
                           f"the score distribution of rule set {rules.name!r} is not built on this server")
        if layered_only(rules):  # six dice: the law built without a policy table
            raise not_built(missing, public, params=f"{rules.name!r} in yahtzee.law.rule_sets",
                            build=f"yahtzee-law-{dashed(rules)}", cost=LAW_COST)
        raise not_built(missing, public, params=f"{rules.name!r} in yahtzee.rule_sets",
                        build=f"yahtzee-{rules.name}", cost=TABLES_COST + " with the tables")
    with open_artifact(path, schema=DISTRIBUTION_SCHEMA, versions=DISTRIBUTION_VERSIONS,
                       rules=rules.to_dict()) as art:
        pmf = art.read("pmf")
        stats = dict(art.meta.get("stats", {}))
    if pmf.ndim != 1 or not np.all(np.isfinite(pmf)) or (pmf < 0).any():
        raise ArtifactError(f"{path}: pmf is not a law (negative or missing entries)")
    pmf.setflags(write=False)
    return ScoreDistribution(rules=rules, pmf=pmf, p_upper_bonus=float(stats["p_upper_bonus"]), stats=stats)


def distribution(rules: str | Rules = DEFAULT_RULES, *, artifacts_dir: str | Path | None = None) -> ScoreDistribution:
    """The exact law of the final score under optimal play for ``rules``, from the verified artifact.

    ValueError naming an unknown rule set, or the file when it is not built or does not verify.
    """
    rules = get_rules(rules)
    root = Path(artifacts_dir) if artifacts_dir is not None else default_artifacts_dir()
    path = artifact_path(root, distribution_name(rules))
    return _load(rules, path, artifact_stamp(path))
