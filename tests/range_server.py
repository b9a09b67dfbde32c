"""A static HTTP server that answers byte ranges, for tests and benchmarks only (``python -m http.server`` answers
no ``Range``): ``python tests/range_server.py DIRECTORY [--stall head|body] [--no-ranges] [--delay S]``.

It serves the files under DIRECTORY (``GET``; a directory's ``index.html``; a ``Content-Type`` by the file's
extension; ``Range: bytes=A-B``, ``bytes=A-`` and ``bytes=-N`` answered ``206`` with ``Content-Range``), HTTP/1.1
with kept-alive connections, on 127.0.0.1 and a free port, which it prints on its first line of output. ``GET
/__stats__`` gives ``{"requests": n, "ranges": n, "bytes": n}``: the requests for files, those answered with a
range, and the body bytes sent so far. ``--stall head`` never answers (it reads the request and waits); ``--stall
body`` sends the headers and half the body, then waits: the two ways a server stalls. ``--no-ranges``: every ``GET``
is answered with the whole file (``200``), as ``python -m http.server`` does. ``--delay S``: every answer waits S
seconds first (a distant server's round trip, for benchmarks).
"""

from __future__ import annotations

import argparse
import json
import mimetypes
import re
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

RANGE = re.compile(r"bytes=(\d*)-(\d*)")


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # headers and body are two writes: no 40 ms wait for a delayed ACK
    root: Path
    stall: str | None = None
    ranges = True
    delay = 0.0
    stats = {"requests": 0, "ranges": 0, "bytes": 0}
    lock = threading.Lock()

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass

    def _send(self, status: int, body: bytes, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        for key, value in {"Content-Length": str(len(body)), **(headers or {})}.items():
            self.send_header(key, value)
        self.end_headers()
        if self.stall == "body":
            self.wfile.write(body[: len(body) // 2])
            self.wfile.flush()
            time.sleep(3600)
        self.wfile.write(body)

    def do_GET(self) -> None:  # noqa: N802 (the base class's name)
        if self.path == "/__stats__":
            with self.lock:
                self._send(200, json.dumps(self.stats).encode(), {"Content-Type": "application/json"})
            return
        if self.stall == "head":
            time.sleep(3600)
        time.sleep(self.delay)
        parts = [p for p in self.path.split("?")[0].split("/") if p]
        path = self.root.joinpath(*parts)
        if path.is_dir():  # a directory: its index.html, as static servers answer
            path = path / "index.html"
        if any(p in (".", "..") for p in parts) or not path.is_file():
            self._send(404, b"not found")
            return
        data = path.read_bytes()
        wanted = self.headers.get("Range")
        kind = "text/javascript" if path.suffix in (".js", ".mjs") else mimetypes.guess_type(path.name)[0]
        status, headers, body = 200, {"Content-Type": kind or "application/octet-stream"}, data
        if wanted is not None and self.ranges:
            found = RANGE.fullmatch(wanted.strip())
            if found is None or found.groups() == ("", ""):
                self._send(416, b"", {"Content-Range": f"bytes */{len(data)}"})
                return
            first, last = found.groups()
            if first == "":
                start, end = max(0, len(data) - int(last)), len(data) - 1
            else:
                start, end = int(first), min(len(data) - 1, int(last) if last else len(data) - 1)
            if start >= len(data) or start > end:
                self._send(416, b"", {"Content-Range": f"bytes */{len(data)}"})
                return
            status, body = 206, data[start : end + 1]
            headers["Content-Range"] = f"bytes {start}-{end}/{len(data)}"
        with self.lock:
            self.stats["requests"] += 1
            self.stats["ranges"] += status == 206
            self.stats["bytes"] += len(body)
        self._send(status, body, headers)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("directory", type=Path)
    parser.add_argument("--stall", choices=["head", "body"])
    parser.add_argument("--no-ranges", action="store_true", help="answer every GET with the whole file (200)")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds to wait before each answer")
    args = parser.parse_args()
    Handler.ranges = not args.no_ranges
    Handler.delay = args.delay
    Handler.root = args.directory.resolve()
    Handler.stall = args.stall
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    sys.exit(main())
