"""The strategy tournament: every pair of players, plus the seed's esperance-vs-Decision_Une comparisons.

Settings come from ``params.yaml`` (``yahtzee_lab.tournament``): the players, games per pair, the mode
(``antithetic`` like the seed's final matches), the seed and the batch size. Esperance against
Decision_Une is also played in the ``independent`` and ``coupled`` modes, as in the seed's
first two tournaments. Results are plain dicts (JSON-able); ``pipeline.yahtzee_lab.report`` writes them out.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.progress import progress
from pipeline.yahtzee_lab import stats
from pipeline.yahtzee_lab.distributed import Runner, batches, run_local
from pipeline.yahtzee_lab.players import PlayerSpec, get_player

DEFAULTS: dict[str, Any] = {"rules": "hasbro", "players": ["optimal", "esperance", "decision_une", "perturbation",
                                                           "random"],
                            "games": 100000, "mode": "antithetic", "seed": 2022, "batch": 50000,
                            "comparison_modes": ["independent", "coupled"]}


def settings(section: Mapping[str, Any] | None) -> dict[str, Any]:
    """The tournament settings: DEFAULTS overridden by ``yahtzee_lab.tournament``."""
    cfg = {**DEFAULTS, **dict(section or {})}
    unknown = set(cfg) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"yahtzee_lab.tournament: unknown keys {sorted(unknown)}")
    if cfg["mode"] == "antithetic" and cfg["games"] % 2:
        raise ValueError("yahtzee_lab.tournament.games must be even in antithetic mode")
    return cfg


@dataclass(frozen=True)
class Match:
    """One match: player A against player B, ``games`` games in ``mode``."""

    a: str
    b: str
    mode: str
    games: int

    @property
    def label(self) -> str:
        return f"{self.a} vs {self.b} ({self.mode})"


def matches(cfg: Mapping[str, Any]) -> list[Match]:
    """Every pair of ``players`` in ``mode``, then esperance vs decision_une in each comparison mode."""
    out = [Match(a, b, cfg["mode"], int(cfg["games"])) for a, b in itertools.combinations(cfg["players"], 2)]
    if {"esperance", "decision_une"} <= set(cfg["players"]):
        out += [Match("esperance", "decision_une", m, int(cfg["games"])) for m in cfg["comparison_modes"]
                if m != cfg["mode"]]
    return out


def _specs(names: list[str], artifacts_dir: str | Path | None) -> dict[str, PlayerSpec]:
    """Specs with everything resolved here (Perturbation's weights read once, shipped with the spec)."""
    out = {}
    for name in names:
        spec = get_player(name)
        if spec.kind == "perturbation" and spec.alpha is None:
            from pipeline.yahtzee_lab.tuning import load_weights

            spec = get_player(name, alpha=load_weights(artifacts_dir))
        out[name] = spec
    return out


def play_match(match: Match, specs: Mapping[str, PlayerSpec], cfg: Mapping[str, Any],
               artifacts_dir: str | Path | None, run: Runner = run_local) -> tuple[np.ndarray, np.ndarray]:
    """(scores (games, 2), upper bonus (games, 2)) of one match, batch by batch on ``run``."""
    items = batches(specs[match.a], specs[match.b], match.games, seed=int(cfg["seed"]), mode=match.mode,
                    rules=cfg["rules"], size=int(cfg["batch"]), artifacts_dir=artifacts_dir)
    with progress(match.label, match.games) as advance:
        parts = run(items, advance)
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def run_tournament(section: Mapping[str, Any] | None, artifacts_dir: str | Path | None = None,
                   run: Runner = run_local) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """Play every match. Returns (results, scores by match label): results hold the settings, per match
    each player's ``stats.summary`` and the ``stats.pair`` of A against B, and per player the summary of
    all its games of the round robin (mode ``cfg['mode']``)."""
    cfg = settings(section)
    specs = _specs(list(cfg["players"]), artifacts_dir)
    results: dict[str, Any] = {"settings": cfg, "matches": [], "players": {}}
    if specs.get("perturbation") is not None:
        results["perturbation_alpha"] = list(specs["perturbation"].alpha)
    scores: dict[str, np.ndarray] = {}
    pooled: dict[str, list[tuple[np.ndarray, np.ndarray]]] = {p: [] for p in cfg["players"]}
    for match in matches(cfg):
        s, bonus = play_match(match, specs, cfg, artifacts_dir, run)
        scores[match.label] = s
        results["matches"].append({
            "a": match.a, "b": match.b, "mode": match.mode, "games": match.games,
            "summary_a": stats.summary(s[:, 0], bonus[:, 0]), "summary_b": stats.summary(s[:, 1], bonus[:, 1]),
            "pair": stats.pair(s, match.mode),
        })
        if match.mode == cfg["mode"]:
            pooled[match.a].append((s[:, 0], bonus[:, 0]))
            pooled[match.b].append((s[:, 1], bonus[:, 1]))
    for name, parts in pooled.items():
        if parts:
            results["players"][name] = stats.summary(np.concatenate([p[0] for p in parts]),
                                                     np.concatenate([p[1] for p in parts]))
            scores[f"player {name}"] = np.concatenate([p[0] for p in parts])
    results["exact"] = _exact_means(cfg, artifacts_dir)
    return results, scores


def _exact_means(cfg: Mapping[str, Any], artifacts_dir: str | Path | None) -> dict[str, Any]:
    """Exact statistics (no simulation) of the table players, from the tables' metadata."""
    from lookup.yahtzee.rules import get_rules
    from lookup.yahtzee.tables import load_tables

    out = {}
    for name, rules in (("optimal", cfg["rules"]), ("esperance", "seed")):
        if name in cfg["players"]:
            st = load_tables(get_rules(rules), artifacts_dir).stats
            out[name] = {k: st[k] for k in ("mean", "std", "p_upper_bonus") if k in st}
    return out
