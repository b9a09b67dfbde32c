"""The poker report: the grids, the JSON table and the published figures beside ours."""

import pytest


@pytest.mark.slow
def test_report_writes_the_grids_and_published_figures(preflop_artifacts, tmp_path):
    from pipeline.poker.report import write_report

    out = write_report({}, preflop_artifacts, tmp_path / "poker")
    assert sorted(p.name for p in out.iterdir()) == ["preflop.json", "report.md", "vs1.png", "vs2.png"]
    text = (out / "report.md").read_text()
    assert "| AA vs random | 85.2 % | 85.2037 % |" in text and "| 72o vs random | 34.6 % | 34.5836 % |" in text
