"""What a request may cost the server: a bounded body, read within a deadline, of one media type.

``RequestLimits`` is the outermost ASGI middleware of the app (docs/web.md, "Limits"). Before any route
sees a request it

- refuses a body announced larger than ``max_body`` bytes (``Content-Length``) with 413 without reading
  a byte of it, and one that turns out larger while streaming (chunked, or a lying length) as soon as
  the count passes the limit: a 60 MB body is never held in memory;
- reads the body within ``body_timeout`` seconds or answers 408: a client that sends half a body and
  waits holds its connection that long, not for ever;
- answers 415 to a body that is not ``application/json`` (or ``+json``): text bodies get the same answer
  on every route, before the route's own parsing could differ;
- then hands the route the body it read, as one message.

Refusals close the connection (``Connection: close``): the unread rest of a body must not be taken for
the next request. Slow headers are the server's part: ``webapp.server.TimedHttpToolsProtocol``.
"""

from __future__ import annotations

import asyncio

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from webapp.problems import problem

MAX_BODY = 64 * 1024  # bytes; the largest real request (a coach or explain call with a sheet) is ~300 bytes
BODY_TIMEOUT = 10.0  # seconds to receive a whole body once the headers are in
BODYLESS = frozenset({"GET", "HEAD", "OPTIONS", "DELETE"})
CLOSE = {"connection": "close"}


def _is_json(content_type: bytes) -> bool:
    """True for ``application/json`` and any ``application/<x>+json``, with or without parameters."""
    if content_type == b"application/json":  # what nearly every client sends: one comparison
        return True
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json" or (media.startswith(b"application/") and media.endswith(b"+json"))


class RequestLimits:
    """ASGI middleware: body size (413), body read time (408) and body media type (415), see the module."""

    def __init__(self, app: ASGIApp, max_body: int | None = None, body_timeout: float | None = None) -> None:
        # The module's values are read here, when Starlette builds the middleware stack (first request):
        # a test sets a short timeout on the module before it starts a server.
        self.app = app
        self.max_body = MAX_BODY if max_body is None else max_body
        self.body_timeout = BODY_TIMEOUT if body_timeout is None else body_timeout
        self._tick = self.body_timeout / 10  # the deadline is kept to within a tenth of itself
        self._reading: dict[asyncio.Task[object], float] = {}  # body reads in flight -> their deadline
        self._expired: set[asyncio.Task[object]] = set()  # reads the watchdog cancelled (-> 408, not a crash)
        self._watchdog: asyncio.TimerHandle | None = None
        self._watchdog_loop: asyncio.AbstractEventLoop | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        length = content_type = None
        chunked = False
        for name, value in scope["headers"]:
            if name == b"content-length":
                length = value
            elif name == b"content-type":
                content_type = value
            elif name == b"transfer-encoding":
                chunked = True
        announced = 0
        if length is not None:
            if not length.isdigit() or len(length) > 18:
                await problem(400, "Content-Length is not a byte count", CLOSE)(scope, receive, send)
                return
            announced = int(length)
            if announced > self.max_body:
                await self._too_large(scope, receive, send)
                return
        has_body = announced > 0 or chunked
        if not has_body and scope["method"] in BODYLESS:  # a GET: nothing to read, nothing to check
            await self.app(scope, receive, send)
            return
        if content_type is None or not _is_json(content_type):
            await problem(415, "the request body must be JSON, sent as Content-Type: application/json",
                          CLOSE if has_body else None)(scope, receive, send)
            return
        body = await self._read(scope, receive, send)
        if body is None:
            return
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # after the body: the disconnect, when it comes

        await self.app(scope, replay, send)

    async def _read(self, scope: Scope, receive: Receive, send: Send) -> bytes | None:
        """The whole body, or None after answering 408 / 413 (or when the client went away).

        The deadline is kept by one watchdog timer for all reads in flight (``_watch``), not a timer per
        request: ``asyncio.timeout`` costs ~6 us a request with uvloop, most of the middleware's cost."""
        loop = asyncio.get_running_loop()
        task = asyncio.current_task(loop)
        assert task is not None
        self._reading[task] = loop.time() + self.body_timeout
        if self._watchdog is None or self._watchdog_loop is not loop:
            self._watchdog_loop = loop
            self._watchdog = loop.call_later(self._tick, self._watch)
        chunks: list[bytes] = []
        total = 0
        try:
            while True:
                message = await receive()
                if message["type"] != "http.request":  # http.disconnect: nobody to answer
                    return None
                chunk = message.get("body", b"")
                total += len(chunk)
                if total > self.max_body:
                    await self._too_large(scope, receive, send)
                    return None
                chunks.append(chunk)
                if not message.get("more_body", False):
                    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
        except asyncio.CancelledError:
            if task not in self._expired:
                raise
            self._expired.discard(task)
            task.uncancel()
            await problem(408, f"the request body did not arrive within {self.body_timeout:g} s",
                          CLOSE)(scope, receive, send)
            return None
        finally:
            self._reading.pop(task, None)

    def _watch(self) -> None:
        """The watchdog: cancel every body read past its deadline; re-armed while reads are in flight."""
        self._watchdog = None
        loop = self._watchdog_loop
        if loop is None or loop.is_closed():
            return
        now = loop.time()
        for task, deadline in list(self._reading.items()):
            if deadline <= now and task not in self._expired:
                self._expired.add(task)
                task.cancel()
        if self._reading:
            self._watchdog = loop.call_later(self._tick, self._watch)

    async def _too_large(self, scope: Scope, receive: Receive, send: Send) -> None:
        """413, and the connection closed: the rest of the body is never read."""
        await problem(413, f"the request body is larger than {self.max_body} bytes", CLOSE)(scope, receive, send)
