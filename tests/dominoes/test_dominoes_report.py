"""The experiment stage and the report on small params: counts against a replay of the same seeded games,
intervals against scipy's Wilson interval, reproducibility, the files of the report."""

import json
import shutil

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.stats import binomtest

from lookup.dominoes import engine as E
from lookup.dominoes import load_matchups
from pipeline.cli import main
from pipeline.dominoes.experiment import Settings, player_setup, seeds, wilson
from pipeline.dominoes.kernels import run_games
from tests.dominoes.conftest import PARAMS


def test_experiment_counts_are_the_seeded_games(built):
    m = load_matchups(artifacts_dir=built)
    assert m.players == ("predictive", "realistic") and m.models == ("random", "strong")
    assert m.counts.shape == (2, 2, 2, 3) and (m.counts.sum(axis=3) == 12).all()
    settings = Settings.from_params({"experiment": m.params})
    # The compiled games equal the plain-Python engine's, game by game (same seeds, same results).
    for player in m.players:
        kind, mk, w = player_setup(player, "strong", settings.models)
        for seat in (0, 1):
            plain = [E.play_game(int(s), kind, seat, E.STRONG, mk, w, settings.depth, settings.samples,
                                 float(settings.max_exact), 0, settings.endgame, settings.budget,
                                 np.zeros((0, 2), np.int64))
                     for s in seeds(settings)]
            c = m.outcome(player, "strong", seat)
            assert c == (plain.count(1.0), plain.count(0.0), plain.count(-1.0))


def test_results_do_not_depend_on_threads():
    kind, mk, w = player_setup("bayesian", "first", ["random", "first", "last", "strong", "greedy"])
    s = np.arange(40, dtype=np.int64) + 77
    one = run_games(s, kind, 1, E.FIRST, mk, w, 2, 3, 50, 0, 0, 2000, threads=1)
    assert (run_games(s, kind, 1, E.FIRST, mk, w, 2, 3, 50, 0, 0, 2000, threads=2) == one).all()
    assert (run_games(s[::-1].copy(), kind, 1, E.FIRST, mk, w, 2, 3, 50, 0, 0, 2000, threads=2) == one[::-1]).all()
    # One compiled signature for the recursive search: a second (from a literal argument) is what numba's
    # cache reloads wrongly (numba issue #6713: a crash on the next run, not this one).
    from pipeline.dominoes.kernels import engine as J

    assert len(J.belief_search.signatures) <= 1  # 0 when loaded from the cache, 1 when compiled here


@pytest.mark.parametrize("k, n", [(0, 10), (7, 10), (10, 10), (6982, 10000), (1, 3)])
def test_wilson_interval_equals_scipy(k, n):
    ci = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    assert wilson(k, n) == pytest.approx((ci.low, ci.high), abs=1e-12)


def test_bad_params_are_refused():
    with pytest.raises(ValueError, match="unknown .*opponent model 'perfect'"):
        Settings.from_params({"experiment": {"models": ["random", "perfect"]}})
    with pytest.raises(ValueError, match="dominoes.experiment.games"):
        Settings.from_params({"experiment": {"games": 0}})
    assert Settings.from_params({"experiment": {"full": True}}).games == 10_000


def test_report(built, tmp_path):
    params = tmp_path / "params.yaml"
    params.write_text(PARAMS)
    out_dir = tmp_path / "report"
    for _ in range(2):  # republishing replaces the directory at once, leaving no temporary
        result = CliRunner().invoke(main, ["--quiet", "dominoes", "report", "--params", str(params),
                                           "--artifacts", str(built), "--out", str(out_dir)])
        assert result.exit_code == 0, result.output
    assert {p.name for p in out_dir.iterdir()} == {"summary.json", "report.md", "winrates.png"}
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    summary = json.loads((out_dir / "summary.json").read_text())
    m = load_matchups(artifacts_dir=built)
    rows = {(r["player"], r["model"], r["seat"]): r for r in summary["matchups"]}
    assert len(rows) == 2 * 2 * 3
    for (player, model, seat), r in rows.items():
        c = [m.outcome(player, model, s) for s in ((0, 1) if seat == "both" else (("first", "second").index(seat),))]
        assert (r["win"], r["draw"], r["loss"]) == tuple(sum(x) for x in zip(*c, strict=True))
        assert r["win_ci95"] == list(wilson(r["win"], r["games"]))
    # report.md prints the counts of the artifact with scipy's Wilson interval, beside the seed's fixed figures.
    text = (out_dir / "report.md").read_text()

    def cell(c):
        ci = binomtest(c[0], sum(c)).proportion_ci(confidence_level=0.95, method="wilson")
        return f"{c[0] / sum(c):.2%} [{ci.low:.2%}, {ci.high:.2%}]"

    for player in m.players:
        for model in m.models:
            seats = [m.outcome(player, model, s) for s in (0, 1)]
            both = tuple(a + b for a, b in zip(*seats, strict=True))
            w, d, lo = seats[0]
            assert f"| {player} | {model} | first | {w} | {d} | {lo} | {cell(seats[0])} |" in text
            assert f" | {cell(seats[0])} | {cell(seats[1])} | {cell(both)} |" in text  # beside the seed's row


def test_cli_match():
    result = CliRunner().invoke(main, ["dominoes", "match", "realistic", "strong", "--games", "6", "--depth", "1",
                                       "--samples", "2", "--json"])
    assert result.exit_code == 0, result.output
    rows = json.loads(result.output)["rows"]
    assert [r["seat"] for r in rows] == ["first", "second", "both"]
    assert sum(rows[2][k] for k in ("win", "draw", "loss")) == 12
    bad = CliRunner().invoke(main, ["dominoes", "match", "realistic", "perfect", "--games", "2"])
    assert bad.exit_code != 0 and "perfect" in bad.output


@pytest.mark.parametrize("how", ["flip", "rewrite"])
def test_a_damaged_experiment_is_refused_naming_the_problem(built, tmp_path, how):
    """A flipped bit (crc32c) or a changed count re-encoded with a valid crc32c (sha256 digest), in a private copy:
    load_matchups (which the report and the lookups read through) refuses it."""
    from test_chunked import damage_chunk

    from lookup.store import ArtifactError

    root = tmp_path / "artifacts"
    shutil.copytree(built, root)
    message = damage_chunk(root / "dominoes-matchups.zarr", "counts", how)
    with pytest.raises(ArtifactError, match=message):
        load_matchups(artifacts_dir=root)
