"""How an array is laid out in a Zarr v3 artifact: chunk and shard shapes, and the per-chunk digests.

Play-time reads (``lookup.chunked``) decode one inner chunk per element read that misses its cache, so
chunks are small (``CHUNK_BYTES`` uncompressed, along axis 0: one chunk holds whole rows) and a whole
array is a handful of shard files (``SHARD_BYTES`` uncompressed each). Every array ``X`` gets a companion
array ``X.sha256``: the sha256 of each inner chunk's raw little-endian bytes (the part inside the array,
C order), one row of 4 uint64 per chunk in C order of the chunk grid. Its own sha256 is in the signed
metadata, so a reader that checks the companion once can check each chunk on first use against the
metadata (and through it against ``MANIFEST.json``) without reading the whole array.

This file is part of every artifact's fingerprint: changing the layout rebuilds every table.
"""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np

# Uncompressed bytes per inner chunk: decoding and hashing one costs tens of microseconds, and zstd still
# compresses the tables to within ~10 % of what whole-shard chunks give (docs/benchmarks.md).
CHUNK_BYTES = 32 << 10
# HDF5 mirrors are read whole by other programs: chunks of ~1 MiB (each with its fletcher32).
HDF5_CHUNK_BYTES = 1 << 20
# Uncompressed bytes per shard: an artifact stays well under ~100 files.
SHARD_BYTES = 256 << 20
# zstd level 9: the policy tables, most of the bytes, are ~20 % smaller than at level 3 (chunks of 32 KiB
# compress less than whole shards did); decoding is as fast, building a few seconds slower.
ZSTD_LEVEL = 9
DIGEST_SUFFIX = ".sha256"
# Bumped when the layout written here changes (hashed into every fingerprint with this file).
LAYOUT_VERSION = 2


def layout(shape: tuple[int, ...], itemsize: int, chunks: tuple[int, ...] | None = None, *,
           chunk_bytes: int = CHUNK_BYTES) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(inner chunks, shards) for an array of ``shape``: by default chunks of whole rows along axis 0 of
    about ``chunk_bytes``; shards along axis 0 of at most ``SHARD_BYTES``, whole chunks only. A scalar is
    one chunk of shape ()."""
    if not shape:
        return (), ()
    if chunks is not None:
        chunks = tuple(min(c, n) if n else 1 for c, n in zip(chunks, shape, strict=True))
    else:
        row = int(np.prod(shape[1:], dtype=np.int64)) * itemsize
        rows = max(1, min(shape[0], chunk_bytes // max(row, 1)))
        chunks = (rows, *shape[1:])
    chunks = tuple(max(1, c) for c in chunks)
    chunk_bytes = int(np.prod(chunks, dtype=np.int64)) * itemsize
    per_shard = max(1, SHARD_BYTES // max(chunk_bytes, 1))
    rows = max(chunks[0], min(chunks[0] * per_shard, -(-shape[0] // chunks[0]) * chunks[0]))
    return chunks, (rows, *(-(-n // c) * c for n, c in zip(shape[1:], chunks[1:], strict=True)))


def chunk_grid(shape: tuple[int, ...], chunks: tuple[int, ...]) -> tuple[int, ...]:
    """Number of inner chunks along each axis."""
    return tuple(-(-n // c) if n else 0 for n, c in zip(shape, chunks, strict=True))


def chunk_digests(data: Any, chunks: tuple[int, ...]) -> np.ndarray:
    """(n_chunks, 4) uint64: the sha256 of each inner chunk's raw C-order little-endian bytes (only the
    part inside the array), chunks in C order of the grid. ``data`` is anything sliceable that yields
    numpy arrays (numpy or zarr); it is read in slabs of whole axis-0 chunk rows of about 64 MiB."""
    shape = tuple(data.shape)
    if not shape:
        return np.frombuffer(_sha256(np.asarray(data[()])), dtype="<u8").astype(np.uint64).reshape(1, 4)
    grid = chunk_grid(shape, chunks)
    out = np.empty((int(np.prod(grid, dtype=np.int64)), 4), dtype=np.uint64)
    row_bytes = max(1, int(np.prod(shape[1:], dtype=np.int64)) * np.dtype(data.dtype).itemsize * chunks[0])
    per_slab = max(1, (64 << 20) // row_bytes)
    k = 0
    for s0 in range(0, grid[0], per_slab):
        slab = np.asarray(data[s0 * chunks[0]:(s0 + per_slab) * chunks[0]])
        for i0 in range(min(per_slab, grid[0] - s0)):
            band = slab[i0 * chunks[0]:(i0 + 1) * chunks[0]]
            for rest in np.ndindex(*grid[1:]):
                index = tuple(slice(i * c, (i + 1) * c) for i, c in zip(rest, chunks[1:], strict=True))
                out[k] = np.frombuffer(_sha256(band[(slice(None), *index)]), dtype="<u8")
                k += 1
    return out


def _sha256(block: np.ndarray) -> bytes:
    little = block.dtype.newbyteorder("<") if block.dtype.byteorder == ">" else block.dtype
    return hashlib.sha256(np.ascontiguousarray(block, dtype=little).tobytes()).digest()


def digest_name(name: str) -> str:
    """The companion array holding the chunk digests of array ``name``."""
    return name + DIGEST_SUFFIX
