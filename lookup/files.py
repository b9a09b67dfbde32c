"""Reading a file of an artifacts directory without trusting what is there.

Every read here opens the path with ``O_NOFOLLOW | O_NONBLOCK`` and checks with ``fstat`` that it is a
regular file before reading a byte: a FIFO in place of a ``zarr.json`` or of the manifest would block a
plain ``open`` forever, and ``/dev/zero`` (or a symlink to it) never ends. The size is bounded before
anything is parsed, and JSON nesting is bounded: a deeply nested document is an ``ArtifactError``, not a
``RecursionError`` somewhere later; so is an integer of more digits than Python converts (4300).

A file inside an artifact is opened by ``open_beneath``: one directory at a time from the artifact's own
directory, none of them a symlink, so that a symlinked array directory or ``c/`` cannot lead a read outside
the artifact (``O_NOFOLLOW`` alone covers only the last component of a path).
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lookup.errors import ArtifactError
from lookup.remote import RemotePath, fetch

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


_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC


def open_beneath(root: str | Path, parts: Sequence[str]) -> int:
    """A read-only descriptor of the regular file ``root/parts[0]/.../parts[-1]``, opened one component at a
    time (``openat``), none of them followed if it is a symlink: ``root`` (an artifact's directory) and every
    directory below it must be real directories, the file a regular file. ``ArtifactError`` naming the path
    and what is wrong otherwise; ``FileNotFoundError`` when a component does not exist. Never blocks."""
    names = [str(root), *parts]
    here: int | None = None
    try:
        for i, name in enumerate(names):
            flags = (_FILE_FLAGS | os.O_NOFOLLOW) if i == len(names) - 1 else _DIR_FLAGS
            try:
                fd = os.open(name, flags, dir_fd=here)
            except FileNotFoundError:
                raise
            except OSError as exc:
                where = Path(root).joinpath(*parts[:i])
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    kind = "a symlink" if os.path.islink(where) else "not a directory"
                    raise ArtifactError(f"{where}: is {kind}; refused (an artifact is read through real "
                                        "directories only, never through a link)") from exc
                raise ArtifactError(f"{where}: cannot be opened ({exc.strerror})") from exc
            if here is not None:
                os.close(here)
            here = fd
        fd, here = here, None
    finally:
        if here is not None:
            os.close(here)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise ArtifactError(f"{Path(root).joinpath(*parts)}: is {file_kind(mode)}, not a regular file; refused")
    return fd


def read_regular(path: str | Path, limit: int, *, follow_symlinks: bool = False, beneath: Path | None = None) -> bytes:
    """The bytes of ``path``, which must be a regular file of at most ``limit`` bytes.

    ``ArtifactError`` naming the path when it is a symlink (unless ``follow_symlinks``), a FIFO, a device,
    a directory or any other special file, or larger than ``limit``; ``FileNotFoundError`` when it does not
    exist (callers word that one themselves). Never blocks: the open is non-blocking and nothing but a
    regular file is read. ``beneath``: a directory holding ``path``; then every directory from it down to
    the file must be a real directory (``open_beneath``). A ``lookup.remote.RemotePath`` is fetched over HTTP
    (``lookup.remote.fetch``: at most ``limit`` bytes, within its time limit).
    """
    if isinstance(path, RemotePath):  # over HTTP: its names were checked as for a local read
        return fetch(path, limit)
    path = Path(path)
    if beneath is not None:
        fd = open_beneath(beneath, path.relative_to(beneath).parts)
    else:
        flags = _FILE_FLAGS | (0 if follow_symlinks else os.O_NOFOLLOW)
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
    not JSON (or not UTF-8), holds an integer of more digits than Python converts, or nests arrays / objects
    deeper than ``depth``."""
    try:
        value = json.loads(data)
    except RecursionError as exc:
        raise ArtifactError(f"{what}: JSON nested too deeply (more than {depth} levels); refused") from exc
    except ValueError as exc:  # not JSON, not UTF-8 (UnicodeDecodeError), or an integer of over 4300 digits
        raise ArtifactError(f"{what}: not valid JSON ({exc})") from exc
    if _too_deep(value, depth):
        raise ArtifactError(f"{what}: JSON nested too deeply (more than {depth} levels); refused")
    return value


def read_json_bounded(path: str | Path, limit: int, what: str | None = None, *,
                      follow_symlinks: bool = False, depth: int = JSON_DEPTH_LIMIT, beneath: Path | None = None) -> Any:
    """The parsed JSON of the regular file ``path`` (``read_regular``, with ``beneath``), at most ``limit`` bytes
    and ``depth`` levels of nesting; ``ArtifactError`` starting with ``what`` (default: the path) otherwise,
    ``FileNotFoundError`` when it does not exist."""
    data = read_regular(path, limit, follow_symlinks=follow_symlinks, beneath=beneath)
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
