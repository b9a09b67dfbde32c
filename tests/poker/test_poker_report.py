"""The poker report: the grids, the JSON table and the published figures beside ours."""

import pytest


@pytest.mark.slow
def test_report_writes_the_grids_and_published_figures(preflop_artifacts, tmp_path):
    from lookup.poker.play import preflop
    from pipeline.poker.report import write_report

    out = write_report({}, preflop_artifacts, tmp_path / "poker")
    assert sorted(p.name for p in out.iterdir()) == ["preflop.json", "report.md", "vs1.png", "vs2.png"]
    text = (out / "report.md").read_text()
    # Published figure beside ours: ours is the table's exact fraction (AA's equals the engine's independent
    # count, test_poker_equity.test_aces_against_one_random_hand), printed to 4 decimals.
    for hand, published in (("AA", 85.2), ("72o", 34.6)):
        exact = preflop(hand, artifacts_dir=preflop_artifacts).fraction
        assert f"| {hand} vs random | {published} % | {100 * float(exact):.4f} % |" in text
