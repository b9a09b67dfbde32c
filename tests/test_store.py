"""The artifact contract: round trips, checksums, corruption, atomic publishing, fingerprint reuse."""

import json
import shutil
from pathlib import Path

import h5py
import numpy as np
import pytest

import pipeline.store as wstore
from lookup.store import (
    MANIFEST_FIELDS,
    ArtifactError,
    open_artifact,
    play_arrays,
    read_meta,
    sha256_of_array,
    verify_problems,
)
from pipeline.store import ArtifactSpec, StoredArray, publish, reusable, write_artifact, write_manifest


def _spec(**changes) -> ArtifactSpec:
    base = dict(name="demo", schema="test.demo", schema_version=2, game="test", rules={"faces": 6},
                params={"n": 3}, code=("lookup.store",), hdf5=True)
    base.update(changes)
    return ArtifactSpec(**base)


def _arrays() -> dict[str, StoredArray]:
    rng = np.random.default_rng(0)
    values = rng.random((40, 7, 3))
    values[3, 2, 1] = np.nan
    return {
        "values": StoredArray(values, "random floats with one NaN", chunks=(4, 7, 3)),
        "codes": StoredArray(rng.integers(0, 200, size=(1000,), dtype=np.uint8), "small codes", chunks=(64,)),
        "signed": StoredArray(np.arange(-5, 5, dtype=np.int32).reshape(2, 5), "signed ints"),
    }


def _shard_files(path: Path, name: str) -> list[Path]:
    return sorted(p for p in (path / name / "c").rglob("*") if p.is_file())


def test_sha256_is_of_little_endian_c_order_bytes():
    a = np.arange(12, dtype=">i4").reshape(3, 4)
    import hashlib

    want = hashlib.sha256(np.ascontiguousarray(a, dtype="<i4").tobytes()).hexdigest()
    assert sha256_of_array(a) == want
    assert sha256_of_array(np.asfortranarray(a.astype("<i4"))) == want


@pytest.mark.parametrize("suffix", [".zarr", ".h5"])
def test_round_trip_with_attributes_and_checksums(artifacts, suffix):
    spec, arrays = _spec(), _arrays()
    paths = write_artifact(spec, arrays, artifacts, stats={"mean": 1.5})
    write_manifest(artifacts)
    assert [p.suffix for p in paths] == [".zarr", ".h5"]
    with open_artifact(artifacts / f"demo{suffix}", schema="test.demo", versions=[2],
                       rules={"faces": 6}, params={"n": 3}) as art:
        meta = art.meta
        for name, arr in arrays.items():
            np.testing.assert_array_equal(art.read(name), arr.data)
            assert meta["arrays"][name]["sha256"] == sha256_of_array(arr.data)
    assert meta["schema"] == "test.demo" and meta["schema_version"] == 2 and meta["game"] == "test"
    assert meta["rules"] == {"faces": 6} and meta["params"] == {"n": 3}
    assert meta["fingerprint"] == spec.fingerprint() and meta["package_version"]
    assert meta["stats"] == {"mean": 1.5}


def test_equal_inputs_give_byte_identical_files(tmp_path):
    for run in ("a", "b"):
        write_artifact(_spec(), _arrays(), tmp_path / run)
    for rel in ("demo.h5", "demo.zarr/zarr.json", "demo.zarr/values/c/0/0/0"):
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


def test_zarr_layout_is_sharded_with_zstd_and_crc32c(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    zjson = json.loads((artifacts / "demo.zarr" / "values" / "zarr.json").read_text())
    (shard,) = zjson["codecs"]
    assert shard["name"] == "sharding_indexed"
    inner = [c["name"] for c in shard["configuration"]["codecs"]]
    assert inner == ["bytes", "zstd", "crc32c"]
    assert zjson["fill_value"] == "NaN"
    # One shard file for the whole small array, so the artifact stays a handful of files.
    assert len(_shard_files(artifacts / "demo.zarr", "values")) == 1


def test_hdf5_mirror_uses_fletcher32(artifacts):
    write_artifact(_spec(), _arrays(), artifacts)
    with h5py.File(artifacts / "demo.h5") as h5:
        assert h5["values"].fletcher32 and h5["values"].compression == "gzip"


@pytest.mark.parametrize("mismatch, message", [
    (dict(schema="other"), "schema 'test.demo', expected 'other'"),
    (dict(versions=[1, 3]), "schema version 2"),
    (dict(rules={"faces": 8}), "built for rules"),
    (dict(params={"n": 4}), "built with n=3, asked for n=4"),
])
def test_open_refuses_what_was_not_asked_for(artifacts, mismatch, message):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    kwargs = dict(schema="test.demo", versions=[2], rules={"faces": 6}, params={"n": 3})
    kwargs.update(mismatch)
    with pytest.raises(ArtifactError, match=message) as info:
        open_artifact(artifacts / "demo.zarr", **kwargs)
    assert "demo.zarr" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_flipped_byte_in_zarr_chunk_is_detected(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    (shard,) = _shard_files(artifacts / "demo.zarr", "values")
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 3] ^= 0x40
    shard.write_bytes(bytes(raw))
    problems = verify_problems(artifacts / "demo.zarr", trust="artifact")  # every chunk
    assert problems and all("'values'" in p for p in problems)
    with pytest.raises(ArtifactError, match=f"{shard}: chunk .* fails its crc32c"):  # lookup.chunked
        open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=[2])


def test_flipped_byte_in_hdf5_chunk_is_detected(artifacts):
    write_artifact(_spec(), _arrays(), artifacts)
    path = artifacts / "demo.h5"
    with h5py.File(path) as h5:
        info = h5["codes"].id.get_chunk_info(0)
    raw = bytearray(path.read_bytes())
    raw[info.byte_offset + info.size // 2] ^= 0x01
    path.write_bytes(bytes(raw))
    problems = verify_problems(path, trust="artifact")
    assert problems and all("'codes'" in p for p in problems)
    with pytest.raises(ArtifactError, match="'codes'"):
        open_artifact(path, schema="test.demo", versions=[2], trust="artifact")


def test_deleted_chunk_is_detected_not_read_as_fill(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    (shard,) = _shard_files(artifacts / "demo.zarr", "codes")
    shard.unlink()
    problems = verify_problems(artifacts / "demo.zarr", trust="artifact")
    assert any("'codes'" in p and "missing" in p for p in problems)
    with pytest.raises(ArtifactError, match=f"{shard}: missing"):
        open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=[2])
    _, arrays = play_arrays(artifacts / "demo.zarr", ["codes"], schema="test.demo", versions=[2])
    with pytest.raises(ArtifactError, match=f"{shard}: missing"):  # not the fill value 255
        arrays["codes"][7]


@pytest.mark.parametrize("suffix", [".zarr", ".h5"])
def test_empty_arrays_round_trip(artifacts, suffix):
    arrays = {"none": StoredArray(np.zeros((0, 4)), "no rows"), "some": StoredArray(np.ones(3), "three")}
    write_artifact(_spec(), arrays, artifacts)
    write_manifest(artifacts)
    with open_artifact(artifacts / f"demo{suffix}", schema="test.demo", versions=[2]) as art:
        assert art.read("none").shape == (0, 4)


def test_integer_data_holding_its_fill_value_is_refused(artifacts):
    data = np.array([0, 255], dtype=np.uint8)
    with pytest.raises(ValueError, match="fill value"):
        write_artifact(_spec(hdf5=False), {"x": StoredArray(data, "x")}, artifacts)


class Boom(RuntimeError):
    pass


@pytest.mark.parametrize("existing", [False, True])
def test_exception_mid_write_leaves_nothing_and_keeps_old(artifacts, monkeypatch, existing):
    old_arrays = _arrays()
    if existing:
        write_artifact(_spec(), old_arrays, artifacts)
        write_manifest(artifacts)
    original = wstore._write_zarr

    def failing(path, meta, arrays):
        original(path, meta, {k: v for k, v in list(arrays.items())[:1]})
        raise Boom("disk on fire")

    monkeypatch.setattr(wstore, "_write_zarr", failing)
    new = _arrays()
    new["values"].data = new["values"].data + 1
    with pytest.raises(Boom):
        write_artifact(_spec(), new, artifacts)
    leftovers = [p.name for p in artifacts.iterdir() if p.name.startswith(".")]  # the manifest is no leftover
    assert leftovers == []
    if existing:
        with open_artifact(artifacts / "demo.zarr", schema="test.demo", versions=[2]) as art:
            np.testing.assert_array_equal(art.read("values"), old_arrays["values"].data)
        assert verify_problems(artifacts / "demo.h5", trust="artifact") == []
    else:
        assert not (artifacts / "demo.zarr").exists() and not (artifacts / "demo.h5").exists()


def test_publish_replaces_a_directory_atomically(artifacts):
    target = artifacts / "x.zarr"
    write_artifact(_spec(name="x", hdf5=False), _arrays(), artifacts)
    meta = read_meta(target)
    arrays = wstore.with_digests(_arrays())
    for arr in arrays.values():  # as write_artifact does: the fill values a reader expects
        arr.fill = wstore._default_fill(arr.data)
    publish(target, lambda tmp: wstore._write_zarr(tmp, {**meta, "stats": {"second": True}}, arrays))
    assert read_meta(target)["stats"] == {"second": True} and verify_problems(target, trust="artifact") == []
    assert sorted(p.name for p in artifacts.iterdir()) == ["x.zarr"]


def test_fingerprint_covers_rules_params_schema_and_code(tmp_path, monkeypatch):
    root = tmp_path / "project"
    shutil.copytree(wstore.PROJECT_ROOT / "pipeline", root / "pipeline", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(wstore.PROJECT_ROOT / "lookup", root / "lookup", ignore=shutil.ignore_patterns("__pycache__"))
    (root / "pipeline" / "kernel.py").write_text("x = 1\n")
    (root / "table.csv").write_text("1,2\n")
    monkeypatch.setattr(wstore, "PROJECT_ROOT", root)
    spec = _spec(code=("pipeline.kernel",), data=("table.csv",))
    base = spec.fingerprint()
    assert _spec(code=("pipeline.kernel",), data=("table.csv",)).fingerprint() == base
    for change in (dict(params={"n": 4}), dict(rules={"faces": 5}), dict(schema_version=3), dict(data=())):
        assert _spec(code=("pipeline.kernel",), **change).fingerprint() != base
    for edited in ("pipeline/kernel.py", "table.csv", "pipeline/layout.py", "lookup/store.py"):  # its code, its
        path = root / edited  # data, and the writer's code (how arrays are stored and checked)
        before = path.read_text()
        path.write_text(before + "\n# edited\n")
        assert spec.fingerprint() != base, edited
        path.write_text(before)
        assert spec.fingerprint() == base
    with pytest.raises(ValueError, match="entry modules"):
        _spec(code=("pipeline/kernel.py",)).fingerprint()


def test_reusable_only_when_fingerprint_matches_and_verified(artifacts):
    spec = _spec()
    assert not reusable(spec, artifacts)
    write_artifact(spec, _arrays(), artifacts)
    assert reusable(spec, artifacts)
    assert not reusable(_spec(params={"n": 4}), artifacts)
    (shard,) = _shard_files(artifacts / "demo.zarr", "signed")
    shard.write_bytes(shard.read_bytes()[:-3])
    assert not reusable(spec, artifacts)


def test_manifest_lists_every_artifact(artifacts):
    write_artifact(_spec(), _arrays(), artifacts)
    write_artifact(_spec(name="other", hdf5=False), _arrays(), artifacts)
    manifest = json.loads(write_manifest(artifacts).read_text())
    paths = [e["path"] for e in manifest["artifacts"]]
    assert paths == ["demo.h5", "demo.zarr", "other.zarr"]
    entry = manifest["artifacts"][1]
    assert entry["fingerprint"] == _spec().fingerprint()
    assert entry["arrays"]["values"]["sha256"] == sha256_of_array(_arrays()["values"].data)
    assert set(entry) == set(MANIFEST_FIELDS)


def test_play_arrays_read_checked_elements_of_the_artifact_the_manifest_lists(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    meta, arrays = play_arrays(artifacts / "demo.zarr", ["values", "codes"], schema="test.demo", versions=(2,))
    assert meta["params"] == {"n": 3}
    np.testing.assert_array_equal(arrays["values"], _arrays()["values"].data)
    assert arrays["codes"][7] == _arrays()["codes"].data[7]  # one checked element read
    with pytest.raises(ArtifactError, match="schema version"):
        play_arrays(artifacts / "demo.zarr", ["values"], schema="test.demo", versions=(1,))
    with pytest.raises(ArtifactError, match="no array 'nothing'"):
        play_arrays(artifacts / "demo.zarr", ["nothing"], schema="test.demo", versions=(2,))
    # A republished artifact is used once the manifest lists it, never before; nothing is copied.
    write_artifact(_spec(hdf5=False, params={"n": 4}), _arrays(), artifacts)
    with pytest.raises(ArtifactError, match="differs from its entry in MANIFEST.json"):
        play_arrays(artifacts / "demo.zarr", ["values"], schema="test.demo", versions=(2,))
    write_manifest(artifacts)
    meta, _ = play_arrays(artifacts / "demo.zarr", ["values"], schema="test.demo", versions=(2,))
    assert meta["params"] == {"n": 4}
    assert sorted(p.name for p in artifacts.iterdir()) == ["MANIFEST.json", "demo.zarr"]


def test_play_arrays_refuse_a_corrupted_chunk_when_it_is_read(artifacts):
    write_artifact(_spec(hdf5=False), _arrays(), artifacts)
    write_manifest(artifacts)
    (shard,) = _shard_files(artifacts / "demo.zarr", "values")
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 2] ^= 0x08
    shard.write_bytes(bytes(raw))
    _, arrays = play_arrays(artifacts / "demo.zarr", ["values", "codes"], schema="test.demo", versions=(2,))
    assert arrays["codes"][999] == _arrays()["codes"].data[999]  # another array: intact
    failed = 0
    for i in range(0, 40, 4):  # one element per chunk of 4 rows: the damaged chunk fails, the others answer
        try:
            assert arrays["values"][i, 0, 0] == _arrays()["values"].data[i, 0, 0]
        except ArtifactError as exc:
            assert str(exc).startswith(f"{shard}: chunk {i // 4} fails its crc32c")
            failed += 1
    assert failed == 1
