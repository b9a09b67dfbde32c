"""`dicetables verify` checks what is on disk, leftovers of killed builds are
reported and cleaned, symlinked artifacts are refused and never written through, and no special file
(FIFO, device), huge file or deeply nested JSON hangs or crashes a reader."""

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_store import _arrays, _shard_files, _spec
from test_trust import KILL_BETWEEN_RENAMES, _dead_pid

from lookup.store import ArtifactError, load_manifest, read_json
from pipeline.cli import main
from pipeline.family import Family, build_family
from pipeline.store import reusable, write_artifact, write_manifest

ROOT = Path(__file__).resolve().parent.parent


def _verify(*args: str):
    result = CliRunner().invoke(main, ["verify", "--timeout", "30", *args])
    assert "Traceback" not in result.output, result.output
    return result


def _lines(result) -> dict[str, str]:
    """The OK / FAIL lines of a verify run, by path."""
    out = {}
    for line in result.stdout.splitlines():
        status, _, rest = line.partition(" ")
        path = rest.strip().split(": ", 1)[0]
        out[path] = line
    return out


def _verify_in_subprocess(artifacts: Path, timeout: float = 60) -> subprocess.CompletedProcess:
    """`dicetables verify` in its own process (a hang is a TimeoutExpired, not a stuck test run)."""
    code = "import sys; from pipeline.cli import main; sys.exit(main())"
    return subprocess.run([sys.executable, "-c", code, "verify", "--timeout", "20", "--artifacts", str(artifacts)],
                          cwd=ROOT, capture_output=True, text=True, timeout=timeout)


def _snapshot(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
            for p in sorted(root.rglob("*"))}


def _flip_a_chunk(artifact: Path) -> None:
    shard = _shard_files(artifact, "values")[0]
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    shard.write_bytes(bytes(raw))


# --- 1. verify checks what is on disk, not only the manifest ------------------------------------------------

def test_unlisted_damaged_artifact_fails_verify(artifacts):
    """The audit's case: an artifact whose manifest entry was deleted and whose bytes were damaged."""
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_artifact(_spec(name="other", hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    manifest = json.loads((artifacts / "MANIFEST.json").read_text())
    manifest["artifacts"] = [e for e in manifest["artifacts"] if e["path"] != "demo.zarr"]
    (artifacts / "MANIFEST.json").write_text(json.dumps(manifest))
    _flip_a_chunk(artifacts / "demo.zarr")
    result = _verify("--artifacts", str(artifacts))
    lines = _lines(result)
    assert result.exit_code == 1
    demo = lines[str(artifacts / "demo.zarr")]
    assert demo.startswith("FAIL ") and "not in the manifest" in demo and "'values'" in demo
    assert lines[str(artifacts / "other.zarr")].startswith("OK   ")


def test_every_combination_of_listed_missing_unlisted_and_damaged(artifacts):
    for name in ("a", "b", "c", "d"):
        write_artifact(_spec(name=name, hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)  # lists a, b, c, d
    shutil.rmtree(artifacts / "b.zarr")  # listed, missing
    _flip_a_chunk(artifacts / "c.zarr")  # listed, damaged
    write_artifact(_spec(name="e", hdf5=False), _arrays(), artifacts)  # on disk, not listed, intact
    write_artifact(_spec(name="f", hdf5=False), _arrays(), artifacts)  # on disk, not listed, damaged
    _flip_a_chunk(artifacts / "f.zarr")
    result = _verify("--artifacts", str(artifacts))
    lines = _lines(result)
    assert result.exit_code == 1
    assert list(lines) == [str(artifacts / f"{n}.zarr") for n in "abcdef"]  # one line each, name order
    assert lines[str(artifacts / "a.zarr")].startswith("OK   ")
    assert lines[str(artifacts / "d.zarr")].startswith("OK   ")
    assert "listed in MANIFEST.json but missing" in lines[str(artifacts / "b.zarr")]
    c = lines[str(artifacts / "c.zarr")]
    assert c.startswith("FAIL ") and "not in the manifest" not in c and "'values'" in c
    e = lines[str(artifacts / "e.zarr")]
    assert e.startswith("FAIL ") and "not in the manifest" in e
    f = lines[str(artifacts / "f.zarr")]
    assert f.startswith("FAIL ") and "not in the manifest" in f and "'values'" in f


# --- 2. leftovers of killed writers: reported by verify, removed by any build ------------------------------

def _leftovers(artifacts: Path, pid: int, name: str = "demo.zarr") -> tuple[Path, Path]:
    tmp = artifacts / f".tmp-{pid}-0123abcd-{name}"
    old = artifacts / f".old-{pid}-4567cdef-{name}"
    for d in (tmp, old):
        d.mkdir()
        (d / "zarr.json").write_bytes(b"{}" + b" " * 2046)  # 2 KiB
    return tmp, old


def test_verify_reports_leftovers_with_size_and_whether_the_writer_lives(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    dead, alive = _dead_pid(), os.getpid()
    dead_tmp, dead_old = _leftovers(artifacts, dead)
    alive_tmp = artifacts / f".tmp-{alive}-89abcdef-demo.zarr"
    alive_tmp.mkdir()
    manifest_tmp = artifacts / f".tmp-{dead}-89abcdef-MANIFEST.json"
    manifest_tmp.write_text("{}")
    plus = artifacts / f".tmp-{dead}-0badf00d-yahtzee-scandinavian+tp4-values.zarr"
    plus.mkdir()
    before = _snapshot(artifacts)
    result = _verify("--artifacts", str(artifacts))
    lines = _lines(result)
    assert result.exit_code == 1
    assert lines[str(artifacts / "demo.zarr")].startswith("OK   ")
    for path in (dead_tmp, dead_old, manifest_tmp, plus):
        line = lines[str(path)]
        assert line.startswith("FAIL ") and "dead writer's leftover" in line and f"process {dead}" in line
    assert "2.0 KiB" in lines[str(dead_tmp)] and "unfinished publish" in lines[str(dead_tmp)]
    assert "previous copy" in lines[str(dead_old)]
    live = lines[str(alive_tmp)]
    assert live.startswith("FAIL ") and "live writer is working" in live and "dead" not in live
    assert _snapshot(artifacts) == before  # verify only reads


def _family(name: str) -> Family:
    def artifacts(section):
        return [_spec(name=name, hdf5=False, params=dict(section))]

    def compute(spec, section, artifacts_dir):
        return _arrays(), {}

    return Family(name=name, section="demo", artifacts=artifacts, compute=compute)


def test_a_build_removes_dead_leftovers_of_every_artifact_first(artifacts, tmp_path):
    write_artifact(_spec(name="gone", hdf5=False), _arrays(), artifacts)
    write_artifact(_spec(name="other", hdf5=False), _arrays(), artifacts)
    dead, alive = _dead_pid(), os.getpid()
    # Leftovers of artifacts other than the one built: the per-target cleanup never saw them.
    other_tmp, other_old = _leftovers(artifacts, dead, "other.zarr")
    plus_tmp = artifacts / f".tmp-{dead}-0badf00d-yahtzee-scandinavian+tp4-values.h5"
    plus_tmp.write_bytes(b"x" * 100)
    manifest_tmp = artifacts / f".tmp-{dead}-89abcdef-MANIFEST.json"
    manifest_tmp.write_text("{}")
    # The previous copy of "gone", moved aside by a writer killed between its two renames.
    moved = artifacts / f".old-{dead}-0a0b0c0d-gone.zarr"
    os.rename(artifacts / "gone.zarr", moved)
    live_tmp = artifacts / f".tmp-{alive}-0123abcd-other.zarr"
    live_tmp.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_text("x")
    link = artifacts / f".tmp-{dead}-0123abcd-link.zarr"
    link.symlink_to(outside)
    done = build_family(_family("built"), {"demo": {"n": 3}}, artifacts)
    assert done == [(artifacts / "built.zarr", "built")]
    names = sorted(p.name for p in artifacts.iterdir())
    assert names == sorted(["built.zarr", "gone.zarr", "other.zarr", live_tmp.name])  # .old of gone renamed back
    assert not other_tmp.exists() and not other_old.exists()
    assert reusable(_spec(name="gone", hdf5=False), artifacts)
    assert (outside / "f").read_text() == "x"  # the symlink was unlinked, its target untouched


def test_kill_minus_9_leftovers_are_reported_then_removed_by_the_next_build_of_anything(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    proc = subprocess.run([sys.executable, "-c", KILL_BETWEEN_RENAMES.format(root=str(ROOT), artifacts=str(artifacts))],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    left = sorted(p.name for p in artifacts.iterdir() if p.name.startswith((".tmp-", ".old-")))
    assert [n[:5] for n in left] == [".old-", ".tmp-"]
    result = _verify("--artifacts", str(artifacts))
    lines = _lines(result)
    assert result.exit_code == 1
    missing = lines[str(artifacts / "demo.zarr")]
    assert "listed in MANIFEST.json but missing" in missing and "renames it back" in missing
    for name in left:
        assert "dead writer's leftover" in lines[str(artifacts / name)]
    assert not (artifacts / "demo.zarr").exists()  # verify changed nothing
    build_family(_family("unrelated"), {"demo": {"n": 3}}, artifacts)
    assert sorted(p.name for p in artifacts.iterdir()) == ["MANIFEST.json", "demo.zarr", "unrelated.zarr"]
    write_manifest(artifacts)
    assert _verify("--artifacts", str(artifacts)).exit_code == 0


# --- 3. symlinks: refused, never written through -------------------------------------------------------------

def test_symlinked_artifact_is_refused_by_verify_reuse_and_manifest(artifacts, tmp_path):
    write_artifact(_spec(), _arrays(), artifacts)
    write_manifest(artifacts)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    for name in ("demo.zarr", "demo.h5"):  # the same bytes, now outside, reached through links
        os.rename(artifacts / name, elsewhere / name)
        (artifacts / name).symlink_to(elsewhere / name)
    result = _verify("--artifacts", str(artifacts))
    lines = _lines(result)
    assert result.exit_code == 1
    for name in ("demo.zarr", "demo.h5"):
        line = lines[str(artifacts / name)]
        assert line.startswith("FAIL ") and "is a symlink" in line and str(elsewhere / name) in line
    assert not reusable(_spec(), artifacts)  # a build republishes it instead of reusing what the link shows
    with pytest.raises(ArtifactError, match="is a symlink"):
        write_manifest(artifacts)


@pytest.mark.parametrize("dangling", [False, True])
def test_publish_replaces_a_symlink_and_never_writes_through_it(artifacts, tmp_path, dangling):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine")
    (victim / "file.h5").write_bytes(b"precious")
    target_dir = victim / ("nothing" if dangling else "")
    (artifacts / "demo.zarr").symlink_to(target_dir)
    (artifacts / "demo.h5").symlink_to(victim / ("nothing.h5" if dangling else "file.h5"))
    before = _snapshot(tmp_path / "victim")
    write_artifact(_spec(), _arrays(), artifacts)
    assert _snapshot(tmp_path / "victim") == before
    for name in ("demo.zarr", "demo.h5"):
        assert not (artifacts / name).is_symlink()
    assert sorted(p.name for p in artifacts.iterdir()) == ["demo.h5", "demo.zarr"]
    write_manifest(artifacts)
    assert _verify("--artifacts", str(artifacts)).exit_code == 0


def test_symlink_inside_an_artifact_fails_verify(artifacts, tmp_path):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    shard = _shard_files(artifacts / "demo.zarr", "values")[0]
    copy = tmp_path / "shard"
    shutil.copy(shard, copy)
    shard.unlink()
    shard.symlink_to(copy)  # the same bytes, but outside the artifacts directory
    line = _lines(_verify("--artifacts", str(artifacts)))[str(artifacts / "demo.zarr")]
    assert line.startswith("FAIL ") and "is a symlink" in line and str(copy) in line


def test_inside_dir(tmp_path):
    from lookup.store import inside_dir

    root = tmp_path / "artifacts"
    (root / "real.zarr").mkdir(parents=True)
    outside = tmp_path / "outside"
    (outside / "sub").mkdir(parents=True)
    assert inside_dir(root / "real.zarr") == root / "real.zarr"
    assert inside_dir(root / "absent.zarr", root) == root / "absent.zarr"
    (root / "link.zarr").symlink_to(outside)
    with pytest.raises(ArtifactError, match="link.zarr: is a symlink"):
        inside_dir(root / "link.zarr")
    with pytest.raises(ArtifactError, match="leads outside"):  # through a symlinked directory above it
        inside_dir(root / "link.zarr" / "sub", root)
    (root / "inner").symlink_to(root / "real.zarr")
    with pytest.raises(ArtifactError, match="is a symlink"):  # links are refused even when they stay inside
        inside_dir(root / "inner", root)
    aliased = tmp_path / "alias"
    aliased.symlink_to(root)  # the artifacts directory itself may be a link (another disk)
    assert inside_dir(aliased / "real.zarr") == aliased / "real.zarr"


# --- 4. special files, huge files, deep JSON ----------------------------------------------------------------

def test_fifo_manifest_does_not_hang_verify(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    os.mkfifo(artifacts / "MANIFEST.json")
    proc = _verify_in_subprocess(artifacts)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert lines[0].startswith(f"FAIL {artifacts / 'MANIFEST.json'}: ") and "FIFO" in lines[0]
    assert f"OK   {artifacts / 'demo.zarr'}" in lines


@pytest.mark.parametrize("where", ["values/zarr.json", "zarr.json", "shard", "h5"])
def test_fifo_inside_an_artifact_is_reported_not_waited_for(artifacts, where):
    write_artifact(_spec(), _arrays(), artifacts)
    write_manifest(artifacts)
    zarr = artifacts / "demo.zarr"
    fifo = {"values/zarr.json": zarr / "values" / "zarr.json", "zarr.json": zarr / "zarr.json",
            "shard": _shard_files(zarr, "values")[0], "h5": artifacts / "demo.h5"}[where]
    fifo.unlink()
    os.mkfifo(fifo)
    proc = _verify_in_subprocess(artifacts)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    bad = [x for x in proc.stdout.splitlines() if x.startswith("FAIL ")]
    assert len(bad) == 1 and "is a FIFO" in bad[0] and "did not finish" not in bad[0]


def test_device_huge_and_nested_files_are_refused_before_parsing(tmp_path):
    from lookup.files import read_json_bounded, read_regular

    with pytest.raises(ArtifactError, match="character device"):
        read_regular("/dev/zero", 1 << 20, follow_symlinks=True)
    link = tmp_path / "zero.json"
    link.symlink_to("/dev/zero")
    with pytest.raises(ArtifactError, match="character device"):
        read_json(link)  # read_json follows a link (a user's sheet file), but reads only regular files
    with pytest.raises(ArtifactError, match="is a symlink"):
        read_json_bounded(link, 1 << 20)
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(17 << 20)  # sparse: no disk used
    with pytest.raises(ArtifactError, match="more than the 16777216 allowed"):
        read_json_bounded(huge, 16 << 20)
    deep = tmp_path / "deep.json"
    for depth in (100, 200_000):  # within the recursion limit, and far beyond it
        deep.write_text("[" * depth + "]" * depth)
        with pytest.raises(ArtifactError, match="nested too deeply"):
            read_json(deep)
    deep.write_text("[" * 60 + "]" * 60)  # 60 levels are fine
    value, levels = read_json(deep), 0
    while isinstance(value, list):
        value, levels = (value[0] if value else None), levels + 1
    assert levels == 60


@pytest.mark.parametrize("kind", ["huge", "deep", "device"])
def test_bad_manifest_file_is_one_fail_line_and_the_artifacts_are_still_checked(artifacts, kind):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    manifest = artifacts / "MANIFEST.json"
    if kind == "huge":
        with open(manifest, "wb") as f:
            f.truncate((64 << 20) + 1)
    elif kind == "deep":
        manifest.write_text("[" * 200_000 + "]" * 200_000)
    else:
        manifest.symlink_to("/dev/zero")
    with pytest.raises(ArtifactError, match=r"MANIFEST.json: .*(more than|nested too deeply|is a symlink)"):
        load_manifest(artifacts)
    result = _verify("--artifacts", str(artifacts))
    lines = result.stdout.splitlines()
    assert result.exit_code == 1
    assert lines[0].startswith(f"FAIL {manifest}: ") and len(lines) == 2
    assert lines[1] == f"OK   {artifacts / 'demo.zarr'}"


@pytest.mark.parametrize("kind", ["deep", "huge"])
def test_bad_zarr_json_is_refused_before_zarr_parses_it(artifacts, kind):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    doc = artifacts / "demo.zarr" / "values" / "zarr.json"
    if kind == "deep":
        meta = json.loads(doc.read_text())
        meta["attributes"]["nest"] = json.loads("[" * 500 + "]" * 500)
        doc.write_text(json.dumps(meta))
    else:
        doc.write_bytes(doc.read_bytes() + b" " * (16 << 20))
    line = _lines(_verify("--artifacts", str(artifacts)))[str(artifacts / "demo.zarr")]
    assert line.startswith("FAIL ") and "values/zarr.json" in line
    assert ("nested too deeply" if kind == "deep" else "more than the 16777216") in line

