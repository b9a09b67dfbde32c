"""Shipping the tables through a DVC remote (docs/artifacts.md, "Getting the tables of a commit").

A publisher repository, a copy of this project whose params.yaml holds the small instance of 151 (its
tables built once per run by tests/shared.py, recorded with ``dvc commit`` as the stages would have built them:
builds are byte-reproducible), pushes them with ``make push`` to a shared-directory remote. A real HTTP server
(``python -m http.server``, started here) serves that directory. Like this project, the publisher commits no
remote: each consumer names DVC's http remote at that server. Then each road a consumer may take at a given
commit: ``git clone`` + ``dvc pull``, ``dvc get``, ``dvc import``, each held to the bytes the publisher built
(every file, and the server's log shows they crossed HTTP: the publisher's own cache is gone) and to
``dicetables verify``. A byte flipped in the remote is pulled without a word by DVC (it does not rehash a
download unless the remote says ``verify true``; ``dvc status`` sees nothing either) and caught by
``dicetables verify``, or refused by ``dvc pull`` when the remote says ``verify true``.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

from pipeline import dvc_yaml, registry
from pipeline.family import load_params
from pipeline.store import artifact_paths, write_manifest
from tests import shared
from tests.test_dvc import _copy_worktree

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
GAMES = ("g151",)  # two tables (Zarr stores of 61 files and HDF5 mirrors): ~125 files to move
GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]


def _env(home: Path) -> dict[str, str]:
    """The commands' environment: the venv's commands first, DVC's global, system and site directories
    private to this test (no machine configuration read, no index left in /var/tmp), no analytics or update
    check, and no DICETABLES_ARTIFACTS (each command names its directory)."""
    env = {k: v for k, v in os.environ.items() if k != "DICETABLES_ARTIFACTS"}
    env["PATH"] = f"{BIN}{os.pathsep}{env['PATH']}"
    for name in ("global", "system", "site"):
        (home / name).mkdir(parents=True, exist_ok=True)
    (home / "global" / "config").write_text("[core]\n    analytics = false\n    check_update = false\n")
    env.update(DVC_GLOBAL_CONFIG_DIR=str(home / "global"), DVC_SYSTEM_CONFIG_DIR=str(home / "system"),
               DVC_SITE_CACHE_DIR=str(home / "site"), DVC_NO_ANALYTICS="1")
    return env


def _run(env: dict[str, str], cwd: Path, *args: str, ok: bool = True) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True)
    if ok:
        assert done.returncode == 0, f"{' '.join(args)} (in {cwd}):\n{done.stdout}{done.stderr}"
    return done


def _files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _md5(data: bytes) -> str:
    return hashlib.md5(data).hexdigest()


def _object(remote: Path, md5: str) -> Path:
    """Where DVC 3 keeps an object in a remote (and a cache)."""
    return remote / "files" / "md5" / md5[:2] / md5[2:]


class _Server:
    """``python -m http.server`` on a free port of 127.0.0.1, serving ``root``; its request log is kept."""

    def __init__(self, root: Path, log: Path) -> None:
        self.log = log
        self.proc = subprocess.Popen([sys.executable, "-u", "-m", "http.server", "--bind", "127.0.0.1",
                                      "--directory", str(root), "0"],
                                     stdout=subprocess.PIPE, stderr=log.open("w"), text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()  # "Serving HTTP on 127.0.0.1 port NNNN (http://127.0.0.1:NNNN/) ..."
        assert "port" in line, line
        self.url = f"http://127.0.0.1:{int(line.split(' port ')[1].split()[0])}"

    def requests(self, since: int = 0) -> list[str]:
        """The paths requested (GET or HEAD) after the ``since``-th request."""
        lines = [line for line in self.log.read_text().splitlines() if '"GET ' in line or '"HEAD ' in line]
        return [line.split('"')[1].split()[1] for line in lines[since:]]

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(timeout=10)


def _publish(home: Path, sources: list[Path]) -> dict[str, str]:
    """The publisher, in ``home``: this project with the small params of GAMES, the stages of their tables and
    the manifest (the reports left out: they are not tables, and a directory output travels like a Zarr store),
    the tables built for those params (copies of ``sources``), committed, then pushed by ``make push`` to the
    shared directory ``home/remote``. Then the tables leave the publisher (moved to ``home/built``) with its
    cache: consumers can get them from the remote alone."""
    if home.exists():
        shutil.rmtree(home)  # a failed attempt of this run
    env = _env(home / "dvc")
    repo, remote = home / "publisher", home / "remote"
    remote.mkdir(parents=True)
    (repo / "artifacts").mkdir(parents=True)
    for path in (p for source in sources for p in artifact_paths(source)):
        (shutil.copytree if path.is_dir() else shutil.copy2)(path, repo / "artifacts" / path.name)
    write_manifest(repo / "artifacts", verified=artifact_paths(repo / "artifacts"))  # copies of verified builds
    _copy_worktree(repo)
    params = "".join(shared.small_params(game) for game in GAMES)
    (repo / "params.yaml").write_text(params)
    small = yaml.safe_load(params)
    table, notes = dvc_yaml.stages({**load_params(), **small})
    keep = set(registry.families(small))
    outs = {out for name in keep for out in table[name]["outs"]}
    table = {name: stage for name, stage in table.items() if name in keep or name == "manifest"}
    table["manifest"]["deps"] = [d for d in table["manifest"]["deps"] if not d.startswith("artifacts/") or d in outs]
    (repo / "dvc.yaml").write_text(dvc_yaml.render(table, notes))
    (repo / "dvc.lock").unlink()  # the project's: the stages record these tables afresh
    _run(env, repo, "dvc", "commit", "--force", "--quiet")
    status = _run(env, repo, "dvc", "status")
    assert "Data and pipelines are up to date" in status.stdout, status.stdout
    _run(env, repo, *GIT, "add", "-A")
    _run(env, repo, *GIT, "commit", "-qm", "small tables")
    # The maintainer's remote: the shared directory, named in .dvc/config.local (never committed).
    _run(env, repo, "dvc", "remote", "add", "--local", "shared", str(remote))
    # The maintainer's command (Makefile): verify, check against dvc.lock, `dvc push --remote shared`.
    pushed = _run(env, repo, "make", "--no-print-directory", "push", "REMOTE=shared", f"BIN={BIN}", "STAMP=")
    assert "dvc push --remote shared" in pushed.stdout and "OK   " in pushed.stdout, pushed.stdout
    shutil.move(repo / "artifacts", home / "built")
    shutil.rmtree(repo / ".dvc" / "cache")
    return {"repo": str(repo), "remote": str(remote), "built": str(home / "built"), "pushed": pushed.stdout,
            "commit": _run(env, repo, "git", "rev-parse", "HEAD").stdout.strip(),
            "lock": (repo / "dvc.lock").read_text()}


@pytest.fixture(scope="module")
def published(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """The publisher's repository after ``make push`` (once per run, shared by the workers: read only); the
    commit consumers ask for; the bytes it built; the remote, and this process's HTTP server in front of it."""
    sources = [shared.small(tmp_path_factory, game) for game in GAMES]
    home = shared.run_dir(tmp_path_factory) / "dvc-publisher"
    done = shared.computed(tmp_path_factory, "dvc-publisher", lambda: _publish(home, sources))
    base = tmp_path_factory.mktemp("remote")
    served = base / "served"  # the remote as "tables", and damaged copies beside it
    served.mkdir()
    (served / "tables").symlink_to(done["remote"])
    server = _Server(served, base / "http.log")
    try:
        built = Path(done["built"])
        yield SimpleNamespace(repo=Path(done["repo"]), commit=done["commit"], built=built, files=_files(built),
                              remote=Path(done["remote"]), served=served, server=server, url=f"{server.url}/tables",
                              env=_env(base / "dvc"), pushed=done["pushed"], lock=done["lock"])
    finally:
        server.stop()


def _verify(published: SimpleNamespace, artifacts: Path, ok: bool = True) -> list[str]:
    done = _run(published.env, artifacts.parent, str(BIN / "dicetables"), "verify", "--artifacts", str(artifacts),
                ok=False)
    lines = done.stdout.splitlines()
    if ok:
        assert done.returncode == 0, done.stdout + done.stderr
        names = sorted(p.name for p in published.built.iterdir() if p.suffix in (".zarr", ".h5"))
        assert sorted(Path(line.split()[1]).name for line in lines) == names  # one OK line per table
        assert all(line.startswith("OK   ") for line in lines), lines
    else:
        assert done.returncode == 1, done.stdout + done.stderr
    return lines


def _arrived(published: SimpleNamespace, artifacts: Path, since: int) -> None:
    """``artifacts`` holds exactly the bytes the publisher built, and every one of its files crossed HTTP."""
    got = _files(artifacts)
    assert sorted(got) == sorted(published.files)
    assert [name for name in got if got[name] != published.files[name]] == []
    fetched = set(published.server.requests(since))
    missing = [name for name, data in got.items() if f"/tables/files/md5/{_md5(data)[:2]}/{_md5(data)[2:]}"
               not in fetched]
    assert missing == [], f"{len(missing)} files not fetched from the HTTP server, e.g. {missing[:3]}"


def test_push_sends_every_file_of_the_tables_and_the_manifest(published):
    for repo in (ROOT, published.repo):
        assert "remote" not in (repo / ".dvc" / "config").read_text()  # no remote committed: nothing outside
    files = published.files
    assert "MANIFEST.json" in files and any(name.endswith(".h5") for name in files)
    assert any("/c/" in name for name in files)  # Zarr shards, not only metadata
    for name, data in files.items():
        stored = _object(published.remote, _md5(data))
        assert stored.is_file() and stored.read_bytes() == data, name
    # One object per distinct file, plus a listing (.dir) per directory output (each Zarr store).
    lock = yaml.safe_load(published.lock)["stages"]
    dirs = {o["md5"] for stage in lock.values() for o in stage.get("outs", []) if o["md5"].endswith(".dir")}
    assert dirs and all(_object(published.remote, md5).is_file() for md5 in dirs)
    objects = [p for p in (published.remote / "files" / "md5").rglob("*") if p.is_file()]
    assert len(objects) == len({_md5(d) for d in files.values()}) + len(dirs)
    assert f"{len(objects)} files pushed" in published.pushed


def test_clone_and_pull_over_http_then_verify(published, tmp_path):
    consumer = tmp_path / "consumer"
    env = published.env
    _run(env, tmp_path, "git", "clone", "-q", str(published.repo), str(consumer))
    _run(env, consumer, "git", "checkout", "-q", published.commit)
    _run(env, consumer, "dvc", "remote", "add", "--local", "--default", "tables", published.url)
    since = len(published.server.requests())
    _run(env, consumer, "dvc", "pull")
    _arrived(published, consumer / "artifacts", since)
    _verify(published, consumer / "artifacts")
    status = _run(env, consumer, "dvc", "status")
    assert "Data and pipelines are up to date" in status.stdout, status.stdout


def test_dvc_get_and_import_of_a_commit_then_verify(published, tmp_path):
    env = published.env
    config = tmp_path / "tables.dvcconfig"  # the remote, for a repository that names none
    config.write_text(f"[core]\n    remote = tables\n['remote \"tables\"']\n    url = {published.url}\n")
    since = len(published.server.requests())
    _run(env, tmp_path, "dvc", "get", str(published.repo), "artifacts", "--rev", published.commit,
         "-o", str(tmp_path / "got"), "--config", str(config))
    _arrived(published, tmp_path / "got", since)
    _verify(published, tmp_path / "got")

    project = tmp_path / "project"  # another DVC project that tracks the tables it imported
    project.mkdir()
    _run(env, project, "git", "init", "-q")
    _run(env, project, "dvc", "init", "-q")
    since = len(published.server.requests())
    _run(env, project, "dvc", "import", str(published.repo), "artifacts", "--rev", published.commit,
         "-o", "artifacts", "--config", str(config))
    _arrived(published, project / "artifacts", since)
    _verify(published, project / "artifacts")
    record = yaml.safe_load((project / "artifacts.dvc").read_text())
    assert record["deps"][0]["repo"]["rev_lock"] == published.commit  # what `dvc update` moves
    assert record["deps"][0]["repo"]["config"] == str(config)


def test_a_byte_flipped_in_the_remote_is_caught(published, tmp_path):
    """DVC pulls a damaged object without a word (and `dvc status` sees nothing): `dicetables verify` names the
    table; a remote with `verify true` makes `dvc pull` itself refuse it (and still pull an intact table alone,
    with the manifest, which `dicetables verify PATH` then passes)."""
    env = published.env
    damaged = published.served / "damaged"
    shutil.copytree(published.remote, damaged)
    victim = max((n for n in published.files if n.startswith("g151-stated.zarr/") and "/c/" in n),
                 key=lambda n: len(published.files[n]))
    data = published.files[victim]
    stored = _object(damaged, _md5(data))
    stored.chmod(0o644)
    stored.write_bytes(data[: len(data) // 2] + bytes([data[len(data) // 2] ^ 0x01]) + data[len(data) // 2 + 1:])

    url = f"{published.server.url}/{damaged.name}"
    consumer = tmp_path / "consumer"
    _run(env, tmp_path, "git", "clone", "-q", str(published.repo), str(consumer))
    _run(env, consumer, "git", "checkout", "-q", published.commit)
    _run(env, consumer, "dvc", "remote", "add", "--local", "--default", "tables", url)
    # `make pull`: dvc pull (which succeeds), then dicetables verify (which fails, and so does make).
    pulled = _run(env, consumer, "make", "--no-print-directory", "pull", f"BIN={BIN}", "STAMP=", ok=False)
    assert pulled.returncode == 2 and "dvc pull\n" in pulled.stdout, pulled.stdout + pulled.stderr
    arrived = (consumer / "artifacts" / victim).read_bytes()
    assert arrived != data and len(arrived) == len(data)
    lines = [line for line in pulled.stdout.splitlines() if line.startswith(("OK   ", "FAIL "))]
    assert sorted(line.split()[1].rstrip(":") for line in lines if line.startswith("FAIL")) == \
        ["artifacts/g151-stated.zarr"], pulled.stdout
    assert len(lines) == len([p for p in published.built.iterdir() if p.suffix in (".zarr", ".h5")])
    assert "Data and pipelines are up to date" in _run(env, consumer, "dvc", "status").stdout

    careful = tmp_path / "careful"  # asks for that table alone, from a remote that says `verify true`
    _run(env, tmp_path, "git", "clone", "-q", str(published.repo), str(careful))
    _run(env, careful, "git", "checkout", "-q", published.commit)
    _run(env, careful, "dvc", "remote", "add", "--local", "--default", "tables", url)
    _run(env, careful, "dvc", "remote", "modify", "--local", "tables", "verify", "true")
    _run(env, careful, "dvc", "pull", "artifacts/MANIFEST.json", "artifacts/g151-notebook.zarr")  # intact: arrives
    intact = _run(env, careful, str(BIN / "dicetables"), "verify", "artifacts/g151-notebook.zarr")
    assert intact.stdout == "OK   artifacts/g151-notebook.zarr\n", intact.stdout
    refused = _run(env, careful, "dvc", "pull", "artifacts/g151-stated.zarr", ok=False)
    assert refused.returncode != 0 and "artifacts/g151-stated.zarr" in refused.stderr, refused.stderr
    assert not (careful / "artifacts" / victim).exists()
