

def test_report_plots_and_tabulates_the_laws(hasbro_tables, tmp_path):
    """`dicetables yahtzee report` with yahtzee_lab.distributions: the table, the JSON and the figure."""
    params = tmp_path / "params.yaml"
    params.write_text("yahtzee_lab:\n  tournament:\n    players: [optimal, random]\n    games: 200\n    batch: 100\n"
                      "    comparison_modes: []\n  distributions: [hasbro]\n")
    out = tmp_path / "report"
    done = CliRunner().invoke(main, ["--quiet", "yahtzee", "report", "--params", str(params), "--artifacts",
                                     str(hasbro_tables), "--out", str(out), "--games", "100"])
    assert done.exit_code == 0, done.output
    law = json.loads((out / "distributions.json").read_text())["hasbro"]
    assert law["median"] == 248 and abs(sum(law["pmf"].values()) - 1) < 1e-12
    md = (out / "tournament.md").read_text()
    assert "## Exact score distributions" in md and "| hasbro | 254.5877 |" in md
    assert (out / "score-distributions.png").stat().st_size > 10_000
