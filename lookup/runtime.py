"""Verified, uncompressed runtime copies of artifact arrays for the play-time path, checked before use.

Reading through Zarr costs about a millisecond per chunk; a decision must cost microseconds. The first
use of an artifact decodes each array once, checks it against the sha256 recorded in the (checksummed)
artifact metadata, and writes it as a plain ``.npy`` under ``<artifacts>/.runtime/<name>-<fp16>/`` with,
beside it, ``<array>.crc32``: the crc32 of every ``BLOCK``-byte block of its data, computed from the
verified bytes in memory (not from the written file). The written file is re-read and checked before it
is renamed into place.

The copies are then NOT trusted. ``CheckedArray`` gives an element from a process-private buffer filled
block by block: the first read of a block ``pread``s it, checks its crc32 and stores it (no memory map,
so a copy truncated or rewritten under a running process is an error, never a SIGBUS or a stale page).
Later reads of that block use the private bytes, which nothing outside the process can change, as long
as the copy has not changed since. Two ways to know: a watched copy (``lookup.changes``, inotify: every
read polls the process's event queue, ~0.2 us) is unchanged while no event about it has arrived; after
any event, an open by anyone included, and where inotify is not available, every read ``fstat``s the
copy and compares its ctime (any write, truncation or ``utime`` moves it; the kernel sets it, a user
cannot), and if it moved every block must be read and checked again. So the bytes used were verified in
this process since the copy last changed. Under the ctime check a block is only kept as verified when
the copy's ctime is older than ``SETTLED_NS`` when it is read: a write in the same timestamp tick as the
last change would leave the ctime unchanged, so a recently changed copy is re-read and checked on every
read (about a microsecond) until it has settled. Whole-array uses read the array once per process,
checked against the crc32 of the whole data. A mismatch removes that array's copy (the next call
rebuilds it from the verified artifact) and raises ``ArtifactError`` naming the file.

What this does not see: bytes changed under the file system (a disk's own bit rot below the page cache)
after a block was verified; the page cache would not show those to a reader either until evicted.

Everything that becomes a path is checked first: the artifact's name and array names match ``NAME``, its
fingerprint is 64 hex digits, and the copy directory must resolve inside ``.runtime``. Only directories
and files this module creates, matched by strict patterns, are ever deleted.
"""

from __future__ import annotations

import array as _array
import hashlib
import json
import mmap
import os
import re
import shutil
import sys
import time
import uuid
import zlib
from operator import lt as _lt
from operator import mul as _mul
from pathlib import Path
from typing import Any

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from lookup import changes
from lookup.store import (
    ArtifactError,
    artifact_stamp,
    check_identity,
    check_name,
    checked_meta,
    open_artifact,
    pid_alive,
    sha256_of_array,
)

STAMP = "stamp.json"
RUNTIME_DIR = ".runtime"
# Bytes per checked block: the first read of a block reads and checks all of it (pread + crc32 of 4 KiB,
# ~1.5 us); the crc32 file costs 1/1024 of the copy's size. A multiple of every itemsize, so an element
# never straddles two blocks. (Version 1 of the copies used 64-byte blocks: those are remade.)
BLOCK = 4096
_BLOCK_BITS = BLOCK.bit_length() - 1
# A copy's ctime must be this old before its verified blocks are kept: file timestamps advance in ticks
# (a few ms; whole seconds on some file systems), and a write in the tick of the previous change would
# not move the ctime. Until then every read re-reads and re-checks its block.
SETTLED_NS = 3_000_000_000
# Bound once: the checked read is on the hot path of every decision.
_pread, _crc32, _fstat, _time_ns, _poll_changes = os.pread, zlib.crc32, os.fstat, time.time_ns, changes.poll
_COPY_DIR = re.compile(r"(?P<stem>[a-z0-9][a-z0-9_.+-]*)-(?P<fp>[0-9a-f]{16})")
# Temporaries: .tmp-<pid>-<8 hex>-<array>.npy / .crc32 / stamp.json (the pid tells whether its writer lives).
_TMP = re.compile(r"\.tmp-(?P<pid>\d+)-[0-9a-f]{8}-[a-z0-9][a-z0-9_.+-]*")
_DTYPES = {"float64": "d", "float32": "f", "int64": "q", "int32": "i", "int16": "h", "int8": "b",
           "uint64": "Q", "uint32": "I", "uint16": "H", "uint8": "B"}

# Bumped whenever a corrupted copy is found: the loaders' caches key on it, so the next call reloads
# (and the loader rebuilds the copy from the artifact).
_generation = 0


def generation() -> int:
    """A number that changes whenever a corrupted runtime copy was found in this process."""
    return _generation


def runtime_root(artifacts_dir: Path) -> Path:
    """``<artifacts>/.runtime``: where the copies live."""
    return artifacts_dir / RUNTIME_DIR


def _zarr_meta(path: Path) -> dict[str, Any]:
    """The artifact's checked metadata straight from its root zarr.json (no zarr import, ~1 ms)."""
    try:
        attrs = json.loads((path / "zarr.json").read_text())["attributes"]
    except FileNotFoundError as exc:
        raise ArtifactError(f"{path}: no such artifact (build it with `dicetables build`)") from exc
    except (KeyError, TypeError, ValueError) as exc:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ArtifactError(f"{path}: unreadable zarr.json ({type(exc).__name__}: {exc})") from exc
    return checked_meta(path, attrs)


def copy_dir_of(path: Path, meta: dict[str, Any]) -> Path:
    """The runtime copy directory of artifact ``path`` with (checked) ``meta``, checked to stay inside
    ``.runtime``."""
    stem = check_name(path.stem, "artifact name")
    root = runtime_root(path.parent)
    copy_dir = root / f"{stem}-{meta['fingerprint'][:16]}"
    if copy_dir.resolve().parent != root.resolve():
        raise ArtifactError(f"{path}: runtime copy {copy_dir} would leave {root}")
    return copy_dir


def runtime_arrays(
    path: str | Path,
    names: list[str],
    *,
    schema: str,
    versions: tuple[int, ...],
    rules: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, CheckedArray]]:
    """(metadata, checked arrays) of a Zarr artifact, through its runtime copy.

    The identity checks of ``open_artifact`` (schema, version, rules, params) run on every call; the
    artifact's checksums run when the copy is made; the copy's block checksums on every read.
    """
    path = Path(path)
    artifact_stamp(path)  # finishes or rolls back an interrupted republish of ``path``
    meta = _zarr_meta(path)
    for name in names:
        check_name(name, "array name")
    copy_dir = copy_dir_of(path, meta)
    stamp = _read_stamp(copy_dir)
    if stamp is None or stamp.get("fingerprint") != meta["fingerprint"] or not isinstance(
            stamp.get("arrays"), dict):
        stamp = {"arrays": {}}
    # Arrays to (re)make: never copied, copied from other data, or removed after failing a check.
    stale = [n for n in names if not isinstance(stamp["arrays"].get(n), dict)
             or stamp["arrays"][n].get("sha256") != meta["arrays"].get(n, {}).get("sha256")
             or stamp["arrays"][n].get("block") != BLOCK
             or not (copy_dir / f"{n}.npy").is_file()]
    if stale:
        stamp = _make_copy(path, copy_dir, stale, schema=schema, versions=versions, rules=rules, params=params)
    else:
        check_identity(path, meta, schema=schema, versions=versions, rules=rules, params=params)
    arrays = {}
    for name in names:
        entry = meta["arrays"].get(name)
        if entry is None:
            raise ArtifactError(f"{path}: no array {name!r}")
        arrays[name] = CheckedArray(copy_dir, name, entry, stamp["arrays"][name], path)
    return meta, arrays


def _read_stamp(copy_dir: Path) -> dict[str, Any] | None:
    try:
        stamp = json.loads((copy_dir / STAMP).read_text())
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) else None


def _tmp(copy_dir: Path, name: str) -> Path:
    return copy_dir / f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}-{name}"


def _block_crcs(data: bytes) -> bytes:
    """Little-endian uint32 crc32 of every BLOCK bytes of ``data`` (the last block may be shorter)."""
    view = memoryview(data)
    crcs = _array.array("I", (zlib.crc32(view[i : i + BLOCK]) for i in range(0, len(data), BLOCK)))
    if sys.byteorder != "little":
        crcs.byteswap()
    return crcs.tobytes()


def _make_copy(path: Path, copy_dir: Path, names: list[str], **identity: Any) -> dict[str, Any]:
    with open_artifact(path, verify=False, **identity) as art:
        copy_dir.mkdir(parents=True, exist_ok=True)
        entries = {}
        for name in names:
            if name not in art.meta["arrays"]:
                raise ArtifactError(f"{path}: no array {name!r}")
            try:
                data = art.read(name)  # crc32c of every chunk is checked while decoding
            except ArtifactError:
                raise
            except Exception as exc:
                raise ArtifactError(f"{path}: corrupted: array {name!r} unreadable ({exc})") from exc
            sha = sha256_of_array(data)
            if sha != art.meta["arrays"][name]["sha256"]:
                raise ArtifactError(f"{path}: corrupted: array {name!r}: sha256 mismatch")
            data = np.ascontiguousarray(data, dtype=data.dtype.newbyteorder("<"))
            raw = data.tobytes()
            crcs = _block_crcs(raw)
            entry = {"sha256": sha, "block": BLOCK, "crc32": zlib.crc32(raw),
                     "crc_sha256": hashlib.sha256(crcs).hexdigest()}
            tmp_npy, tmp_crc = _tmp(copy_dir, f"{name}.npy"), _tmp(copy_dir, f"{name}.crc32")
            try:
                np.save(tmp_npy, data)
                tmp_crc.write_bytes(crcs)
                # What reached the disk is what was verified: a byte changed while writing is caught here.
                check = CheckedArray(copy_dir, name, art.meta["arrays"][name], entry, path, npy=tmp_npy,
                                     crc=tmp_crc, watch=False)
                check.array()
                check.close()
                os.replace(tmp_crc, copy_dir / f"{name}.crc32")
                os.replace(tmp_npy, copy_dir / f"{name}.npy")
            finally:
                for tmp in (tmp_npy, tmp_crc):
                    tmp.unlink(missing_ok=True)
            entries[name] = entry
        old = _read_stamp(copy_dir) or {}
        if old.get("fingerprint") == art.meta["fingerprint"] and isinstance(old.get("arrays"), dict):
            entries = {**old["arrays"], **entries}
        stamp = {"fingerprint": art.meta["fingerprint"], "arrays": entries}
        tmp = _tmp(copy_dir, STAMP)
        tmp.write_text(json.dumps(stamp))
        os.replace(tmp, copy_dir / STAMP)
    remove_stale_copies(copy_dir)
    return stamp


def remove_stale_copies(current: Path) -> None:
    """Delete the runtime copies of earlier versions of the same artifact, and dead writers' temporaries.

    Only directories named exactly ``<stem>-<16 hex digits>`` beside ``current`` (same stem) are removed,
    never a symlink; processes still reading an unlinked copy keep their open file.
    """
    match = _COPY_DIR.fullmatch(current.name)
    if match is None:
        raise ArtifactError(f"{current}: not a runtime copy directory name")
    for other in current.parent.iterdir():
        m = _COPY_DIR.fullmatch(other.name)
        if other != current and m and m["stem"] == match["stem"] and other.is_dir() and not other.is_symlink():
            shutil.rmtree(other, ignore_errors=True)
    remove_dead_temporaries(current)


def remove_dead_temporaries(copy_dir: Path) -> list[Path]:
    """Delete ``.tmp-<pid>-*`` files in ``copy_dir`` whose writing process is gone; return them."""
    removed = []
    for tmp in copy_dir.iterdir() if copy_dir.is_dir() else []:
        m = _TMP.fullmatch(tmp.name)
        if m and tmp.is_file() and not tmp.is_symlink() and not pid_alive(int(m["pid"])):
            tmp.unlink(missing_ok=True)
            removed.append(tmp)
    return removed


def runtime_copies(artifacts_dir: Path) -> list[Path]:
    """The runtime copy directories under ``artifacts_dir`` (strict names, no symlinks)."""
    root = runtime_root(artifacts_dir)
    if not root.is_dir() or root.is_symlink():
        return []
    return sorted(p for p in root.iterdir() if _COPY_DIR.fullmatch(p.name) and p.is_dir() and not p.is_symlink())


class CheckedArray(NDArrayOperatorsMixin):
    """One array of a runtime copy, used only through checked bytes.

    ``a[i, j, ...]`` with one int per axis (and ``flat``) gives that element from the process-private
    buffer: its BLOCK-byte block is read with ``os.pread`` and its crc32 checked the first time, and again
    whenever the copy's ctime moved since (one ``fstat`` per read; see the module docstring). Any other
    index, ``np.asarray(a)`` and ``array()`` use the whole array, read once per process and checked
    against the crc32 of the whole data (the bytes then live in this process). A failed check raises
    ArtifactError naming the copy (and removes it, so the next call rebuilds it from the verified
    artifact).
    """

    def __init__(self, copy_dir: Path, name: str, entry: dict[str, Any], stamp_entry: dict[str, Any],
                 artifact: Path, *, npy: Path | None = None, crc: Path | None = None, watch: bool = True) -> None:
        self._fd = -1
        self._wd = None
        self.path = npy or copy_dir / f"{name}.npy"
        self.artifact = artifact
        self._copy_dir = copy_dir
        self.shape = tuple(int(n) for n in entry["shape"])
        self.dtype = np.dtype(entry["dtype"]).newbyteorder("<")
        self.ndim = len(self.shape)
        self.size = int(np.prod(self.shape, dtype=np.int64))
        self._whole: np.ndarray | None = None
        self._crc_total = stamp_entry.get("crc32")
        if stamp_entry.get("block") != BLOCK or np.dtype(entry["dtype"]).name not in _DTYPES:
            self._fail("its stamp or dtype is not one this library reads")
        self._itemsize = self.dtype.itemsize
        strides, step = [], self._itemsize
        for n in reversed(self.shape):
            strides.append(step)
            step *= n
        self._strides = tuple(reversed(strides))
        self._nbytes = self.size * self._itemsize
        self._block_shift = (BLOCK // self._itemsize).bit_length() - 1  # element index >> it = its block
        crc_path = crc or copy_dir / f"{name}.crc32"
        try:
            crc_bytes = crc_path.read_bytes()
            self._fd = os.open(self.path, os.O_RDONLY)
        except OSError as exc:
            self._fail(f"unreadable ({exc.strerror})")
        if hashlib.sha256(crc_bytes).hexdigest() != stamp_entry.get("crc_sha256"):
            self._fail(f"its block checksums {crc_path.name} do not match the stamp")
        self._crcs = _array.array("I")
        self._crcs.frombytes(crc_bytes)
        if sys.byteorder != "little":
            self._crcs.byteswap()
        if len(self._crcs) != -(-self._nbytes // BLOCK):
            self._fail("its block checksums do not cover its data")
        # The ctime of the copy when its blocks were last verified (-1: never); _ok[b] = 1 when block b of
        # the private buffer holds checked bytes of the copy as it was at that ctime.
        self._ctime = -1
        self._ok = bytearray(len(self._crcs))
        # Private buffer, native byte order, in anonymous memory (mapped lazily page by page: only blocks
        # read take space; numpy's own allocation may ask for huge pages, 2 MiB per block touched).
        self._buffer = mmap.mmap(-1, max(self._nbytes, 1))
        self._private = np.frombuffer(self._buffer, dtype=self.dtype.newbyteorder("="), count=self.size)
        self._elements = memoryview(self._private)  # indexing gives Python ints / floats
        self._offset = self._header_offset()
        # Watched (lookup.changes): no event about the copy since it was opened, so blocks are kept as
        # soon as they are checked and a read costs one poll; after any event, the fstat check.
        self._watcher = changes.watcher() if watch else None
        self._wd = None if self._watcher is None else self._watcher.watch(self.path, self)
        self._watched = self._wd is not None

    def _header_offset(self) -> int:
        try:
            with open(self.path, "rb") as f:
                version = np.lib.format.read_magic(f)
                reader = {(1, 0): np.lib.format.read_array_header_1_0,
                          (2, 0): np.lib.format.read_array_header_2_0}[version]
                shape, fortran, dtype = reader(f)
                offset = f.tell()
        except Exception as exc:  # a damaged header surfaces as many exception types
            self._fail(f"unreadable .npy header ({type(exc).__name__})", exc)
        if tuple(shape) != self.shape or fortran or np.dtype(dtype) != self.dtype:
            self._fail(f"header says {shape} {dtype}, the artifact {self.shape} {self.dtype}")
        if os.fstat(self._fd).st_size != offset + self._nbytes:
            self._fail("wrong size (truncated or replaced)")
        return offset

    def _fail(self, problem: str, cause: BaseException | None = None) -> None:
        global _generation
        _generation += 1
        self._ok = bytearray(len(self._ok)) if hasattr(self, "_ok") else bytearray()
        try:  # the next call remakes this array's copy from the verified artifact
            self.path.unlink(missing_ok=True)
        except OSError:
            pass
        raise ArtifactError(f"{self.path}: corrupted runtime copy of {self.artifact} ({problem}); it will be "
                            "rebuilt from the verified artifact on the next call") from cause

    def item(self, index: tuple[int, ...]) -> Any:
        """The element at ``index`` (one int per axis, in range), from checked bytes (see ``flat``)."""
        if len(index) != self.ndim or min(index) < 0 or not all(map(_lt, index, self.shape)):
            raise IndexError(f"index {tuple(index)} outside shape {self.shape}")
        return self.flat(sum(map(_mul, index, self._strides)) // self._itemsize)

    def flat(self, index: int) -> Any:
        """The element at C-order flat ``index`` (0 <= index < size) as a Python int or float, from the
        private verified bytes when its block was checked since the copy last changed (after one ``poll``
        for changes to any watched copy, and one ``fstat`` of this copy when it is not watched), else the
        block is read and checked now (~1.5 us)."""
        _poll_changes()
        return self.flat_next(index)

    def flat_next(self, index: int) -> Any:
        """``flat`` without polling for changes: for reads right after a ``flat`` or a
        ``lookup.changes.poll()`` in the same call (the process has one event queue for every copy). A
        change completed before the call started was seen by that poll; one racing the call is as
        concurrent as it would be between a poll and the read."""
        if not 0 <= index < self.size:
            raise IndexError(f"flat index {index} outside 0..{self.size - 1}")
        block = index >> self._block_shift
        if self._watched:
            if self._ok[block]:
                return self._elements[index]
        elif _fstat(self._fd).st_ctime_ns == self._ctime and self._ok[block]:
            return self._elements[index]
        self._verify(block)
        return self._elements[index]

    def _suspect(self) -> None:
        """Something happened to the copy (lookup.changes): from now on every read checks its ctime, and
        every block is read and checked again."""
        self._watched = False
        self._wd = None
        self._ctime = -1

    def _verify(self, block: int) -> None:
        """Read block ``block`` of the copy, check its crc32 and store it in the private buffer. It is
        kept as verified while the copy is watched, or else while its ctime stays what it was before the
        read, once that ctime has settled."""
        st = _fstat(self._fd)
        if st.st_ctime_ns != self._ctime:  # changed since the blocks were verified: none is any more
            self._ok = bytearray(len(self._ok))
            if st.st_size != self._offset + self._nbytes:
                self._fail("wrong size (truncated or replaced)")
        start = block * BLOCK
        length = min(BLOCK, self._nbytes - start)
        raw = _pread(self._fd, length, self._offset + start)  # a file truncated since: a short read
        if len(raw) != length or _crc32(raw) != self._crcs[block]:
            self._fail(f"block {block} fails its crc32 (flipped, truncated or replaced)")
        first = start // self._itemsize
        self._private[first : first + length // self._itemsize] = np.frombuffer(raw, dtype=self.dtype)
        self._ctime = st.st_ctime_ns
        self._ok[block] = self._watched or _time_ns() - st.st_ctime_ns > SETTLED_NS

    def array(self) -> np.ndarray:
        """The whole array (read-only), read once per process and checked against its whole crc32.

        Read straight into memory numpy allocates (which asks the kernel for huge pages when the array is
        large: random reads of a 270 MB policy table then rarely miss the TLB)."""
        if self._whole is None:
            raw = np.empty(self._nbytes, dtype=np.uint8)
            data = memoryview(raw)
            done = 0
            while done < self._nbytes:
                got = os.preadv(self._fd, [data[done:]], self._offset + done)
                if got <= 0:
                    self._fail("truncated")
                done += got
            if zlib.crc32(data) != self._crc_total:
                self._fail("its data fails the crc32 of the copy")
            whole = raw.view(self.dtype).reshape(self.shape).astype(self.dtype.newbyteorder("="), copy=False)
            whole.flags.writeable = False
            self._whole = whole
        return self._whole

    def __getitem__(self, index: Any) -> Any:
        if type(index) is tuple and len(index) == self.ndim and all(type(i) is int for i in index):
            return self.item(index)
        if type(index) is int and self.ndim == 1:
            return self.item((index,))
        return self.array()[index]

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        whole = self.array()
        return whole if dtype is None else whole.astype(dtype)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        # Operators and ufuncs (``a >= 0``, ``np.isnan(a)``) act on the whole checked array.
        inputs = tuple(x.array() if isinstance(x, CheckedArray) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __getattr__(self, name: str) -> Any:
        # ndarray methods and attributes (astype, max, T, ...) of the whole checked array. Private names
        # are not forwarded (they are this object's own, possibly not yet set in __init__).
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.array(), name)

    def __len__(self) -> int:
        return self.shape[0]

    def close(self) -> None:
        if self._wd is not None and self._watcher is not None:
            self._watcher.unwatch(self._wd, self)
            self._wd = None
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __del__(self) -> None:
        try:
            self.close()
        except (OSError, AttributeError, TypeError):  # TypeError: at exit, with modules torn down
            pass

    def __repr__(self) -> str:
        return f"CheckedArray({self.path}, shape={self.shape}, dtype={self.dtype})"
