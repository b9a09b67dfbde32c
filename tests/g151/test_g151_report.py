"""The report stage writes the notebook's comparisons (exact), the optimal policies and the plots."""

import json

import pytest

from lookup.g151.rules import UNIT, get_rules
from pipeline.g151.report import write_report

from .reference import enumerated_law, un_coup_against_jusquau_bout


@pytest.mark.slow
def test_report(tmp_path):
    section = {"variants": ["stated", "notebook"], "targets": [500, 1000],
               "report": {"simulation_games": 20_000, "seed": 3}}
    out = write_report(section, None, tmp_path / "reports" / "g151")
    names = {p.name for p in out.iterdir()}
    assert {"report.md", "summary.json", "rolls.csv", "winrates.csv", "policy_solitaire.png",
            "policy_duel_stated_1000.png", "winrate_unCoup_vs_jusquauBout.png"} <= names
    summary = json.loads((out / "summary.json").read_text())
    # The numbers, in summary.json and in report.md, against the enumerated roll law and the turn-by-turn
    # rational match-up of tests/g151/reference.py.
    mean = UNIT * sum(v * p for v, p in enumerated_law(get_rules("stated")).items())
    assert summary["roll_moments"]["stated"]["mean"] == str(mean) == "1025/12"
    text = (out / "report.md").read_text()
    assert f"| stated | {mean} = {float(mean):.6f} |" in text
    for rules in ("notebook", "stated"):
        exact = float(un_coup_against_jusquau_bout(20, rules))
        row = next(r for r in summary["matchups"] if r["rules"] == rules and r["target"] == 1000)
        assert row["p_unCoup_wins"] == pytest.approx(exact, abs=1e-13)
        assert f"| {rules} | 1000 | {100 * exact:.4f} % |" in text
    assert all(abs(c["z"]) < 4 for c in summary["simulation_checks"])
    # Written through publish_report, whose republishing (the whole directory at once, no temporary left) is
    # tested in tests/test_reports.py: writing this report a second time here cost 4.5 s and proved no more.
    assert [p.name for p in out.parent.iterdir()] == ["g151"]
