"""The tournament report: ``tournament.json``, ``tournament.md`` and PNG histograms in one directory, with
the exact score distributions of the rule sets in ``yahtzee_lab.distributions`` (``score_laws``).

The Markdown puts our numbers next to the seed's (its tournament tables; the seed's esp = our
``esperance``, hum = ``decision_une``, Perturb = ``perturbation``) and says in a sentence where and why
they differ.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from pipeline.reports import publish_report, write_json
from pipeline.yahtzee_lab.plots import histogram

# The seed's published figures: (section, what, seed value, how to read ours from the results).
SEED = [
    ("5.1 independent", "esperance mean score", "236.84 +- 0.33", ("summary_a", "esperance", "decision_une",
                                                                     "independent", "mean")),
    ("5.1 independent", "decision_une mean score", "230.95 +- 0.38", ("summary_b", "esperance", "decision_une",
                                                                         "independent", "mean")),
    ("5.1 independent", "esperance sd / decision_une sd", "52.96 / 60.74", ("stds", "esperance", "decision_une",
                                                                                "independent", None)),
    ("5.1 independent", "esperance wins against decision_une", "53.2 +- 0.3 %", ("win", "esperance",
                                                                                  "decision_une", "independent",
                                                                                  None)),
    ("5.2 coupled", "esperance wins against decision_une", "59.4 +- 0.3 %", ("win", "esperance", "decision_une",
                                                                              "coupled", None)),
    ("5.2 coupled", "mean score gap when esperance wins", "37.58", ("gap", "esperance", "decision_une", "coupled",
                                                                    None)),
    ("5.3 antithetic", "esperance wins against decision_une", "55.2 +- 0.3 %", ("win", "esperance",
                                                                                 "decision_une", "antithetic",
                                                                                 None)),
    ("5.3 antithetic", "score difference esperance - decision_une", "11.98 +- 0.35", ("diff", "esperance",
                                                                                       "decision_une",
                                                                                       "antithetic", None)),
    ("5.3 antithetic", "set points esperance / decision_une (per set)", "0.409 / 0.251", ("points", "esperance",
                                                                                        "decision_une",
                                                                                        "antithetic", None)),
    ("6.3.1 antithetic", "perturbation wins against decision_une", "55.3 +- 0.3 %", ("win", "perturbation",
                                                                                     "decision_une", "antithetic",
                                                                                     None)),
    ("6.3.1 antithetic", "score difference perturbation - decision_une", "10.67 +- 0.35", ("diff", "perturbation",
                                                                                           "decision_une",
                                                                                           "antithetic", None)),
    ("6.3.2 antithetic", "perturbation wins / draws against esperance", "49.8 % / 0.9 %", ("windraw",
                                                                                            "perturbation",
                                                                                            "esperance",
                                                                                            "antithetic", None)),
    ("6.3.2 antithetic", "perturbation wins excluding draws", "50.2 %", ("wex", "perturbation", "esperance",
                                                                          "antithetic", None)),
]


def _find(results: Mapping[str, Any], a: str, b: str, mode: str) -> tuple[dict[str, Any], bool] | None:
    """The match of a and b in ``mode`` and whether it was played as (b, a)."""
    for m in results["matches"]:
        if m["mode"] == mode and (m["a"], m["b"]) in ((a, b), (b, a)):
            return m, m["a"] != a
    return None


def _pct(x: float) -> str:
    return f"{100 * x:.1f} %"


def _ci(ci: list[float], pct: bool = False) -> str:
    return f"[{_pct(ci[0])}, {_pct(ci[1])}]" if pct else f"[{ci[0]:.2f}, {ci[1]:.2f}]"


def _ours(results: Mapping[str, Any], what: tuple) -> str:
    kind, a, b, mode, field = what
    found = _find(results, a, b, mode)
    if found is None:
        return "not played"
    m, swapped = found
    p = m["pair"]
    win, loss = ("loss", "win") if swapped else ("win", "loss")
    sign = -1 if swapped else 1
    if kind in ("summary_a", "summary_b"):
        side = {"summary_a": "summary_b", "summary_b": "summary_a"}[kind] if swapped else kind
        s = m[side]
        return f"{s[field]:.2f} {_ci(s['mean_ci'])}"
    if kind == "stds":
        sa, sb = (m["summary_b"], m["summary_a"]) if swapped else (m["summary_a"], m["summary_b"])
        return f"{sa['std']:.2f} / {sb['std']:.2f}"
    if kind == "win":
        return f"{_pct(p[win]['rate'])} {_ci(p[win]['ci'], pct=True)}"
    if kind == "windraw":
        return f"{_pct(p[win]['rate'])} / {_pct(p['draw']['rate'])}"
    if kind == "wex":
        return _pct(p["win_excluding_draws"] if not swapped else 1 - p["win_excluding_draws"])
    if kind == "gap":
        return f"{p['gap_when_b_wins' if swapped else 'gap_when_a_wins']:.2f}"
    if kind == "diff":
        lo, hi = (sign * x for x in p["difference_ci"])
        return f"{sign * p['difference_mean']:.2f} [{min(lo, hi):.2f}, {max(lo, hi):.2f}]"
    if kind == "points":
        sa, sb = (p["sets"]["b"], p["sets"]["a"]) if swapped else (p["sets"]["a"], p["sets"]["b"])
        return f"{sa['points_rate']:.3f} / {sb['points_rate']:.3f}"
    raise ValueError(kind)


def _differences(results: Mapping[str, Any]) -> str:
    """A sentence on how our numbers differ from the seed's, with the numbers that explain it."""
    esp = _find(results, "esperance", "decision_une", "independent")
    parts = []
    exact = results.get("exact", {}).get("esperance", {})
    if esp is not None and exact:
        m, swapped = esp
        mean = (m["summary_b"] if swapped else m["summary_a"])["mean"]
        parts.append(
            f"Our esperance averages {mean:.2f} points (exactly {exact['mean']:.2f}; upper bonus in "
            f"{_pct(exact['p_upper_bonus'])} of games) against the seed's 236.84: our `seed` table is the exact "
            "optimum of the game without the bonus, whereas the seed's ESPERANCE was built by hand-written "
            "recursions (one Joker flag instead of the Yahtzee-box state, a bonus threshold the report gives as 65, "
            "two days lost to a Joker bug), so its policy scored less")
        une = m["summary_a"] if swapped else m["summary_b"]
        parts.append(
            f"our decision_une ({une['mean']:.2f} points) is a reconstruction from the report's description, "
            "not the seed's code (its exact recognition rules and weights are not published), and plays worse "
            "than the seed's (230.95), so esperance beats it more often than the seed's 53.2 %")
    pert = _find(results, "perturbation", "esperance", results["settings"]["mode"])
    if pert is not None:
        m, swapped = pert
        wex = m["pair"]["win_excluding_draws"]
        wex = 1 - wex if swapped else wex
        parts.append(
            f"Perturbation wins {_pct(wex)} of the decided games against esperance (seed: 50.2 %): its twelve "
            "functions are our reading of section 6.1 and its weights come from our own random walk")
    return "; ".join(parts) + "." if parts else ""


def _slug(label: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", label.lower()).strip("-")


def markdown(results: Mapping[str, Any], figures: Mapping[str, str]) -> str:
    """The report as Markdown tables (scores in points, rates in %, 95% intervals in brackets)."""
    cfg = results["settings"]
    lines = ["# Yahtzee strategy tournament", "",
             f"Rules `{cfg['rules']}` (upper bonus always paid), {cfg['games']:,} games per match, seed "
             f"{cfg['seed']}, round robin in `{cfg['mode']}` mode. Scores are real final scores (points); "
             "intervals are 95%.", "", "## Players (all their round-robin games)", "",
             "| player | games | mean | sd | q1 | median | q3 | upper bonus | exact mean |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, s in results["players"].items():
        exact = results.get("exact", {}).get(name, {}).get("mean")
        lines.append(f"| {name} | {s['n']:,} | {s['mean']:.2f} {_ci(s['mean_ci'])} | {s['std']:.2f} | {s['q1']:.0f} | "
                     f"{s['median']:.0f} | {s['q3']:.0f} | {_pct(s['p_upper_bonus'])} | "
                     f"{'' if exact is None else f'{exact:.4f}'} |")
    lines += ["", "## Matches", "",
              "| A | B | mode | A wins | draws | B wins | A - B (points) | variance reduction | set points A / B |",
              "|---|---|---|---|---|---|---|---|---|"]
    for m in results["matches"]:
        p = m["pair"]
        sets = p.get("sets")
        set_points = f"{sets['a']['points_rate']:.3f} / {sets['b']['points_rate']:.3f}" if sets else ""
        lines.append(f"| {m['a']} | {m['b']} | {m['mode']} | {_pct(p['win']['rate'])} {_ci(p['win']['ci'], True)} | "
                     f"{_pct(p['draw']['rate'])} | {_pct(p['loss']['rate'])} | {p['difference_mean']:.2f} "
                     f"{_ci(p['difference_ci'])} | {p['variance_reduction']:.2f} | {set_points} |")
    lines += ["", "Set points (antithetic): a total win (both games of a set) counts 1, a partial win (one game, "
              "higher set mean) 1/2; shown per set.", "",
              "## Against the original student report (docs/yahtzee_lab.md)", "",
              "| section | measure | seed | ours |", "|---|---|---|---|"]
    for section, what, seed_value, how in SEED:
        lines.append(f"| {section} | {what} | {seed_value} | {_ours(results, how)} |")
    lines += ["", _differences(results), "", "## Figures", ""]
    lines += [f"![{label}]({name})" for label, name in figures.items()]
    return "\n".join(lines) + "\n"


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path, *,
                 scheduler: str | None = None, local_cluster: int | None = None, games: int | None = None) -> Path:
    """Play the tournament of ``section["tournament"]`` (``games`` per match if given; game batches on a Dask
    ``scheduler`` or a ``local_cluster`` of that many workers if given) and write its report; returns
    ``out_dir``."""
    from pipeline.yahtzee_lab.distributed import runner
    from pipeline.yahtzee_lab.tournament import run_tournament

    cfg = dict(section.get("tournament") or {})
    if games is not None:
        cfg["games"] = games
    from lookup.yahtzee.score_law import distribution

    names = section.get("distributions") or []
    if not isinstance(names, list):
        raise ValueError("yahtzee_lab.distributions must be a list of rule sets")
    laws = {name: distribution(name, artifacts_dir=artifacts_dir) for name in names}
    with runner(scheduler, local_cluster) as run:
        results, scores = run_tournament(cfg, artifacts_dir, run)
    write_files(results, scores, out_dir, laws)
    return Path(out_dir)


def write_files(results: Mapping[str, Any], scores: Mapping[str, np.ndarray], out_dir: str | Path,
                laws: Mapping[str, Any] | None = None) -> list[Path]:
    """Write tournament.json, tournament.md and one PNG per match (plus players.png) into ``out_dir`` (the
    directory at once), and with ``laws`` (rule set -> ``ScoreDistribution``) distributions.json and their
    figure; returns their paths, the JSON and Markdown first."""
    out_dir = Path(out_dir)
    names = publish_report(out_dir, lambda tmp: _write(results, scores, tmp, laws or {}))
    return [out_dir / name for name in names]


def _write(results: Mapping[str, Any], scores: Mapping[str, np.ndarray], out: Path,
           laws: Mapping[str, Any]) -> list[str]:
    from pipeline.yahtzee import score_laws

    figures: dict[str, str] = {}
    for m in results["matches"]:
        label = f"{m['a']} vs {m['b']} ({m['mode']})"
        s = scores[label]
        name = f"match-{_slug(label)}.png"
        histogram(out / name, {m["a"]: s[:, 0], m["b"]: s[:, 1]}, label)
        figures[label] = name
    pooled = {k.removeprefix("player "): v for k, v in scores.items() if k.startswith("player ")}
    if pooled:
        histogram(out / "players.png", pooled, "all players (round-robin games)")
        figures["all players"] = "players.png"
    write_json(out / "tournament.json", results)
    text = markdown(results, figures)
    if not laws:
        (out / "tournament.md").write_text(text)
        return ["tournament.json", "tournament.md", *figures.values()]
    write_json(out / "distributions.json", score_laws.laws_json(laws))
    score_laws.plot_laws(out / score_laws.FIGURE, laws)
    (out / "tournament.md").write_text(text + "\n" + "\n".join(score_laws.laws_markdown(laws)))
    return ["tournament.json", "tournament.md", *figures.values(), "distributions.json", score_laws.FIGURE]
