"""The Yahtzee report stage (the strategy lab's tournament): its files, and its command under both names."""

import json

from click.testing import CliRunner

from pipeline.cli import main


def test_tournament_report(lab, tmp_path):
    from pipeline.yahtzee_lab.report import write_files
    from pipeline.yahtzee_lab.tournament import run_tournament

    results, scores = run_tournament({"games": 400, "batch": 100, "seed": 1}, lab)
    assert len(results["matches"]) == 10 + 2
    paths = write_files(results, scores, tmp_path / "report")
    md = (tmp_path / "report" / "tournament.md").read_text()
    assert "236.84" in md and "| esperance | decision_une | independent |" in md
    assert json.loads((tmp_path / "report" / "tournament.json").read_text())["settings"]["games"] == 400
    assert all(p.exists() for p in paths) and len([p for p in paths if p.suffix == ".png"]) == 13


def test_cli_report_and_its_old_name(lab, tmp_path):
    """`dicetables yahtzee report` (the DVC stage's command) and `tournament` run the same report stage."""
    params = tmp_path / "params.yaml"
    params.write_text("yahtzee_lab:\n  tournament:\n    players: [optimal, random]\n    games: 200\n    batch: 100\n"
                      "    comparison_modes: []\n")
    runner = CliRunner()
    for command in ("report", "tournament"):
        out = tmp_path / command
        done = runner.invoke(main, ["--quiet", "yahtzee", command, "--params", str(params), "--artifacts", str(lab),
                                    "--out", str(out), "--games", "100"])
        assert done.exit_code == 0, done.output
        results = json.loads((out / "tournament.json").read_text())
        assert results["settings"]["games"] == 100 and len(results["matches"]) == 1
    same = [(tmp_path / command / "tournament.json").read_bytes() for command in ("report", "tournament")]
    assert same[0] == same[1]
    done = runner.invoke(main, ["yahtzee", "report", "--params", str(tmp_path / "none.yaml"), "--artifacts", str(lab)])
    assert done.exit_code == 1 and "params file not found" in done.output
