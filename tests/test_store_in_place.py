"""Artifacts written in place (``pipeline.store.write_zarr_in_place``): one read of the stored chunks gives the
sha256 and the chunk digests, checked against the digests of the data written; a write that did not land is
refused, and verification still catches a corrupted chunk of the published artifact."""

from pathlib import Path

import numpy as np
import pytest

import pipeline.store as wstore
from lookup.chunked import ChunkedArray
from lookup.store import ArtifactError, read_meta, sha256_of_array, verify_problems
from pipeline.layout import chunk_digests, digest_name
from pipeline.store import ArtifactSpec, Written, array_digests, create_zarr_array, write_zarr_in_place


def _spec() -> ArtifactSpec:
    return ArtifactSpec(name="inplace", schema="test.inplace", schema_version=1, game="test", rules={},
                        params={}, code=("lookup.store",))


def _data() -> np.ndarray:
    """2-D, several chunk rows of (16, 10) and a partial last chunk along both axes."""
    return np.random.default_rng(3).random((1001, 37))


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("source", ["numpy", "zarr"])
def test_array_digests_equal_sha256_of_array_and_chunk_digests(tmp_path, monkeypatch, threads, source):
    import zarr

    data, chunks = _data(), (16, 10)
    if source == "zarr":
        group = zarr.open_group(zarr.storage.LocalStore(str(tmp_path / "g.zarr")), mode="w-", zarr_format=3)
        stored = create_zarr_array(group, "x", data.shape, data.dtype, chunks, (256, 40), float("nan"), {})
        stored[...] = data
    else:
        stored = data
    # Slabs of 3 chunk rows: many slabs in flight, the last one partial (1001 rows = 62.6 chunk rows).
    monkeypatch.setattr(wstore, "SLAB_BYTES", 3 * 16 * 37 * 8)
    sha256, digests = array_digests(stored, chunks, threads=threads)
    assert sha256 == sha256_of_array(data)
    np.testing.assert_array_equal(digests, chunk_digests(data, chunks))
    assert digests.shape == (63 * 4, 4)


@pytest.mark.parametrize("data", [np.arange(24, dtype=">i4").reshape(6, 4), np.float64(2.5), np.zeros((0, 3)),
                                  np.zeros((5, 0), dtype=np.uint8)])
def test_array_digests_of_byte_order_scalar_and_empty_arrays(data):
    chunks = tuple(min(2, n) or 1 for n in np.shape(data))
    sha256, digests = array_digests(data, chunks)
    assert sha256 == sha256_of_array(data)
    np.testing.assert_array_equal(digests, chunk_digests(data, chunks))


def _writer(data: np.ndarray, record: str = "all"):
    """Write ``data`` as array ``x`` in two tasks' blocks of 512 rows, recording all of it, half or a lie."""
    import zarr

    def write(tmp: Path, written: Written) -> None:
        group = zarr.open_group(zarr.storage.LocalStore(str(tmp)), mode="w-", zarr_format=3)
        array = create_zarr_array(group, "x", data.shape, data.dtype, (16, 37), (512, 37), float("nan"),
                                  {"description": "x"})
        for start in (0, 512):
            block = data[start:start + 512]
            array[start:start + len(block)] = block
            if record == "all" or (record == "half" and start == 0):
                written.rows(array, start, block)
            elif record == "lie":
                written.rows(array, start, block + (start == 512))

    return write


def _reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The arrays that verification reads whole from now on (``lookup.chunked.ChunkedArray.array``), by name."""
    read = []
    real = ChunkedArray.array
    monkeypatch.setattr(ChunkedArray, "array", lambda self: read.append(self.directory.name) or real(self))
    return read


def test_in_place_write_is_read_once_and_verified(artifacts, monkeypatch):
    data = _data()
    hashed = _reads(monkeypatch)
    target = write_zarr_in_place(_spec(), artifacts, _writer(data))
    entry = read_meta(target)["arrays"]
    assert entry["x"]["sha256"] == sha256_of_array(data)
    assert entry[digest_name("x")]["sha256"] == sha256_of_array(chunk_digests(data, (16, 37)))
    # Verification after the write read the companion again, not x: its chunks matched the data written.
    assert hashed == [digest_name("x")]
    assert verify_problems(target, trust="artifact") == []


def test_an_array_not_wholly_recorded_is_read_again_by_verification(artifacts, monkeypatch):
    hashed = _reads(monkeypatch)
    write_zarr_in_place(_spec(), artifacts, _writer(_data(), "half"))
    assert sorted(hashed) == ["x", digest_name("x")]


def test_stored_chunks_that_differ_from_the_data_written_are_not_published(artifacts):
    with pytest.raises(ArtifactError, match=r"inplace.zarr: the stored bytes are not those written: array 'x': "
                                            r"31 chunks read back differ .* \(first: chunk 32\)"):
        write_zarr_in_place(_spec(), artifacts, _writer(_data(), "lie"))
    assert list(artifacts.iterdir()) == []


def test_a_corrupted_chunk_of_an_in_place_artifact_is_detected(artifacts):
    target = write_zarr_in_place(_spec(), artifacts, _writer(_data()))
    shard = target / "x" / "c" / "1" / "0"
    raw = bytearray(shard.read_bytes())
    raw[len(raw) // 3] ^= 0x40
    shard.write_bytes(bytes(raw))
    problems = verify_problems(target, trust="artifact")
    assert problems and all("'x'" in p for p in problems)
