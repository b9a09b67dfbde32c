"""Write side of the artifact store: fingerprints, atomic publishing, reuse, and the manifest.

Publishing writes into a temporary sibling (``.tmp-*``), reopens and verifies it, then renames it into
place; an exception at any point removes the temporary and leaves the previous artifact untouched.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import stat
import uuid
from collections import deque
from collections.abc import Collection, Iterable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import numpy as np

import lookup
from lookup.files import ZARR_JSON_LIMIT, file_kind, read_json_bounded
from lookup.store import (
    MANIFEST_NAME,
    META_KEY,
    META_SHA_KEY,
    NAME,
    TRUST_ENV,
    ArtifactError,
    check_name,
    le_bytes,
    load_manifest,
    manifest_fields,
    meta_sha256,
    read_meta,
    sha256_of_array,
    verify_problems,
    zarr_module,
)
from lookup.words import counted
from pipeline.code_deps import PROJECT_ROOT, closure, module_file
from pipeline.layout import (
    HDF5_CHUNK_BYTES,
    LAYOUT_VERSION,
    ZSTD_LEVEL,
    chunk_digests,
    chunk_grid,
    digest_name,
    layout,
)

# This module writes every artifact: its import closure (pipeline/layout.py, how arrays are stored, included) is
# part of every fingerprint, whatever the family's own code.
WRITER = "pipeline.store"
# Where versions before chunked reading (lookup.chunked) wrote decoded copies; `dicetables clean` removes it.
LEGACY_RUNTIME_DIR = ".runtime"


@dataclass(frozen=True)
class ArtifactSpec:
    """Everything that identifies an artifact: equal specs (and equal code) give equal fingerprints.

    ``code`` names the entry modules of the code that computes the arrays (dotted names, usually the stage
    module itself: ``code=(__name__,)``); ``data`` the data files it reads (relative to the project root). A
    change in any file of ``code_files()`` changes the fingerprint, and nothing else does.
    """

    name: str
    schema: str
    schema_version: int
    game: str
    rules: Mapping[str, Any]
    params: Mapping[str, Any]
    code: tuple[str, ...]
    hdf5: bool = False
    data: tuple[str, ...] = ()

    def code_files(self) -> tuple[str, ...]:
        """The files (relative to the project root, sorted) whose bytes the fingerprint hashes: the import
        closure of ``code`` and of the writer (``pipeline.code_deps.closure``: imports inside functions
        included), and ``data``."""
        wrong = [m for m in self.code if module_file(m, PROJECT_ROOT) is None]
        if wrong or not self.code:
            raise ValueError(f"artifact {self.name}: code must name its entry modules (dotted, e.g. "
                             f"'pipeline.g151.stage'), not {wrong or 'nothing'}")
        return tuple(sorted({*closure((*self.code, WRITER), PROJECT_ROOT), *self.data}))

    def fingerprint(self) -> str:
        """sha256 over the canonical JSON of schema, rules and params plus the bytes of the code files."""
        digest = hashlib.sha256()
        head = {
            "schema": self.schema,
            "schema_version": self.schema_version,
            "game": self.game,
            "rules": self.rules,
            "params": self.params,
            "layout_version": LAYOUT_VERSION,
        }
        digest.update(json.dumps(head, sort_keys=True, separators=(",", ":")).encode())
        for rel in self.code_files():
            source = PROJECT_ROOT / rel
            if not source.is_file():
                raise FileNotFoundError(f"artifact {self.name}: file {rel} does not exist")
            digest.update(rel.encode() + b"\0" + source.read_bytes() + b"\0")
        return digest.hexdigest()


@dataclass
class StoredArray:
    """One array to store, with how to lay it out.

    ``chunks`` is the inner chunk shape (default: one chunk per index of axis 0 up to ~1 MiB); ``fill``
    is the value a missing chunk would read as: NaN for floats, a sentinel for integers that no entry
    takes (checked at write time).
    """

    data: np.ndarray
    description: str
    chunks: tuple[int, ...] | None = None
    fill: Any = None
    extra: dict[str, Any] = field(default_factory=dict)


def _default_fill(data: np.ndarray) -> Any:
    if np.issubdtype(data.dtype, np.floating):
        return float("nan")
    if np.issubdtype(data.dtype, np.unsignedinteger):
        return int(np.iinfo(data.dtype).max)
    if np.issubdtype(data.dtype, np.signedinteger):
        return int(np.iinfo(data.dtype).min)
    if data.dtype == np.bool_:
        raise ValueError("boolean arrays have no spare value for a fill; store them as uint8")
    raise ValueError(f"unsupported dtype {data.dtype}")


def _layout(arr: StoredArray) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(inner chunks, shards) of ``arr`` (``pipeline.layout.layout``)."""
    return layout(arr.data.shape, arr.data.itemsize, arr.chunks)


def with_digests(arrays: Mapping[str, StoredArray]) -> dict[str, StoredArray]:
    """``arrays`` and, for each array X, the companion ``X.sha256`` of its chunk digests
    (``pipeline.layout``)."""
    out = dict(arrays)
    for name, arr in arrays.items():
        if name.endswith(".sha256"):
            raise ValueError(f"array name {name!r}: the suffix .sha256 is reserved for chunk digests")
        chunks, _ = _layout(arr)
        out[digest_name(name)] = StoredArray(chunk_digests(arr.data, chunks),
                                             f"sha256 of each inner chunk of {name!r} (4 uint64 per chunk)")
    return out


def array_entry(name: str, data: Any, chunks: tuple[int, ...], shards: tuple[int, ...], description: str, *,
                digests: bool, sha256: str | None = None) -> dict[str, Any]:
    """The metadata entry of one array: its sha256 (``sha256_of_array(data)`` unless given), shape, dtype and
    layout; ``chunk_sha256`` names the companion array holding its chunk digests."""
    entry = {"sha256": sha256 or sha256_of_array(data), "shape": list(data.shape), "dtype": str(data.dtype),
             "description": description, "chunks": list(chunks), "shards": list(shards)}
    if digests:
        entry["chunk_sha256"] = digest_name(name)
    return entry


# Bytes of whole axis-0 chunk rows that ``array_digests`` reads at once (``chunk_digests`` and ``sha256_of_array``
# read 64 MiB too): Zarr decodes many chunks per call, and a few slabs in flight stay small beside a table.
SLAB_BYTES = 64 << 20


def array_digests(data: Any, chunks: tuple[int, ...], *, threads: int = 1) -> tuple[str, np.ndarray]:
    """``(sha256_of_array(data), chunk_digests(data, chunks))``, from one read of ``data``.

    ``data`` (numpy or zarr) is read in slabs of whole axis-0 chunk rows. A slab's chunks are whole chunks of
    the array, in the same C order of the grid, so ``chunk_digests`` of the slab are the next rows of the
    array's; its bytes extend the whole-array sha256 in order. Both are thus exactly what the two functions
    give. ``threads`` slabs are read and chunk-hashed at once while the calling thread extends the whole
    sha256, which must see the slabs in order. One thread by default: a Zarr read of small chunks spends its
    time in Zarr's Python code per chunk, under the GIL, so a second reading thread does not pay
    (docs/benchmarks.md, "Publishing the law table"); hashlib releases the GIL, so the two sha256 still overlap.
    """
    shape = tuple(data.shape)
    if not shape or not shape[0]:
        return sha256_of_array(data), chunk_digests(data, chunks)
    grid = chunk_grid(shape, chunks)
    row_bytes = max(1, int(np.prod(shape[1:], dtype=np.int64)) * np.dtype(data.dtype).itemsize * chunks[0])
    step = max(1, SLAB_BYTES // row_bytes) * chunks[0]

    def read(start: int) -> tuple[np.ndarray, np.ndarray]:
        slab = np.asarray(data[start:start + step])
        return slab, chunk_digests(slab, chunks)

    whole = hashlib.sha256()
    out = np.empty((int(np.prod(grid, dtype=np.int64)), 4), dtype=np.uint64)
    starts = iter(range(0, shape[0], step))
    k = 0
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool:
        # At most threads + 1 slabs in memory: one being hashed here, the others being read.
        pending = deque(pool.submit(read, start) for start in islice(starts, max(1, threads)))
        while pending:
            slab, digests = pending.popleft().result()
            pending.extend(pool.submit(read, start) for start in islice(starts, 1))
            whole.update(le_bytes(slab))
            out[k:k + len(digests)] = digests
            k += len(digests)
    return whole.hexdigest(), out


def rows_digests(start: int, block: np.ndarray, chunks: tuple[int, ...]) -> tuple[int, np.ndarray]:
    """``(first chunk, chunk digests)`` of ``block`` written as rows ``start ..`` of an array whose inner chunks
    are ``chunks``: the digests are those of the array's chunks ``first ..`` (C order of the grid) once the
    write has landed. ``start`` must be a whole number of chunk rows (a write of whole shards is)."""
    if start % chunks[0]:
        raise ValueError(f"rows from {start}: not a whole number of chunk rows of {chunks[0]}")
    per_row = int(np.prod(chunk_grid(tuple(block.shape), chunks)[1:], dtype=np.int64))
    return start // chunks[0] * per_row, chunk_digests(block, chunks)


class Written:
    """An in-place writer's own account of what it wrote: the chunk digests of its data, computed in memory
    before the write (``rows_digests``), per array. ``write_zarr_in_place`` compares them with the digests of
    the chunks it reads back, so that one read both checks the write and yields the metadata's checksums."""

    def __init__(self) -> None:
        self._parts: dict[str, list[tuple[int, np.ndarray]]] = {}

    def add(self, name: str, first: int, digests: np.ndarray) -> None:
        """Chunks ``first ..`` of array ``name`` were written with data of these digests (``rows_digests``)."""
        self._parts.setdefault(name, []).append((first, np.asarray(digests, dtype=np.uint64)))

    def rows(self, array: Any, start: int, block: np.ndarray) -> None:
        """Record ``block`` written as rows ``start ..`` of the Zarr ``array``."""
        self.add(array.basename, *rows_digests(start, block, tuple(array.chunks)))

    def check(self, name: str, stored: np.ndarray) -> bool:
        """Compare the recorded digests of array ``name`` with those of its stored chunks (``stored``); raise
        ``ArtifactError`` on a difference (a write lost, misplaced or overwritten by another). True when the
        records cover every chunk: the stored array then is, chunk for chunk, the data written."""
        covered = np.zeros(len(stored), dtype=bool)
        for first, digests in self._parts.get(name, ()):
            end = first + len(digests)
            if end > len(stored):
                raise ArtifactError(f"array {name!r}: chunks {first}..{end - 1} written, it has {len(stored)}")
            bad = np.flatnonzero((stored[first:end] != digests).any(axis=1))
            if bad.size:
                raise ArtifactError(f"array {name!r}: {counted(bad.size, 'chunk')} read back differ from the data "
                                    f"written (first: chunk {first + int(bad[0])})")
            covered[first:end] = True
        return bool(self._parts.get(name)) and bool(covered.all())


def _write_zarr(path: Path, meta: dict[str, Any], arrays: Mapping[str, StoredArray]) -> None:
    zarr = zarr_module()

    group = zarr.open_group(zarr.storage.LocalStore(str(path)), mode="w-", zarr_format=3)
    for name, arr in arrays.items():
        chunks, shards = _layout(arr)
        target = create_zarr_array(group, name, arr.data.shape, arr.data.dtype, chunks, shards, arr.fill,
                                   {"description": arr.description, **arr.extra})
        target[...] = arr.data
    group.attrs.update({META_KEY: meta, META_SHA_KEY: meta_sha256(meta)})


def create_zarr_array(group: Any, name: str, shape: tuple[int, ...], dtype: Any, chunks: tuple[int, ...],
                      shards: tuple[int, ...], fill: Any, attributes: Mapping[str, Any]) -> Any:
    """An empty array of ``group`` with the store's codecs (zstd + crc32c), every chunk written."""
    from zarr.codecs import Crc32cCodec, ZstdCodec

    return group.create_array(
        name,
        shape=shape,
        dtype=dtype,
        chunks=chunks,
        shards=shards,
        compressors=[ZstdCodec(level=ZSTD_LEVEL), Crc32cCodec()],
        fill_value=fill,
        # Every chunk is written, so a missing one is a lost one (see lookup.store._missing_shards).
        config={"write_empty_chunks": True},
        attributes=dict(attributes),
    )


def _write_hdf5(path: Path, meta: dict[str, Any], arrays: Mapping[str, StoredArray]) -> None:
    import h5py

    with h5py.File(path, "w-", track_order=False) as h5:
        h5.attrs[META_KEY] = json.dumps(meta, sort_keys=True)
        h5.attrs[META_SHA_KEY] = meta_sha256(meta)
        for name, arr in arrays.items():
            # One file read whole by other programs: larger chunks compress better (fletcher32 per chunk).
            chunks, _ = layout(arr.data.shape, arr.data.itemsize, arr.chunks, chunk_bytes=HDF5_CHUNK_BYTES)
            # Filters need chunks, and HDF5 cannot chunk an empty axis: scalars and empty arrays (no bytes
            # to protect) are stored contiguous.
            filtered = arr.data.size > 0 and arr.data.ndim > 0
            ds = h5.create_dataset(
                name,
                shape=arr.data.shape,
                dtype=arr.data.dtype,
                data=arr.data if arr.data.size else None,
                chunks=chunks if filtered else None,
                compression="gzip" if filtered else None,
                shuffle=filtered,
                fletcher32=filtered,
                fillvalue=arr.fill,
                track_times=False,  # byte-identical files for equal inputs
            )
            ds.attrs["description"] = arr.description


@contextmanager
def trusting_own_artifacts() -> Iterator[None]:
    """Within a build or a report stage, ``lookup`` holds each artifact to its own metadata checksum, not
    to ``MANIFEST.json``: the manifest is rewritten only once everything is built (DVC's ``manifest``
    stage), and every artifact read here was verified by ``publish`` before it was renamed into place.
    Restores the previous setting on exit (workers started inside inherit it)."""
    before = os.environ.get(TRUST_ENV)
    os.environ[TRUST_ENV] = "artifact"
    try:
        yield
    finally:
        if before is None:
            os.environ.pop(TRUST_ENV, None)
        else:
            os.environ[TRUST_ENV] = before


def write_artifact(
    spec: ArtifactSpec,
    arrays: Mapping[str, StoredArray],
    artifacts_dir: str | Path,
    *,
    stats: Mapping[str, Any] | None = None,
    fingerprint: str | None = None,
) -> list[Path]:
    """Write ``spec``'s arrays as NAME.zarr (and NAME.h5 if ``spec.hdf5``), atomically; return the paths."""
    artifacts_dir = Path(artifacts_dir)
    artifacts_dir.mkdir(parents=True, exist_ok=True)
    check_name(spec.name, "artifact name")
    arrays = with_digests(arrays)
    entries = {}
    for name, arr in arrays.items():
        check_name(name, "array name")
        if arr.fill is None:
            arr.fill = _default_fill(arr.data)
        if not np.issubdtype(arr.data.dtype, np.floating) and np.any(arr.data == arr.fill):
            raise ValueError(f"array {name!r} contains its fill value {arr.fill}; choose another sentinel")
        entries[name] = array_entry(name, arr.data, *_layout(arr), arr.description, digests=digest_name(name) in arrays)
    meta = artifact_meta(spec, entries, stats, fingerprint)
    targets = [(artifacts_dir / f"{spec.name}.zarr", _write_zarr)]
    if spec.hdf5:
        targets.append((artifacts_dir / f"{spec.name}.h5", _write_hdf5))
    for target, writer in targets:
        publish(target, lambda tmp, w=writer: w(tmp, meta, arrays))
    return [t for t, _ in targets]


def artifact_meta(spec: ArtifactSpec, entries: Mapping[str, Any], stats: Mapping[str, Any] | None,
                  fingerprint: str | None) -> dict[str, Any]:
    """The ``dicetables`` metadata of an artifact whose arrays are described by ``entries``."""
    meta = {
        "schema": spec.schema,
        "schema_version": spec.schema_version,
        "game": spec.game,
        "rules": dict(spec.rules),
        "params": dict(spec.params),
        "fingerprint": fingerprint or spec.fingerprint(),
        "code": list(spec.code_files()),
        # No timestamp: equal inputs give byte-identical artifacts, so dvc.lock stays as committed.
        "package_version": lookup.__version__,
        "arrays": entries,
        "stats": dict(stats or {}),
    }
    return json.loads(json.dumps(meta))  # fail now, not halfway, on anything that is not JSON


def write_zarr_in_place(
    spec: ArtifactSpec,
    artifacts_dir: str | Path,
    write: Any,
    *,
    stats: Mapping[str, Any] | None = None,
    fingerprint: str | None = None,
) -> Path:
    """Publish NAME.zarr whose arrays ``write(tmp_path, written)`` writes itself (arrays too large for memory,
    or written by many processes): ``write`` creates the Zarr v3 group at ``tmp_path`` and its arrays with
    ``create_zarr_array``, fills every chunk, and records in ``written`` (a ``Written``) the digests of the
    data it wrote. Each array is then read back once (``array_digests``: every chunk decoded, its crc32c
    checked), giving its sha256 and chunk digests; the chunk digests must equal those recorded. The metadata
    is attached (``stats`` is read after ``write`` returns: ``write`` may fill it), the whole verified and
    renamed into place, as ``write_artifact`` does; verification does not read again the arrays whose every
    chunk matched the record (docs/artifacts.md, "Written in place")."""
    zarr = zarr_module()

    check_name(spec.name, "artifact name")
    target = Path(artifacts_dir) / f"{spec.name}.zarr"
    target.parent.mkdir(parents=True, exist_ok=True)

    def write_all(tmp: Path) -> set[str]:
        written = Written()
        write(tmp, written)
        group = zarr.open_group(zarr.storage.LocalStore(str(tmp)), mode="r+", zarr_format=3)
        entries, checked = {}, set()
        for name, arr in sorted(group.arrays()):
            check_name(name, "array name")
            chunks, shards = tuple(arr.chunks), tuple(arr.shards or arr.chunks)
            sha256, digests = array_digests(arr, chunks)
            try:
                if written.check(name, digests):
                    checked.add(name)
            except ArtifactError as exc:
                raise ArtifactError(f"{target}: the stored bytes are not those written: {exc}") from None
            entries[name] = array_entry(name, arr, chunks, shards, arr.attrs.get("description", ""), digests=True,
                                        sha256=sha256)
            digest_layout = layout(digests.shape, digests.itemsize)
            companion = create_zarr_array(group, digest_name(name), digests.shape, digests.dtype, *digest_layout,
                                          int(np.iinfo(np.uint64).max),
                                          {"description": f"sha256 of each inner chunk of {name!r}"})
            companion[...] = digests
            entries[digest_name(name)] = array_entry(digest_name(name), digests, *digest_layout,
                                                     companion.attrs["description"], digests=False)
        meta = artifact_meta(spec, entries, stats, fingerprint)
        group.attrs.update({META_KEY: meta, META_SHA_KEY: meta_sha256(meta)})
        return checked

    publish(target, write_all)
    return target


def publish(target: Path, write: Any) -> None:
    """Run ``write(tmp_path)`` on a temporary sibling of ``target``, verify it, and rename it into place.

    ``write`` may return the names of arrays whose stored bytes it has read back and checked against the data
    written, with the sha256 recorded from that read (``write_zarr_in_place``): verification checks everything
    else but does not read those bytes again (``verify_problems``).

    If anything fails the temporary is removed and ``target`` (if it existed) is left as it was. A swap
    that an earlier, killed writer left half done is rolled back first, and its temporaries removed. A
    symlink at ``target`` is replaced by the new artifact, never written through (symlinked artifacts are
    refused: docs/artifacts.md).
    """
    recover_publish(target)
    remove_dead_leftovers(target)
    tag = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmp = target.with_name(f".tmp-{tag}-{target.name}")  # keeps the suffix: .zarr or .h5
    try:
        checked: Collection[str] | None = write(tmp)
        problems = verify_problems(tmp, checked or (), trust="artifact")
        if problems:
            raise ArtifactError(f"{target}: verification after writing failed: {'; '.join(problems)}")
        _replace(tmp, target, tag)
    finally:
        _remove(tmp)


def _replace(tmp: Path, target: Path, tag: str) -> None:
    """Rename ``tmp`` to ``target``; a symlink at ``target`` is itself replaced (rename never follows it)."""
    if not os.path.lexists(target) or (tmp.is_file() and (target.is_symlink() or not target.is_dir())):
        os.replace(tmp, target)  # atomic for a file (over a file or a link), and for a directory onto nothing
        return
    # A directory cannot be renamed over a non-empty one: move the old aside first. Between the two
    # renames the target is briefly absent, never half-written.
    old = target.with_name(f".old-{tag}-{target.name}")
    os.replace(target, old)
    try:
        os.replace(tmp, target)
    except BaseException:
        os.replace(old, target)
        raise
    _remove(old)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    elif path.exists() or path.is_symlink():
        path.unlink()


def pid_alive(pid: int) -> bool:
    """True when process ``pid`` exists on this machine (a temporary's writer may still be working)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def swap_leftovers(target: Path, kind: str) -> list[tuple[Path, int]]:
    """``(path, writer pid)`` of the ``.tmp-`` or ``.old-`` siblings that publishing ``target`` left:
    exactly ``.KIND-<pid>-<8 hex>-<target name>``, never a symlink."""
    pattern = re.compile(rf"\.{kind}-(\d+)-[0-9a-f]{{8}}-{re.escape(target.name)}")
    found = []
    parent = target.parent
    for entry in parent.iterdir() if parent.is_dir() else []:
        m = pattern.fullmatch(entry.name)
        if m and not entry.is_symlink():
            found.append((entry, int(m[1])))
    return found


def recover_publish(target: Path) -> bool:
    """Roll back a republish of ``target`` interrupted between its two renames: when ``target`` is absent
    and a dead writer left the previous artifact as ``.old-<pid>-<hex>-NAME``, rename it back. True when
    ``target`` exists afterwards. Only the writing side does this (a publish, ``dicetables clean``, ``verify
    --repair``): a reader never renames anything, it says what it found (``lookup.store.checked_entry``)."""
    if os.path.lexists(target):
        return True
    for old, pid in sorted(swap_leftovers(target, "old"), key=lambda e: e[0].stat().st_mtime_ns, reverse=True):
        if pid_alive(pid) and pid != os.getpid():
            continue  # its writer is between the renames right now
        try:
            os.rename(old, target)
            return True
        except OSError:  # another process recovered it first
            return os.path.lexists(target)
    return False


def remove_dead_leftovers(target: Path) -> list[Path]:
    """Delete the ``.tmp-<pid>-*`` / ``.old-<pid>-*`` siblings of ``target`` whose writer is dead (after
    ``recover_publish`` has had its chance to restore an ``.old``); return what was removed."""
    removed = []
    for kind in ("tmp", "old"):
        for leftover, pid in swap_leftovers(target, kind):
            if not pid_alive(pid):
                _remove(leftover)
                removed.append(leftover)
    return removed


def reusable(spec: ArtifactSpec, artifacts_dir: str | Path, fingerprint: str | None = None) -> bool:
    """True when every file ``spec`` names exists with this fingerprint and passes verification."""
    fingerprint = fingerprint or spec.fingerprint()
    paths = [Path(artifacts_dir) / f"{spec.name}.zarr"]
    if spec.hdf5:
        paths.append(Path(artifacts_dir) / f"{spec.name}.h5")
    for path in paths:
        if disk_problems(path):  # a symlink (republished: the link is replaced), a FIFO, ...: never read
            return False
        try:
            if read_meta(path).get("fingerprint") != fingerprint:
                return False
        except ArtifactError:
            return False
        if verify_problems(path, trust="artifact"):
            return False
    return True


def artifact_paths(artifacts_dir: str | Path) -> list[Path]:
    """Every published artifact under ``artifacts_dir`` (temporaries and reports excluded)."""
    root = Path(artifacts_dir)
    if not root.is_dir():
        return []
    found = [p for p in root.iterdir() if p.suffix in (".zarr", ".h5") and not p.name.startswith(".")]
    return sorted(found)


def write_manifest(artifacts_dir: str | Path, paths: Iterable[Path] | None = None, *,
                   verified: Collection[Path] = ()) -> Path:
    """Regenerate ``MANIFEST.json``: one entry per artifact (``paths``, default every one in the directory), as
    ``lookup.store.manifest_fields`` makes it from the artifact's metadata.

    The manifest is what every reader trusts, so nothing enters it unverified: an artifact is listed only when
    the current manifest already lists it with the same metadata, or it is one of ``verified`` (published or
    reused, hence verified, by the caller a moment ago: ``pipeline.registry.build``), or it passes
    ``verify_problems`` now; otherwise ArtifactError naming it and its problems, and the manifest is left as
    it was. This is how a family built with ``--no-manifest`` into a directory is registered (``dicetables
    manifest``)."""
    root = Path(artifacts_dir)
    root.mkdir(parents=True, exist_ok=True)
    try:
        listed = {e["path"]: e["meta_sha256"] for e in load_manifest(root)["artifacts"]}
    except ArtifactError:
        listed = {}
    vouched = {Path(p).name for p in verified}
    entries = []
    for path in sorted(paths if paths is not None else artifact_paths(root)):
        problems = disk_problems(path)  # never read through a symlink or from a FIFO
        if not problems:
            meta = read_meta(path)
            if path.name not in vouched and listed.get(path.name) != meta_sha256(meta):
                problems = verify_problems(path, trust="artifact")
        if problems:
            raise ArtifactError(f"{path}: not listed in {MANIFEST_NAME}: " + "; ".join(problems))
        entries.append(manifest_fields(path.relative_to(root).as_posix(), meta))
    manifest = {"artifacts": entries}
    target = root / MANIFEST_NAME
    tmp = root / f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}-{MANIFEST_NAME}"
    # A new file (O_EXCL, O_NOFOLLOW: never through a link), renamed over MANIFEST.json (or a link there).
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
    try:
        with os.fdopen(fd, "w") as out:
            out.write(json.dumps(manifest, indent=2, sort_keys=True) + "\n")
        os.replace(tmp, target)
    except BaseException:
        _remove(tmp)
        raise
    return target


_LEFTOVER = re.compile(rf"\.(?P<kind>tmp|old)-(?P<pid>\d+)-[0-9a-f]{{8}}-(?P<name>{NAME.pattern})")


@dataclass(frozen=True)
class Leftover:
    """A ``.tmp-<pid>-<hex>-NAME`` or ``.old-<pid>-<hex>-NAME`` entry of an artifacts directory: what a
    publish of NAME (an artifact or ``MANIFEST.json``) leaves while it runs, or after it was killed."""

    path: Path
    kind: str  # "tmp": an unfinished write; "old": the previous artifact, moved aside for the swap
    pid: int  # the writer's process id
    name: str  # NAME: what it was published as
    alive: bool  # the writer's pid exists: it may be working right now
    symlink: bool
    bytes: int  # 0 for a symlink (its target is not ours)

    def describe(self) -> str:
        """One line for ``dicetables verify``: what it is, whose, and its size."""
        what = ("an unfinished publish" if self.kind == "tmp" else "the previous copy, moved aside by a publish") + \
            f" of {self.name}"
        if self.symlink:
            return f"a symlink named like {what} (a writer never makes one; `dicetables clean` removes the link)"
        size = _size_text(self.bytes)
        if self.alive:
            return f"{what} by process {self.pid}, alive: a live writer is working ({size} so far)"
        after = ("`dicetables clean` or the next build renames it back to " + self.name) if (
            self.kind == "old" and not os.path.lexists(self.path.parent / self.name)) else \
            "`dicetables clean` or the next build removes it"
        return f"{what} by process {self.pid}, which is gone: a dead writer's leftover ({size}); {after}"


def find_leftovers(artifacts_dir: str | Path) -> list[Leftover]:
    """Every ``.tmp-*`` / ``.old-*`` entry of ``artifacts_dir`` named as a publish names them, in name order
    (other names are not ours and are never listed)."""
    root = Path(artifacts_dir)
    found = []
    for entry in sorted(root.iterdir()) if root.is_dir() else []:
        m = _LEFTOVER.fullmatch(entry.name)
        if not m or ".." in m["name"]:
            continue
        link = entry.is_symlink()
        found.append(Leftover(entry, m["kind"], int(m["pid"]), m["name"], pid_alive(int(m["pid"])), link,
                              0 if link else _bytes(entry)))
    return found


def clean_leftovers(artifacts_dir: str | Path) -> list[tuple[Path, int]]:
    """Remove the leftovers of dead writers of every artifact (and of the manifest) in ``artifacts_dir``;
    an ``.old-*`` whose artifact is absent is renamed back instead (``recover_publish``). A live writer's
    are left alone; a symlink is unlinked, never followed. Returns (removed path, bytes). ``dicetables
    build`` (every family build, so every DVC stage) runs it first, and ``dicetables clean``."""
    removed = []
    for left in find_leftovers(artifacts_dir):
        if left.alive:
            continue
        if left.symlink:
            left.path.unlink(missing_ok=True)
            removed.append((left.path, 0))
            continue
        target = left.path.parent / left.name
        if left.kind == "old" and target.is_symlink():
            continue  # a symlinked artifact is refused (verify says so), and never renamed over: keep the copy
        if left.kind == "old" and recover_publish(target) and not left.path.exists():
            continue  # it was the artifact: restored, not removed
        removed.append((left.path, left.bytes))
        _remove(left.path)
    return removed


def clean(artifacts_dir: str | Path) -> list[tuple[Path, int]]:
    """Remove the leftovers of killed writers (``clean_leftovers``: ``.tmp-<pid>-*``, ``.old-<pid>-*`` whose
    process is gone; an ``.old`` whose artifact is absent is renamed back instead) and the ``.runtime/``
    directory of decoded copies that versions before chunked reading wrote. Returns (removed path, bytes).
    Only names of those strict patterns are touched, never a symlink's target."""
    root = Path(artifacts_dir)
    removed = clean_leftovers(root)
    legacy = root / LEGACY_RUNTIME_DIR
    if legacy.is_dir() and not legacy.is_symlink():
        removed.append((legacy, _bytes(legacy)))
        shutil.rmtree(legacy, ignore_errors=True)
    return removed


def _bytes(path: Path) -> int:
    if path.is_file():
        return path.stat().st_size
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def _size_text(n: float) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if n < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n} B"


# Bounds of the walk over one Zarr directory: a publish writes about a hundred entries, a few levels deep.
ZARR_ENTRY_LIMIT = 100_000
ZARR_DEPTH_LIMIT = 32


def disk_problems(path: Path) -> list[str]:
    """What is wrong with the entry at ``path`` (``NAME.zarr`` / ``NAME.h5``) before any library opens it;
    empty when nothing is.

    Checked without following a symlink or reading anything but regular files, so that it cannot block or
    read outside the artifacts directory: the entry exists and is not a symlink (symlinked artifacts are
    refused); ``NAME.h5`` is a regular file; ``NAME.zarr`` is a directory whose every entry is a directory
    or a regular file (no symlink, FIFO, device or socket) and whose every ``zarr.json`` is JSON of at most
    16 MiB and 64 levels (``lookup.files``). The checksums are ``verify_problems``'s work.
    """
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return ["no such artifact (nothing at this path)"]
    except OSError as exc:
        return [f"cannot be examined ({exc.strerror})"]
    if stat.S_ISLNK(info.st_mode):
        return [f"is a symlink (to {os.readlink(path)}): refused; an artifact must be a real file or directory in "
                "the artifacts directory (a build replaces the link, never writes through it)"]
    if path.suffix != ".zarr":
        return [] if stat.S_ISREG(info.st_mode) else [f"is {file_kind(info.st_mode)}, not a regular file"]
    if not stat.S_ISDIR(info.st_mode):
        return [f"is {file_kind(info.st_mode)}, not a directory"]
    problems: list[str] = []
    stack, seen = [(path, 0)], 0
    while stack and len(problems) < 20:
        folder, depth = stack.pop()
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as exc:
            problems.append(f"{_rel(folder, path)}: cannot be listed ({exc.strerror})")
            continue
        for entry in entries:
            seen += 1
            rel = _rel(Path(entry.path), path)
            if seen > ZARR_ENTRY_LIMIT:
                return problems + [f"more than {ZARR_ENTRY_LIMIT} files and directories: refused"]
            mode = entry.stat(follow_symlinks=False).st_mode
            if stat.S_ISLNK(mode):
                problems.append(f"{rel} is a symlink (to {os.readlink(entry.path)}): refused")
            elif stat.S_ISDIR(mode):
                if depth + 1 >= ZARR_DEPTH_LIMIT:
                    problems.append(f"{rel}: directories nested more than {ZARR_DEPTH_LIMIT} levels: refused")
                else:
                    stack.append((Path(entry.path), depth + 1))
            elif not stat.S_ISREG(mode):
                problems.append(f"{rel} is {file_kind(mode)}, not a regular file")
            elif entry.name == "zarr.json":
                try:
                    read_json_bounded(entry.path, ZARR_JSON_LIMIT, rel)
                except (ArtifactError, FileNotFoundError) as exc:
                    problems.append(str(exc).replace(f"{entry.path}: ", f"{rel}: "))
    return problems


def _rel(entry: Path, artifact: Path) -> str:
    return entry.relative_to(artifact).as_posix() if entry != artifact else "."
