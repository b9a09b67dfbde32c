"""The 151 report (``artifacts/reports/g151/``): the notebook's comparisons computed exactly, the optimal
policies beside them, and a seeded simulation check of the exact numbers.

The seed's 151 notebook estimated everything from simulated games with its own code, so its comparisons
are reproduced under the ``notebook`` variant (a 0 after the first roll banks the turn total; alone, only
scoring turns count), with the stated rules beside them. Player 0 moves first, as in its ``desParties``.
Every number written is exact (floats from exact linear fixed points) except the simulation check.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from lookup.g151.rules import RULE_SETS, UNIT, roll_distribution, roll_moments
from pipeline.g151.evaluate import matchup, solitaire_turns
from pipeline.g151.simulate import mean_and_se, simulate_duel, simulate_solitaire
from pipeline.g151.solve import solve_duel, solve_solitaire
from pipeline.g151.strategies import Strategy, au_moins, bernoulli, jusquau_bout, optimal, strategy, un_coup
from pipeline.progress import progress
from pipeline.reports import publish_report, write_json

NOTEBOOK = "notebook"
STEP_TARGETS = list(range(50, 2050, 50))
# The notebook's simulated figures (its printed outputs), for comparison with the exact ones.
NOTEBOOK_ROLL = {"stated": {"mean": 85.32135, "std": 92.73, "p_zero": 0.2781},
                 "straights": {"mean": 96.55695, "p_zero": 0.2500}}
NOTEBOOK_MATCHUPS = {1000: (0.1211, 553.635, 977.425), 500: (0.2483, 315.35, 453.565),
                     5000: (0.0004, 1751.06, 4999.95)}
# The notebook's win-rate plots: (player 0, player 1, targets); the plot shows P(player 1 wins).
WINRATE_PLOTS = {
    "unCoup_vs_jusquauBout": ("unCoup", "jusquauBout", STEP_TARGETS),
    "auMoins100_vs_auMoins200": ("auMoins100", "auMoins200", list(range(50, 1050, 50))),
    "auMoins100_vs_jusquauBout": ("auMoins100", "jusquauBout", list(range(50, 2050, 100))),
    **{f"unCoup_vs_bernoulli_{p:g}": ("unCoup", f"bernoulli_{p:g}", STEP_TARGETS) for p in (0.1, 0.25, 0.5, 0.75, 0.9)},
}
SOLITAIRE_PLAYERS = ["unCoup", "jusquauBout", "auMoins200", "bernoulli_0.5", "optimal"]


def notebook_strategies(n: int) -> list[Strategy]:
    """Every notebook strategy that makes sense for a target of ``n`` units: unCoup, jusquauBout,
    auMoinsX for X = 100 .. target by 50 (auMoins50 is unCoup), Bernoulli(p) for p = 0.05 .. 1 by 0.05."""
    return ([un_coup(), jusquau_bout()] + [au_moins(x) for x in range(100, n * UNIT + 1, UNIT)]
            + [bernoulli(round(p, 2)) for p in np.arange(0.05, 1.0001, 0.05)])


def simulation_checks(rules: str, n: int, player: str, against: str | None, games: int, seed: int) -> list[dict]:
    """Simulated against exact: rows {quantity, exact, simulated, se, z} (z in standard errors)."""
    rows = []

    def row(quantity: str, exact: float, sample: np.ndarray) -> None:
        mean, se = mean_and_se(sample)
        rows.append({"rules": rules, "target": n * UNIT, "quantity": quantity, "exact": exact, "simulated": mean,
                     "se": se, "z": (mean - exact) / se if se > 0 else 0.0, "games": games, "seed": seed})

    if against is None:
        pi = strategy(player).solitaire(n, rules)
        ev = solitaire_turns(pi, rules, n)
        sim = simulate_solitaire(pi, rules, n, games, seed)
        row(f"{player}: expected turns", float(ev.turns[0]), sim.turns)
        row(f"{player}: expected scoring turns", float(ev.scoring_turns[0]), sim.scoring_turns)
        return rows
    pi1, pi2 = strategy(player).duel(n, rules), strategy(against).duel(n, rules)
    m = matchup(pi1, pi2, rules, n)
    sim = simulate_duel(pi1, pi2, rules, n, games, seed, first=0)
    row(f"P({player} wins), {player} first vs {against}", m.p1_wins[0], sim.winner == 0)
    row(f"mean final score of {player}", m.p1_final[0], sim.final[:, 0])
    row(f"mean final score of {against}", m.p2_final[0], sim.final[:, 1])
    return rows


def _roll_section() -> tuple[list[dict], dict]:
    rows, moments = [], {}
    for name in RULE_SETS:
        for pts, p in roll_distribution(name).items():
            rows.append({"rules": name, "points": pts, "probability": str(p), "probability_float": float(p)})
        mean, var = roll_moments(name)
        law = roll_distribution(name)
        moments[name] = {"mean": str(mean), "mean_float": float(mean), "variance": str(var),
                         "std_float": float(var) ** 0.5, "p_zero": str(law[0]), "p_zero_float": float(law[0])}
    return rows, moments


def _matchup_section() -> list[dict]:
    rows = []
    for target, (nb_win, nb_final0, nb_final1) in NOTEBOOK_MATCHUPS.items():
        n = target // UNIT
        for rules in (NOTEBOOK, "stated"):
            m = matchup(un_coup().duel(n, rules), jusquau_bout().duel(n, rules), rules, n)
            rows.append({"rules": rules, "target": target, "p_unCoup_wins": m.p1_wins[0],
                         "p_jusquauBout_wins": m.p2_wins[0], "final_unCoup": m.p1_final[0],
                         "final_jusquauBout": m.p2_final[0], "notebook_p_unCoup_wins": nb_win,
                         "notebook_final_unCoup": nb_final0, "notebook_final_jusquauBout": nb_final1})
    return rows


def _winrate_section(advance: Any) -> list[dict]:
    rows = []
    duels: dict[tuple[str, int], np.ndarray] = {}
    for key, (p0, p1, targets) in WINRATE_PLOTS.items():
        for rules in (NOTEBOOK, "stated"):
            for target in targets:
                n = target // UNIT
                if (rules, n) not in duels:
                    duels[(rules, n)] = optimal().duel(n, rules)
                first = strategy(p0).duel(n, rules)
                m = matchup(first, strategy(p1).duel(n, rules), rules, n)
                opt = matchup(first, duels[(rules, n)], rules, n)
                rows.append({"plot": key, "rules": rules, "target": target, "player0": p0, "player1": p1,
                             "p_player1_wins": m.p2_wins[0], "p_optimal_wins": opt.p2_wins[0]})
        advance()
    return rows


def _solitaire_section() -> list[dict]:
    rows = []
    for rules in (NOTEBOOK, "stated"):
        for target in STEP_TARGETS:
            n = target // UNIT
            for name in SOLITAIRE_PLAYERS:
                ev = solitaire_turns(strategy(name).solitaire(n, rules), rules, n)
                rows.append({"rules": rules, "target": target, "player": name, "turns": float(ev.turns[0]),
                             "scoring_turns": float(ev.scoring_turns[0])})
    return rows


def _optimal_section(variants: list[str], targets: list[int]) -> tuple[list[dict], list[dict], dict]:
    """Optimal play on the table grid: against every notebook strategy (either first), and alone."""
    duel_rows, solo_rows, solutions = [], [], {}
    for rules in variants:
        for target in targets:
            n = target // UNIT
            solo, duel = solve_solitaire(rules, n), solve_duel(rules, n)
            solutions[(rules, target)] = (solo, duel)
            opt = (duel.policy == 1).astype(np.float64)
            for s in notebook_strategies(n):
                m = matchup(opt, s.duel(n, rules), rules, n)
                ev = solitaire_turns(s.solitaire(n, rules), rules, n)
                duel_rows.append({"rules": rules, "target": target, "strategy": s.name,
                                  "p_optimal_wins_optimal_first": m.p1_wins[0],
                                  "p_optimal_wins_strategy_first": m.p1_wins[1],
                                  "p_optimal_wins_average": (m.p1_wins[0] + m.p1_wins[1]) / 2})
                solo_rows.append({"rules": rules, "target": target, "strategy": s.name,
                                  "counted_turns": float(ev.counted[0]), "optimal_counted_turns": float(solo.start[0])})
    return duel_rows, solo_rows, solutions


def _write_csv(path: Path, rows: list[dict]) -> None:
    import csv

    with path.open("w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(rows[0]))
        writer.writeheader()
        for r in rows:
            writer.writerow({k: (f"{v:.12g}" if isinstance(v, float) else v) for k, v in r.items()})


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path | None, out_dir: str | Path) -> Path:
    """Compute everything (from the rules: the report reads no artifact) and publish ``out_dir`` at once;
    returns ``out_dir``."""
    from pipeline.g151.plots import write_plots
    from pipeline.g151.stage import targets_of, variants_of

    out_dir = Path(out_dir)
    settings = section.get("report", {})
    games, seed = int(settings.get("simulation_games", 100_000)), int(settings.get("seed", 151))
    variants, targets = variants_of(section), targets_of(section)
    with progress("151 report", len(WINRATE_PLOTS) + 4) as advance:
        roll_rows, moments = _roll_section()
        matchups = _matchup_section()
        advance()
        winrates = _winrate_section(advance)
        solitaire = _solitaire_section()
        advance()
        duel_rows, solo_rows, solutions = _optimal_section(variants, targets)
        advance()
        checks = (simulation_checks(NOTEBOOK, 20, "unCoup", "jusquauBout", games, seed)
                  + simulation_checks(NOTEBOOK, 20, "unCoup", None, games, seed + 1)
                  + simulation_checks("stated", 20, "optimal", "auMoins200", games, seed + 2)
                  + simulation_checks("stated", 20, "optimal", None, games, seed + 3))
        advance()
    summary = {"roll_moments": moments, "matchups": matchups, "simulation_checks": checks,
               "optimal": {f"{r}/{t}": {"solitaire_turns": float(so.start[0]),
                                        "duel_first_mover_win": float(du.start[0, 0])}
                           for (r, t), (so, du) in solutions.items()}}

    def write(tmp: Path) -> None:
        for name, rows in (("rolls", roll_rows), ("matchups", matchups), ("winrates", winrates),
                           ("solitaire", solitaire), ("optimal_vs_strategies", duel_rows),
                           ("optimal_solitaire_vs_strategies", solo_rows), ("simulation_check", checks)):
            _write_csv(tmp / f"{name}.csv", rows)
        write_json(tmp / "summary.json", summary)
        plots = write_plots(tmp, roll_rows, winrates, solitaire, solutions)
        (tmp / "report.md").write_text(_markdown(moments, matchups, winrates, solitaire, duel_rows, solo_rows,
                                                 solutions, checks, plots))

    publish_report(out_dir, write)
    return out_dir


def _pct(x: float) -> str:
    return f"{100 * x:.4f} %"


def _markdown(moments: dict, matchups: list[dict], winrates: list[dict], solitaire: list[dict],
              duel_rows: list[dict], solo_rows: list[dict], solutions: dict, checks: list[dict],
              plots: list[str]) -> str:
    out = ["# 151: the notebook's comparisons, exactly, and the optimal policies", "",
           "Generated by `dicetables g151 report` (DVC stage `g151-report`). Exact numbers unless marked "
           "simulated; the notebook's own figures are Monte Carlo estimates. Variant `notebook` = the "
           "notebook's code (a 0 after the first roll banks the turn; alone, only scoring turns count).", "",
           "## One roll", "", "| variant | mean (points) | sd | P(0) | notebook (simulated) |",
           "|---|---|---|---|---|"]
    for name, m in moments.items():
        nb = NOTEBOOK_ROLL.get(name, {})
        shown = ", ".join(f"{k} {v}" for k, v in nb.items()) or "-"
        out.append(f"| {name} | {m['mean']} = {m['mean_float']:.6f} | {m['std_float']:.6f} | "
                   f"{m['p_zero']} = {_pct(m['p_zero_float'])} | {shown} |")
    out += ["", "Full laws (exact fractions) in `rolls.csv`.", "",
            "## unCoup (player 0, first) against jusquauBout", "",
            "| variant | target | P(unCoup wins) | mean final unCoup | mean final jusquauBout | notebook (simulated) |",
            "|---|---|---|---|---|---|"]
    for r in matchups:
        out.append(f"| {r['rules']} | {r['target']} | {_pct(r['p_unCoup_wins'])} | {r['final_unCoup']:.3f} | "
                   f"{r['final_jusquauBout']:.3f} | {_pct(r['notebook_p_unCoup_wins'])}, "
                   f"{r['notebook_final_unCoup']}, {r['notebook_final_jusquauBout']} |")
    out += ["", "## Win rates by target (the notebook's plots)", "",
            "P(player 1 wins) with player 0 first, and P(optimal wins) in player 1's seat (the optimal two-player "
            "policy, minimax: not tuned to player 0), under `notebook` rules; every point in `winrates.csv` (both "
            "variants).", "",
            "| plot | target 500 | target 1000 | target 2000 | optimal in player 1's seat, 1000 |",
            "|---|---|---|---|---|"]
    for key in WINRATE_PLOTS:
        pick = {r["target"]: r for r in winrates if r["plot"] == key and r["rules"] == NOTEBOOK}
        # The nearest plotted target within 50 points (one plot steps by 100 from 50), named when it differs.
        near = [min(pick, key=lambda t, want=want: (abs(t - want), -t)) for want in (500, 1000, 2000)]
        cells = ["-" if abs(t - want) > UNIT else _pct(pick[t]["p_player1_wins"]) + ("" if t == want else f" ({t})")
                 for t, want in zip(near, (500, 1000, 2000), strict=True)]
        opt = _pct(pick[near[1]]["p_optimal_wins"]) + ("" if near[1] == 1000 else f" ({near[1]})")
        out.append(f"| {key} | {' | '.join(cells)} | {opt} |")
    out += ["", "## Alone: expected turns to reach the target exactly", "",
            "| player | notebook: scoring turns, 1000 | notebook: all turns, 1000 | stated: turns, 1000 | "
            "stated: turns, 2000 |", "|---|---|---|---|---|"]
    for name in SOLITAIRE_PLAYERS:
        pick = {(r["rules"], r["target"]): r for r in solitaire if r["player"] == name}
        nb, st = pick[(NOTEBOOK, 1000)], pick[("stated", 1000)]
        out.append(f"| {name} | {nb['scoring_turns']:.6f} | {nb['turns']:.6f} | {st['turns']:.6f} | "
                   f"{pick[('stated', 2000)]['turns']:.6f} |")
    out += ["", "(The notebook's 100 simulated games of unCoup to 1000 averaged 9.56 scoring turns.)", "",
            "## Optimal policies (the table grid)", "",
            "| variant | target | optimal expected turns | best notebook strategy alone | first mover wins (both "
            "optimal) | worst case of optimal vs a notebook strategy, averaged over who starts |",
            "|---|---|---|---|---|---|"]
    for (rules, target), (solo, duel) in solutions.items():
        mine = [r for r in solo_rows if r["rules"] == rules and r["target"] == target]
        best = min(mine, key=lambda r: r["counted_turns"])
        duels = [r for r in duel_rows if r["rules"] == rules and r["target"] == target]
        worst = min(duels, key=lambda r: r["p_optimal_wins_average"])
        out.append(f"| {rules} | {target} | {solo.start[0]:.9f} | {best['strategy']} {best['counted_turns']:.9f} | "
                   f"{_pct(duel.start[0, 0])} | {_pct(worst['p_optimal_wins_average'])} ({worst['strategy']}) |")
    out += ["", "Every match-up of the optimal two-player policy against every notebook strategy, either first, "
            "is in `optimal_vs_strategies.csv`; alone, in `optimal_solitaire_vs_strategies.csv`.", "",
            "## Simulation check (seeded)", "", "| variant | target | quantity | exact | simulated +- SE | z |",
            "|---|---|---|---|---|---|"]
    for c in checks:
        out.append(f"| {c['rules']} | {c['target']} | {c['quantity']} | {c['exact']:.6f} | {c['simulated']:.6f} "
                   f"+- {c['se']:.6f} | {c['z']:+.2f} |")
    out += ["", f"{checks[0]['games']} games each; every |z| < 4: {all(abs(c['z']) < 4 for c in checks)}.", "",
            "## Plots", ""] + [f"- [{p}]({p})" for p in plots]
    return "\n".join(out) + "\n"
