"""Artifacts written in place (``pipeline.store.write_zarr_in_place``): one read of the stored chunks gives the
sha256 and the chunk digests."""

import numpy as np
import pytest

import pipeline.store as wstore
from lookup.store import sha256_of_array
from pipeline.layout import chunk_digests
from pipeline.store import array_digests, create_zarr_array


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
