"""Play-time reads straight from an artifact's files: one Zarr v3 inner chunk at a time, each checked.

An array of an artifact (``pipeline.layout``) is a regular grid of shards, ``ARRAY/c/i/j/...``, each a
Zarr v3 ``sharding_indexed`` shard: inner chunks (``bytes`` little endian -> ``zstd`` -> ``crc32c``)
followed by the shard index (one little-endian ``(offset, nbytes)`` uint64 pair per inner chunk, C order,
then the crc32c of the index). Reading element ``i`` reads only the inner chunk holding it.

Why not zarr-python here: importing it costs about half a second and each read about a millisecond of
its asynchronous machinery (measured: docs/benchmarks.md, "First answer, straight from the artifact
files"), against a budget of 0.3 s for a fresh process's first
answer and microseconds per warm answer. The format is small and documented, so this module reads it
with ``os.pread``. ``dicetables verify`` and every publish check an artifact through this module too (one
meaning of valid: ``lookup.store.verify_problems``); the tests read the same files through zarr-python, a second
implementation, and compare, and the writer reads back through zarr-python what it wrote.

A shard is read through a *source*: ``FileSource`` (``os.pread`` of the file) or, when the artifacts directory is
an http(s) URL, ``lookup.remote.RangeSource`` (HTTP byte ranges through a checked disk cache). Either hands the
bytes to the same checks below before anything is kept.

What is checked, and when (the threat model)
--------------------------------------------
The root of trust is ``MANIFEST.json`` (``lookup.store``): an artifact is used only when the sha256 of
its metadata equals the manifest's ``meta_sha256``. The metadata holds, for every array, its shape,
dtype, chunk and shard shapes, the sha256 of its whole data and the name of its companion array of
per-chunk sha256 digests. Before an array is used:

* its ``zarr.json`` must be a regular file of at most 64 KiB whose shape, dtype, chunk grid, shard grid,
  codecs and fill value are exactly those the metadata implies (anything else is refused, not
  interpreted);
* its digest companion is read whole and must match the sha256 in the metadata;

and each inner chunk, the first time this process uses it (and again whenever it was evicted from the
bounded cache of decoded chunks): the shard file must be a regular file reached through real directories
(every component from the artifact's directory down opened without following a symlink, and without
blocking, so a FIFO or a device is refused: ``lookup.files.open_beneath``), its index must pass its crc32c
and point inside the file at no more bytes than zstd can make of the chunk (``ZSTD_COMPRESSBOUND`` plus the
crc32c: a forged index cannot make one read allocate more), the chunk's stored bytes must pass their crc32c,
decompress to exactly the chunk's size, and the sha256 of the decoded bytes must equal the chunk's digest.
So every byte an answer is computed from was checked in this process against the manifest; a flipped byte, a
truncated shard, a chunk rewritten together with its crc32c, or a swapped shard is an ``ArtifactError`` naming
the file.

Whole arrays (batch work: ``decide_batch``, self-play, simulation) are decoded chunk by chunk with the same
checks and then compared with the array's sha256.

Out of scope: a change to a file after its bytes were checked and cached in this process (the cache holds
the checked bytes, never re-reads them); an attacker who can also rewrite ``MANIFEST.json`` (then nothing
shipped with it can be trusted: ship the manifest through a channel you trust, or compare its sha256);
resource use by a caller who asks for a whole array (it is the array's size).
"""

from __future__ import annotations

import hashlib
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from lookup.environment import chunk_cache_bytes
from lookup.errors import ArtifactError
from lookup.files import open_beneath, read_json_bounded
from lookup.remote import RangeSource, RemotePath

ARRAY_JSON_LIMIT = 64 << 10  # bytes of an array's zarr.json (about 1 KiB)
_MISSING = (1 << 64) - 1  # an index entry of an absent chunk: offset and nbytes both all ones


def stored_limit(chunk_bytes: int) -> int:
    """The most bytes a chunk of ``chunk_bytes`` decoded bytes can take in a shard: zstd's bound on one frame
    (``ZSTD_COMPRESSBOUND`` of zstd.h) and the 4 bytes of its crc32c."""
    small = (128 << 10) - chunk_bytes >> 11 if chunk_bytes < 128 << 10 else 0
    return chunk_bytes + (chunk_bytes >> 8) + small + 4


def _crc32c(data: bytes) -> int:
    import google_crc32c  # imported on first use: answers that read no chunk never pay for it

    return google_crc32c.value(data)


_local = threading.local()


def _zstd_frame_size(raw: bytes) -> int:
    """The content size a zstd frame states (-1 when it states none), from its header."""
    import zstandard

    return zstandard.frame_content_size(memoryview(raw)[:-4])


def _decompressor() -> Any:
    """This thread's zstd decompressor (a ``zstandard.ZstdDecompressor`` is not thread-safe)."""
    found = getattr(_local, "zstd", None)
    if found is None:
        import zstandard

        found = _local.zstd = zstandard.ZstdDecompressor()
    return found


class _Cache:
    """Decoded, checked chunks, least recently used first out, at most ``budget`` bytes in all (default:
    ``$DICETABLES_CHUNK_CACHE_MB``, read on first use: ``lookup.environment.chunk_cache_bytes``)."""

    def __init__(self, budget: int | None = None) -> None:
        self._budget = budget
        self.used = 0
        self.items: OrderedDict[tuple[int, int], tuple[memoryview, int]] = OrderedDict()
        self.lock = threading.Lock()

    @property
    def budget(self) -> int:
        if self._budget is None:
            self._budget = chunk_cache_bytes()
        return self._budget

    @budget.setter
    def budget(self, value: int) -> None:
        self._budget = value

    def put(self, key: tuple[int, int], view: memoryview, nbytes: int) -> None:
        budget = self.budget
        with self.lock:
            if key in self.items:
                return
            self.items[key] = (view, nbytes)
            self.used += nbytes
            while self.used > budget and len(self.items) > 1:
                _, (_, n) = self.items.popitem(last=False)
                self.used -= n

    def clear(self) -> None:
        with self.lock:
            self.items.clear()
            self.used = 0


CACHE = _Cache()
_ids = iter(range(1 << 62))
T = TypeVar("T")


class FileSource:
    """A shard file on disk, opened by ``open_beneath`` and read with ``os.pread``; its counterpart over HTTP is
    ``lookup.remote.RangeSource``. ``tail(n, parse)`` / ``read(offset, n, parse)`` give ``parse`` of the file's
    last ``n`` bytes (all of it when shorter) / of ``n`` bytes at ``offset`` (fewer past the end); ``parse``
    checks them (ArtifactError) and makes what the caller keeps. ``size``: the file's size when opened."""

    def __init__(self, root: Path, parts: tuple[str, ...]) -> None:
        self.name = str(root.joinpath(*parts))
        self._fd = open_beneath(root, parts)
        self.size = os.fstat(self._fd).st_size

    def tail(self, n: int, parse: Callable[[bytes], T]) -> T:
        return parse(os.pread(self._fd, min(n, self.size), max(0, self.size - n)))

    def read(self, offset: int, n: int, parse: Callable[[bytes], T]) -> T:
        return parse(os.pread(self._fd, n, offset))

    def close(self) -> None:
        os.close(self._fd)


def expected_codecs(dtype: np.dtype, chunks: list[int], level: int) -> list[dict[str, Any]]:
    """The codec chain every array of an artifact has (``pipeline.store.create_zarr_array``); ``level`` is the
    zstd level it was written with (any level decodes alike)."""
    inner_bytes: dict[str, Any] = {"name": "bytes"}
    if dtype.itemsize > 1:
        inner_bytes["configuration"] = {"endian": "little"}
    return [{"name": "sharding_indexed", "configuration": {
        "chunk_shape": chunks,
        "codecs": [inner_bytes, {"name": "zstd", "configuration": {"level": level, "checksum": False}},
                   {"name": "crc32c"}],
        "index_codecs": [{"name": "bytes", "configuration": {"endian": "little"}}, {"name": "crc32c"}],
        "index_location": "end"}}]


def _zstd_level(doc: dict[str, Any]) -> int:
    """The zstd level named in an array description when it is an integer of 1..22 (else 0: refused)."""
    try:
        level = doc["codecs"][0]["configuration"]["codecs"][1]["configuration"]["level"]
    except (KeyError, IndexError, TypeError):
        return 0
    return level if type(level) is int and 1 <= level <= 22 else 0


class ChunkedArray(NDArrayOperatorsMixin):
    """One array of an artifact, read from its shard files chunk by chunk (see the module docstring).

    ``a[i, j, ...]`` (one int per axis) and ``a.flat(i)`` give one element as a Python int or float from
    its checked chunk; any other index, ``np.asarray(a)`` and ``array()`` use the whole array (decoded once
    per object, every chunk checked, then its sha256). ``digests`` is the (n_chunks, 4) uint64 array of
    chunk sha256 digests, already checked against the metadata.
    """

    def __init__(self, directory: Path, entry: dict[str, Any], digests: np.ndarray | None) -> None:
        self.directory = directory
        self.shape = tuple(int(n) for n in entry["shape"])
        self.dtype = np.dtype(entry["dtype"])
        # Little endian as stored; parsed from its string so that on a little-endian machine it is the
        # native type (a memoryview of it then gives Python ints and floats).
        self._stored = np.dtype(self.dtype.newbyteorder("<").str)
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self.chunks = tuple(int(n) for n in entry["chunks"])
        self.shards = tuple(int(n) for n in entry["shards"])
        self._sha256 = entry["sha256"]
        if len(self.chunks) != self.ndim or len(self.shards) != self.ndim or any(
                c < 1 or s < c or s % c for c, s in zip(self.chunks, self.shards, strict=True)):
            raise ArtifactError(f"{directory}: chunk shape {self.chunks} / shard shape {self.shards} do not fit "
                             f"shape {self.shape}")
        self.grid = tuple(-(-n // c) for n, c in zip(self.shape, self.chunks, strict=True))
        self.n_chunks = int(np.prod(self.grid, dtype=np.int64))
        self._per_shard = tuple(s // c for s, c in zip(self.shards, self.chunks, strict=True))
        self._inner = int(np.prod(self._per_shard, dtype=np.int64))
        self._chunk_elems = int(np.prod(self.chunks, dtype=np.int64))
        self._chunk_bytes = self._chunk_elems * self.dtype.itemsize
        self._stored_limit = stored_limit(self._chunk_bytes)
        # Chunks of whole rows (the layout pipeline.layout writes): element i is in chunk i // chunk_elems.
        self._rows_only = self.ndim > 0 and self.chunks[1:] == self.shape[1:]
        self._strides = tuple(int(np.prod(self.shape[a + 1:], dtype=np.int64)) for a in range(self.ndim))
        if digests is not None and digests.shape != (self.n_chunks, 4):
            raise ArtifactError(f"{directory}: {digests.shape[0]} chunk digests for {self.n_chunks} chunks")
        self._digests = digests
        self._id = next(_ids)
        # Over HTTP, what the disk cache of fetched ranges keys them on: a republished array is new bytes.
        self._version = f"{entry['sha256']} {list(self.chunks)} {list(self.shards)}"
        self._sources: dict[tuple[int, ...], FileSource | RangeSource] = {}
        self._indexes: dict[tuple[int, ...], np.ndarray] = {}
        self._whole: np.ndarray | None = None
        self._lock = threading.Lock()
        self._check_zarr_json(entry)

    # -- metadata -------------------------------------------------------------------------------------------
    def _check_zarr_json(self, entry: dict[str, Any]) -> None:
        path = self.directory / "zarr.json"
        try:
            doc = read_json_bounded(path, ARRAY_JSON_LIMIT, beneath=self.directory.parent)
        except FileNotFoundError as exc:
            raise ArtifactError(f"{path}: missing") from exc
        if not isinstance(doc, dict):
            raise ArtifactError(f"{path}: not a Zarr v3 array description")
        want = {
            "zarr_format": 3, "node_type": "array", "shape": list(self.shape), "data_type": self.dtype.name,
            "chunk_grid": {"name": "regular", "configuration": {"chunk_shape": list(self.shards)}},
            "chunk_key_encoding": {"name": "default", "configuration": {"separator": "/"}},
            "codecs": expected_codecs(self.dtype, list(self.chunks), _zstd_level(doc)),
        }
        for key, value in want.items():
            if doc.get(key) != value:
                raise ArtifactError(f"{path}: '{key}' is {doc.get(key)!r}, the signed metadata implies {value!r}")
        if doc.get("storage_transformers", []) != []:
            raise ArtifactError(f"{path}: storage transformers are not part of the artifact format")
        fill = doc.get("fill_value")
        if self.dtype.kind == "f":
            if fill != "NaN":
                raise ArtifactError(f"{path}: fill value {fill!r}, expected NaN")
        elif type(fill) is not int:
            raise ArtifactError(f"{path}: fill value {fill!r} is not an integer")

    # -- elements -------------------------------------------------------------------------------------------
    def flat(self, index: int) -> Any:
        """The element at C-order flat ``index`` (0 <= index < size) as a Python int or float."""
        if not 0 <= index < self.size:
            raise IndexError(f"flat index {index} outside 0..{self.size - 1}")
        if self._rows_only:
            k, offset = divmod(index, self._chunk_elems)
        else:
            coords = [(index // s) % n for s, n in zip(self._strides, self.shape, strict=True)]
            return self.item(tuple(coords))
        hit = CACHE.items.get((self._id, k))
        view = hit[0] if hit is not None else self._load(k)
        return view[offset]

    def item(self, index: tuple[int, ...]) -> Any:
        """The element at ``index`` (one int per axis, each in range)."""
        if len(index) != self.ndim or not all(0 <= i < n for i, n in zip(index, self.shape, strict=True)):
            raise IndexError(f"index {tuple(index)} outside shape {self.shape}")
        if self._rows_only:
            return self.flat(sum(i * s for i, s in zip(index, self._strides, strict=True)))
        coords = [i // c for i, c in zip(index, self.chunks, strict=True)]
        k = 0
        for c, n in zip(coords, self.grid, strict=True):
            k = k * n + c
        offset = 0
        for i, c in zip(index, self.chunks, strict=True):
            offset = offset * c + i % c
        hit = CACHE.items.get((self._id, k))
        view = hit[0] if hit is not None else self._load(k)
        return view[offset]

    def row(self, i: int) -> np.ndarray:
        """Row ``i`` of a 2-D array whose chunks hold whole rows, read-only, from its checked chunk (not the
        whole array)."""
        if self.ndim != 2 or not self._rows_only:
            raise ValueError(f"{self!r}: row() needs a 2-D array chunked by whole rows")
        if not 0 <= i < self.shape[0]:
            raise IndexError(f"row {i} outside 0..{self.shape[0] - 1}")
        k, r = divmod(i, self.chunks[0])
        out = self.chunk(k)[r]
        out.setflags(write=False)
        return out

    def __getitem__(self, index: Any) -> Any:
        if type(index) is tuple and len(index) == self.ndim and all(type(i) is int for i in index):
            return self.item(index)
        if type(index) is int and self.ndim == 1:
            return self.item((index,))
        if isinstance(index, tuple) and len(index) == self.ndim and all(
                isinstance(i, (int, np.integer)) for i in index):
            return self.item(tuple(int(i) for i in index))
        return self.array()[index]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        whole = self.array()
        return whole if dtype is None else whole.astype(dtype)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        # Operators and ufuncs (``a >= 0``, ``np.isnan(a)``) act on the whole checked array.
        inputs = tuple(x.array() if isinstance(x, ChunkedArray) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # ndarray methods and attributes (astype, max, T, ...) of the whole checked array. Private names are
        # not forwarded (they are this object's own, possibly not yet set in __init__).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.array(), name)

    def __len__(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"ChunkedArray({self.directory}, shape={self.shape}, dtype={self.dtype})"

    # -- chunks ---------------------------------------------------------------------------------------------
    def chunk(self, k: int) -> np.ndarray:
        """Inner chunk ``k`` (C order of the chunk grid), decoded and checked, at its full chunk shape
        (positions past the array's edge hold the fill value)."""
        hit = CACHE.items.get((self._id, k))
        view = hit[0] if hit is not None else self._load(k)
        return np.asarray(view).reshape(self.chunks)

    def _load(self, k: int) -> memoryview:
        data = self._decode(k)
        view = memoryview(data)
        CACHE.put((self._id, k), view, data.nbytes)
        return view

    def _coords(self, k: int) -> list[int]:
        """Grid coordinates of inner chunk ``k`` (C order of the chunk grid)."""
        return [int(c) for c in np.unravel_index(k, self.grid)] if self.grid else []

    def _decode(self, k: int) -> np.ndarray:
        """Chunk ``k`` read from its shard and checked (crc32c, size, sha256), as a flat read-only array in
        native byte order."""
        coords = self._coords(k)
        shard = tuple(c // p for c, p in zip(coords, self._per_shard, strict=True))
        inner = 0
        for c, p in zip(coords, self._per_shard, strict=True):
            inner = inner * p + c % p
        source, index, path = self._shard(shard)
        offset, nbytes = int(index[inner, 0]), int(index[inner, 1])
        if offset == _MISSING and nbytes == _MISSING:
            raise ArtifactError(f"{path}: chunk {inner} is missing (every chunk is written)")
        limit = source.size - (16 * self._inner + 4)
        if nbytes < 5 or offset + nbytes > limit:
            raise ArtifactError(f"{path}: the index points chunk {inner} outside the file")
        if nbytes > self._stored_limit:
            raise ArtifactError(f"{path}: the index gives chunk {inner} {nbytes} bytes, more than the "
                                f"{self._stored_limit} a chunk of {self._chunk_bytes} bytes can take; refused")
        return source.read(offset, nbytes, lambda raw: self._checked(raw, nbytes, path, inner, k, coords))

    def _checked(self, raw: bytes, nbytes: int, path: Path, inner: int, k: int, coords: list[int]) -> np.ndarray:
        """Stored chunk ``raw`` of ``nbytes`` bytes (inner chunk ``inner`` of shard ``path``, chunk ``k`` of the
        array) decoded after its checks (length, crc32c, stated size, decoded size, sha256): a flat read-only array
        in native order."""
        if len(raw) != nbytes:
            raise ArtifactError(f"{path}: truncated (chunk {inner})")
        if _crc32c(raw[:-4]) != int.from_bytes(raw[-4:], "little"):
            raise ArtifactError(f"{path}: chunk {inner} fails its crc32c (flipped or altered bytes)")
        try:
            # zstandard trusts a frame's stated size over max_output_size: check it first, so that a forged
            # frame cannot make one read allocate gigabytes.
            stated = _zstd_frame_size(raw)
            if stated != self._chunk_bytes:
                raise ArtifactError(f"{path}: chunk {inner} states {stated} bytes, not {self._chunk_bytes}")
            decoded = _decompressor().decompress(memoryview(raw)[:-4], max_output_size=self._chunk_bytes)
        except ArtifactError:
            raise
        except Exception as exc:  # a damaged frame, or one larger than the chunk: zstandard.ZstdError
            raise ArtifactError(f"{path}: chunk {inner} does not decompress ({type(exc).__name__})") from exc
        if len(decoded) != self._chunk_bytes:
            raise ArtifactError(f"{path}: chunk {inner} decompresses to {len(decoded)} bytes, not "
                                f"{self._chunk_bytes}")
        data = np.frombuffer(decoded, dtype=self._stored)
        if self._digests is not None:
            valid = self._valid_bytes(coords, data)
            if hashlib.sha256(valid).digest() != self._digests[k].astype("<u8").tobytes():
                raise ArtifactError(f"{path}: chunk {inner} does not match its sha256 in the signed metadata")
        if not data.dtype.isnative:
            data = data.astype(self.dtype.newbyteorder("="))  # a big-endian machine
        return data  # read-only: np.frombuffer of bytes

    def _valid_bytes(self, coords: list[int], data: np.ndarray) -> bytes | memoryview:
        """The bytes of chunk ``coords`` that lie inside the array (what the digest covers)."""
        ends = [min(c, n - i * c) for i, c, n in zip(coords, self.chunks, self.shape, strict=True)]
        if list(ends) == list(self.chunks):
            return memoryview(data).cast("B")
        if self._rows_only:
            return memoryview(data[: ends[0] * self._chunk_elems // self.chunks[0]]).cast("B")
        block = data.reshape(self.chunks)[tuple(slice(0, e) for e in ends)]
        return np.ascontiguousarray(block).tobytes()

    def _shard(self, shard: tuple[int, ...]) -> tuple[FileSource | RangeSource, np.ndarray, Path]:
        """(source, index (inner, 2) uint64, path) of shard file ``shard``, its index checked: a ``FileSource``,
        or over HTTP (the artifact is a ``lookup.remote.RemotePath``) a ``RangeSource``."""
        path = self.directory.joinpath("c", *map(str, shard))
        with self._lock:
            if shard in self._indexes:
                return self._sources[shard], self._indexes[shard], path
            length = 16 * self._inner + 4

            def parse(raw: bytes) -> np.ndarray:
                if len(raw) != length:
                    raise ArtifactError(f"{path}: shorter than its index")
                if _crc32c(raw[:-4]) != int.from_bytes(raw[-4:], "little"):
                    raise ArtifactError(f"{path}: the shard index fails its crc32c")
                return np.frombuffer(raw[:-4], dtype="<u8").reshape(self._inner, 2)

            parts = (self.directory.name, "c", *map(str, shard))
            source: FileSource | RangeSource | None = None
            try:
                if isinstance(self.directory, RemotePath):
                    source = RangeSource(self.directory.parent.joinpath(*parts), self._version)
                else:
                    source = FileSource(self.directory.parent, parts)
                index = source.tail(length, parse)
            except FileNotFoundError as exc:
                raise ArtifactError(f"{path}: missing (every chunk is written)") from exc
            except BaseException:
                if source is not None:
                    source.close()
                raise
            self._sources[shard], self._indexes[shard] = source, index
            return source, index, path

    def check_shard_files(self) -> None:
        """ArtifactError naming the first shard file that is missing or not a regular file reached through real
        directories (without reading it: what a reader would find on first use)."""
        grid = [range(-(-n // s)) for n, s in zip(self.shape, self.shards, strict=True)]
        for shard in np.ndindex(*(len(g) for g in grid)) if grid else [()]:
            parts = (self.directory.name, "c", *map(str, shard))
            try:
                os.close(open_beneath(self.directory.parent, parts))
            except FileNotFoundError:
                missing = self.directory.joinpath(*parts[1:])
                raise ArtifactError(f"{missing}: missing (every chunk is written)") from None

    # -- whole array ----------------------------------------------------------------------------------------
    def array(self) -> np.ndarray:
        """The whole array (read-only, native byte order), every chunk checked, then its sha256."""
        if self._whole is None:
            whole = np.empty(self.shape, dtype=self.dtype.newbyteorder("="))
            if self.ndim == 0:
                whole[()] = np.asarray(self.chunk(0)).reshape(())
            for k in range(self.n_chunks if self.ndim else 0):
                coords = self._coords(k)
                where = tuple(slice(i * c, min((i + 1) * c, n)) for i, c, n in
                              zip(coords, self.chunks, self.shape, strict=True))
                block = self._decode(k).reshape(self.chunks)
                whole[where] = block[tuple(slice(0, s.stop - s.start) for s in where)]
            digest = hashlib.sha256(np.ascontiguousarray(whole, dtype=self.dtype.newbyteorder("<")).tobytes())
            if digest.hexdigest() != self._sha256:
                raise ArtifactError(f"{self.directory}: the array does not match its sha256 in the signed metadata")
            whole.flags.writeable = False
            self._whole = whole
        return self._whole

    def close(self) -> None:
        with self._lock:
            for source in self._sources.values():
                source.close()
            self._sources.clear()
            self._indexes.clear()

    def __del__(self) -> None:
        try:
            self.close()
        except (OSError, AttributeError, TypeError):  # TypeError: at exit, with modules torn down
            pass
