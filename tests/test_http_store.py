"""Reading the tables over HTTP without copying them (lookup/remote.py; docs/artifacts.md, "Reading over HTTP").

A real HTTP server process (tests/range_server.py: ``python -m http.server`` answers no byte range) serves a copy
of the run's hasbro Yahtzee tables; each question is asked by a fresh Python process with
``DICETABLES_ARTIFACTS=http://127.0.0.1:PORT/`` and its own cache directory (``XDG_CACHE_HOME``), as a user would.
Checked: the answers equal those read from the directory itself; only a few percent of the bytes cross the
network (counted by the server); a second run answers from the disk cache, which is checked on every read (a
damaged cache file is fetched again) and bounded in size; a server that lies (a flipped byte in a chunk or a
shard index, an edited zarr.json), a manifest that is not the pinned one, a server that stalls (before or during
an answer), is dead, or answers no ranges: each an ``ArtifactError`` naming the URL, within the time limit.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lookup import remote
from lookup.environment import check_environment
from lookup.errors import ArtifactError
from lookup.store import artifact_path, open_artifact
from tests import shared

ROOT = Path(__file__).resolve().parent.parent
CASES = [([1, 3, 3, 5, 6], 2, {"ones": 3}), ([2, 2, 3, 4, 6], 1, {"ones": 3, "twos": 6}),
         ([6, 6, 6, 2, 1], 0, {"chance": 20, "yahtzee": 50}), ([5, 5, 5, 5, 5], 0, {})]
# One fresh process: the answers as JSON, or the error; and what this process fetched (lookup.remote.STATS).
ASK = """
import json, sys
from lookup import remote
from lookup.yahtzee import decide
try:
    out = {"answers": [decide(d, r, s, "hasbro").as_dict() for d, r, s in json.loads(sys.argv[1])]}
except ValueError as exc:
    out = {"error": type(exc).__name__, "message": str(exc)}
print(json.dumps({**out, "fetched": remote.STATS}))
"""


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's hasbro tables (read only: the server serves them as they are)."""
    return shared.yahtzee(tmp_path_factory, "hasbro")


@pytest.fixture(scope="module")
def local(tables: Path) -> list[dict]:
    """The answers read from the directory itself."""
    out = ask(str(tables), Path("/nonexistent"))
    assert "answers" in out, out
    return out["answers"]


def ask(artifacts: str, cache: Path, cases: list = CASES, **env: str) -> dict:
    """What a fresh process answers (``ASK``) with ``DICETABLES_ARTIFACTS=artifacts`` and its cache in ``cache``."""
    full = {k: v for k, v in os.environ.items() if not k.startswith("DICETABLES_")}
    full.update(DICETABLES_ARTIFACTS=artifacts, XDG_CACHE_HOME=str(cache), PYTHONPATH=str(ROOT), **env)
    done = subprocess.run([sys.executable, "-c", ASK, json.dumps(cases)], env=full, capture_output=True, text=True,
                          timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class Server:
    """A tests/range_server.py process serving ``directory``."""

    def __init__(self, directory: Path, *flags: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "range_server.py"), str(directory),
                                      *flags], stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline())
        self.url = f"http://127.0.0.1:{self.port}/"

    def stats(self) -> dict[str, int]:
        with urllib.request.urlopen(self.url + "__stats__", timeout=10) as answer:
            return json.loads(answer.read())

    def stop(self) -> None:
        self.proc.kill()
        self.proc.wait()


@pytest.fixture
def serve() -> Iterator[Callable[..., Server]]:
    """Start servers (``serve(directory, *flags)``); every one is stopped after the test."""
    started: list[Server] = []

    def start(directory: Path, *flags: str) -> Server:
        started.append(Server(directory, *flags))
        return started[-1]

    yield start
    for server in started:
        server.stop()


def _copy(tables: Path, tmp_path: Path) -> Path:
    target = tmp_path / "served"
    shutil.copytree(tables, target)
    return target


def _size(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def test_a_decide_over_http_equals_the_local_answer_and_fetches_only_some_chunks(tables, local, serve, tmp_path):
    server = serve(tables)
    out = ask(server.url, tmp_path / "cache")
    assert out.get("answers") == local, out
    sent = server.stats()
    assert out["fetched"] == [sent["requests"], sent["bytes"]]  # what the client counted is what the server sent
    # The policy and value tables are 14 MB; the answers need the manifest, the metadata, the chunk digests (read
    # whole: they are checked against the signed sha256) and a few chunks: about 3% of it.
    assert sent["bytes"] < 0.06 * _size(tables), (sent, _size(tables))
    assert sent["ranges"] >= 10


def test_the_second_run_answers_from_the_disk_cache_which_is_checked_on_every_read(tables, local, serve, tmp_path):
    server = serve(tables)
    cache = tmp_path / "cache"
    assert ask(server.url, cache)["answers"] == local
    first = server.stats()
    files = sorted((cache / "dicetables" / "http").iterdir(), key=lambda p: p.stat().st_size)
    assert len(files) == first["ranges"]
    assert ask(server.url, cache)["answers"] == local
    second = server.stats()
    assert second["ranges"] == first["ranges"], "a cached range was fetched again"
    assert second["bytes"] - first["bytes"] < first["bytes"] / 5  # only the manifest and the zarr.json files

    # A flipped byte in the largest cached range, another range truncated, a third swapped for a fourth's bytes:
    # each fails its check when read, and is fetched again.
    damaged = bytearray(files[-1].read_bytes())
    damaged[len(damaged) // 2] ^= 0x10
    files[-1].write_bytes(bytes(damaged))
    files[-2].write_bytes(files[-2].read_bytes()[:-1])
    files[-3].write_bytes(files[-4].read_bytes())
    assert ask(server.url, cache)["answers"] == local
    third = server.stats()
    assert third["ranges"] - second["ranges"] == 3
    assert ask(server.url, cache)["answers"] == local
    assert server.stats()["ranges"] == third["ranges"]  # the fetched ranges were cached again


def test_the_disk_cache_is_bounded(tables, local, serve, tmp_path):
    server = serve(tables)
    cache = tmp_path / "cache"
    out = ask(server.url, cache, DICETABLES_HTTP_CACHE_MB="0.1")
    assert out["answers"] == local
    assert 0 < _size(cache) <= 0.1 * (1 << 20)
    assert ask(server.url, tmp_path / "none", DICETABLES_HTTP_CACHE_MB="0")["answers"] == local
    assert not (tmp_path / "none" / "dicetables").exists()


@pytest.mark.parametrize("lie", ["chunk", "index", "metadata"])
def test_a_lying_server_is_an_artifact_error_naming_the_url(lie, tables, local, serve, tmp_path):
    served = _copy(tables, tmp_path)
    if lie == "metadata":  # a statistic of the value table changed, its JSON still valid
        path = served / "yahtzee-hasbro-values.zarr" / "zarr.json"
        text = path.read_text()
        doc = json.loads(text)
        doc["attributes"]["dicetables"]["stats"]["mean"] = 300.0
        path.write_text(json.dumps(doc))
        expected = "metadata altered"
    else:
        path = served / "yahtzee-hasbro-values.zarr" / "value.sha256" / "c" / "0" / "0"  # read whole by every answer
        data = bytearray(path.read_bytes())
        data[100 if lie == "chunk" else -10] ^= 0x01
        path.write_bytes(bytes(data))
        expected = "chunk 0 fails its crc32c" if lie == "chunk" else "the shard index fails its crc32c"
        text = None
    server = serve(served)
    cache = tmp_path / "cache"
    out = ask(server.url, cache)
    url = server.url + path.relative_to(served).parent.as_posix() if lie == "metadata" else \
        server.url + path.relative_to(served).as_posix()
    assert out.get("error") == "ArtifactError", out
    assert out["message"].startswith(url) and expected in out["message"], out["message"]
    # Nothing that failed was cached: once the server tells the truth, the same cache answers.
    shutil.copyfile(tables / path.relative_to(served), path)
    assert ask(server.url, cache)["answers"] == local


def test_a_pinned_manifest_sha256_is_required(tables, local, serve, tmp_path):
    import hashlib

    server = serve(tables)
    right = hashlib.sha256((tables / "MANIFEST.json").read_bytes()).hexdigest()
    wrong = hashlib.sha256(b"another manifest").hexdigest()
    out = ask(server.url, tmp_path / "cache", DICETABLES_MANIFEST_SHA256=wrong)
    assert out.get("error") == "ArtifactError", out
    assert out["message"].startswith(f"{server.url}MANIFEST.json: its sha256 {right} is not the pinned "), out
    assert ask(server.url, tmp_path / "cache", DICETABLES_MANIFEST_SHA256=right.upper())["answers"] == local
    # The pinned manifest is then read from the disk cache: only the 10 zarr.json files are fetched.
    again = ask(server.url, tmp_path / "cache", DICETABLES_MANIFEST_SHA256=right)
    assert again["answers"] == local and again["fetched"][0] == 10, again["fetched"]
    assert ask(server.url, tmp_path / "cache", DICETABLES_MANIFEST_SHA256=wrong).get("error") == "ArtifactError"


@pytest.mark.parametrize("stall", ["head", "body"])
def test_a_stalled_server_is_an_error_within_the_time_limit(stall, tables, serve, tmp_path):
    server = serve(tables, "--stall", stall)
    start = time.monotonic()
    out = ask(server.url, tmp_path / "cache", DICETABLES_HTTP_TIMEOUT="1")
    assert time.monotonic() - start < 8
    assert out.get("error") == "ArtifactError", out
    assert out["message"] == (f"{server.url}MANIFEST.json: no complete answer within 1 s ($DICETABLES_HTTP_TIMEOUT): "
                              "the server stalls or is too slow")


def test_a_dead_server_or_one_without_ranges_is_a_clear_error(tables, serve, tmp_path):
    server = serve(tables)
    server.stop()
    out = ask(server.url, tmp_path / "cache")
    assert out.get("error") == "ArtifactError", out
    assert out["message"].startswith(f"{server.url}MANIFEST.json: cannot be fetched (ConnectionRefusedError"), out
    plain = serve(tables, "--no-ranges")
    out = ask(plain.url, tmp_path / "cache")
    assert out.get("error") == "ArtifactError", out
    assert "ignored the byte range asked for and sent the whole file (HTTP 200)" in out["message"], out
    assert plain.stats()["bytes"] < 0.01 * _size(tables)  # the whole file was refused, not read


def test_an_artifact_the_server_does_not_list_or_an_hdf5_mirror_is_refused(tables, serve, tmp_path):
    server = serve(tables)
    out = ask(server.url, tmp_path / "cache", cases=[[[1, 2, 3, 4, 5], 2, {}]])
    assert "answers" in out
    code = ("from lookup.yahtzee import decide\ntry:\n    decide([1, 2, 3, 4, 5], 2, {}, 'seed')\n"
            "except ValueError as exc:\n    print(exc)")
    env = {**os.environ, "DICETABLES_ARTIFACTS": server.url, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    said = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60,
                          cwd=ROOT).stdout
    assert said.startswith(f"{server.url}yahtzee-seed-values.zarr: the 'seed' Yahtzee tables (values and policy) "
                           "are not built"), said
    h5 = artifact_path(server.url, "yahtzee-hasbro-values").with_suffix(".h5")
    with pytest.raises(ArtifactError, match=r"^http://127\.0\.0\.1:\d+/yahtzee-hasbro-values\.h5: HDF5 mirrors "
                                            r"are not read over HTTP"):
        open_artifact(h5, schema="yahtzee.values", versions=[1])


def test_urls_and_settings_are_checked(monkeypatch):
    path = remote.remote_root("https://example.org:8443/tables/")
    assert str(path / "MANIFEST.json") == "https://example.org:8443/tables/MANIFEST.json"
    assert remote.remote_root(Path("https://example.org/t")) == remote.remote_root("https://example.org/t/")
    assert remote.remote_root("artifacts") is None and remote.remote_root(Path("/srv/artifacts")) is None
    with pytest.raises(TypeError, match="a URL, not a local file"):
        os.fspath(path)
    for name, value, message in (
            ("DICETABLES_ARTIFACTS", "ftp://example.org/", "only http:// and https:// URLs are read"),
            ("DICETABLES_ARTIFACTS", "https://user:secret@example.org/", "no credentials, query or fragment"),
            ("DICETABLES_ARTIFACTS", "https://example.org/?x=1", "no credentials, query or fragment"),
            ("DICETABLES_ARTIFACTS", "https://example.org:99999/", "Port out of range"),
            ("DICETABLES_HTTP_TIMEOUT", "0", "expected a number of seconds in (0, 3600]"),
            ("DICETABLES_HTTP_TIMEOUT", "nan", "expected a number of seconds"),
            ("DICETABLES_HTTP_CACHE_MB", "-1", "expected a number of mebibytes"),
            ("DICETABLES_MANIFEST_SHA256", "abc", "expected the 64 hex digits")):
        with monkeypatch.context() as m:
            m.setenv(name, value)
            with pytest.raises(ValueError, match=rf"{re.escape(f'${name}={value!r}: ')}.*{re.escape(message)}"):
                check_environment()


def test_the_commands_that_work_on_files_refuse_a_url(monkeypatch):
    from click.testing import CliRunner

    from pipeline.cli import main

    monkeypatch.setenv("DICETABLES_ARTIFACTS", "https://example.org/tables/")
    for command in ("verify", "clean", "manifest", "summary"):
        done = CliRunner().invoke(main, [command])
        assert done.exit_code == 1, (command, done.output)
        assert f"https://example.org/tables: `dicetables {command}` works on the files" in done.output
