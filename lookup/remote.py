"""Artifacts read over HTTP(S), without copying them: ``DICETABLES_ARTIFACTS=https://HOST/PATH/``.

The directory at that URL is an artifacts directory as any other (``MANIFEST.json`` and the ``NAME.zarr`` stores),
served by any static server that answers byte ranges (``Range: bytes=...`` -> ``206 Partial Content``). A path
under it is a ``RemotePath``: printed as its URL, never a local file (``os.fspath`` refuses it). ``lookup.store``
and ``lookup.chunked`` read it through three hooks, and hold what arrives to the same checks as a local read
(docs/artifacts.md, "Reading over HTTP"):

* ``fetch``: a whole small file (``MANIFEST.json``, a ``zarr.json``), of at most the bytes the local read allows;
  ``MANIFEST.json`` is the root of trust, read once per process (``lookup.store``), and held to
  ``$DICETABLES_MANIFEST_SHA256`` when the caller pins it (a pinned manifest is then read from the disk cache);
* ``RangeSource``: a shard file, read by byte ranges (its index with ``bytes=-N``, then one inner chunk per
  request): only the chunks a question needs cross the network;
* the disk cache (``DiskCache``): each range that passed its checks is kept under the platform cache directory
  (``$XDG_CACHE_HOME/dicetables/http``, else ``~/.cache/dicetables/http``), at most ``$DICETABLES_HTTP_CACHE_MB``
  mebibytes (default 256, least recently used out; 0: no disk cache). A cached range is checked on every read:
  the sha256 of its key and bytes stored with it, then the checks of ``lookup.chunked`` (crc32c, size, the chunk's
  sha256 from the signed metadata); one that fails is dropped and fetched again. Nothing unchecked is stored, and
  a shard index whose chunk then fails is dropped too: a server that lied once leaves nothing behind.

Every request is bounded in time (``$DICETABLES_HTTP_TIMEOUT`` seconds, default 30, from connecting to the last
byte: a watchdog closes the socket of a server that drips) and in size; a server that is down, stalls, answers
an error or a wrong range, or sends bytes that fail a check, is an ``ArtifactError`` (a ``ValueError``) naming
the URL. Standard library only (``http.client``); no proxy, no redirects, no credentials in the URL.
"""

from __future__ import annotations

import hashlib
import math
import os
import re
import stat
import sys
import threading
from collections.abc import Callable
from pathlib import Path, PurePath, PurePosixPath
from typing import Any, TypeVar

from lookup.errors import ArtifactError

PIN_ENV = "DICETABLES_MANIFEST_SHA256"
TIMEOUT_ENV = "DICETABLES_HTTP_TIMEOUT"
TIMEOUT_DEFAULT = 30.0
CACHE_MB_ENV = "DICETABLES_HTTP_CACHE_MB"
CACHE_MB_DEFAULT = 256.0
CACHE_MB_MAX = float(1 << 20)  # a tebibyte: more than any machine holds, far less than int64 bytes
SCHEMES = ("http:", "https:")
_HEX64 = re.compile(r"[0-9a-f]{64}")
_CONTENT_RANGE = re.compile(r"bytes (\d+)-(\d+)/(\d+)")
T = TypeVar("T")


# -- paths ----------------------------------------------------------------------------------------------------

class RemotePath(PurePosixPath):
    """A file or directory of an artifacts directory served over HTTP(S). Its parts are the scheme
    (``"https:"``), the host (and port), then the path; ``str`` gives the URL. ``/``, ``.name``, ``.parent``
    work as for any path; ``os.fspath`` raises, so that no local file is ever opened in its place."""

    def __str__(self) -> str:
        scheme, *rest = self.parts
        return f"{scheme}//{'/'.join(rest)}"

    def __repr__(self) -> str:
        return f"RemotePath({str(self)!r})"

    def __fspath__(self) -> str:
        raise TypeError(f"{self}: a URL, not a local file")


def remote_root(value: str | PurePath) -> RemotePath | None:
    """``value`` as a ``RemotePath`` when it names an http(s) URL (a string ``https://...``, a ``RemotePath``, or
    a path made of one, ``Path("https://h/p")`` being ``https:/h/p``); None when it is a local path. ValueError
    for a URL this module does not read (another scheme, no host, credentials, a query or a fragment)."""
    if isinstance(value, RemotePath):
        return value
    if isinstance(value, PurePath):
        if not value.parts or value.parts[0] not in SCHEMES:
            return None
        value = f"{value.parts[0]}//{'/'.join(value.parts[1:])}"
    text = str(value)
    scheme, sep, _ = text.partition("://")
    if not sep or "/" in scheme:
        return None
    from urllib.parse import urlsplit

    url = urlsplit(text)
    if f"{url.scheme}:" not in SCHEMES:
        raise ValueError(f"{text!r}: only http:// and https:// URLs are read")
    if not url.hostname or "@" in url.netloc or url.query or url.fragment or "?" in text or "#" in text:
        raise ValueError(f"{text!r}: expected http(s)://HOST[:PORT]/PATH/ (no credentials, query or fragment)")
    if any(ord(c) <= 32 or ord(c) == 127 for c in text):
        raise ValueError(f"{text!r}: a URL holds no spaces or control characters")
    try:
        url.port  # noqa: B018 (raises ValueError for a port that is not a number in 0..65535)
    except ValueError as exc:
        raise ValueError(f"{text!r}: {exc}") from None
    return RemotePath(f"{url.scheme}:", url.netloc, *[p for p in url.path.split("/") if p])


# -- settings (checked at start by lookup.environment.check_environment) ---------------------------------------

def http_timeout() -> float:
    """Seconds one request may take, connection to last byte: ``$DICETABLES_HTTP_TIMEOUT`` (default 30), a
    number in (0, 3600]."""
    text = os.environ.get(TIMEOUT_ENV)
    if text is None:
        return TIMEOUT_DEFAULT
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not 0 < value <= 3600:
        raise ValueError(f"${TIMEOUT_ENV}={text!r}: expected a number of seconds in (0, 3600] "
                         f"(default {TIMEOUT_DEFAULT:g})")
    return value


def mebibytes_setting(name: str) -> int:
    """Bytes of the environment variable ``name``, a size in mebibytes: a finite number in 0..``CACHE_MB_MAX``
    (default ``CACHE_MB_DEFAULT``); ValueError naming the variable otherwise (NaN, inf and words included). The
    one reading of every cache-size setting (this disk cache, ``lookup.environment``'s chunk cache)."""
    text = os.environ.get(name)
    if text is None:
        return int(CACHE_MB_DEFAULT * (1 << 20))
    try:
        mb = float(text)
    except ValueError:
        mb = math.nan
    if not 0 <= mb <= CACHE_MB_MAX:  # also NaN
        raise ValueError(f"${name}={text!r}: expected a number of mebibytes in 0..{CACHE_MB_MAX:.0f} "
                         f"(default {CACHE_MB_DEFAULT:.0f})")
    return int(mb * (1 << 20))


def cache_bytes() -> int:
    """Bytes the disk cache of fetched ranges may hold: ``$DICETABLES_HTTP_CACHE_MB`` mebibytes (default 256;
    0: no disk cache)."""
    return mebibytes_setting(CACHE_MB_ENV)


def manifest_pin() -> str | None:
    """The sha256 the caller requires of every ``MANIFEST.json`` read over HTTP (``$DICETABLES_MANIFEST_SHA256``,
    64 hex digits), or None."""
    text = os.environ.get(PIN_ENV)
    if not text:
        return None
    pin = text.strip().lower()
    if not _HEX64.fullmatch(pin):
        raise ValueError(f"${PIN_ENV}={text!r}: expected the 64 hex digits of MANIFEST.json's sha256")
    return pin


def cache_dir() -> Path:
    """The platform cache directory of dicetables' fetched ranges: ``$XDG_CACHE_HOME/dicetables/http``, else
    ``~/Library/Caches/dicetables/http`` (macOS) or ``~/.cache/dicetables/http``."""
    base = os.environ.get("XDG_CACHE_HOME")
    if base and os.path.isabs(base):
        return Path(base) / "dicetables" / "http"
    home = Path.home()
    return (home / "Library" / "Caches" if sys.platform == "darwin" else home / ".cache") / "dicetables" / "http"


def setting_problems() -> list[str]:
    """What is wrong with the settings above (``lookup.environment.check_environment``)."""
    problems = []
    for check in (http_timeout, cache_bytes, manifest_pin):
        try:
            check()
        except ValueError as exc:
            problems.append(str(exc))
    return problems


# -- requests -------------------------------------------------------------------------------------------------

_local = threading.local()
_RETRY = ("RemoteDisconnected", "ConnectionResetError", "BrokenPipeError", "ConnectionAbortedError")


def _connection(scheme: str, netloc: str, timeout: float) -> tuple[Any, bool]:
    """(this thread's kept-alive connection to ``netloc``, whether it served a request before)."""
    import http.client

    conns = _local.__dict__.setdefault("conns", {})
    conn = conns.get((scheme, netloc))
    if conn is not None:
        if conn.sock is not None:
            conn.sock.settimeout(timeout)
        return conn, conn.sock is not None
    if scheme == "https:":
        import ssl

        conn = http.client.HTTPSConnection(netloc, timeout=timeout, context=ssl.create_default_context())
    else:
        conn = http.client.HTTPConnection(netloc, timeout=timeout)
    conns[(scheme, netloc)] = conn
    return conn, False


def _drop(scheme: str, netloc: str) -> None:
    conn = _local.__dict__.get("conns", {}).pop((scheme, netloc), None)
    if conn is not None:
        conn.close()


def _abort(conn: Any, fired: threading.Event) -> None:
    """The watchdog: shut the socket of a request past its time, so that a read blocked on it returns."""
    import socket

    fired.set()
    sock = conn.sock
    if sock is not None:
        try:
            sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass


# Every request this process made: [requests, body bytes] (benchmarks/http_first_decide.py reads it).
STATS = [0, 0]


def _get(url: RemotePath, headers: dict[str, str], limit: int, expect: int) -> tuple[Any, bytes]:
    """(headers, body) of ``GET url`` answered with status ``expect``, the body at most ``limit`` bytes.
    FileNotFoundError for a 404; ArtifactError naming the URL for another status, when the server cannot be
    reached, stalls past ``http_timeout()``, or sends more than ``limit`` bytes (refused before they are read
    when it says so)."""
    import http.client

    timeout = http_timeout()
    scheme, netloc, *rest = url.parts
    target = "/" + "/".join(rest)
    for attempt in (0, 1):
        conn, reused = _connection(scheme, netloc, timeout)
        fired = threading.Event()
        watchdog = threading.Timer(timeout, _abort, (conn, fired))
        watchdog.daemon = True
        watchdog.start()
        try:
            conn.request("GET", target, headers={**headers, "Accept-Encoding": "identity"})
            resp = conn.getresponse()
            if resp.status != expect:
                _drop(scheme, netloc)  # its body is not read
                raise _status_error(url, resp.status, resp.reason, expect)
            length = resp.getheader("Content-Length")
            if length is not None and (not length.isdigit() or int(length) > limit):
                _drop(scheme, netloc)
                raise ArtifactError(f"{url}: the server announces {length} bytes, more than the {limit} allowed; "
                                    "refused")
            body = resp.read(limit + 1)
            if fired.is_set():  # the socket was shut under a read of unknown length: not the whole body
                raise TimeoutError
            if len(body) > limit:
                _drop(scheme, netloc)
                raise ArtifactError(f"{url}: more than the {limit} bytes allowed; refused")
            if not resp.isclosed():  # a longer body than it said: the connection is not reusable
                _drop(scheme, netloc)
            elif resp.will_close:
                _drop(scheme, netloc)
            encoding = resp.getheader("Content-Encoding", "identity")
            if encoding.lower() != "identity":
                raise ArtifactError(f"{url}: the server sent it encoded ({encoding}); expected the bytes as stored")
            STATS[0] += 1
            STATS[1] += len(body)
            return resp.headers, body
        except FileNotFoundError:  # a 404 (_status_error)
            raise
        except (OSError, http.client.HTTPException) as exc:
            _drop(scheme, netloc)
            if fired.is_set() or isinstance(exc, TimeoutError):
                raise ArtifactError(f"{url}: no complete answer within {timeout:g} s (${TIMEOUT_ENV}): the server "
                                    "stalls or is too slow") from None
            if reused and attempt == 0 and type(exc).__name__ in _RETRY:
                continue  # the server closed the kept-alive connection: once more, on a new one
            raise ArtifactError(f"{url}: cannot be fetched ({type(exc).__name__}: {exc})") from None
        finally:
            watchdog.cancel()
    raise AssertionError("unreachable")


def _status_error(url: RemotePath, status: int, reason: str, wanted: int) -> Exception:
    if status == 404:
        return FileNotFoundError(f"{url}: not found on the server (HTTP 404)")
    if status == 200 and wanted == 206:
        return ArtifactError(f"{url}: the server ignored the byte range asked for and sent the whole file (HTTP 200); "
                             "lookup reads artifacts over HTTP only from a server that answers ranges (206)")
    more = " (redirects are not followed: name the final URL)" if 300 <= status < 400 else ""
    return ArtifactError(f"{url}: HTTP {status} {reason}, expected {wanted}{more}")


def fetch(url: RemotePath, limit: int) -> bytes:
    """The bytes of the file at ``url`` (at most ``limit``). FileNotFoundError when the server has none (404);
    ArtifactError otherwise when it cannot be had, and for a ``MANIFEST.json`` whose sha256 is not the pinned
    one (``manifest_pin``). A pinned manifest is kept in the disk cache and read from there when its sha256 is
    the pin; nothing else fetched whole is cached."""
    pin = manifest_pin() if url.name == "MANIFEST.json" else None
    if pin is not None:  # the pinned manifest is what it is wherever it comes from: the disk cache first
        body = CACHE.get(f"{url}\n{pin}", limit)
        if body is not None and hashlib.sha256(body).hexdigest() == pin:
            return body
    _, body = _get(url, {}, limit, 200)
    if pin is not None and hashlib.sha256(body).hexdigest() != pin:
        raise ArtifactError(f"{url}: its sha256 {hashlib.sha256(body).hexdigest()} is not the pinned "
                            f"${PIN_ENV}={pin}: refused (not the manifest you trust)")
    if pin is not None:
        CACHE.put(f"{url}\n{pin}", body)
    return body


def fetch_range(url: RemotePath, start: int, n: int, suffix: bool = False) -> tuple[bytes, int]:
    """(bytes, size of the file): bytes ``start .. start + n - 1`` of the file at ``url`` (fewer past its end), or
    with ``suffix`` its last ``n`` bytes (all of it when shorter). ArtifactError naming the URL unless the server
    answers 206 with exactly that range (``Content-Range``)."""
    spec = f"bytes=-{n}" if suffix else f"bytes={start}-{start + n - 1}"
    headers, body = _get(url, {"Range": spec}, n, 206)
    found = _CONTENT_RANGE.fullmatch((headers.get("Content-Range") or "").strip())
    if found is None:
        raise ArtifactError(f"{url}: no valid Content-Range in the answer to {spec} "
                            f"({headers.get('Content-Range')!r})")
    first, last, size = map(int, found.groups())
    want = (max(0, size - n), size - 1) if suffix else (start, min(start + n, size) - 1)
    if (first, last) != want or len(body) != last - first + 1:
        raise ArtifactError(f"{url}: answered bytes {first}-{last}/{size} ({len(body)} bytes) to {spec}: not the "
                            "range asked for")
    return body, size


# -- the disk cache -------------------------------------------------------------------------------------------

class DiskCache:
    """Ranges fetched over HTTP that passed their checks, one file each under ``cache_dir()``: the bytes, then
    the sha256 of the key and the bytes (checked on every read: a damaged, truncated or swapped file is dropped).
    Least recently used (file mtime, touched on every hit) out when more than ``cache_bytes()`` are held; several
    processes may share it (files are written aside and renamed)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._used: int | None = None
        self._dir: Path | None = None

    def _where(self) -> Path | None:
        if cache_bytes() == 0:
            return None
        if self._dir is None:
            path = cache_dir()
            try:
                path.mkdir(mode=0o700, parents=True, exist_ok=True)
            except OSError:
                return None  # an unwritable home: every range is fetched
            self._dir = path
        return self._dir

    @staticmethod
    def _name(key: str) -> str:
        return hashlib.sha256(key.encode()).hexdigest()

    def get(self, key: str, limit: int) -> bytes | None:
        """The bytes stored under ``key`` (at most ``limit``), or None when absent or failing their check."""
        where = self._where()
        if where is None:
            return None
        path = where / self._name(key)
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        except OSError:
            return None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode) or info.st_size > limit + 32:
                blob = b""
            else:
                blob = os.read(fd, limit + 33)
        except OSError:
            blob = b""
        finally:
            os.close(fd)
        data, digest = blob[:-32], blob[-32:]
        if len(blob) < 32 or hashlib.sha256(key.encode() + data).digest() != digest:
            self.drop(key)
            return None
        try:
            os.utime(path)
        except OSError:
            pass
        return data

    def put(self, key: str, data: bytes) -> None:
        where = self._where()
        if where is None:
            return
        path = where / self._name(key)
        tmp = where / f".tmp-{os.getpid()}-{threading.get_ident()}-{path.name}"
        try:
            with open(tmp, "wb") as handle:
                handle.write(data + hashlib.sha256(key.encode() + data).digest())
            os.replace(tmp, path)
        except OSError:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            return
        with self._lock:
            self._used = (self._used if self._used is not None else self._scan()[1]) + len(data) + 32
            if self._used > cache_bytes():
                self._trim()

    def drop(self, key: str) -> None:
        where = self._where()
        if where is not None:
            try:
                os.unlink(where / self._name(key))
            except OSError:
                pass

    def _scan(self) -> tuple[list[tuple[float, int, str]], int]:
        files = []
        assert self._dir is not None
        with os.scandir(self._dir) as entries:
            for entry in entries:
                try:
                    info = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                if stat.S_ISREG(info.st_mode):
                    files.append((info.st_mtime, info.st_size, entry.name))
        return files, sum(size for _, size, _ in files)

    def _trim(self) -> None:
        """Remove the least recently used files until at most ``cache_bytes()`` are held (by every process)."""
        files, used = self._scan()
        budget = cache_bytes()
        for _, size, name in sorted(files):
            if used <= budget:
                break
            try:
                os.unlink(self._dir / name)  # type: ignore[operator]
            except OSError:
                continue
            used -= size
        self._used = used


CACHE = DiskCache()


class RangeSource:
    """A shard file of an artifact on a server, read by byte ranges through the disk cache: the counterpart of
    ``lookup.chunked.FileSource``. ``version`` names the bytes expected (the array's signed sha256 and layout), so
    that a republished array never meets the cached ranges of its predecessor.

    ``tail(n, parse)`` / ``read(offset, n, parse)``: ``parse(raw)``, which checks the bytes (ArtifactError when
    they fail) and makes what the caller keeps. Cached bytes are parsed first; when they fail they are dropped
    and fetched again. Fetched bytes are stored only once they passed. ``size``: the file's size, known from
    the first answer (``tail``, which the caller makes first)."""

    def __init__(self, url: RemotePath, version: str) -> None:
        self.name = str(url)
        self.size = 0
        self._url = url
        self._version = version
        self._tail_key = ""

    def _key(self, what: str) -> str:
        return f"{self.name}\n{self._version}\n{what}"

    def tail(self, n: int, parse: Callable[[bytes], T]) -> T:
        key = self._tail_key = self._key(f"tail {n}")
        blob = CACHE.get(key, n + 8)
        if blob is not None and len(blob) >= 8:
            try:
                value = parse(blob[8:])
                self.size = int.from_bytes(blob[:8], "little")
                return value
            except ArtifactError:
                CACHE.drop(key)
        raw, self.size = fetch_range(self._url, 0, n, suffix=True)
        value = parse(raw)
        CACHE.put(key, self.size.to_bytes(8, "little") + raw)
        return value

    def read(self, offset: int, n: int, parse: Callable[[bytes], T]) -> T:
        key = self._key(f"{offset} {n}")
        blob = CACHE.get(key, n)
        if blob is not None:
            try:
                return parse(blob)
            except ArtifactError:
                CACHE.drop(key)
        raw, size = fetch_range(self._url, offset, n)
        try:
            if size != self.size:
                raise ArtifactError(f"{self.name}: {size} bytes on the server, {self.size} when its index was read "
                                    "(republished meanwhile?)")
            value = parse(raw)
        except ArtifactError:
            CACHE.drop(self._tail_key)  # the index this read relied on is not kept either
            raise
        CACHE.put(key, raw)
        return value

    def close(self) -> None:
        pass
