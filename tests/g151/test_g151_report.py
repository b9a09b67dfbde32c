"""The report stage writes the notebook's comparisons (exact), the optimal policies and the plots."""

import json

import pytest

from pipeline.g151.report import write_report


@pytest.mark.slow
def test_report(tmp_path):
    section = {"variants": ["stated", "notebook"], "targets": [500, 1000],
               "report": {"simulation_games": 20_000, "seed": 3}}
    out = write_report(section, None, tmp_path / "reports" / "g151")
    names = {p.name for p in out.iterdir()}
    assert {"report.md", "summary.json", "rolls.csv", "winrates.csv", "policy_solitaire.png",
            "policy_duel_stated_1000.png", "winrate_unCoup_vs_jusquauBout.png"} <= names
    summary = json.loads((out / "summary.json").read_text())
    assert summary["roll_moments"]["stated"]["mean"] == "1025/12"
    nb1000 = next(r for r in summary["matchups"] if r["rules"] == "notebook" and r["target"] == 1000)
    assert nb1000["p_unCoup_wins"] == pytest.approx(0.1224387787, abs=1e-9)
    assert all(abs(c["z"]) < 4 for c in summary["simulation_checks"])
    # Republishing replaces the directory atomically and leaves no temporary behind.
    write_report(section, None, out)
    assert [p.name for p in out.parent.iterdir()] == ["g151"]
