"""The Farkle report on the small tables: its files, and its numbers are the tables' own."""

from __future__ import annotations

import json

from lookup.farkle.rules import Size, get_rules
from lookup.farkle.tables import load_points, load_table
from pipeline.farkle.report import write_report

RULES = get_rules()


def test_the_report(farkle_tables, tmp_path):
    out = write_report({"report": {"simulation_games": 4, "seed": 2}}, farkle_tables, tmp_path / "farkle")
    assert {p.name for p in out.iterdir()} == {"summary.json", "report.md", "start.png", "points.png"}
    summary = json.loads((out / "summary.json").read_text())
    assert [g["size"] for g in summary["games"]] == [[600, -500, 6], [500, -100, 2]]
    for g in summary["games"]:
        table = load_table(RULES, Size(*g["size"]), farkle_tables)
        i0 = -g["size"][1] // RULES.unit
        assert g["first_player_wins"] == float(table.start[i0, 0, i0, 0]) == table.stats["first_player_wins"]
        assert g["first_player_low"] <= g["first_player_wins"] <= g["first_player_high"]
        assert g["optimal_vs_random"]["games"] == 8 and 0 <= g["optimal_vs_optimal"]["mean"][0] <= 1
    E = load_points(RULES, 6, farkle_tables)
    six = summary["points"]["6"]
    assert six["start"] == float(E[0, 6])
    # Bank from: the first total where banking is best at every total after it (with one die, at once: 300).
    assert six["bank_from"][0] == 300 and six["bank_from"][5] == len(E) * RULES.unit
    assert "| bank from |" in (out / "report.md").read_text()
