"""Read side of the artifact store: open, check and describe checksummed Zarr v3 / HDF5 artifacts.

An artifact is a Zarr v3 directory store (``NAME.zarr``) or an HDF5 file (``NAME.h5``) whose root carries
one attribute, ``dicetables``: a JSON object with the schema name and version, the game, the full rules,
the params, the fingerprint, the package version and, for every array, the sha256 of its raw C-order
little-endian bytes (see ``docs/artifacts.md``). Nothing here trusts a file it has not checked: a flipped
byte fails the chunk's crc32c (Zarr) or fletcher32 (HDF5) or the array's sha256, and a missing chunk fails
the sha256 because it reads back as the fill value.

One meaning of valid: ``verify_problems`` (what ``dicetables verify`` and every publish run) makes exactly the
checks a reader makes when it opens an artifact and reads all of it (``trusted_meta``, held to
``MANIFEST.json``, then ``lookup.chunked`` for every chunk), Zarr and HDF5 alike. Nothing here writes: an
artifact that an interrupted publish left aside (``.old-*``) is restored by ``dicetables clean`` or the next
build, never by a read.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

# ArtifactError lives in lookup.errors (lookup.files and lookup.chunked raise it too); ``lookup.store.ArtifactError``
# is the same class.
from lookup.environment import TRUST_ENV as TRUST_ENV
from lookup.environment import TRUST_MODES as TRUST_MODES
from lookup.environment import default_artifacts_dir as default_artifacts_dir
from lookup.environment import trust_mode
from lookup.errors import ArtifactError as ArtifactError
from lookup.files import MANIFEST_LIMIT, ZARR_JSON_LIMIT, file_kind, read_json_bounded
from lookup.remote import RemotePath, remote_root

META_KEY = "dicetables"
# A second root attribute: sha256 of the canonical JSON of the ``dicetables`` attribute, so that a changed
# rule, schema version or statistic is a detected corruption, not a silently different artifact.
META_SHA_KEY = "dicetables_sha256"
# Names that become path components (artifact names, array names, copy directories): no separator, no
# leading dot, bounded length. "+" joins rule-set variants (yahtzee-scandinavian+tp4-values).
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,199}")
HEX64 = re.compile(r"[0-9a-f]{64}")
MANIFEST_NAME = "MANIFEST.json"
# Elements an array may have (2**48: petabytes), and so any dimension: keeps every size computed from the
# metadata within int64 whatever it says.
MAX_ELEMENTS = 1 << 48
# Rows hashed at a time: bounds the memory of hashing a large array read from a chunked store.
_HASH_BLOCK_BYTES = 64 << 20

# zarr-python encodes and decodes one chunk per asynchronous task unless told otherwise (codec_pipeline.batch_size
# 1); our arrays have thousands of 32 KiB chunks, and batches of 64 take about a third less CPU to read or write a
# whole array (scandinavian policy, 242 MB: write 4.7 -> 3.3 CPU-s, read 3.4 -> 2.2; docs/benchmarks.md).
ZARR_BATCH = 64


def zarr_module() -> Any:
    """``zarr``, imported on first use (it takes most of a second) and set to decode in batches of ``ZARR_BATCH``."""
    import zarr

    if zarr.config.get("codec_pipeline.batch_size") != ZARR_BATCH:
        zarr.config.set({"codec_pipeline.batch_size": ZARR_BATCH})
    return zarr


def as_path(value: str | Path) -> Path:
    """``value`` as a path: a ``lookup.remote.RemotePath`` when it is an http(s) URL (or one already), else a
    ``Path``."""
    return remote_root(value) or Path(value)


def check_name(name: Any, what: str) -> str:
    """``name`` when it is safe as one path component (``NAME``); ArtifactError otherwise."""
    if type(name) is not str or not NAME.fullmatch(name) or ".." in name:
        raise ArtifactError(f"{what} {name!r} is not a valid name (letters, digits, '_', '-', '+', '.')")
    return name


def inside_dir(path: str | Path, root: str | Path | None = None) -> Path:
    """``path`` after checking that it may be read as (part of) an artifact: it is not itself a symlink, and
    it resolves inside ``root`` (default: its parent directory, i.e. the artifacts directory of an
    artifact). ArtifactError naming the path (and where it leads) otherwise. ``root`` itself may be a
    symlink (an artifacts directory on another disk); a missing ``path`` passes (the caller reports it)."""
    path = Path(path)
    root = Path(root) if root is not None else path.parent
    if path.is_symlink():
        raise ArtifactError(f"{path}: is a symlink (to {os.readlink(path)}); artifacts and their files must be "
                            "real files inside the artifacts directory: refused")
    real, real_root = os.path.realpath(path), os.path.realpath(root)
    if os.path.commonpath([real, real_root]) != real_root:
        raise ArtifactError(f"{path}: leads outside {root} (to {real}) through a symlinked directory: refused")
    return path


def meta_sha256(meta: Mapping[str, Any]) -> str:
    """sha256 of the canonical JSON (sorted keys, no spaces) of an artifact's metadata."""
    return hashlib.sha256(_canonical(meta).encode()).hexdigest()


def checked_meta(path: Path, attrs: Mapping[str, Any]) -> dict[str, Any]:
    """The ``dicetables`` metadata of root attributes ``attrs`` after checking its checksum and shape;
    ArtifactError naming ``path`` and the problem otherwise.

    Checked: the sha256 of the canonical JSON equals ``META_SHA_KEY``; the fingerprint is 64 hex digits;
    every array name is a ``NAME`` and its entry has a 64-hex sha256, a shape of non-negative ints and a
    numpy dtype name; schema, rules, params and stats have their types.
    """
    meta, want = attrs.get(META_KEY), attrs.get(META_SHA_KEY)
    if isinstance(meta, str):  # HDF5 stores JSON text
        try:
            meta = json.loads(meta)
        except ValueError as exc:
            raise ArtifactError(f"{path}: '{META_KEY}' metadata is not valid JSON ({exc})") from exc
    if not isinstance(meta, dict) or "schema" not in meta or "arrays" not in meta:
        raise ArtifactError(f"{path}: no '{META_KEY}' metadata; not a dicetables artifact")
    if not isinstance(want, str):
        raise ArtifactError(f"{path}: metadata has no checksum '{META_SHA_KEY}' (written by an older "
                            "dicetables?); rebuild it with `dicetables build --force`")
    if meta_sha256(meta) != want:
        raise ArtifactError(f"{path}: metadata altered: its sha256 differs from '{META_SHA_KEY}'")
    problems = []
    for key, kind in (("schema", str), ("schema_version", int), ("game", str), ("fingerprint", str),
                      ("rules", dict), ("params", dict), ("arrays", dict), ("stats", dict)):
        if not isinstance(meta.get(key), kind) or isinstance(meta.get(key), bool):
            problems.append(f"'{key}' is not a {kind.__name__}")
    if isinstance(meta.get("fingerprint"), str) and not HEX64.fullmatch(meta["fingerprint"]):
        problems.append("fingerprint is not 64 hex digits")
    for name, entry in (meta["arrays"] if isinstance(meta.get("arrays"), dict) else {}).items():
        if not NAME.fullmatch(name) or ".." in name:
            problems.append(f"array name {name!r} is not valid")
        elif not isinstance(entry, dict) or not isinstance(entry.get("sha256"), str) \
                or not HEX64.fullmatch(entry["sha256"]):
            problems.append(f"array {name!r}: no valid sha256")
        elif not isinstance(entry.get("shape"), list) or not all(
                type(n) is int and 0 <= n <= MAX_ELEMENTS for n in entry["shape"]):
            problems.append(f"array {name!r}: shape is not a list of non-negative integers")
        elif math.prod(entry["shape"]) > MAX_ELEMENTS:
            problems.append(f"array {name!r}: shape {entry['shape']} has more than {MAX_ELEMENTS} elements")
        elif not _is_dtype(entry.get("dtype")):
            problems.append(f"array {name!r}: dtype {entry.get('dtype')!r} is not a numpy dtype")
        else:
            problems += _layout_problems(name, entry, meta["arrays"])
    if problems:
        raise ArtifactError(f"{path}: malformed metadata: " + "; ".join(problems))
    return meta


def _layout_problems(name: str, entry: dict[str, Any], arrays: dict[str, Any]) -> list[str]:
    """What is wrong with the chunk layout recorded for array ``name`` (``pipeline.layout``)."""
    ndim = len(entry["shape"])
    for key in ("chunks", "shards"):
        value = entry.get(key)
        if not isinstance(value, list) or len(value) != ndim or not all(
                type(n) is int and 1 <= n <= MAX_ELEMENTS for n in value):
            return [f"array {name!r}: no valid '{key}' (an artifact written before chunk layouts were recorded: "
                    "rebuild it with `dicetables build --force`)"]
    if any(s % c for c, s in zip(entry["chunks"], entry["shards"], strict=True)):
        return [f"array {name!r}: shards {entry['shards']} are not whole chunks {entry['chunks']}"]
    companion = entry.get("chunk_sha256")
    if companion is not None and (type(companion) is not str or companion not in arrays or companion == name):
        return [f"array {name!r}: its chunk digests {companion!r} are not an array of the artifact"]
    return []


def _is_dtype(name: Any) -> bool:
    if not isinstance(name, str):
        return False
    try:
        return np.dtype(name).kind in "biuf" and np.dtype(name).name == name
    except TypeError:
        return False


def sha256_of_array(array: Any) -> str:
    """sha256 of an array's raw C-order little-endian bytes, read along axis 0 in blocks.

    ``array`` is anything sliceable along axis 0 that yields numpy arrays (numpy, zarr, h5py).
    """
    digest = hashlib.sha256()
    shape = tuple(array.shape)
    if len(shape) == 0:
        digest.update(le_bytes(np.asarray(array[()])))
        return digest.hexdigest()
    row_bytes = max(1, int(np.prod(shape[1:], dtype=np.int64)) * np.dtype(array.dtype).itemsize)
    step = max(1, _HASH_BLOCK_BYTES // row_bytes)
    for start in range(0, shape[0], step):
        digest.update(le_bytes(np.asarray(array[start : start + step])))
    return digest.hexdigest()


def le_bytes(block: np.ndarray) -> bytes:
    """The bytes an array's sha256 is taken over: ``block``'s raw C-order little-endian bytes."""
    little = block.dtype.newbyteorder("<") if block.dtype.byteorder == ">" else block.dtype
    return np.ascontiguousarray(block, dtype=little).tobytes()


def artifact_format(path: Path) -> str:
    """``"zarr"`` or ``"hdf5"`` from the artifact's name."""
    if path.suffix == ".zarr":
        return "zarr"
    if path.suffix in (".h5", ".hdf5"):
        return "hdf5"
    raise ArtifactError(f"{path}: not an artifact (expected a .zarr directory or a .h5 file)")


@dataclass
class ArrayInfo:
    """What ``dicetables info`` shows of one stored array."""

    name: str
    shape: tuple[int, ...]
    dtype: str
    chunks: tuple[int, ...] | None
    shards: tuple[int, ...] | None
    stored_bytes: int
    codecs: str


@dataclass
class Artifact:
    """An opened artifact: its metadata and a handle per array (zarr.Array or h5py.Dataset).

    Arrays are read lazily through ``read(name)``; ``verify()`` or ``open_artifact(verify=True)`` has
    checked every checksum first.
    """

    path: Path
    format: str
    meta: dict[str, Any]
    handles: dict[str, Any] = field(repr=False)
    _h5file: Any = field(default=None, repr=False)

    def read(self, name: str) -> np.ndarray:
        """The whole array ``name`` as a numpy array."""
        if name not in self.handles:
            raise ArtifactError(f"{self.path}: no array {name!r} (it has {sorted(self.handles)})")
        handle = self.handles[name]
        return handle.array() if hasattr(handle, "array") else np.asarray(handle[...])

    def close(self) -> None:
        """Close the HDF5 file, or the shard files a Zarr artifact's arrays hold open (a later read of one
        of those arrays opens its shard again)."""
        if self._h5file is not None:
            self._h5file.close()
            self._h5file = None
        for handle in self.handles.values() if self.format == "zarr" else ():
            if hasattr(handle, "close"):
                handle.close()

    def __enter__(self) -> Artifact:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_meta(path: str | Path) -> dict[str, Any]:
    """The ``dicetables`` attribute of an artifact (its own checksum checked, not the manifest's), without
    checking its arrays."""
    path = as_path(path)
    if artifact_format(path) == "zarr":
        return trusted_meta(path, "artifact")
    art = _open_raw(path)
    art.close()
    return art.meta


_OLD = re.compile(r"\.old-\d+-[0-9a-f]{8}-(?P<name>.+)")


def checked_entry(path: Path) -> Path:
    """``path`` after checking that it may be opened as an artifact: it exists, is no symlink and leads nowhere
    outside its directory (``inside_dir``), and is a directory (``NAME.zarr``) or a regular file (``NAME.h5``);
    ArtifactError naming it otherwise. A missing artifact that an interrupted publish left aside (``.old-*``) is
    named so: ``dicetables clean`` or the next build restores it (a read never renames anything)."""
    fmt = artifact_format(path)
    if isinstance(path, RemotePath):  # over HTTP: a Zarr artifact its server's manifest lists
        if fmt != "zarr":
            raise ArtifactError(f"{path}: HDF5 mirrors are not read over HTTP (lookup reads each table's .zarr)")
        manifest_entry(path)
        return path
    inside_dir(path)
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        raise ArtifactError(f"{path}: no such artifact (build it with `dicetables build`, which needs the [build] "
                            f"extra: pip install 'dicetables[build]'){_aside(path)}") from None
    except OSError as exc:  # ENOTDIR: the artifacts "directory" is a file
        raise ArtifactError(f"{path}: cannot be examined ({exc.strerror})") from None
    if fmt == "zarr" and not stat.S_ISDIR(mode):
        raise ArtifactError(f"{path}: is {file_kind(mode)}, not a directory (a Zarr artifact is one); refused")
    if fmt == "hdf5" and not stat.S_ISREG(mode):
        raise ArtifactError(f"{path}: is {file_kind(mode)}, not a regular file; refused")
    return path


def _aside(path: Path) -> str:
    """Words about a copy of ``path`` that an interrupted publish moved aside, if one is there."""
    try:
        names = [e.name for e in os.scandir(path.parent)]
    except OSError:
        return ""
    found = sorted(n for n in names if (m := _OLD.fullmatch(n)) and m["name"] == path.name)
    return (f"; an interrupted publish left its previous copy as {found[-1]}: `dicetables clean` (or the next "
            "build) restores it") if found else ""


def _open_raw(path: Path) -> Artifact:
    fmt = artifact_format(path)
    checked_entry(path)
    h5file = None
    try:
        if fmt == "zarr":
            zarr = zarr_module()

            group = zarr.open_group(zarr.storage.LocalStore(str(path), read_only=True), mode="r")
            attrs = dict(group.attrs)
            handles = {name: arr for name, arr in group.arrays()}
        else:
            import h5py

            h5file = h5py.File(path, "r")
            attrs = {key: h5file.attrs.get(key) for key in (META_KEY, META_SHA_KEY)}
            handles = {name: ds for name, ds in h5file.items() if isinstance(ds, h5py.Dataset)}
        meta = checked_meta(path, attrs)
    except Exception as exc:  # a damaged zarr.json or HDF5 superblock surfaces as many exception types
        if h5file is not None:
            h5file.close()
        if isinstance(exc, ArtifactError):
            raise
        raise ArtifactError(f"{path}: unreadable ({type(exc).__name__}: {exc})") from exc
    return Artifact(path=path, format=fmt, meta=meta, handles=handles, _h5file=h5file)


def verify_problems(path: str | Path, hashed: Collection[str] = (), trust: str | None = None) -> list[str]:
    """Every problem found by recomputing the checksums of an artifact; empty when it is intact.

    The checks a reader makes (``open_artifact``, then every chunk read), all of them, collected rather than
    stopping at the first: the entry on disk (``checked_entry``), the metadata and its checksum held to
    ``MANIFEST.json`` unless ``trust`` (default ``$DICETABLES_TRUST``) is ``"artifact"``, every array of the
    metadata present and nothing else (Zarr: its ``zarr.json`` exactly what the metadata implies, its chunk
    digests, every shard file, every chunk and the whole array's sha256, read by ``lookup.chunked``; HDF5:
    shape, dtype and the sha256 of the data h5py reads, fletcher32 checked).

    ``hashed``: arrays whose sha256 the caller itself took from the stored chunks (decoded, crc32c checked) and
    checked against the data it wrote, in this process a moment ago (``pipeline.store.write_zarr_in_place``).
    Everything else is checked as usual, but their bytes are not read a second time: that read would repeat
    the first byte for byte.
    """
    path = Path(path)
    try:
        if artifact_format(path) == "zarr":
            meta = trusted_meta(path, trust)
            return _stray_arrays(path, meta) + _zarr_problems(path, meta, frozenset(hashed))
        art = _open_raw(path)
        try:
            held_to_manifest(path, art.meta, trust)
            return _array_problems(art, frozenset(hashed))
        finally:
            art.close()
    except ArtifactError as exc:
        return [str(exc).removeprefix(f"{path}: ")]
    except Exception as exc:  # a damaged array header: the artifact is bad, the run goes on
        return [f"unreadable ({type(exc).__name__}: {exc})"]


def _stray_arrays(path: Path, meta: Mapping[str, Any]) -> list[str]:
    """Entries of Zarr artifact ``path`` that its metadata does not list (a reader ignores them; a verified
    artifact holds nothing else)."""
    known = {"zarr.json", *meta["arrays"]}
    return [f"{name!r}: not listed in the metadata" for name in sorted(e.name for e in os.scandir(path))
            if name not in known]


def _zarr_problems(path: Path, meta: dict[str, Any], hashed: frozenset[str]) -> list[str]:
    """What reading every array of Zarr artifact ``path`` through ``lookup.chunked`` finds wrong."""
    problems = []
    for name in data_arrays(meta):
        try:
            handle = chunked_array(path, meta, name)
            if name in hashed:
                handle.check_shard_files()
            else:
                handle.array()
        except ArtifactError as exc:
            problems.append(f"array {name!r}: {str(exc).removeprefix(f'{path}: ')}")
        except Exception as exc:  # noqa: BLE001 (reported, the run goes on)
            problems.append(f"array {name!r}: unreadable ({type(exc).__name__}: {exc})")
    return problems


def _array_problems(art: Artifact, hashed: frozenset[str] = frozenset()) -> list[str]:
    """What reading every array of HDF5 artifact ``art`` finds wrong."""
    problems = []
    expected = art.meta["arrays"]
    for name in sorted(set(expected) - set(art.handles)):
        problems.append(f"array {name!r}: missing")
    for name in sorted(set(art.handles) - set(expected)):
        problems.append(f"array {name!r}: not listed in the metadata")
    for name in sorted(set(expected) & set(art.handles)):
        want = expected[name]
        handle = art.handles[name]
        if list(handle.shape) != list(want["shape"]) or str(handle.dtype) != want["dtype"]:
            problems.append(
                f"array {name!r}: shape/dtype {tuple(handle.shape)} {handle.dtype} "
                f"!= recorded {tuple(want['shape'])} {want['dtype']}"
            )
            continue
        if name in hashed:
            continue
        try:
            got = sha256_of_array(handle)
        except Exception as exc:  # fletcher32 failures and truncated files land here
            problems.append(f"array {name!r}: unreadable, a chunk is corrupted ({type(exc).__name__}: {exc})")
            continue
        if got != want["sha256"]:
            problems.append(f"array {name!r}: sha256 mismatch (a chunk is missing or altered)")
    return problems


def trusted_meta(path: Path, trust: str | None = None) -> dict[str, Any]:
    """The checked metadata of Zarr artifact ``path``, held to ``MANIFEST.json`` beside it unless ``trust``
    is ``"artifact"``. Reads ``zarr.json`` only (a regular file of at most ``lookup.files.ZARR_JSON_LIMIT`` bytes)."""
    mode = trust_mode(trust)
    checked_entry(path)
    try:
        doc = read_json_bounded(path / "zarr.json", ZARR_JSON_LIMIT)
    except FileNotFoundError as exc:
        raise ArtifactError(f"{path}: no zarr.json (not a Zarr artifact, or damaged)") from exc
    if not isinstance(doc, dict) or doc.get("node_type") != "group" or doc.get("zarr_format") != 3:
        raise ArtifactError(f"{path}: zarr.json is not the root of a Zarr v3 group")
    attrs = doc.get("attributes")
    meta = checked_meta(path, attrs if isinstance(attrs, dict) else {})
    held_to_manifest(path, meta, mode)
    return meta


# The fields of an entry of MANIFEST.json (``manifest_fields`` gives their values), and nothing else.
MANIFEST_FIELDS = ("path", "format", "schema", "schema_version", "game", "rules", "params", "fingerprint",
                   "meta_sha256", "package_version", "arrays")


def manifest_fields(name: str, meta: Mapping[str, Any]) -> dict[str, Any]:
    """The entry of artifact ``name`` (``NAME.zarr`` / ``NAME.h5``) in ``MANIFEST.json``, as its checked metadata
    ``meta`` makes it: the one definition of every field, which ``pipeline.store.write_manifest`` writes and
    every reader and ``dicetables verify`` compare whole (so that no field can be edited unseen)."""
    return {
        "path": name,
        "format": "zarr" if name.endswith(".zarr") else "hdf5",
        "schema": meta["schema"],
        "schema_version": meta["schema_version"],
        "game": meta["game"],
        "rules": meta["rules"],
        "params": meta["params"],
        "fingerprint": meta["fingerprint"],
        "meta_sha256": meta_sha256(meta),
        "package_version": meta.get("package_version"),
        "arrays": {k: {"sha256": v["sha256"], "shape": v["shape"], "dtype": v["dtype"]}
                   for k, v in meta["arrays"].items()},
    }


def held_to_manifest(path: Path, meta: Mapping[str, Any], trust: str | None = None) -> None:
    """Unless ``trust`` (default ``$DICETABLES_TRUST``) is ``"artifact"``: ArtifactError unless the entry of
    ``path`` in the ``MANIFEST.json`` beside it is exactly ``manifest_fields`` of its metadata ``meta``."""
    if trust_mode(trust) != "manifest":
        return
    entry = manifest_entry(path)
    want = manifest_fields(path.name, meta)
    if entry.get("meta_sha256") != want["meta_sha256"]:
        raise ArtifactError(f"{path}: its metadata differs from its entry in {MANIFEST_NAME} (altered, or "
                            "the manifest is of another build)")
    differ = sorted(k for k in set(entry) | set(want) if entry.get(k) != want.get(k))
    if differ:
        raise ArtifactError(f"{path}: its entry in {MANIFEST_NAME} differs from its metadata in {differ} (the "
                            "manifest was edited, or is of another build)")


_manifests: dict[Path, tuple[tuple[int, int, int], dict[str, Any]]] = {}


def manifest_entry(path: Path) -> dict[str, Any]:
    """The entry of artifact ``path`` in the ``MANIFEST.json`` of its directory (parsed once per change of
    the file); ArtifactError when there is no manifest or it does not list the artifact."""
    manifest = path.parent / MANIFEST_NAME
    entry = _manifest_entries(manifest).get(path.name)
    if entry is None and isinstance(path, RemotePath):
        raise ArtifactError(f"{path}: not listed in {manifest} (the server does not have it)")
    if entry is None:
        raise ArtifactError(f"{path}: not listed in {manifest} (built with --no-manifest? `dicetables manifest "
                            f"--artifacts {path.parent}` lists every artifact there after verifying it)")
    return entry


def _manifest_entries(manifest: Path) -> dict[str, dict[str, Any]]:
    """{path: entry} of ``manifest``, parsed once per change of the file; over HTTP, once per process."""
    if isinstance(manifest, RemotePath):
        if trust_mode() != "manifest":
            raise ArtifactError(f"{manifest.parent}: over HTTP every artifact is held to the server's {MANIFEST_NAME}; "
                                f"{TRUST_ENV}=artifact is not supported")
        key = (0, 0, 0)
    else:
        try:
            st = manifest.stat()
        except OSError as exc:
            raise ArtifactError(
                f"{manifest}: no manifest; lookup holds every artifact to the manifest it was shipped with "
                f"(set {TRUST_ENV}=artifact to trust each artifact's own metadata checksum instead)") from exc
        key = (st.st_ino, st.st_mtime_ns, st.st_size)
    hit = _manifests.get(manifest)
    if hit is None or hit[0] != key:
        data = load_manifest(manifest.parent)
        hit = (key, {e["path"]: e for e in data["artifacts"]})
        _manifests[manifest] = hit
    return hit[1]


def open_artifact(
    path: str | Path,
    *,
    schema: str,
    versions: Iterable[int],
    rules: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
    verify: bool = True,
    trust: str | None = None,
) -> Artifact:
    """Open an artifact after checking it is the one asked for and (by default) intact.

    ``schema`` and ``versions`` are what the caller can read; ``rules`` must equal the stored rules and
    every key of ``params`` must equal the stored param. Any difference raises ``ArtifactError`` (a
    ``ValueError``) naming the file and the mismatch. The artifact is held to ``MANIFEST.json``
    (``trust_mode``), Zarr and HDF5 alike; a Zarr artifact is read through ``lookup.chunked`` (each chunk
    checked on first use). ``verify`` also reads every array whole now and checks its sha256.
    """
    path = as_path(path)
    if artifact_format(path) == "hdf5":
        art = _open_raw(path)
        try:
            held_to_manifest(path, art.meta, trust)
            check_identity(path, art.meta, schema=schema, versions=versions, rules=rules, params=params)
            if verify:
                problems = _array_problems(art)
                if problems:
                    raise ArtifactError(f"{path}: corrupted: " + "; ".join(problems))
        except BaseException:
            art.close()
            raise
        return art
    meta = trusted_meta(path, trust)
    check_identity(path, meta, schema=schema, versions=versions, rules=rules, params=params)
    art = Artifact(path=path, format="zarr", meta=meta, handles=chunked_arrays(path, meta))
    if verify:
        for name in art.handles:
            art.read(name)
    return art


def play_arrays(
    path: str | Path,
    names: list[str],
    *,
    schema: str,
    versions: Iterable[int],
    rules: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(metadata, {name: ``lookup.chunked.ChunkedArray``}) of arrays ``names`` of a Zarr artifact, for
    play: identity checked as ``open_artifact`` does, nothing decoded until an element is read."""
    art = open_artifact(path, schema=schema, versions=versions, rules=rules, params=params, verify=False)
    missing = [n for n in names if n not in art.handles]
    if missing:
        raise ArtifactError(f"{art.path}: no array {missing[0]!r} (it has {sorted(art.handles)})")
    return art.meta, {name: art.handles[name] for name in names}


def chunked_arrays(path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """``lookup.chunked.ChunkedArray`` of every data array of Zarr artifact ``path`` (checked metadata
    ``meta``), each with its chunk digests read and checked."""
    return {name: chunked_array(path, meta, name) for name in data_arrays(meta)}


def data_arrays(meta: Mapping[str, Any]) -> list[str]:
    """The arrays of checked metadata ``meta`` that hold data (not another array's chunk digests), sorted."""
    arrays = meta["arrays"]
    return sorted(set(arrays) - {e.get("chunk_sha256") for e in arrays.values()})


def chunked_array(path: Path, meta: Mapping[str, Any], name: str) -> Any:
    """The ``lookup.chunked.ChunkedArray`` of array ``name`` of Zarr artifact ``path`` (checked metadata
    ``meta``), with its chunk digests read whole and checked."""
    from lookup.chunked import ChunkedArray

    entry = meta["arrays"][name]
    digests = None
    if entry.get("chunk_sha256") is not None:
        companion = entry["chunk_sha256"]
        digests = ChunkedArray(path / companion, meta["arrays"][companion], None).array().view("<u8")
    return ChunkedArray(path / name, entry, digests)


def check_identity(
    path: Path,
    meta: Mapping[str, Any],
    *,
    schema: str,
    versions: Iterable[int],
    rules: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
) -> None:
    """Raise ArtifactError unless ``meta`` is of ``schema`` in one of ``versions``, for exactly
    ``rules`` and with every key of ``params`` equal."""
    if meta.get("schema") != schema:
        raise ArtifactError(f"{path}: schema {meta.get('schema')!r}, expected {schema!r}")
    supported = sorted(versions)
    if meta.get("schema_version") not in supported:
        raise ArtifactError(
            f"{path}: schema version {meta.get('schema_version')} of {schema!r} is not supported "
            f"(this library reads {supported}); rebuild it with `dicetables build`"
        )
    if rules is not None and _canonical(meta.get("rules")) != _canonical(rules):
        raise ArtifactError(f"{path}: built for rules {meta.get('rules')}, asked for {dict(rules)}")
    for key, want in (params or {}).items():
        have = meta.get("params", {}).get(key, "<absent>")
        if _canonical(have) != _canonical(want):
            raise ArtifactError(f"{path}: built with {key}={have!r}, asked for {key}={want!r}")


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def describe(path: str | Path) -> tuple[dict[str, Any], list[ArrayInfo]]:
    """Metadata and per-array storage facts (shape, dtype, chunking, stored size) of an artifact."""
    path = Path(path)
    art = _open_raw(path)
    try:
        infos = []
        for name, handle in sorted(art.handles.items()):
            if art.format == "zarr":
                stored = sum(f.stat().st_size for f in (path / name).rglob("*") if f.is_file())
                shards = tuple(handle.shards) if handle.shards else None
                codecs = _codec_names(json.loads((path / name / "zarr.json").read_text())["codecs"])
                infos.append(ArrayInfo(name, tuple(handle.shape), str(handle.dtype), tuple(handle.chunks),
                                       shards, stored, codecs))
            else:
                stored = handle.id.get_storage_size()
                codecs = ", ".join(
                    c for c, on in (("gzip", handle.compression == "gzip"), ("shuffle", handle.shuffle),
                                    ("fletcher32", handle.fletcher32)) if on
                )
                infos.append(ArrayInfo(name, tuple(handle.shape), str(handle.dtype), handle.chunks,
                                       None, stored, codecs))
        return art.meta, infos
    finally:
        art.close()


def _codec_names(codecs: list[dict[str, Any]]) -> str:
    names = []
    for codec in codecs:
        inner = codec.get("configuration", {}).get("codecs")
        names.append(f"{codec['name']}({_codec_names(inner)})" if inner else codec["name"])
    return ", ".join(names)


def artifact_files(path: Path) -> list[Path]:
    """The files that make up an artifact."""
    if path.is_dir():
        return sorted(f for f in path.rglob("*") if f.is_file())
    return [path] if path.is_file() else []


def artifact_stamp(path: Path) -> int:
    """A value that changes whenever the artifact at ``path`` or the manifest beside it is republished, or
    the trust mode changes (0 when the artifact is absent): callers key their caches of opened artifacts
    on it."""
    if isinstance(path, RemotePath):  # over HTTP: listed in the server's manifest (read once per process)
        entry = _manifest_entries(path.parent / MANIFEST_NAME).get(path.name) if path.suffix == ".zarr" else None
        return (hash((str(path), entry["meta_sha256"])) or 1) if entry is not None else 0
    meta_file = path / "zarr.json" if path.suffix == ".zarr" else path
    try:
        own = meta_file.stat()
        try:
            manifest = (path.parent / MANIFEST_NAME).stat()
            shipped = (manifest.st_ino, manifest.st_mtime_ns, manifest.st_size)
        except OSError:
            shipped = None
        # The trust mode too: tables opened while $DICETABLES_TRUST=artifact are not reused under "manifest".
        return hash((own.st_ino, own.st_mtime_ns, shipped, trust_mode())) or 1
    except OSError:  # absent, or not what it should be (its opening says what is wrong)
        return 0


def artifact_path(root: str | Path, name: str) -> Path:
    """``ROOT/NAME.zarr`` with ``root`` resolved (the artifacts directory may be a link) and ``name``
    checked; the artifact itself is not resolved, so that a symlinked artifact is seen and refused. A root that
    is an http(s) URL gives a ``lookup.remote.RemotePath`` (ValueError for a URL that cannot be read)."""
    remote = remote_root(root)
    if remote is not None:
        return remote / f"{check_name(name, 'artifact name')}.zarr"
    return Path(root).resolve() / f"{check_name(name, 'artifact name')}.zarr"


def artifact_exists(path: Path) -> bool:
    """Whether artifact ``path`` (``artifact_path``) is there: on disk, or over HTTP listed in the server's
    manifest (an ArtifactError naming the URL when the manifest cannot be had). Existence only: opening it
    verifies."""
    return bool(artifact_stamp(path)) if isinstance(path, RemotePath) else path.exists()


def read_json(path: str | Path, missing: str = "file not found", *, limit: int = MANIFEST_LIMIT,
              follow_symlinks: bool = True) -> Any:
    """Parsed JSON of ``path``; ArtifactError (a ValueError) naming the file when it is missing, not a regular
    file (a FIFO, a device: refused without blocking), larger than ``limit`` bytes, nested too deeply or
    not JSON (``lookup.files.read_json_bounded``)."""
    path = as_path(path)
    try:
        return read_json_bounded(path, limit, follow_symlinks=follow_symlinks)
    except FileNotFoundError as exc:  # over HTTP, a 404: the message names the URL and says so
        raise ArtifactError(str(exc) if isinstance(path, RemotePath) else f"{path}: {missing}") from exc


def load_manifest(artifacts_dir: str | Path) -> dict[str, Any]:
    """The parsed and checked ``MANIFEST.json`` of an artifacts directory; ArtifactError naming the file
    and the first problem when it is missing, not a regular file (a symlink, a FIFO), over 64 MiB, or
    malformed: ``{"artifacts": [entry, ...]}`` and nothing else, each entry with exactly the fields of
    ``manifest_fields`` (its path naming an artifact directly inside ``artifacts_dir``), no path twice. Each
    entry's values are held to its artifact's metadata when that artifact is opened (``held_to_manifest``)."""
    path = as_path(artifacts_dir) / MANIFEST_NAME
    data = read_json(path, "no manifest (run `dicetables build` or `dvc repro`)", follow_symlinks=False)
    if not isinstance(data, dict) or not isinstance(data.get("artifacts"), list):
        raise ArtifactError(f"{path}: malformed manifest: no 'artifacts' list")
    if set(data) != {"artifacts"}:
        raise ArtifactError(f"{path}: malformed manifest: fields {sorted(set(data) - {'artifacts'})} are not part "
                            "of the format (an older manifest? `dicetables manifest` writes it again)")
    seen = set()
    for i, entry in enumerate(data["artifacts"]):
        problem = _manifest_entry_problem(entry)
        if problem is None and entry["path"] in seen:
            problem = f"{entry['path']} is listed twice"
        if problem:
            raise ArtifactError(f"{path}: malformed manifest: entry {i}: {problem}")
        seen.add(entry["path"])
    return data


def _manifest_entry_problem(entry: Any) -> str | None:
    if not isinstance(entry, dict):
        return "not an object"
    name = entry.get("path")
    if not isinstance(name, str) or not NAME.fullmatch(name) or ".." in name or Path(name).suffix not in (
            ".zarr", ".h5"):
        return f"path {name!r} is not an artifact name (NAME.zarr or NAME.h5, no directories)"
    if set(entry) != set(MANIFEST_FIELDS):
        return (f"{name}: fields {sorted(set(entry) ^ set(MANIFEST_FIELDS))} missing or not part of the format (an "
                "older manifest? `dicetables manifest` writes it again)")
    for key, kind in (("fingerprint", str), ("meta_sha256", str), ("schema", str), ("schema_version", int),
                      ("arrays", dict)):
        if not isinstance(entry.get(key), kind) or isinstance(entry.get(key), bool):
            return f"{name}: '{key}' missing or not a {kind.__name__}"
    if not HEX64.fullmatch(entry["fingerprint"]) or not HEX64.fullmatch(entry["meta_sha256"]):
        return f"{name}: fingerprint or meta_sha256 is not 64 hex digits"
    for array, info in entry["arrays"].items():
        if not isinstance(info, dict) or not isinstance(info.get("sha256"), str):
            return f"{name}: array {array!r} has no sha256"
    return None
