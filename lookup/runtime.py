"""Verified, uncompressed, memory-mapped runtime copies of artifact arrays for the play-time path.

Reading through Zarr costs about a millisecond per chunk; a decision must cost microseconds. The first
use of an artifact decodes each array once, checks it against the sha256 recorded in the artifact, and
writes it as a plain ``.npy`` under ``<artifacts>/.runtime/``; later processes memory-map that copy after
checking that the artifact's fingerprint and checksums are still the ones the copy was made from (a
small JSON read, no zarr import). The copy is written atomically, like the artifacts themselves.
"""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path
from typing import Any

import numpy as np

from lookup.store import META_KEY, ArtifactError, check_identity, open_artifact, sha256_of_array

STAMP = "stamp.json"


def _zarr_meta(path: Path) -> dict[str, Any]:
    """The artifact's metadata straight from its root zarr.json (no zarr import, ~1 ms)."""
    try:
        meta = json.loads((path / "zarr.json").read_text())["attributes"][META_KEY]
    except FileNotFoundError as exc:
        raise ArtifactError(f"{path}: no such artifact (build it with `dicetables build`)") from exc
    except (KeyError, json.JSONDecodeError) as exc:
        raise ArtifactError(f"{path}: no readable '{META_KEY}' metadata ({exc})") from exc
    return meta


def runtime_arrays(
    path: str | Path,
    names: list[str],
    *,
    schema: str,
    versions: tuple[int, ...],
    rules: dict[str, Any] | None = None,
    params: dict[str, Any] | None = None,
) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(metadata, read-only memory-mapped arrays) of a Zarr artifact, through its runtime copy.

    The identity checks of ``open_artifact`` (schema, version, rules, params) run on every call; the
    checksums run when the copy is made.
    """
    path = Path(path)
    meta = _zarr_meta(path)
    copy_dir = path.parent / ".runtime" / f"{path.stem}-{meta.get('fingerprint', 'none')[:16]}"
    stamp = _read_stamp(copy_dir)
    wanted = {n: meta["arrays"].get(n, {}).get("sha256") for n in names}
    if stamp is None or stamp.get("fingerprint") != meta.get("fingerprint") or any(
        stamp.get("arrays", {}).get(n) != sha for n, sha in wanted.items()
    ):
        _make_copy(path, copy_dir, names, schema=schema, versions=versions, rules=rules, params=params)
    else:
        # Identity checks only: the copy was verified against these checksums when it was made.
        check_identity(path, meta, schema=schema, versions=versions, rules=rules, params=params)
    arrays = {n: np.load(copy_dir / f"{n}.npy", mmap_mode="r") for n in names}
    return meta, arrays


def _read_stamp(copy_dir: Path) -> dict[str, Any] | None:
    try:
        return json.loads((copy_dir / STAMP).read_text())
    except (FileNotFoundError, json.JSONDecodeError):
        return None


def _make_copy(path: Path, copy_dir: Path, names: list[str], **identity: Any) -> None:
    with open_artifact(path, verify=False, **identity) as art:
        copy_dir.mkdir(parents=True, exist_ok=True)
        shas = {}
        for name in names:
            try:
                data = art.read(name)  # crc32c of every chunk is checked while decoding
            except Exception as exc:
                raise ArtifactError(f"{path}: corrupted: array {name!r} unreadable ({exc})") from exc
            sha = sha256_of_array(data)
            if sha != art.meta["arrays"][name]["sha256"]:
                raise ArtifactError(f"{path}: corrupted: array {name!r}: sha256 mismatch")
            tmp = copy_dir / f".tmp-{uuid.uuid4().hex[:8]}-{name}.npy"
            np.save(tmp, data)
            os.replace(tmp, copy_dir / f"{name}.npy")
            shas[name] = sha
        old = _read_stamp(copy_dir) or {}
        if old.get("fingerprint") == art.meta["fingerprint"]:
            shas = {**old.get("arrays", {}), **shas}
        tmp = copy_dir / f".tmp-{uuid.uuid4().hex[:8]}-{STAMP}"
        tmp.write_text(json.dumps({"fingerprint": art.meta["fingerprint"], "arrays": shas}))
        os.replace(tmp, copy_dir / STAMP)
    _remove_stale_copies(copy_dir)


def _remove_stale_copies(current: Path) -> None:
    """Delete the runtime copies of earlier versions of the same artifact (processes that still map them
    keep their data: an unlinked file lives until its last mapping closes)."""
    stem = current.name.rsplit("-", 1)[0]
    for other in current.parent.glob(f"{stem}-*"):
        if other != current and other.name.rsplit("-", 1)[0] == stem and other.is_dir():
            shutil.rmtree(other, ignore_errors=True)
