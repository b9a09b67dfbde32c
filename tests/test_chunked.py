"""lookup.chunked: play-time reads straight from an artifact's shard files, every chunk checked on first use
(no runtime copies).

Each test damages a private copy of a small artifact the way an attacker or a bad disk would and checks the
refusal names the file. The helpers (``Grid``, ``flip_in_chunk``, ``rewrite_chunk``, ``deadline``,
``no_writes``) are used by the Yahtzee and dice-race trust tests too.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import google_crc32c
import numpy as np
import pytest
import zstandard
from hypothesis import given, settings
from hypothesis import strategies as st
from test_store import _arrays, _spec

import lookup.files
import pipeline.layout
from lookup.chunked import ARRAY_JSON_LIMIT, CACHE, ChunkedArray
from lookup.files import ZARR_JSON_LIMIT
from lookup.store import (
    MANIFEST_NAME,
    META_KEY,
    META_SHA_KEY,
    TRUST_ENV,
    ArtifactError,
    meta_sha256,
    open_artifact,
    play_arrays,
    read_meta,
    verify_problems,
)
from pipeline.store import StoredArray, write_artifact, write_manifest

ROOT = Path(__file__).resolve().parent.parent


# --- helpers: where a chunk is, and how to damage it ------------------------------------------------------

@dataclass(frozen=True)
class Grid:
    """Where the chunks of one array of an artifact are, computed from its signed metadata (not from
    lookup.chunked, so that the tests locate chunks independently of the reader they test)."""

    directory: Path
    shape: tuple[int, ...]
    dtype: np.dtype
    chunks: tuple[int, ...]
    shards: tuple[int, ...]

    @classmethod
    def of(cls, artifact: Path, name: str) -> Grid:
        entry = read_meta(artifact)["arrays"][name]
        return cls(artifact / name, tuple(entry["shape"]), np.dtype(entry["dtype"]).newbyteorder("<"),
                   tuple(entry["chunks"]), tuple(entry["shards"]))

    @property
    def grid(self) -> tuple[int, ...]:
        return tuple(-(-n // c) for n, c in zip(self.shape, self.chunks, strict=True))

    @property
    def per_shard(self) -> tuple[int, ...]:
        return tuple(s // c for s, c in zip(self.shards, self.chunks, strict=True))

    @property
    def n_inner(self) -> int:
        return int(np.prod(self.per_shard))

    @property
    def chunk_bytes(self) -> int:
        return int(np.prod(self.chunks)) * self.dtype.itemsize

    def chunk_of(self, index: tuple[int, ...]) -> int:
        """The chunk (C order of the chunk grid) holding element ``index``."""
        return int(np.ravel_multi_index(tuple(i // c for i, c in zip(index, self.chunks, strict=True)), self.grid))

    def element_in(self, k: int) -> tuple[int, ...]:
        """The first element of chunk ``k``."""
        return tuple(int(c) * n for c, n in zip(np.unravel_index(k, self.grid), self.chunks, strict=True))

    def where(self, k: int) -> tuple[Path, int]:
        """(shard file, inner chunk number in it) of chunk ``k``."""
        coords = np.unravel_index(k, self.grid)
        shard = tuple(int(c) // p for c, p in zip(coords, self.per_shard, strict=True))
        inner = int(np.ravel_multi_index(tuple(int(c) % p for c, p in zip(coords, self.per_shard, strict=True)),
                                         self.per_shard))
        return self.directory.joinpath("c", *map(str, shard)), inner


def crc32c(data: bytes) -> bytes:
    return google_crc32c.value(bytes(data)).to_bytes(4, "little")


def read_shard(path: Path, n_inner: int) -> tuple[bytes, np.ndarray]:
    """(file bytes, index (n_inner, 2) of (offset, nbytes)), the index's crc32c checked."""
    data = path.read_bytes()
    tail = data[len(data) - 16 * n_inner - 4:]
    assert crc32c(tail[:-4]) == tail[-4:], f"{path}: the test copy is already damaged"
    return data, np.frombuffer(tail[:-4], dtype="<u8").reshape(n_inner, 2).copy()


def write_shard(path: Path, chunks: list[bytes]) -> None:
    """A shard of ``chunks`` (stored bytes, inner order) followed by its index and the index's crc32c."""
    index, offset = np.empty((len(chunks), 2), dtype="<u8"), 0
    for i, raw in enumerate(chunks):
        index[i] = offset, len(raw)
        offset += len(raw)
    tail = index.tobytes()
    path.write_bytes(b"".join(chunks) + tail + crc32c(tail))


def write_index(path: Path, n_inner: int, edit: Callable[[np.ndarray], None]) -> None:
    """Rewrite the index of shard ``path`` after ``edit(index)``, with a correct crc32c."""
    data, index = read_shard(path, n_inner)
    edit(index)
    tail = index.astype("<u8").tobytes()
    path.write_bytes(data[:len(data) - 16 * n_inner - 4] + tail + crc32c(tail))


def stored_chunks(grid: Grid, path: Path) -> list[bytes]:
    data, index = read_shard(path, grid.n_inner)
    return [data[int(o):int(o) + int(n)] for o, n in index]


def encode(block: np.ndarray, dtype: np.dtype, extra: bytes = b"") -> bytes:
    """A chunk as the artifact stores it: little-endian bytes -> zstd -> crc32c (valid, so only the sha256
    can tell it is not the one that was signed)."""
    frame = zstandard.ZstdCompressor(level=3).compress(np.ascontiguousarray(block, dtype=dtype).tobytes() + extra)
    return frame + crc32c(frame)


def decode(raw: bytes, grid: Grid) -> np.ndarray:
    assert crc32c(raw[:-4]) == raw[-4:]
    data = zstandard.ZstdDecompressor().decompress(raw[:-4], max_output_size=grid.chunk_bytes)
    return np.frombuffer(data, dtype=grid.dtype).reshape(grid.chunks).copy()


def flip_in_chunk(grid: Grid, k: int, bit: int = 3) -> Path:
    """Flip one bit in the middle of the stored bytes of chunk ``k``; the shard file is returned."""
    path, inner = grid.where(k)
    _, index = read_shard(path, grid.n_inner)
    offset, nbytes = (int(x) for x in index[inner])
    with open(path, "r+b") as f:
        f.seek(offset + nbytes // 2)
        byte = f.read(1)[0]
        f.seek(offset + nbytes // 2)
        f.write(bytes([byte ^ (1 << bit)]))
    return path


def rewrite_chunk(grid: Grid, k: int, edit: Callable[[np.ndarray], Any]) -> Path:
    """Decode chunk ``k``, apply ``edit`` to it (in place, or return a new block), re-encode it with a valid
    crc32c and rewrite its shard with a valid index; the shard file is returned."""
    path, inner = grid.where(k)
    chunks = stored_chunks(grid, path)
    block = decode(chunks[inner], grid)
    before = block.copy()
    out = edit(block)
    block = block if out is None else out
    assert not np.array_equal(block, before, equal_nan=block.dtype.kind == "f"), "the edit changed nothing"
    chunks[inner] = encode(block, grid.dtype)
    write_shard(path, chunks)
    return path


def bump(block: np.ndarray) -> None:
    """Change the first element of a decoded chunk to another valid-looking value."""
    flat = block.reshape(-1)
    flat[0] = flat[0] + 1 if block.dtype.kind != "f" or np.isfinite(flat[0]) else 0.5


def edit_root_meta(artifact: Path, edit: Callable[[dict], Any], resign: bool = True) -> None:
    """Edit the signed metadata in the root zarr.json; ``resign`` recomputes its own sha256."""
    doc = json.loads((artifact / "zarr.json").read_text())
    edit(doc["attributes"][META_KEY])
    if resign:
        doc["attributes"][META_SHA_KEY] = meta_sha256(doc["attributes"][META_KEY])
    (artifact / "zarr.json").write_text(json.dumps(doc))


def tree(root: Path) -> dict[str, str]:
    """Every path under ``root`` with the sha256 of each file (``dir`` for directories)."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest() if p.is_file() and
            not p.is_symlink() else "dir" if p.is_dir() else "other" for p in sorted(root.rglob("*"))}


class Hung(Exception):
    """A read blocked (on a FIFO, say) past its deadline."""


@contextmanager
def deadline(seconds: float = 5.0) -> Iterator[None]:
    """Raise ``Hung`` in this (main) thread when the body takes more than ``seconds``: a blocking open() of a
    FIFO is interrupted by the alarm (PEP 475: the handler's exception ends the call)."""
    def alarm(signum: int, frame: Any) -> None:
        raise Hung(f"still blocked after {seconds} s")

    old = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_guarded: list[Path] = []
_writes: list[str] = []
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC | os.O_APPEND
_WRITE_EVENTS = {"os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.symlink", "os.link", "os.truncate",
                 "os.chmod", "os.chown", "os.utime", "shutil.rmtree", "shutil.copyfile", "shutil.move"}


def _inside(path: Any) -> bool:
    if isinstance(path, int) or path is None:
        return False
    try:
        target = Path(os.path.abspath(os.fsdecode(path)))
    except TypeError:
        return False
    return any(target == root or root in target.parents for root in _guarded)


def _audit(event: str, args: tuple) -> None:
    if not _guarded:
        return
    if event == "open":
        path, mode, flags = args
        writes = bool(flags & _WRITE_FLAGS) if isinstance(flags, int) else any(c in (mode or "") for c in "wax+")
        if writes and _inside(path):
            _writes.append(f"open {path} {mode} {flags:#o}")
            raise PermissionError(f"test guard: {path} opened for writing")
    elif event in _WRITE_EVENTS and any(_inside(a) for a in args[:2]):
        _writes.append(f"{event} {args[:2]}")
        raise PermissionError(f"test guard: {event} {args[:2]}")


sys.addaudithook(_audit)


@contextmanager
def no_writes(root: Path) -> Iterator[list[str]]:
    """Within the body, any open for writing, creation, removal, rename or metadata change of a path under
    ``root`` raises PermissionError and is recorded (an audit hook: it works when the tests run as root,
    where a read-only directory is not); the tree of ``root`` is also made read-only and compared."""
    before = tree(root)
    modes = {p: p.stat().st_mode for p in [root, *root.rglob("*")] if not p.is_symlink()}
    for p, mode in modes.items():
        p.chmod(mode & ~0o222)
    _guarded.append(root.resolve())
    _writes.clear()
    try:
        yield _writes
    finally:
        _guarded.remove(root.resolve())
        for p, mode in modes.items():
            p.chmod(mode)
    assert _writes == []
    assert tree(root) == before


# --- fixtures ---------------------------------------------------------------------------------------------

OPEN = dict(schema="test.demo", versions=[2])


# built_demo and demo: tests/conftest.py (other modules damage the demo artifact too).


def handles(path: Path, **kw: Any) -> dict[str, ChunkedArray]:
    """The arrays of an artifact opened for play (nothing decoded yet)."""
    return open_artifact(path, **OPEN, verify=False, **kw).handles


# --- 7. a second implementation: zarr-python reads the same files ----------------------------------------

def _compare_with_zarr(path: Path, names: list[str], seed: int = 0) -> None:
    import zarr

    arrays = handles(path)
    rng = np.random.default_rng(seed)
    for name in names:
        mine = arrays[name]
        theirs = zarr.open_array(store=str(path / name), mode="r")
        assert mine.shape == theirs.shape and mine.dtype == theirs.dtype
        want = theirs[...]
        np.testing.assert_array_equal(mine.array(), want)
        np.testing.assert_array_equal(np.asarray(mine), want)
        if not mine.size:
            continue
        corners = [tuple(int(x) for x in c) for c in np.ndindex(*(2,) * mine.ndim)]
        corners = [tuple((n - 1) * c for n, c in zip(mine.shape, corner, strict=True)) for corner in corners]
        picks = [tuple(int(rng.integers(0, n)) for n in mine.shape) for _ in range(150)]
        fresh = handles(path)[name]  # element reads from chunks not yet decoded by array()
        for index in corners + picks:
            got = fresh[index]
            assert type(got) is (float if mine.dtype.kind == "f" else int), type(got)
            np.testing.assert_array_equal(got, want[index], err_msg=f"{name}{index}")
            flat = int(np.ravel_multi_index(index, mine.shape))
            np.testing.assert_array_equal(fresh.flat(flat), want[index])
        for index in picks[:5]:  # zarr-python's own element reads
            np.testing.assert_array_equal(fresh[index], theirs[index])
        for k in range(min(fresh.n_chunks, 20)):
            start = Grid.of(path, name).element_in(k)
            block = fresh.chunk(k)
            np.testing.assert_array_equal(block.reshape(-1)[0], want[start])


def test_reader_equals_zarr_python_on_the_demo_arrays(demo):
    """float64 3-D with a NaN, uint8 with a partial last chunk, a one-chunk int32, and the digest arrays."""
    _compare_with_zarr(demo, ["values", "codes", "signed"])
    import zarr

    for name in ("values", "codes", "signed"):  # the companions: the digests lookup checks against
        companion = zarr.open_array(store=str(demo / f"{name}.sha256"), mode="r")[...]
        assert handles(demo)[name]._digests.tolist() == companion.tolist()  # noqa: SLF001


def test_reader_equals_zarr_python_on_odd_chunkings_and_many_shards(tmp_path, monkeypatch):
    """Chunks that cut every axis (partial chunks at every edge), and arrays of several shards (the shard
    size made small while writing)."""
    rng = np.random.default_rng(7)
    monkeypatch.setattr(pipeline.layout, "SHARD_BYTES", 4096)
    arrays = {
        "cut": StoredArray(rng.integers(-3000, 3000, size=(37, 11, 5), dtype=np.int16), "every axis cut",
                           chunks=(5, 4, 3)),
        "thin": StoredArray(rng.random((23, 9)).astype(np.float32), "float32 in 4 x 2 blocks", chunks=(4, 2)),
        "long": StoredArray(rng.integers(0, 1 << 40, size=3001, dtype=np.int64), "7 shards", chunks=(100,)),
        "wide": StoredArray(rng.normal(size=(301, 13)), "shards of 98 rows, chunks of 7 x 5", chunks=(7, 5)),
        "rows": StoredArray(rng.integers(0, 60000, size=(999, 3), dtype=np.uint16), "default chunks"),
    }
    root = tmp_path / "artifacts"
    write_artifact(_spec(hdf5=False), arrays, root)
    write_manifest(root)
    meta = read_meta(root / "demo.zarr")["arrays"]
    assert len(list((root / "demo.zarr" / "long" / "c").iterdir())) == 7
    assert meta["wide"]["shards"] == [98, 15] and len(list((root / "demo.zarr" / "wide" / "c").iterdir())) == 4
    _compare_with_zarr(root / "demo.zarr", list(arrays), seed=1)


@settings(max_examples=20, deadline=None)
@given(data=st.data())
def test_reader_equals_zarr_python_on_random_layouts(data):
    dtype = data.draw(st.sampled_from(["float64", "float32", "int8", "uint16", "int32", "uint64"]))
    ndim = data.draw(st.integers(1, 3))
    shape = tuple(data.draw(st.lists(st.integers(1, 17), min_size=ndim, max_size=ndim)))
    chunks = tuple(data.draw(st.integers(1, n)) for n in shape)
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        values = rng.normal(size=shape).astype(dtype)
    else:
        info = np.iinfo(dtype)
        values = rng.integers(max(info.min, -(10**6)) + 1, min(info.max, 10**6) - 1, size=shape, dtype=dtype)
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "artifacts"
        write_artifact(_spec(hdf5=False), {"x": StoredArray(values, "random", chunks=chunks)}, root)
        write_manifest(root)
        _compare_with_zarr(root / "demo.zarr", ["x"], seed=seed)


# --- 1. a flipped byte: refused at the read that uses the chunk, naming the shard -------------------------

@pytest.mark.parametrize("name, k", [("codes", 3), ("codes", 15), ("values", 4), ("signed", 0)])
def test_a_flipped_byte_is_refused_at_the_read_of_its_chunk_naming_the_shard(demo, name, k):
    grid = Grid.of(demo, name)
    good = np.asarray(handles(demo)[name])
    path = flip_in_chunk(grid, k)
    arrays = handles(demo)  # opening reads no chunk: nothing fails yet
    with pytest.raises(ArtifactError, match=rf"^{re.escape(str(path))}: chunk {grid.where(k)[1]} fails its crc32c"):
        arrays[name][grid.element_in(k)]
    with pytest.raises(ArtifactError, match=re.escape(str(path))):  # refused again, not remembered as good
        arrays[name][grid.element_in(k)]
    for other in range(int(np.prod(grid.grid))):  # every other chunk still answers
        if other != k:
            index = grid.element_in(other)
            np.testing.assert_array_equal(arrays[name][index], good[index])
    with pytest.raises(ArtifactError, match=re.escape(str(path))):
        arrays[name].array()
    with pytest.raises(ArtifactError, match=re.escape(str(path))):
        open_artifact(demo, **OPEN)  # verify=True reads every chunk


def test_a_flipped_byte_in_a_shard_index_is_refused(demo):
    grid = Grid.of(demo, "codes")
    path, _ = grid.where(0)
    raw = bytearray(path.read_bytes())
    raw[-10] ^= 0x01
    path.write_bytes(bytes(raw))
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: the shard index fails its crc32c"):
        handles(demo)["codes"][5]


def test_a_truncated_shard_is_refused(demo):
    grid = Grid.of(demo, "values")
    path, _ = grid.where(0)
    for size in (path.stat().st_size - 1, 40, 0):
        os.truncate(path, size)
        with pytest.raises(ArtifactError, match=re.escape(str(path))):
            handles(demo)["values"][0, 0, 0]


def test_an_index_pointing_outside_the_file_or_at_a_missing_chunk_is_refused(demo):
    grid = Grid.of(demo, "codes")
    path, _ = grid.where(0)
    original = path.read_bytes()

    def outside(index: np.ndarray) -> None:
        index[2] = path.stat().st_size - 8, 64

    def missing(index: np.ndarray) -> None:
        index[2] = (1 << 64) - 1, (1 << 64) - 1

    for edit, message in ((outside, "points chunk 2 outside the file"), (missing, "chunk 2 is missing")):
        path.write_bytes(original)
        write_index(path, grid.n_inner, edit)
        arrays = handles(demo)
        with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: .*{message}"):
            arrays["codes"][2 * 64]
        assert arrays["codes"][64] == _arrays()["codes"].data[64]


def test_a_deleted_shard_is_refused_not_read_as_fill(demo):
    path, _ = Grid.of(demo, "codes").where(0)
    path.unlink()
    arrays = handles(demo)
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: missing"):
        arrays["codes"][7]
    assert arrays["values"][1, 2, 0] == _arrays()["values"].data[1, 2, 0]


def test_a_chunk_that_decompresses_to_another_size_is_refused(demo):
    grid = Grid.of(demo, "codes")
    path, inner = grid.where(3)
    chunks = stored_chunks(grid, path)
    block = decode(chunks[inner], grid)
    unsized = zstandard.ZstdCompressor(level=3, write_content_size=False).compress(block.tobytes() + b"\0" * 8)
    for raw in (encode(block, grid.dtype, b"\0" * 8), encode(block[:-1], grid.dtype), unsized + crc32c(unsized)):
        chunks[inner] = raw
        write_shard(path, chunks)
        wrong_size = rf"{re.escape(str(path))}: chunk {inner} (decompresses to|does not|states)"
        with pytest.raises(ArtifactError, match=wrong_size):
            handles(demo)["codes"][3 * 64]


@pytest.mark.parametrize("declared, refused", [(64 << 20, "the index gives chunk 3 .* refused"),
                                               (1 << 20, r"chunk 3 states \d+ bytes, not 64")])
def test_a_zstd_bomb_is_refused_without_decoding_it(demo, declared, refused):
    """A zstd frame of a few bytes per 128 KiB that declares megabytes: refused before they are allocated
    (zstandard ignores max_output_size when the frame states its content size). 64 MiB takes 2 KB, more than
    zstd makes of a 64-byte chunk: the shard index's entry is refused first; 1 MiB fits in that bound and is
    refused by the size the frame states."""
    import tracemalloc

    grid = Grid.of(demo, "codes")
    path, inner = grid.where(3)
    chunks = stored_chunks(grid, path)
    chunks[inner] = encode(np.zeros(grid.chunks, dtype=grid.dtype), grid.dtype, b"\0" * declared)
    assert len(chunks[inner]) < 4096
    write_shard(path, chunks)
    arrays = handles(demo)
    tracemalloc.start()
    try:
        with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: {refused}"):
            arrays["codes"][3 * 64]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 << 20, f"reading one 64-byte chunk allocated {peak >> 20} MiB"


# --- 2. a chunk rewritten with a valid crc32c: only the sha256 digest can tell ---------------------------

@pytest.mark.parametrize("name, k", [("codes", 5), ("codes", 15), ("values", 9), ("signed", 0)])
def test_a_chunk_rewritten_with_a_valid_crc32c_is_refused_by_its_sha256(demo, name, k):
    grid = Grid.of(demo, name)
    good = np.asarray(handles(demo)[name])
    path = rewrite_chunk(grid, k, bump)
    assert verify_problems(demo)  # zarr-python reads the new value, the whole sha256 catches it
    arrays = handles(demo)
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: chunk {grid.where(k)[1]} does not match "
                                            "its sha256"):
        arrays[name][grid.element_in(k)]
    for other in range(int(np.prod(grid.grid))):
        if other != k:
            np.testing.assert_array_equal(arrays[name][grid.element_in(other)], good[grid.element_in(other)])


def test_a_rewritten_partial_last_chunk_is_refused_even_past_the_array_edge(demo):
    """The digest covers the part of a chunk inside the array; the part past the edge (fill) is checked by
    size only: a change there is invisible, a change inside is refused."""
    grid = Grid.of(demo, "codes")  # 1000 = 15 * 64 + 40
    path = rewrite_chunk(grid, 15, lambda block: block.__setitem__(39, block[39] ^ 1))
    with pytest.raises(ArtifactError, match=f"{re.escape(str(path))}: chunk 15 does not match its sha256"):
        handles(demo)["codes"][960]


def test_swapped_chunks_are_refused(demo):
    """Two valid chunks of the same shard exchanged through the index (index crc32c recomputed)."""
    grid = Grid.of(demo, "codes")
    path, _ = grid.where(0)

    def swap(index: np.ndarray) -> None:
        index[[0, 1]] = index[[1, 0]]

    write_index(path, grid.n_inner, swap)
    arrays = handles(demo)
    with pytest.raises(ArtifactError, match=f"{re.escape(str(path))}: chunk 0 does not match its sha256"):
        arrays["codes"][0]
    assert arrays["codes"][2 * 64] == _arrays()["codes"].data[2 * 64]


def test_a_chunk_and_its_digest_rewritten_together_are_refused_by_the_metadata(demo):
    """The attacker rewrites the chunk and its digest in the companion array, both with valid crc32c: the
    companion no longer matches the sha256 the signed metadata holds for it."""
    grid = Grid.of(demo, "codes")
    k = 4
    rewrite_chunk(grid, k, bump)
    changed = decode(stored_chunks(grid, grid.where(k)[0])[grid.where(k)[1]], grid)
    digest = np.frombuffer(hashlib.sha256(changed.tobytes()).digest(), dtype="<u8")
    companion = Grid.of(demo, "codes.sha256")
    rewrite_chunk(companion, 0, lambda block: block.__setitem__(k, digest))
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(demo / 'codes.sha256'))}: the array does not match "
                                            "its sha256"):
        handles(demo)


# --- 3. the signed metadata is held to MANIFEST.json ---------------------------------------------------------

@pytest.mark.parametrize("edit", [
    lambda m: m["params"].update(n=4),
    lambda m: m["stats"].update(mean=99.5),
    lambda m: m["arrays"]["codes"].update(description="other"),
])
def test_metadata_resigned_by_an_attacker_differs_from_the_manifest(demo, monkeypatch, edit):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    edit_root_meta(demo, edit)
    with pytest.raises(ArtifactError, match=f"differs from its entry in {MANIFEST_NAME}"):
        open_artifact(demo, **OPEN)
    with pytest.raises(ArtifactError, match=f"differs from its entry in {MANIFEST_NAME}"):
        play_arrays(demo, ["codes"], **OPEN)
    # The opt-out is explicit: by argument or by the environment, the artifact's own checksum is enough.
    with open_artifact(demo, **OPEN, trust="artifact") as art:
        assert art.read("codes").tolist() == _arrays()["codes"].data.tolist()
    monkeypatch.setenv(TRUST_ENV, "artifact")
    play_arrays(demo, ["codes"], **OPEN)
    with pytest.raises(ArtifactError, match=f"differs from its entry in {MANIFEST_NAME}"):
        open_artifact(demo, **OPEN, trust="manifest")  # the argument wins over the environment


def test_no_manifest_is_refused_and_names_the_opt_out(demo, monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    (demo.parent / MANIFEST_NAME).unlink()
    with pytest.raises(ArtifactError, match=TRUST_ENV):
        open_artifact(demo, **OPEN)
    open_artifact(demo, **OPEN, trust="artifact")
    with pytest.raises(ValueError, match="trust must be one of"):
        open_artifact(demo, **OPEN, trust="yes")


def test_a_manifest_that_does_not_list_the_artifact_is_refused(demo, monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    (demo.parent / "other.zarr").mkdir()
    manifest = demo.parent / MANIFEST_NAME
    data = json.loads(manifest.read_text())
    data["artifacts"][0]["path"] = "other.zarr"
    manifest.write_text(json.dumps(data))
    with pytest.raises(ArtifactError, match=f"not listed in {re.escape(str(manifest))}"):
        open_artifact(demo, **OPEN)


# --- 4. special files, deep and huge JSON --------------------------------------------------------------------

def _fifo(path: Path) -> None:
    path.unlink()
    os.mkfifo(path)


@pytest.mark.parametrize("target", ["shard", "array zarr.json", "digest zarr.json", "root zarr.json"])
def test_a_fifo_is_refused_without_blocking(demo, target):
    paths = {"shard": Grid.of(demo, "codes").where(0)[0], "array zarr.json": demo / "codes" / "zarr.json",
             "digest zarr.json": demo / "codes.sha256" / "zarr.json", "root zarr.json": demo / "zarr.json"}
    _fifo(paths[target])
    refused = rf"{re.escape(str(paths[target]))}: (is a .*, )?not a regular file"
    with deadline(5), pytest.raises(ArtifactError, match=refused):
        handles(demo)["codes"][0]


def test_a_fifo_as_manifest_is_refused_without_blocking(demo, monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    _fifo(demo.parent / MANIFEST_NAME)
    with deadline(5), pytest.raises(ArtifactError, match=MANIFEST_NAME):
        open_artifact(demo, **OPEN, verify=False)


def test_a_fifo_is_refused_in_a_fresh_process_too(demo):
    """The same, end to end, in a process that a blocked open would hang (killed by the timeout)."""
    _fifo(Grid.of(demo, "values").where(0)[0])
    script = ("import sys; sys.path[:0] = [{root!r}, {tests!r}]\n"
              "from lookup.store import open_artifact, ArtifactError\n"
              "try:\n    open_artifact({path!r}, schema='test.demo', versions=[2]).read('values')\n"
              "except ArtifactError as exc:\n    print('refused:', exc)\n")
    proc = subprocess.run([sys.executable, "-c", script.format(root=str(ROOT), tests=str(ROOT / "tests"),
                                                                path=str(demo))],
                          capture_output=True, text=True, timeout=60)
    assert proc.stdout.startswith("refused:") and "not a regular file" in proc.stdout, proc.stderr


def test_a_symlinked_shard_is_refused_even_to_a_good_copy(demo, tmp_path):
    path, _ = Grid.of(demo, "codes").where(0)
    good = tmp_path / "good-shard"
    shutil.copy(path, good)
    path.unlink()
    path.symlink_to(good)
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: is a symlink; refused"):
        handles(demo)["codes"][0]


def test_a_directory_in_place_of_a_shard_is_refused(demo):
    path, _ = Grid.of(demo, "codes").where(0)
    path.unlink()
    path.mkdir()
    with pytest.raises(ArtifactError, match=re.escape(str(path))):
        handles(demo)["codes"][0]


@pytest.mark.parametrize("where, depth", [("zarr.json", 100_000), ("codes/zarr.json", 60_000),
                                          ("codes.sha256/zarr.json", 60_000)])
def test_deeply_nested_json_is_an_artifact_error_not_a_recursion_error(demo, where, depth):
    (demo / where).write_text("[" * depth)  # under the size limits: the parser's depth is what is tested
    refused = rf"{re.escape(str(demo / where))}: (not valid JSON|JSON nested too deeply)"
    with pytest.raises(ArtifactError, match=refused):
        handles(demo)


def test_a_deeply_nested_manifest_is_an_artifact_error_not_a_recursion_error(demo, monkeypatch):
    monkeypatch.delenv(TRUST_ENV, raising=False)
    (demo.parent / MANIFEST_NAME).write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ArtifactError, match=MANIFEST_NAME):
        open_artifact(demo, **OPEN, verify=False)


@pytest.mark.parametrize("where, limit", [("zarr.json", ZARR_JSON_LIMIT), ("codes/zarr.json", ARRAY_JSON_LIMIT),
                                          ("codes.sha256/zarr.json", ARRAY_JSON_LIMIT)])
def test_a_huge_zarr_json_is_refused_before_parsing(demo, monkeypatch, where, limit):
    """The real file padded with whitespace past the limit: still valid JSON, refused by its size alone."""
    path = demo / where
    text = path.read_text()
    path.write_text(text + " " * (limit + 1 - len(text)))
    parsed = []
    monkeypatch.setattr(lookup.files, "parse_json_bounded",
                        lambda data, what, depth=64: parsed.append(what) or json.loads(data))
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: {limit + 1} bytes, more than the {limit}"):
        handles(demo)
    assert str(path) not in parsed
    path.write_text(text + " " * (limit - len(text)))  # at the limit: accepted
    assert handles(demo)["codes"][3] == _arrays()["codes"].data[3]


# --- 5. an array's zarr.json must be exactly what the signed metadata implies ---------------------------------

def _sharding(doc: dict) -> dict:
    return doc["codecs"][0]["configuration"]


@pytest.mark.parametrize("name, edit, key", [
    ("values", lambda d: d.update(shape=[10**12]), "shape"),
    ("values", lambda d: d.update(shape=[10**12, 7, 3]), "shape"),
    ("codes", lambda d: d.update(shape=[999]), "shape"),
    ("values", lambda d: d.update(data_type="int64"), "data_type"),
    ("values", lambda d: d["chunk_grid"]["configuration"].update(chunk_shape=[4, 7, 3]), "chunk_grid"),
    ("codes", lambda d: d["chunk_grid"]["configuration"].update(chunk_shape=[64]), "chunk_grid"),
    ("values", lambda d: _sharding(d).update(chunk_shape=[40, 7, 3]), "codecs"),
    ("codes", lambda d: _sharding(d).update(chunk_shape=[1024]), "codecs"),
    ("codes", lambda d: _sharding(d).update(chunk_shape=[32]), "codecs"),
    ("codes", lambda d: _sharding(d).update(index_location="start"), "codecs"),
    ("codes", lambda d: _sharding(d)["codecs"].pop(), "codecs"),
    ("values", lambda d: _sharding(d)["codecs"][0]["configuration"].update(endian="big"), "codecs"),
    ("codes", lambda d: d["chunk_key_encoding"]["configuration"].update(separator="."), "chunk_key_encoding"),
    ("codes", lambda d: d.update(node_type="group"), "node_type"),
    ("codes", lambda d: d.update(zarr_format=2), "zarr_format"),
    ("codes.sha256", lambda d: d.update(shape=[10**12, 4]), "shape"),
])
def test_an_array_description_other_than_the_signed_metadata_implies_is_refused(demo, name, edit, key):
    path = demo / name / "zarr.json"
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: '{key}' is .*the signed metadata implies"):
        handles(demo)


@pytest.mark.parametrize("edit, message", [
    (lambda d: d.update(fill_value=0.0), "fill value 0.0, expected NaN"),
    (lambda d: d.update(fill_value=None), "fill value None"),
    (lambda d: d.update(storage_transformers=[{"name": "x"}]), "storage transformers"),
])
def test_fill_values_and_storage_transformers_are_refused(demo, edit, message):
    path = demo / "values" / "zarr.json"
    doc = json.loads(path.read_text())
    edit(doc)
    path.write_text(json.dumps(doc))
    with pytest.raises(ArtifactError, match=re.escape(message)):
        handles(demo)


def test_a_shard_index_sized_for_another_grid_is_refused(demo, monkeypatch):
    """A shard rewritten for one big inner chunk (what a 1 x 1 grid would read) fails the index of the signed
    grid instead of being reinterpreted."""
    grid = Grid.of(demo, "codes")
    path, _ = grid.where(0)
    whole = np.concatenate([decode(raw, grid) for raw in stored_chunks(grid, path)])
    write_shard(path, [encode(whole, grid.dtype)])
    with pytest.raises(ArtifactError, match=re.escape(str(path))):
        handles(demo)["codes"][0]


# --- 6. a symlinked artifact -------------------------------------------------------------------------------

def test_a_symlinked_artifact_is_refused_and_nothing_is_written(demo, tmp_path, monkeypatch):
    """NAME.zarr -> a copy outside the artifacts directory (even an intact one, listed by the manifest)."""
    monkeypatch.delenv(TRUST_ENV, raising=False)
    outside = tmp_path / "elsewhere" / "demo.zarr"
    shutil.copytree(demo, outside)
    shutil.rmtree(demo)
    demo.symlink_to(outside, target_is_directory=True)
    before = tree(tmp_path)
    for trust in ("manifest", "artifact"):
        with no_writes(tmp_path), pytest.raises(ArtifactError, match="symlink"):
            open_artifact(demo, **OPEN, trust=trust)
    assert tree(tmp_path) == before


# --- 8. no runtime copies: reading writes nothing ---------------------------------------------------------

def test_reading_writes_nothing_and_adds_no_file(demo):
    root = demo.parent
    before = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
    with no_writes(root):
        meta, arrays = play_arrays(demo, ["values", "codes"], **OPEN)
        assert arrays["codes"][999] == _arrays()["codes"].data[999]
        with open_artifact(demo, **OPEN) as art:
            np.testing.assert_array_equal(art.read("values"), _arrays()["values"].data)
        assert not verify_problems(demo)
    assert sorted(str(p.relative_to(root)) for p in root.rglob("*")) == before
    assert not (root / ".runtime").exists()


def test_the_write_guard_sees_writes():
    """The guard no_writes relies on does catch a write (else the tests above would prove nothing)."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "f").write_text("x")
        with pytest.raises(AssertionError), no_writes(root):
            with pytest.raises(PermissionError):
                (root / "g").write_text("y")
            with pytest.raises(PermissionError):
                os.open(root / "f", os.O_RDWR)
            with pytest.raises(PermissionError):
                os.rename(root / "f", root / "h")
            assert (root / "f").read_text() == "x"  # reading is allowed


# --- 9. the cache of decoded chunks is bounded -------------------------------------------------------------

def test_the_chunk_cache_is_bounded(demo, monkeypatch):
    grid = Grid.of(demo, "codes")
    monkeypatch.setattr(CACHE, "budget", 3 * grid.chunk_bytes)
    arrays = handles(demo)
    codes = _arrays()["codes"].data
    for _ in range(2):
        for i in range(0, 1000, 7):
            assert arrays["codes"][i] == codes[i]
            assert CACHE.used <= CACHE.budget + grid.chunk_bytes
            assert CACHE.used == sum(n for _, n in CACHE.items.values())
    assert len(CACHE.items) <= 4
    values = Grid.of(demo, "values")
    monkeypatch.setattr(CACHE, "budget", 2 * values.chunk_bytes)
    for i in range(40):
        assert arrays["values"][i, 6, 2] == _arrays()["values"].data[i, 6, 2]
        assert CACHE.used <= CACHE.budget + values.chunk_bytes


def test_an_evicted_chunk_is_read_and_checked_again(demo, monkeypatch):
    """Out of scope while cached (the checked bytes are kept), checked again once evicted."""
    grid = Grid.of(demo, "codes")
    monkeypatch.setattr(CACHE, "budget", 2 * grid.chunk_bytes)
    arrays = handles(demo)
    assert arrays["codes"][0] == _arrays()["codes"].data[0]
    path = flip_in_chunk(grid, 0)
    assert arrays["codes"][1] == _arrays()["codes"].data[1]  # cached: the checked bytes
    for k in range(1, 6):  # evicts chunk 0
        arrays["codes"][k * 64]
    with pytest.raises(ArtifactError, match=rf"{re.escape(str(path))}: chunk 0 fails its crc32c"):
        arrays["codes"][0]


def test_the_cache_budget_comes_from_the_environment():
    script = "import lookup.chunked as c; print(c.CACHE.budget)"
    env = {**os.environ, "DICETABLES_CHUNK_CACHE_MB": "0.5"}
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=60)
    assert proc.stdout.strip() == str(1 << 19), proc.stderr


def damage_chunk(artifact: Path, name: str, how: str) -> str:
    """Damage chunk 0 of array ``name`` of ``artifact`` (a private copy!): ``"flip"`` one stored bit, or
    ``"rewrite"`` its first element re-encoded with a valid crc32c. Returns the pattern of the ArtifactError
    that must refuse the read: the shard file and what is wrong."""
    grid = Grid.of(artifact, name)
    if how == "flip":
        return rf"^{re.escape(str(flip_in_chunk(grid, 0)))}: chunk 0 fails its crc32c"

    def change(block: np.ndarray) -> None:
        v = block.flat[0]
        if block.dtype.kind == "f":
            block.flat[0] = 0.5 if v != 0.5 else 0.25
        else:
            block.flat[0] = not v if block.dtype.kind == "b" else v ^ 1

    return rf"^{re.escape(str(rewrite_chunk(grid, 0, change)))}: chunk 0 does not match its sha256"
