"""Read side of the artifact store: open, check and describe checksummed Zarr v3 / HDF5 artifacts.

An artifact is a Zarr v3 directory store (``NAME.zarr``) or an HDF5 file (``NAME.h5``) whose root carries
one attribute, ``dicetables``: a JSON object with the schema name and version, the game, the full rules,
the params, the fingerprint, the package version and, for every array, the sha256 of its raw C-order
little-endian bytes (see ``docs/artifacts.md``). Nothing here trusts a file it has not checked: a flipped
byte fails the chunk's crc32c (Zarr) or fletcher32 (HDF5) or the array's sha256, and a missing chunk fails
the sha256 because it reads back as the fill value.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

META_KEY = "dicetables"
MANIFEST_NAME = "MANIFEST.json"
# Rows hashed at a time: bounds the memory of hashing a large array read from a chunked store.
_HASH_BLOCK_BYTES = 64 << 20


class ArtifactError(ValueError):
    """An artifact is missing, corrupted, of an unsupported schema, or not the one the caller asked for."""


def sha256_of_array(array: Any) -> str:
    """sha256 of an array's raw C-order little-endian bytes, read along axis 0 in blocks.

    ``array`` is anything sliceable along axis 0 that yields numpy arrays (numpy, zarr, h5py).
    """
    digest = hashlib.sha256()
    shape = tuple(array.shape)
    if len(shape) == 0:
        digest.update(_le_bytes(np.asarray(array[()])))
        return digest.hexdigest()
    row_bytes = max(1, int(np.prod(shape[1:], dtype=np.int64)) * np.dtype(array.dtype).itemsize)
    step = max(1, _HASH_BLOCK_BYTES // row_bytes)
    for start in range(0, shape[0], step):
        digest.update(_le_bytes(np.asarray(array[start : start + step])))
    return digest.hexdigest()


def _le_bytes(block: np.ndarray) -> bytes:
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
        return np.asarray(self.handles[name][...])

    def close(self) -> None:
        if self._h5file is not None:
            self._h5file.close()
            self._h5file = None

    def __enter__(self) -> Artifact:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_meta(path: str | Path) -> dict[str, Any]:
    """The ``dicetables`` attribute of an artifact, without checking its arrays."""
    art = _open_raw(Path(path))
    art.close()
    return art.meta


def _open_raw(path: Path) -> Artifact:
    fmt = artifact_format(path)
    if not path.exists():
        raise ArtifactError(f"{path}: no such artifact (build it with `dicetables build`)")
    try:
        if fmt == "zarr":
            import zarr

            group = zarr.open_group(zarr.storage.LocalStore(str(path), read_only=True), mode="r")
            meta = group.attrs.get(META_KEY)
            handles = {name: arr for name, arr in group.arrays()}
            h5file = None
        else:
            import h5py

            h5file = h5py.File(path, "r")
            raw = h5file.attrs.get(META_KEY)
            meta = json.loads(raw) if raw is not None else None
            handles = {name: ds for name, ds in h5file.items() if isinstance(ds, h5py.Dataset)}
    except ArtifactError:
        raise
    except Exception as exc:  # a damaged zarr.json or HDF5 superblock surfaces as many exception types
        raise ArtifactError(f"{path}: unreadable ({type(exc).__name__}: {exc})") from exc
    if not isinstance(meta, dict) or "schema" not in meta or "arrays" not in meta:
        if h5file is not None:
            h5file.close()
        raise ArtifactError(f"{path}: no '{META_KEY}' metadata; not a dicetables artifact")
    return Artifact(path=path, format=fmt, meta=meta, handles=handles, _h5file=h5file)


def verify_problems(path: str | Path) -> list[str]:
    """Every problem found by recomputing the checksums of an artifact; empty when it is intact."""
    path = Path(path)
    try:
        art = _open_raw(path)
    except ArtifactError as exc:
        return [str(exc)]
    try:
        return _array_problems(art)
    finally:
        art.close()


def _array_problems(art: Artifact) -> list[str]:
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
        if art.format == "zarr":
            problems += [f"array {name!r}: {p}" for p in _missing_shards(art.path / name, handle)]
        try:
            got = sha256_of_array(handle)
        except Exception as exc:  # crc32c / fletcher32 failures and truncated shards land here
            problems.append(f"array {name!r}: unreadable, a chunk is corrupted ({type(exc).__name__}: {exc})")
            continue
        if got != want["sha256"]:
            problems.append(f"array {name!r}: sha256 mismatch (a chunk is missing or altered)")
    return problems


def _missing_shards(array_dir: Path, handle: Any) -> list[str]:
    """Shard files that should exist: the writer writes every chunk, so an absent file is a lost chunk."""
    shards = handle.shards or handle.chunks
    grid = [range(-(-n // s)) for n, s in zip(handle.shape, shards, strict=True)]
    missing = []
    for index in np.ndindex(*(len(g) for g in grid)) if grid else [()]:
        rel = Path("c", *map(str, index)) if index else Path("c")
        if not (array_dir / rel).is_file():
            missing.append(f"chunk file {rel} is missing")
    return missing


def open_artifact(
    path: str | Path,
    *,
    schema: str,
    versions: Iterable[int],
    rules: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
    verify: bool = True,
) -> Artifact:
    """Open an artifact after checking it is the one asked for and (by default) intact.

    ``schema`` and ``versions`` are what the caller can read; ``rules`` must equal the stored rules and
    every key of ``params`` must equal the stored param. Any difference raises ``ArtifactError`` (a
    ``ValueError``) naming the file and the mismatch.
    """
    path = Path(path)
    art = _open_raw(path)
    try:
        check_identity(path, art.meta, schema=schema, versions=versions, rules=rules, params=params)
        if verify:
            problems = _array_problems(art)
            if problems:
                raise ArtifactError(f"{path}: corrupted: " + "; ".join(problems))
    except BaseException:
        art.close()
        raise
    return art


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
    """A value that changes whenever the artifact at ``path`` is republished (0 when absent)."""
    meta_file = path / "zarr.json" if path.suffix == ".zarr" else path
    try:
        return meta_file.stat().st_mtime_ns
    except FileNotFoundError:
        return 0


def default_artifacts_dir() -> Path:
    """Where artifacts live: ``$DICETABLES_ARTIFACTS`` or the project's ``artifacts/``."""
    import os

    env = os.environ.get("DICETABLES_ARTIFACTS")
    return Path(env) if env else Path(__file__).resolve().parent.parent / "artifacts"


def read_json(path: str | Path, missing: str = "file not found") -> Any:
    """Parsed JSON of ``path``; ValueError naming the file when it is missing or not JSON."""
    path = Path(path)
    try:
        return json.loads(path.read_text())
    except FileNotFoundError as exc:
        raise ArtifactError(f"{path}: {missing}") from exc
    except json.JSONDecodeError as exc:
        raise ArtifactError(f"{path}: not valid JSON ({exc})") from exc


def load_manifest(artifacts_dir: str | Path) -> dict[str, Any]:
    """The parsed ``MANIFEST.json`` of an artifacts directory."""
    return read_json(Path(artifacts_dir) / MANIFEST_NAME, "no manifest (run `dicetables build` or `dvc repro`)")
