"""What playing to win is worth against people, in forced-order Yatzy: every number exact, read from the
tables' stats (``party_build``: 2 players, and 3 when built). Writes
``artifacts/reports/yahtzee-players/`` (summary.json, report.md, a plot).

Two players (both policies fixed make a Markov chain, solved exactly): both play to win (the zero-sum optimum),
both play for expected score (the first player's edge is exactly 0: their scores are independent), and one
plays to win against an expected-score player in either seat (the best response). Three players: every seat
plays to win; each seat's chance to win alone and share of the game.

Heads-up (any rule set of ``yahtzee.towin.rule_sets`` whose ``yahtzee-RULES-headsup-games`` are built): the
seeded games of the heads-up player (``lookup.yahtzee.headsup``) against an expected-score player, its share by
seat with 95 % intervals, beside the exact best response where the 2-player table gives it (forced order).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from lookup.errors import NotBuiltError
from lookup.yahtzee.party import load_party
from pipeline.progress import say
from pipeline.reports import publish_report, pyplot, save_figure, write_json
from pipeline.yahtzee.party_build import settings

# The 2-player match-ups: label, and the outcomes (P(win_0), P(tie_01), P(win_1)) from the table's stats.
MATCHUPS = (("both play to win", lambda st: st["outcomes"]),
            ("both play for expected score", lambda st: st["expected_score"]),
            ("first plays to win, second for expected score", lambda st: st["best_response"][0]),
            ("first for expected score, second plays to win", lambda st: st["best_response"][1]))


def collect(rule_set: str, players: list[int], artifacts_dir: str | Path) -> dict[str, Any]:
    """The exact numbers of one rule set: the 2-player match-ups, and the 3-player game when it is built."""
    out: dict[str, Any] = {"rule_set": rule_set, "two_players": []}
    stats = load_party(rule_set, 2, artifacts_dir).stats
    for label, outcomes in MATCHUPS:
        first, tie, second = (float(outcomes(stats)[k]) for k in ("win_0", "tie_01", "win_1"))
        out["two_players"].append({"matchup": label, "first_wins": first, "tie": tie, "second_wins": second,
                                   "first_share": first + tie / 2, "second_share": second + tie / 2})
    out["three_players"] = None
    if 3 in players:
        try:
            three = load_party(rule_set, 3, artifacts_dir).stats
        except NotBuiltError:
            three = None
        if three is not None:
            out["three_players"] = {"outcomes": three["outcomes"], "shares": three["shares"],
                                    "tie_for_first": three["tie_for_first"], "states": three["states"]}
    return out


def headsup(rule_set: str, artifacts_dir: str | Path) -> dict[str, Any] | None:
    """The heads-up games' summary of ``rule_set`` (None when not built)."""
    from lookup.store import artifact_path, open_artifact
    from lookup.yahtzee.rules import get_rules
    from pipeline.yahtzee.towin_build import GAMES_SCHEMA, GAMES_VERSIONS

    rules = get_rules(rule_set)
    path = artifact_path(Path(artifacts_dir), f"yahtzee-{rules.name}-headsup-games")
    if not path.exists():
        return None
    with open_artifact(path, schema=GAMES_SCHEMA, versions=GAMES_VERSIONS, rules=rules.to_dict(), verify=False) as art:
        return {"rule_set": rule_set, "games": art.meta["params"]["games"], "seed": art.meta["params"]["seed"],
                **{k: art.meta["stats"][k] for k in ("all", "first", "second")}}


def _headsup_lines(h: dict[str, Any], best: dict[str, float] | None) -> list[str]:
    lines = [f"## {h['rule_set']}: heads-up against an expected-score player (simulated)", "",
             f"{h['games']:,} seeded games (seed {h['seed']}): the heads-up player (`decide(..., opponent=SHEET)`) "
             "against a player who plays for expected score, the heads-up player first in half of them. Its share "
             "(P(win) + P(tie) / 2) by common random numbers: the same player A also plays for expected score on "
             "the same dice, whose share is exactly 1/2, and the difference is averaged.", "",
             "| seat | share (95 % interval) | P(win) | P(tie) | games changed | mean score, heads-up / expected |"
             + (" exact best response |" if best else ""),
             "|---|---|---:|---:|---:|---|" + ("---:|" if best else "")]
    for seat in ("first", "second", "all"):
        x = h[seat]
        lo, hi = x["share_ci95"]
        lines.append(f"| {seat} | {x['share']:.5f} ({lo:.5f}-{hi:.5f}) | {x['p_win']:.5f} | {x['p_tie']:.5f} | "
                     f"{x['changed_games']:.3f} | {x['mean_score_heads_up']:.2f} / {x['mean_score_expected']:.2f} |"
                     + (f" {best[seat]:.5f} |" if best and seat in best else (" |" if best else "")))
    return lines + [""]


def _headsup_figure(plt: Any, h: dict[str, Any], best: dict[str, float] | None, path: Path) -> None:
    # The shares differ from 1/2 by tenths of a percent: draw each seat's interval around its estimate.
    fig, ax = plt.subplots(figsize=(7, 3))
    seats = ["first", "second", "all"]
    for y, seat in enumerate(seats):
        x = h[seat]
        lo, hi = x["share_ci95"]
        ax.errorbar([100 * x["share"]], [y], xerr=[[100 * (x["share"] - lo)], [100 * (hi - x["share"])]], fmt="o",
                    color="tab:blue", capsize=4, label="heads-up player (95 % interval)" if y == 0 else None)
        if best and seat in best:
            ax.plot([100 * best[seat]], [y], "k|", markersize=16, label="exact best response" if y == 0 else None)
    ax.axvline(50, color="grey", linewidth=0.8, linestyle="--", label="expected-score player (exactly 50)")
    ax.set_yticks(range(len(seats)), [f"{s} seat" if s != "all" else "both seats" for s in seats])
    ax.invert_yaxis()
    ax.set_xlabel("share of the games against an expected-score player (%; a tie counts half)")
    ax.set_title(f"{h['rule_set']}: heads-up player against an expected-score player")
    ax.legend(fontsize=7, loc="upper right")
    save_figure(fig, path)
    plt.close(fig)


def write_report(section: Mapping[str, Any], artifacts_dir: str | Path, out_dir: str | Path) -> Path:
    """The report for every rule set of ``yahtzee.duel.rule_sets``; out_dir written at once."""
    # Without a yahtzee.duel section (the compile step's smallest instance) there is nothing to report.
    duel = settings(section) if section.get("duel") is not None else {"rule_sets": [], "players": []}
    results = []
    for name in duel["rule_sets"]:
        say(f"  play to win against people: {name}")
        results.append(collect(name, duel["players"], artifacts_dir))
    towin = section.get("towin") or {}
    heads = [h for h in (headsup(name, artifacts_dir) for name in towin.get("rule_sets", [])) if h is not None]
    # The exact best response to an expected-score player, where the 2-player table gives it (forced order).
    responses = {}
    for r in results:
        _, _, first, second = r["two_players"]
        responses[r["rule_set"]] = {"first": first["first_share"], "second": second["second_share"]}

    def write(tmp: Path) -> None:
        write_json(tmp / "summary.json", {"results": results, "heads_up": heads})
        lines = ["# Playing to win against people: forced-order Yatzy", "",
                 "Exact probabilities from the start of a game (backward induction over every joint state; with "
                 "both policies fixed, the exact Markov chain). No simulation. A tie counts half (two players); "
                 "with three players a sole winner scores 1 and m tied winners 1/m each (the share).", ""]
        plt = pyplot()
        for r in results:
            lines += [f"## {r['rule_set']}: two players", "",
                      "| match-up | P(first wins) | P(tie) | P(second wins) | first's share | second's share |",
                      "|---|---:|---:|---:|---:|---:|"]
            for m in r["two_players"]:
                lines.append(f"| {m['matchup']} | {m['first_wins']:.10f} | {m['tie']:.10f} | "
                             f"{m['second_wins']:.10f} | {m['first_share']:.6f} | {m['second_share']:.6f} |")
            opt, es, first_resp, second_resp = r["two_players"]
            lines += ["", f"Playing second is worth {100 * (opt['second_share'] - opt['first_share']):.2f} "
                      "percentage points when both play to win, and exactly 0 when both play for expected score. "
                      "Against an expected-score player, playing to win is worth "
                      f"{100 * (first_resp['first_share'] - 0.5):+.2f} points of share as first player and "
                      f"{100 * (second_resp['second_share'] - 0.5):+.2f} as second.", ""]
            # The differences are a few tenths of a percent: plot the first player's edge, not the whole bar.
            fig, ax = plt.subplots(figsize=(8, 3.8))
            labels = [m["matchup"].replace(", ", ",\n") for m in r["two_players"]]
            edge = [100 * (m["first_share"] - m["second_share"]) for m in r["two_players"]]
            bars = ax.barh(labels, edge, color=["tab:blue" if e >= 0 else "tab:orange" for e in edge])
            ax.bar_label(bars, labels=[f"{e:+.2f}" for e in edge], padding=3, fontsize=8)
            ax.axvline(0, color="black", linewidth=0.8)
            lim = max(abs(e) for e in edge) * 1.4 + 0.1
            ax.set_xlim(-lim, lim)
            ax.set_xlabel("first player's share minus second's (percentage points; a tie counts half)")
            ax.invert_yaxis()
            ax.set_title(f"{r['rule_set']}, two players: the first player's edge")
            figure = f"{r['rule_set'].replace('+', '-')}-two-players.png"
            save_figure(fig, tmp / figure)
            plt.close(fig)
            lines += [f"![Two players]({figure})", ""]
            three = r["three_players"]
            lines += [f"## {r['rule_set']}: three players", ""]
            if three is None:
                lines += ["Not built: `yahtzee.duel.players: [2, 3]` in params.yaml builds the 3-player table "
                          "(about four minutes).", ""]
                continue
            o = three["outcomes"]
            lines += ["Every seat plays to win.", "", "| | seat 0 (first) | seat 1 | seat 2 (last) |",
                      "|---|---:|---:|---:|",
                      f"| P(wins alone) | {o['win_0']:.10f} | {o['win_1']:.10f} | {o['win_2']:.10f} |",
                      "| share | " + " | ".join(f"{three['shares'][f'seat_{j}']:.10f}" for j in range(3)) + " |",
                      "", f"P(some tie for the win) = {three['tie_for_first']:.10f} (all three: "
                      f"{o['tie_012']:.3g}); {three['states']:,} joint states.", ""]
        if not results:
            lines += ["No table of play between players is configured (`yahtzee.duel` in params.yaml).", ""]
        for h in heads:
            best = responses.get(h["rule_set"])
            lines += _headsup_lines(h, best)
            figure = f"{h['rule_set'].replace('+', '-')}-heads-up.png"
            _headsup_figure(plt, h, best, tmp / figure)
            lines += [f"![Heads-up]({figure})", ""]
        (tmp / "report.md").write_text("\n".join(lines) + "\n")

    publish_report(out_dir, write)
    return Path(out_dir)
