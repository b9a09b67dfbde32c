"""The artifacts, the `dicetables dicerace` commands and the report on the small built games."""

import json

import numpy as np
from click.testing import CliRunner

from lookup.store import read_meta, verify_problems
from pipeline.cli import main


def _run(*args):
    return CliRunner().invoke(main, list(args))


def test_artifacts_are_verified_and_self_describing(built):
    for name in ("sequential", "oneshot", "simultaneous", "matchups"):
        path = built / f"dicerace-{name}.zarr"
        assert verify_problems(path) == []
        meta = read_meta(path)
        assert meta["schema"] == f"dicerace.{name}" and meta["game"] == "dicerace"
    meta = read_meta(built / "dicerace-simultaneous.zarr")
    assert {"d3_n20_value", "d5_n30_flags", "d3_n20_mixed"} <= set(meta["arrays"])
    assert meta["stats"]["d5_n30"]["lp_states"] + meta["stats"]["d5_n30"]["certified_states"] > 0
    assert read_meta(built / "dicerace-oneshot.zarr")["stats"]["d3_exact"][0] == ["0", "-3/8", "-49/216"]


def test_show_decide_match(built):
    out = _run("dicerace", "show", "--dice", "5", "--target", "30", "--artifacts", str(built))
    assert out.exit_code == 0, out.output
    assert "EG(0, 0)" in out.output and "exact match-ups" in out.output
    out = _run("dicerace", "decide", "10", "20", "--dice", "5", "--target", "30", "--mode", "simultaneous",
               "--artifacts", str(built))
    assert out.exit_code == 0 and "roll" in out.output and "d= 5" in out.output
    out = _run("dicerace", "match", "optimal", "blind", "--dice", "3", "--target", "20", "--mode", "sequential",
               "--simulate", "2000", "--artifacts", str(built))
    assert out.exit_code == 0 and "a_first" in out.output and "simulated" in out.output
    bad = _run("dicerace", "decide", "40", "0", "--dice", "5", "--target", "30", "--artifacts", str(built))
    assert bad.exit_code == 1 and "my_score=40" in bad.output


def test_show_json_is_the_tables(built):
    """`dicerace show --json`: the numbers the text shows, under the library's names (SequentialTable's value, win,
    lose and optimal, SimultaneousTable's value and flags, the match-ups as the report's matchups.json holds them)."""
    from lookup.dicerace import explain, sequential_table, simultaneous_table
    from lookup.dicerace.tables import MIXED, NO_SADDLE, NOT_UNIQUE
    from pipeline.dicerace.report import read_matchups

    out = _run("dicerace", "show", "--dice", "5", "--target", "30", "--step", "7", "--artifacts", str(built), "--json")
    assert out.exit_code == 0, out.output
    got = json.loads(out.output)
    seq, sim = sequential_table(5, 30, artifacts_dir=built), simultaneous_table(5, 30, artifacts_dir=built)
    assert (got["dice"], got["target"]) == (5, 30)
    assert got["sequential"]["value"] == seq.value[0, 0] and got["sequential"]["win"] == seq.win[0, 0]
    assert got["sequential"]["lose"] == seq.lose[0, 0] and got["sequential"]["scores"] == [0, 7, 14, 21, 28]
    for i, mine in enumerate(got["sequential"]["scores"]):
        for j, other in enumerate(got["sequential"]["scores"]):
            assert got["sequential"]["optimal"][i][j] == list(explain(mine, other, dice=5, target=30,
                                                                      artifacts_dir=built).optimal)
    flags = np.asarray(sim.flags)
    assert got["simultaneous"] == {"value": sim.value[0, 0], "states": 900, "flags": {
        "mixed": int((flags & MIXED > 0).sum()), "not_unique": int((flags & NOT_UNIQUE > 0).sum()),
        "no_saddle": int((flags & NO_SADDLE > 0).sum())}}
    meta, arrays = read_matchups(built)
    names = meta["stats"]["simultaneous_policies"]
    entry = next(e for e in got["matchups"]["simultaneous"] if (e["a"], e["b"]) == (names[0], names[1]))
    win, draw, loss = arrays["d5_n30_simultaneous"][0, 1]
    assert entry == {"a": names[0], "b": names[1], "exact": {"win": win, "draw": draw, "loss": loss,
                                                              "gain": win - loss}}
    assert {(e["a"], e["b"], e["first"]) for e in got["matchups"]["sequential"]} >= {("optimal", "blind", "a")}
    text = CliRunner().invoke(main, ["dicerace", "show", "--dice", "5", "--target", "30", "--artifacts", str(built)],
                              env={"COLUMNS": "250"}).output  # rich wraps at the width
    assert f"EG(0, 0) = {seq.value[0, 0]:+.9f}" in text and f"wins with probability {seq.win[0, 0]:.9f}" in text


def test_report(built, tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text("dicerace:\n  max_dice: 10\n  report:\n    simulation_games: 3000\n    seed: 4\n")
    out_dir = tmp_path / "report"
    result = _run("--quiet", "dicerace", "report", "--params", str(params), "--artifacts", str(built),
                  "--out", str(out_dir))
    assert result.exit_code == 0, result.output
    names = {p.name for p in out_dir.iterdir()}
    for key in ("d3_n20", "d5_n30"):
        assert {f"sequential_{key}.png", f"simultaneous_{key}.png", f"matchups_{key}.png"} <= names
    report = json.loads((out_dir / "matchups.json").read_text())
    assert report["simulation"] == {"games": 3000, "seed": 4}
    assert report["max_abs_z"] < 5
    entries = report["games"]["d5_n30"]["sequential"]
    assert {(e["a"], e["b"], e["first"]) for e in entries} >= {("optimal", "blind", "a"), ("blind", "optimal", "b")}
