"""The report stage on the built tables: its files, its exact numbers against an independent count."""

import json
from fractions import Fraction

from click.testing import CliRunner

from pipeline.cli import main
from tests.tictactoe.test_tictactoe_play import _after


def test_report(built, tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text("tictactoe:\n  rule_sets: [standard]\n  models: [random, first, last, greedy, perfect]\n"
                      "  report:\n    players: [perfect, predictive]\n")
    out_dir = tmp_path / "report"
    for _ in range(2):  # republishing replaces the directory at once, leaving no temporary
        result = CliRunner().invoke(main, ["--quiet", "tictactoe", "report", "--params", str(params),
                                           "--artifacts", str(built), "--out", str(out_dir)])
        assert result.exit_code == 0, result.output
    assert {p.name for p in out_dir.iterdir()} == {"summary.json", "report.md", "matchups.png"}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    summary = json.loads((out_dir / "summary.json").read_text())
    assert summary["tables"]["positions"] == 5478 and summary["tables"]["terminal"] == 958
    rows = {(e["player"], e["model"], e["seat"]): e for e in summary["matchups"]}
    assert len(rows) == 2 * 5 * 2
    # theory: perfect play against perfect play draws; a best response to random moving first never loses
    assert rows[("perfect", "perfect", "first")]["draw"] == rows[("perfect", "perfect", "second")]["draw"] == "1"
    assert rows[("predictive", "random", "first")]["loss"] == "0"
    for e in summary["matchups"]:
        assert Fraction(e["win"]) + Fraction(e["draw"]) + Fraction(e["loss"]) == 1
    # Against "first" (deterministic) a best response moving first gets its plain-search value for sure.
    sure = max(_after(".........", m) for m in range(9))
    assert rows[("predictive", "first", "first")][{1: "win", 0: "draw", -1: "loss"}[sure]] == "1"
    # The report prints the computed fractions, not only fixed text.
    text = (out_dir / "report.md").read_text()
    for e in summary["matchups"]:
        assert (f"| {e['player']} | {e['model']} | {e['seat']} | {e['win']} ({float(Fraction(e['win'])):.2%}) | "
                f"{e['draw']} ({float(Fraction(e['draw'])):.2%}) | {e['loss']} ({float(Fraction(e['loss'])):.2%}) |"
                in text)
