"""Reading a file of an artifacts directory without trusting what is there.

Every read here opens the path with ``O_NOFOLLOW | O_NONBLOCK`` and checks with ``fstat`` that it is a
regular file before reading a byte: a FIFO in place of a ``zarr.json`` or of the manifest would block a
plain ``open`` forever, and ``/dev/zero`` (or a symlink to it) never ends. The size is bounded before
anything is parsed, and JSON nesting is bounded: a deeply nested document is an ``ArtifactError``, not a
``RecursionError`` somewhere later.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from pathlib import Path
from typing import Any

from lookup.errors import ArtifactError

MANIFEST_LIMIT = 64 << 20  # bytes of MANIFEST.json
ZARR_JSON_LIMIT = 16 << 20  # bytes of one zarr.json (the root one holds the metadata)
JSON_DEPTH_LIMIT = 64  # nested arrays / objects; the metadata of every artifact uses fewer than 10


def file_kind(mode: int) -> str:
    """What a file of ``st_mode`` ``mode`` is, in words ("a FIFO", "a directory", ...)."""
    for test, name in ((stat.S_ISREG, "a regular file"), (stat.S_ISDIR, "a directory"),
                       (stat.S_ISLNK, "a symlink"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "a special file"


def read_regular(path: str | Path, limit: int, *, follow_symlinks: bool = False) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes.

    ``ArtifactError`` naming the path when it is a symlink (unless ``follow_symlinks``), a FIFO, a device,
    a directory or any other special file, or larger than ``limit``; ``FileNotFoundError`` when it does not
    exist (callers word that one themselves). Never blocks: the open is non-blocking and nothing but a
    regular file is read.
    """
    path = Path(path)
    flags = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | (0 if follow_symlinks else os.O_NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow_symlinks:
            raise ArtifactError(f"{path}: is a symlink; refused (only regular files are read)") from exc
        raise ArtifactError(f"{path}: cannot be opened ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ArtifactError(f"{path}: is {file_kind(info.st_mode)}, not a regular file; refused")
        if info.st_size > limit:
            raise ArtifactError(f"{path}: {info.st_size} bytes, more than the {limit} allowed; refused")
        chunks, total = [], 0
        while True:  # the size may change under us: read at most limit + 1 bytes, whatever fstat said
            data = os.read(fd, min(1 << 20, limit + 1 - total))
            if not data:
                break
            chunks.append(data)
            total += len(data)
            if total > limit:
                raise ArtifactError(f"{path}: more than the {limit} bytes allowed; refused")
        return b"".join(chunks)
    finally:
        os.close(fd)


def parse_json_bounded(data: bytes | str, what: str, depth: int = JSON_DEPTH_LIMIT) -> Any:
    """``data`` parsed as JSON; ``ArtifactError`` starting with ``what`` (e.g. the file's path) when it is
    not JSON (or not UTF-8) or nests arrays / objects deeper than ``depth``."""
    try:
        value = json.loads(data)
    except RecursionError as exc:
        raise ArtifactError(f"{what}: JSON nested too deeply (more than {depth} levels); refused") from exc
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ArtifactError(f"{what}: not valid JSON ({exc})") from exc
    if _too_deep(value, depth):
        raise ArtifactError(f"{what}: JSON nested too deeply (more than {depth} levels); refused")
    return value


def read_json_bounded(path: str | Path, limit: int, what: str | None = None, *,
                      follow_symlinks: bool = False, depth: int = JSON_DEPTH_LIMIT) -> Any:
    """The parsed JSON of the regular file ``path`` (``read_regular``), at most ``limit`` bytes and
    ``depth`` levels of nesting; ``ArtifactError`` starting with ``what`` (default: the path) otherwise,
    ``FileNotFoundError`` when it does not exist."""
    data = read_regular(path, limit, follow_symlinks=follow_symlinks)
    return parse_json_bounded(data, what or str(path), depth)


def _too_deep(value: Any, depth: int) -> bool:
    """True when ``value`` nests lists / dicts more than ``depth`` levels (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level > depth:
            return True
        stack.extend((child, level + 1) for child in children if isinstance(child, dict | list))
    return False
