"""The Yahtzee report stage (the strategy lab's tournament): its files, and its command under both names."""

import json

import numpy as np
from click.testing import CliRunner

from lookup.yahtzee import get_rules
from lookup.yahtzee.tables import load_tables
from pipeline.cli import main


def test_tournament_report(lab, tmp_path):
    """The numbers the report prints are those of the games played, recomputed here from the raw scores with
    numpy (not through pipeline.yahtzee_lab.stats); the exact means are the tables' (the optimal one is the
    published start value, docs/yahtzee.md: 254.5877287), and the simulated mean agrees with it at 5 standard
    errors. The seed's own figures (236.84 ...) are constants of the template: only their presence is checked."""
    from pipeline.yahtzee_lab.report import write_files
    from pipeline.yahtzee_lab.tournament import run_tournament

    results, scores = run_tournament({"games": 400, "batch": 100, "seed": 1}, lab)
    assert len(results["matches"]) == 10 + 2
    paths = write_files(results, scores, tmp_path / "report")
    md = (tmp_path / "report" / "tournament.md").read_text()
    pct = lambda x: f"{100 * x:.1f} %"  # noqa: E731
    for name in ("optimal", "esperance", "decision_une", "perturbation", "random"):
        x = scores[f"player {name}"].astype(np.float64)
        assert len(x) == 4 * 400  # four antithetic matches of 400 games each
        row = f"| {name} | {len(x):,} | {x.mean():.2f} ["
        assert row in md and f"] | {x.std(ddof=1):.2f} | {np.quantile(x, 0.25):.0f} | " \
            f"{np.median(x):.0f} |" in md.split(row, 1)[1].split("\n", 1)[0], name
    exact = load_tables(get_rules("hasbro"), lab).stats["mean"]
    assert abs(exact - 254.5877287) < 1e-6 and f"| {exact:.4f} |" in md.split("| optimal |", 1)[1].split("\n", 1)[0]
    sets = scores["player optimal"].reshape(-1, 2).mean(axis=1)  # antithetic: the sets are the independent units
    assert abs(sets.mean() - exact) < 5 * sets.std(ddof=1) / np.sqrt(len(sets))
    for m in results["matches"]:
        s = scores[f"{m['a']} vs {m['b']} ({m['mode']})"]
        a, b = s[:, 0], s[:, 1]
        row = f"| {m['a']} | {m['b']} | {m['mode']} | {pct((a > b).mean())} ["
        assert row in md, row
        rest = md.split(row, 1)[1].split("\n", 1)[0]
        assert f"| {pct((a == b).mean())} | {pct((a < b).mean())} | {(a - b).mean():.2f} [" in rest, row
    esperance = scores["esperance vs decision_une (independent)"][:, 0]
    seed_exact = load_tables(get_rules("seed"), lab).stats["mean"]
    assert f"Our esperance averages {esperance.mean():.2f} points (exactly {seed_exact:.2f};" in md
    assert "236.84" in md  # the seed report's figure, a constant of the template
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
