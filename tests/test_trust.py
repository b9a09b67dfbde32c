"""Nothing read from disk is trusted: paths from artifacts, metadata, verify's robustness,
interrupted publishing, `dicetables clean`."""

import hashlib
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from test_store import _arrays, _spec

from lookup.store import META_KEY, META_SHA_KEY, ArtifactError, meta_sha256, open_artifact, play_arrays, read_meta
from pipeline import registry
from pipeline.cli import main
from pipeline.store import write_artifact, write_manifest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str):
    return CliRunner().invoke(main, list(args))


def _snapshot(root: Path, skip: Path | None = None) -> dict[str, str]:
    """Every file under ``root`` (except under ``skip``) with its sha256, and every directory."""
    out = {}
    for p in sorted(root.rglob("*")):
        if skip is not None and (p == skip or skip in p.parents):
            continue
        out[str(p.relative_to(root))] = hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() else "dir"
    return out


def _edit_zarr_meta(path: Path, edit, resign: bool) -> None:
    doc = json.loads((path / "zarr.json").read_text())
    edit(doc["attributes"][META_KEY])
    if resign:  # an attacker can recompute the checksum: path checks must hold on their own
        doc["attributes"][META_SHA_KEY] = meta_sha256(doc["attributes"][META_KEY])
    (path / "zarr.json").write_text(json.dumps(doc))


def _dead_pid() -> int:
    proc = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(proc.stdout)


# --- 1. path traversal ------------------------------------------------------------------------------

@pytest.mark.parametrize("resign", [True, False])
@pytest.mark.parametrize("prefix", ["/../../g151-xxxx", "/../../../../outside-x", "../victim-aaaa"])
def test_fingerprint_path_traversal_touches_nothing(tmp_path, resign, prefix):
    """The attack: a crafted fingerprint is refused, and opening the artifact (which no longer
    derives any path from it) neither writes nor deletes anything."""
    artifacts = tmp_path / "outer" / "artifacts"
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    # Victims the old runtime-copy code deleted: siblings matching the prefix derived from the fingerprint.
    for victim in (artifacts / "g151-xxxx.zarr", artifacts / "g151-stated.zarr", tmp_path / "outer" / "g151-y",
                   tmp_path / "victim-aaaa0000", tmp_path / "outside-x1"):
        victim.mkdir(parents=True)
        (victim / "keep.txt").write_text("mine")
    fingerprint = prefix + "0" * (64 - len(prefix))
    _edit_zarr_meta(artifacts / "demo.zarr", lambda m: m.update(fingerprint=fingerprint), resign)
    before = _snapshot(tmp_path)
    for trust in ("manifest", "artifact"):
        with pytest.raises(ArtifactError, match="fingerprint is not 64 hex|metadata altered"):
            play_arrays(artifacts / "demo.zarr", ["values"], schema="test.demo", versions=(2,)) if trust == \
                "manifest" else open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=(2,), trust=trust)
    assert _snapshot(tmp_path) == before
    verify = _run("verify", str(artifacts / "demo.zarr"))
    assert verify.exit_code == 1 and verify.output.startswith(f"FAIL {artifacts / 'demo.zarr'}: ")


def test_array_and_artifact_names_that_are_paths_are_refused(tmp_path):
    artifacts = tmp_path / "artifacts"
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    (tmp_path / "values").mkdir()  # what "../../values" would reach from an array directory
    with pytest.raises(ArtifactError, match="no array '../../values'"):
        play_arrays(artifacts / "demo.zarr", ["../../values"], schema="test.demo", versions=(2,))
    with pytest.raises(ArtifactError, match="not a valid name"):
        write_artifact(_spec(name="../evil", hdf5=False), _arrays(), artifacts)
    _edit_zarr_meta(artifacts / "demo.zarr", lambda m: m["arrays"].update({"../x": m["arrays"]["values"]}), True)
    with pytest.raises(ArtifactError, match="array name '../x' is not valid"):
        play_arrays(artifacts / "demo.zarr", ["values"], schema="test.demo", versions=(2,))
    # A chunk-digest companion named by a path: never opened, whatever the trust.
    for companion in ("../../values", "/etc/passwd", "codes/../values", "../demo.zarr/values"):
        write_artifact(_spec(hdf5=False), _arrays(), artifacts)
        _edit_zarr_meta(artifacts / "demo.zarr", lambda m, c=companion: m["arrays"]["codes"].update(chunk_sha256=c),
                        True)
        with pytest.raises(ArtifactError, match="are not an array of the artifact"):
            open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=(2,), trust="artifact")
    assert not (tmp_path / "x").exists()


# --- 2. metadata under a checksum: verify and lookup agree ----------------------------------------------

@pytest.mark.parametrize("edit", [
    lambda m: m.update(rules={"faces": 5}),
    lambda m: m.update(schema_version=3),
    lambda m: m["stats"].update(mean=2.5),
    lambda m: m["arrays"]["values"].update(dtype="float32"),
    lambda m: m["arrays"]["values"].update(shape=[40, 7]),
    lambda m: m.pop("fingerprint"),
])
def test_changed_metadata_fails_verify_and_lookup_alike(artifacts, edit):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    _edit_zarr_meta(artifacts / "demo.zarr", edit, resign=False)
    with pytest.raises(ArtifactError, match="metadata altered"):
        open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=[2, 3], rules={"faces": 5})
    result = _run("verify", "--artifacts", str(artifacts))
    assert result.exit_code == 1
    (line,) = [x for x in result.output.splitlines() if x.startswith(("OK", "FAIL"))]
    assert line.startswith("FAIL") and "metadata altered" in line


def test_renamed_dtype_key_is_one_fail_line_not_a_traceback(artifacts):
    write_artifact(_spec(), _arrays(), artifacts)
    write_manifest(artifacts)
    array_json = artifacts / "demo.zarr" / "values" / "zarr.json"
    array_json.write_text(array_json.read_text().replace('"data_type"', '"dtype"'))
    result = _run("verify", "--artifacts", str(artifacts))
    lines = result.output.splitlines()
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert lines[0].startswith(f"FAIL {artifacts / 'demo.h5'}") is False  # sorted: h5 first, and it is fine
    assert f"OK   {artifacts / 'demo.h5'}" in lines and any(x.startswith(f"FAIL {artifacts / 'demo.zarr'}: ")
                                                          for x in lines)


def test_every_hdf5_byte_flip_is_one_line_and_verify_goes_on(artifacts):
    write_artifact(_spec(), _arrays(), artifacts)
    h5 = artifacts / "demo.h5"
    pristine = h5.read_bytes()
    # A sample of offsets over the whole file (superblock, object headers, attributes, chunks).
    offsets = sorted(set(range(0, len(pristine), max(1, len(pristine) // 40))) | {len(pristine) - 1})
    copies = []
    for off in offsets:
        raw = bytearray(pristine)
        raw[off] ^= 0x10
        copy = artifacts / f"flip{off}.h5"
        copy.write_bytes(bytes(raw))
        copies.append(copy)
    result = _run("verify", "--timeout", "20", *map(str, copies))
    lines = result.stdout.splitlines()  # the OK / FAIL lines; the count goes to stderr
    assert "Traceback" not in result.output
    assert len(lines) == len(copies) and all(x.startswith(("OK   ", "FAIL ")) for x in lines)
    for copy, line in zip(copies, lines, strict=True):
        assert str(copy) in line
    # Every flip that verify lets through left the metadata and every checksum intact.
    for copy, line in zip(copies, lines, strict=True):
        if line.startswith("OK"):
            meta = read_meta(copy)
            assert meta_sha256(meta) == meta_sha256(read_meta(h5))


@pytest.mark.slow
def test_spinning_hdf5_attribute_is_cut_off_by_the_time_limit(tmp_path):
    """One flipped bit of the metadata attribute's length in dicerace-probabilities.h5 makes h5py loop; verify
    must report it and go on."""
    params = tmp_path / "params.yaml"
    params.write_text("dicerace:\n  max_dice: 30\n")
    artifacts = tmp_path / "artifacts"
    registry.build(["dicerace-probabilities"], params_path=params, artifacts_dir=artifacts)
    h5 = artifacts / "dicerace-probabilities.h5"
    intact = h5.read_bytes()
    length_field = intact.index(b'{"arrays":') - 8  # the attribute's 8-byte length precedes its JSON
    # The hang is real: reading the attribute does not return within 2 s (the intact file takes ~0.3 s, import
    # included). A length made 512 to 2048 bytes longer did it for each length tried (0x049d + 2048, 0x09d0 + 512
    # or + 1024; a shorter one is an error instead), and the length depends on the metadata's size (its list of
    # code files): the bits of the second byte that lengthen it are tried in turn. The loop spins a core for the
    # whole wait: 2 s here, and verify's 3 s below (a fresh worker must still check the next artifact within that
    # limit, ~1 s on a loaded machine).
    probe = [sys.executable, "-c", f"import h5py; h5py.File({str(h5)!r}, 'r').attrs.get('dicetables')"]
    for bit in (b for b in (1, 2, 3) if not intact[length_field + 1] >> b & 1):
        raw = bytearray(intact)
        raw[length_field + 1] ^= 1 << bit
        h5.write_bytes(bytes(raw))
        try:
            subprocess.run(probe, timeout=2, capture_output=True)
        except subprocess.TimeoutExpired:
            break
    else:
        pytest.fail("no flip of the attribute length's second byte makes h5py loop any more")
    result = _run("verify", "--timeout", "3", str(h5), str(artifacts / "dicerace-probabilities.zarr"))
    lines = result.stdout.splitlines()
    assert result.exit_code == 1 and len(lines) == 2
    assert lines[0].startswith(f"FAIL {h5}: ") and "did not finish within 3 s" in lines[0]
    assert lines[1] == f"OK   {artifacts / 'dicerace-probabilities.zarr'}"


@pytest.mark.parametrize("text", [
    "{not json", "[]", '{"artifacts": 3}', '{"artifacts": [{"path": "../../etc/passwd.zarr"}]}',
    '{"artifacts": [{"path": "demo.zarr"}]}', '{"artifacts": [7]}',
])
def test_malformed_manifest_is_one_line_in_verify_and_summary(artifacts, text):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    (artifacts / "MANIFEST.json").write_text(text)
    result = _run("verify", "--artifacts", str(artifacts))
    lines = result.output.splitlines()
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert lines[0].startswith("FAIL ") and "MANIFEST.json" in lines[0]
    assert f"OK   {artifacts / 'demo.zarr'}" in lines  # the artifacts on disk are still checked
    summary = _run("summary", "--artifacts", str(artifacts))
    assert summary.exit_code == 1 and summary.output.count("\n") == 1 and "MANIFEST.json" in summary.output


# --- 4. interrupted publishing, leftovers, clean ---------------------------------------------------------

KILL_BETWEEN_RENAMES = """
import os, signal, sys
import numpy as np
sys.path[:0] = [{root!r}, {root!r} + "/tests"]
import pipeline.store as store
from test_store import _arrays, _spec
real = os.replace
def replace(src, dst):
    real(src, dst)
    if ".old-" in str(dst):  # the first rename of a republish: die before the second
        os.kill(os.getpid(), signal.SIGKILL)
store.os.replace = replace
arrays = _arrays()
arrays["values"].data = arrays["values"].data + 1
store.write_artifact(_spec(hdf5=False, params={{"n": 4}}), arrays, {artifacts!r})
"""


def test_kill_between_the_renames_is_named_by_a_read_and_rolled_back_by_clean_and_build(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    target = artifacts / "demo.zarr"
    proc = subprocess.run([sys.executable, "-c", KILL_BETWEEN_RENAMES.format(root=str(ROOT), artifacts=str(artifacts))],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert not target.exists() and any(p.name.startswith(".old-") for p in artifacts.iterdir())
    before = sorted(p.name for p in artifacts.iterdir())
    with pytest.raises(ArtifactError, match=r"demo.zarr: no such artifact .*interrupted publish left its previous "
                                            r"copy as \.old-\d+-[0-9a-f]{8}-demo\.zarr: `dicetables clean`"):
        open_artifact(target, schema="test.demo", versions=[2])  # a read never renames anything
    assert sorted(p.name for p in artifacts.iterdir()) == before
    result = _run("verify", "--repair", "--artifacts", str(artifacts))  # what clean does, then the check
    assert result.exit_code == 0, result.output
    with open_artifact(target, schema="test.demo", versions=[2]) as art:  # rolled back by the repair
        np.testing.assert_array_equal(art.read("values"), _arrays()["values"].data)
    assert [p.name for p in artifacts.iterdir() if p.name.startswith((".old-", ".tmp-"))] == []
    # A later build removes a dead writer's temporary as well.
    (artifacts / f".tmp-{_dead_pid()}-0123abcd-demo.zarr").mkdir()
    write_artifact(_spec(hdf5=False, params={"n": 5}), _arrays(), artifacts)
    assert sorted(p.name for p in artifacts.iterdir()) == ["MANIFEST.json", "demo.zarr"]


def test_clean_removes_dead_leftovers_only(artifacts, tmp_path):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=(2,))
    dead, alive = _dead_pid(), os.getpid()
    dead_tmp = artifacts / f".tmp-{dead}-0123abcd-demo.zarr"
    dead_old = artifacts / f".old-{dead}-0123abcd-demo.zarr"
    alive_tmp = artifacts / f".tmp-{alive}-0123abcd-demo.zarr"
    dead_manifest = artifacts / f".tmp-{dead}-89abcdef-MANIFEST.json"
    for d in (dead_tmp, dead_old, alive_tmp):
        d.mkdir()
        (d / "zarr.json").write_text("{}")
    dead_manifest.write_text("{}")
    unrelated = [artifacts / ".tmp-notes", artifacts / "notes.txt", artifacts / ".old-x",
                 artifacts / f".tmp-{dead}-0123abcd-..zarr"]
    for f in unrelated:
        f.write_text("keep")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "f").write_text("x")
    (artifacts / f".tmp-{dead}-0123abcd-link.zarr").symlink_to(outside)
    summary = _run("summary", "--artifacts", str(artifacts))
    assert summary.exit_code == 0 and "runtime" not in summary.output, summary.output
    result = _run("clean", "--artifacts", str(artifacts))
    assert result.exit_code == 0, result.output
    assert not dead_tmp.exists() and not dead_old.exists() and not dead_manifest.exists()
    assert alive_tmp.exists() and all(f.read_text() == "keep" for f in unrelated)
    # A leftover named like ours that is a symlink is unlinked itself; its target is never touched.
    assert (outside / "f").read_text() == "x" and not (artifacts / f".tmp-{dead}-0123abcd-link.zarr").is_symlink()
    with open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=(2,)) as art:
        np.testing.assert_array_equal(art.read("values"), _arrays()["values"].data)
