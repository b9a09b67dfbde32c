"""The environment variables the library reads, each parsed and checked in one place.

``DICETABLES_ARTIFACTS`` (the artifacts directory, or the URL of one: ``lookup.remote``), ``DICETABLES_TRUST``
(what an opened artifact is held to) and ``DICETABLES_CHUNK_CACHE_MB`` (the cache of decoded chunks); the settings
of reading over HTTP (``DICETABLES_HTTP_TIMEOUT``, ``DICETABLES_HTTP_CACHE_MB``, ``DICETABLES_MANIFEST_SHA256``)
are parsed in ``lookup.remote`` and checked here too. A bad value is a ``ValueError`` naming the
variable and the value, raised where the value is first needed; ``check_environment`` checks them all at once,
and the ``dicetables`` command and ``dicetables serve`` call it before anything else, so that a bad value is a
message and exit status 1 (never a traceback, nor a server that answers every request with an error).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from lookup.remote import mebibytes_setting, remote_root, setting_problems

ARTIFACTS_ENV = "DICETABLES_ARTIFACTS"
TRUST_ENV = "DICETABLES_TRUST"
TRUST_MODES = ("manifest", "artifact")
CACHE_ENV = "DICETABLES_CHUNK_CACHE_MB"


def trust_mode(trust: str | None = None) -> str:
    """What an opened artifact is held to: ``"manifest"`` (the default: its metadata must be the one
    ``MANIFEST.json`` lists) or ``"artifact"`` (its own metadata checksum only: an explicit choice, by
    argument or by ``$DICETABLES_TRUST``, for a directory shipped without a manifest or being built)."""
    mode = trust if trust is not None else os.environ.get(TRUST_ENV, "manifest")
    if mode not in TRUST_MODES:
        source = "trust" if trust is not None else f"${TRUST_ENV}"
        raise ValueError(f"{source} must be one of {list(TRUST_MODES)}, not {mode!r}")
    return mode


def chunk_cache_bytes() -> int:
    """Bytes of decoded chunks a process keeps (``lookup.chunked``): ``$DICETABLES_CHUNK_CACHE_MB`` mebibytes,
    a finite number in 0..2**20 (default 256)."""
    return mebibytes_setting(CACHE_ENV)


def default_artifacts_dir() -> Path:
    """Where artifacts live: ``$DICETABLES_ARTIFACTS`` or the project's ``artifacts/``; an ``http(s)://`` URL
    gives a ``lookup.remote.RemotePath`` (tables read over HTTP). ValueError when the variable names something
    that exists but is not a directory (``/dev/null``, a file), or a URL that cannot be read."""
    env = os.environ.get(ARTIFACTS_ENV)
    if not env:
        return Path(__file__).resolve().parent.parent / "artifacts"
    try:
        remote = remote_root(env)
    except ValueError as exc:
        raise ValueError(f"${ARTIFACTS_ENV}={env!r}: {str(exc).removeprefix(f'{env!r}: ')}") from None
    if remote is not None:
        return remote
    try:
        mode = os.stat(env).st_mode
    except FileNotFoundError:
        return Path(env)  # not built yet: a build creates it, a read says which artifact is missing
    except OSError as exc:
        raise ValueError(f"${ARTIFACTS_ENV}={env!r}: cannot be examined ({exc.strerror})") from None
    if not stat.S_ISDIR(mode):
        raise ValueError(f"${ARTIFACTS_ENV}={env!r}: not a directory")
    return Path(env)


def check_environment() -> None:
    """ValueError naming every variable above whose value is wrong (nothing when all are fine)."""
    problems = []
    for check in (trust_mode, chunk_cache_bytes, default_artifacts_dir):
        try:
            check()
        except ValueError as exc:
            problems.append(str(exc))
    problems += setting_problems()
    if problems:
        raise ValueError("; ".join(problems))
