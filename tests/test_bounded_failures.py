"""Every failure of issue 37 answers with a clear error naming the file, variable or argument, within bounded
time and memory: one test each (times are the benchmarks' business: here, what was read, decoded or planned)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from test_chunked import OPEN, Grid, crc32c, handles, read_shard

from lookup.chunked import ChunkedArray, stored_limit
from lookup.environment import chunk_cache_bytes
from lookup.errors import ArtifactError
from lookup.files import parse_json_bounded
from lookup.store import MANIFEST_NAME, artifact_stamp, open_artifact, verify_problems
from pipeline.cli import main
from tests import shared

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(main, list(args), env=env)


# --- a shard index entry bounded by what a chunk can take ------------------------------------------------

def test_a_sparse_shard_claiming_a_huge_chunk_is_refused_before_any_read(demo):
    """The index says chunk 3 is 1.5 GB at offset 0 of a sparse 1.6 GB shard, its crc32c recomputed: refused
    from the index alone (a 64-byte chunk takes at most ``stored_limit(64)`` bytes), nothing allocated."""
    grid = Grid.of(demo, "codes")
    path, inner = grid.where(3)
    data, index = read_shard(path, grid.n_inner)
    index[inner] = (0, 1_500_000_000)
    tail = index.astype("<u8").tobytes()
    with open(path, "wb") as out:
        out.write(data[:len(data) - len(tail) - 4])
        out.seek(1_600_000_000)  # a hole: no disk used
        out.write(tail + crc32c(tail))
    arrays = handles(demo)
    tracemalloc.start()
    try:
        with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: the index gives chunk {inner} "
                                                rf"1500000000 bytes, more than the {stored_limit(grid.chunk_bytes)}"):
            arrays["codes"][grid.element_in(3)[0]]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20
    assert any("'codes'" in p and "1500000000 bytes" in p for p in verify_problems(demo))


# --- an artifact that is a file or a FIFO, an artifacts directory that is not one ---------------------------

@pytest.mark.parametrize("kind", ["file", "fifo"])
def test_an_artifact_replaced_by_a_file_or_a_fifo_is_named(demo, kind):
    import shutil

    shutil.rmtree(demo)
    if kind == "file":
        demo.write_text("not an artifact")
    else:
        os.mkfifo(demo)
    want = "a regular file" if kind == "file" else "a FIFO"
    assert artifact_stamp(demo) == 0  # what the web app's caches ask first: no NotADirectoryError
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(demo))}: is {want}, not a directory"):
        open_artifact(demo, **OPEN)
    result = _run("verify", "--artifacts", str(demo.parent))
    assert result.exit_code == 1 and f"FAIL {demo}: " in result.output


def test_an_artifacts_directory_that_is_not_a_directory_is_named():
    result = _run("g151", "decide", "300", "250", env={"DICETABLES_ARTIFACTS": "/dev/null"})
    assert result.exit_code == 1
    assert "$DICETABLES_ARTIFACTS='/dev/null': not a directory" in result.output
    assert "Traceback" not in result.output


def test_the_web_app_answers_a_damaged_artifact_with_a_problem_not_a_500(tmp_path):
    from fastapi.testclient import TestClient

    from webapp.app import create_app

    (tmp_path / "g151-stated.zarr").write_text("not an artifact")
    client = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    games = client.get("/api/games").json()["games"]
    assert next(g for g in games if g["name"] == "g151")["setups"] == []  # nothing of 151 is offered
    setup = {"rules": "stated", "target": 1000, "players": 1}
    answer = client.post("/api/games/g151/advise", json={"record": {"game": "g151", "setup": setup, "events": []}})
    assert answer.status_code == 422 and "'stated' is not built" in answer.json()["detail"], answer.text
    answer = client.post("/api/games/g151/map", json={"record": {"game": "g151", "setup": setup, "events": []}})
    assert answer.status_code == 422, answer.text


# --- integers of thousands of digits ----------------------------------------------------------------------

def test_a_5000_digit_integer_names_its_file_and_verify_still_checks_the_disk(demo):
    with pytest.raises(ArtifactError, match=r"^somewhere/x.json: not valid JSON \(Exceeds the limit"):
        parse_json_bounded(b'{"n": ' + b"7" * 5000 + b"}", "somewhere/x.json")
    manifest = demo.parent / MANIFEST_NAME
    manifest.write_text('{"artifacts": [], "n": ' + "7" * 5000 + "}")
    result = _run("verify", "--artifacts", str(demo.parent))
    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert lines[0].startswith(f"FAIL {manifest}: not valid JSON")
    assert lines[1] == f"OK   {demo}"  # the disk is still checked (against the artifact's own checksum)


# --- environment variables and server settings, checked at start --------------------------------------------

@pytest.mark.parametrize("value", ["abc", "nan", "inf", "-1", ""])
def test_a_bad_chunk_cache_size_is_named_not_a_traceback_at_import(value, monkeypatch):
    env = {**os.environ, "DICETABLES_CHUNK_CACHE_MB": value}
    imported = subprocess.run([sys.executable, "-c", "import lookup.chunked, lookup.yahtzee"], env=env,
                              capture_output=True, text=True, timeout=60)
    assert imported.returncode == 0, imported.stderr
    monkeypatch.setenv("DICETABLES_CHUNK_CACHE_MB", value)
    with pytest.raises(ValueError, match=rf"\$DICETABLES_CHUNK_CACHE_MB={value!r}: expected a number of mebibytes"):
        chunk_cache_bytes()
    result = _run("summary", env={"DICETABLES_CHUNK_CACHE_MB": value})
    assert result.exit_code == 1 and "DICETABLES_CHUNK_CACHE_MB" in result.output


@pytest.mark.parametrize("args, env, said", [
    ([], {"DICETABLES_TRUST": "bogus"}, "$DICETABLES_TRUST must be one of ['manifest', 'artifact'], not 'bogus'"),
    ([], {"DICETABLES_CHUNK_CACHE_MB": "inf"}, "$DICETABLES_CHUNK_CACHE_MB='inf'"),
    (["--artifacts", "/dev/null"], {}, "/dev/null: the artifacts directory is not a directory"),
    (["--host", "no.such.host.invalid"], {}, "--host 'no.such.host.invalid': not an address"),
])
def test_the_server_refuses_to_start_on_a_bad_setting(tmp_path, args, env, said):
    """Checked before uvicorn is started (nothing listens): exit status 1 and the message."""
    (tmp_path / MANIFEST_NAME).write_text('{"artifacts": []}')
    result = _run("serve", "--artifacts", str(tmp_path), "--port", "0", *args, env=env)
    assert result.exit_code == 1, result.output
    assert said in result.output


def test_the_server_refuses_an_artifacts_directory_without_its_manifest(tmp_path):
    result = _run("serve", "--artifacts", str(tmp_path), "--port", "0")
    assert result.exit_code == 1 and f"{tmp_path / MANIFEST_NAME}: no manifest" in result.output


# --- command-line file arguments and plugin players ------------------------------------------------------

@pytest.mark.parametrize("hist, said", [
    ("/proc/self/mem", "directory /proc/self is not writable"),
    ("/nonexistent/dir/x.png", "directory /nonexistent/dir does not exist"),
    ("/tmp", "exists and is not a regular file"),
])
def test_a_histogram_path_that_cannot_be_written_is_refused_before_any_game(tmp_path, hist, said):
    result = _run("yahtzee", "simulate", "--player", "random", "--games", "10", "--artifacts", str(tmp_path),
                  "--hist", hist)
    assert result.exit_code == 2 and "--hist" in result.output and said in result.output, result.output
    assert not Path("/nonexistent").exists()


def test_a_figure_that_cannot_be_written_is_a_message_naming_it():
    from pipeline.reports import pyplot, save_figure

    fig = pyplot().figure()
    with pytest.raises(ValueError, match=r"^/proc/self/x\.png: cannot be written"):
        save_figure(fig, "/proc/self/x.png")


def test_a_plugin_player_that_is_not_one_is_refused(tmp_path):
    result = _run("yahtzee", "simulate", "--player", "os:system", "--games", "10", "--artifacts", str(tmp_path))
    assert result.exit_code == 1, result.output
    assert "player 'os:system' cannot be called as player(own, opponent, dice, rerolls_left)" in result.output
    assert "Traceback" not in result.output


def test_a_plugin_player_that_fails_mid_game_is_named():
    from pipeline.yahtzee_lab.match import simulate

    def broken(own, opponent, dice, rerolls_left):
        raise KeyError("no such box")

    with pytest.raises(ValueError, match=r"player 'broken' failed: KeyError"):
        simulate(broken, 1, seed=0, rules="hasbro")


# --- one depth limit for dominoes: library, command line, web ------------------------------------------------

HAND = "6-6,1-1,0-0,0-1,0-2,0-3,0-4"


def test_one_depth_limit_for_the_library_the_command_and_the_web(tmp_path):
    from fastapi.testclient import TestClient

    from lookup.dominoes import MAX_DEPTH, move_values
    from webapp.app import create_app

    deeper = MAX_DEPTH + 1
    said = f"depth={deeper} outside 1..{MAX_DEPTH}"
    with pytest.raises(ValueError, match=re.escape(said)):
        move_values(HAND.split(","), [], 0, depth=deeper)
    result = _run("dominoes", "decide", "--hand", HAND, "--seat", "0", "--depth", str(deeper))
    assert result.exit_code == 1 and said in result.output
    fullwidth = _run("dominoes", "decide", "--hand", HAND, "--seat", "0", "--depth", "１２")  # int() reads it
    assert fullwidth.exit_code == 1 and f"depth=12 outside 1..{MAX_DEPTH}" in fullwidth.output
    client = TestClient(create_app(tmp_path))
    record = {"game": "dominoes", "setup": {"depth": deeper, "you": 0}, "events": HAND.split(",")}
    answer = client.post("/api/games/dominoes/advise", json={"record": record})
    assert answer.status_code == 422 and answer.json()["detail"] == said
    assert move_values(HAND.split(","), [], 0, depth=MAX_DEPTH)  # the limit itself is allowed


# --- an empty batch reads no table ---------------------------------------------------------------------------

def test_an_empty_batch_is_answered_without_decoding_a_table(tmp_path_factory, monkeypatch):
    from lookup.yahtzee import decide_batch

    root = shared.yahtzee(tmp_path_factory, "hasbro")

    real = ChunkedArray.array

    def refuse(self: ChunkedArray) -> np.ndarray:  # chunk digests are read whole on opening: they may be
        assert self.directory.name.endswith(".sha256"), f"{self.directory.name} decoded whole for an empty batch"
        return real(self)

    monkeypatch.setattr(ChunkedArray, "array", refuse)
    empty = np.empty(0, dtype=np.int64)
    for batch in (([], [], [], [], []), (np.empty((0, 5), dtype=np.int64), empty, empty, empty, empty)):
        got = decide_batch(*batch, "hasbro", artifacts_dir=root)
        assert got.shape == (0,) and got.dtype == np.int64


# --- a poker decision's budget bounds the whole call -----------------------------------------------------------

@pytest.mark.parametrize("board, opponents", [("2c7d9h", 2), ("", 8)])
def test_a_poker_decision_plans_no_more_deals_than_its_budget_pays_for(tmp_path_factory, monkeypatch, board,
                                                                       opponents):
    """No exact count fits in 0.05 s: the Monte Carlo that answers draws the deals the numpy engine evaluates in
    0.05 s at its pessimistic rate (it drew 2,000,000, 6-9 s, before). Its wall time: benchmarks/poker.py."""
    from lookup.poker import decide
    from lookup.poker.equity import MIN_DEALS, NumpyEngine

    asked = []
    real = NumpyEngine.monte_carlo
    monkeypatch.setattr(NumpyEngine, "monte_carlo", lambda self, problem, samples, seed:
                        asked.append(samples) or real(self, problem, samples, seed))
    root = shared.poker_preflop(tmp_path_factory)
    got = decide("AsKd", pot=100, to_call=50, board=board, opponents=opponents, budget=0.05, artifacts_dir=root)
    assert not got.exact
    assert asked == [max(MIN_DEALS, int(0.05 * NumpyEngine.mc_rate / (1 + opponents)))]


# --- a symlinked directory inside an artifact ------------------------------------------------------------------

@pytest.mark.parametrize("linked", ["codes/c", "codes"])
def test_a_symlinked_directory_leading_out_of_the_artifact_is_refused_by_lookup_and_verify(demo, tmp_path, linked):
    """The directory is moved outside the artifact, intact, and a symlink left in its place: a reader would read
    the same bytes, but from outside the tree the manifest vouches for; lookup refuses it as verify does."""
    inside = demo / linked
    outside = tmp_path / "elsewhere"
    inside.rename(outside)
    inside.symlink_to(outside, target_is_directory=True)
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(inside))}: is a symlink; refused"):
        handles(demo)["codes"][0]
    assert any(f"{inside}: is a symlink" in p for p in verify_problems(demo))
    result = _run("verify", str(demo))
    assert result.exit_code == 1 and f"FAIL {demo}: " in result.output and "symlink" in result.output
