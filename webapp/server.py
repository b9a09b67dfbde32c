"""The HTTP protocol ``dicetables serve`` runs: uvicorn's httptools protocol with a deadline on headers.

uvicorn times out an idle keep-alive connection (``timeout_keep_alive``) but not one that is sending its
headers: its keep-alive timer is cancelled by the first byte received, and a new connection has no timer
at all, so a client that opens connections and sends half a request line holds each for ever (slowloris).
Here every request's headers must be complete within ``HEADER_TIMEOUT`` seconds of the connection or of
the request's first byte; the body has its own deadline (``webapp.limits.RequestLimits``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = 10.0  # seconds from a connection (or a request's first byte) to its complete headers


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """``HttpToolsProtocol`` that closes a connection whose request headers take over ``HEADER_TIMEOUT``.

    One timer per connection, not per request: a request's start only notes the time (a timer armed and
    cancelled per request costs ~3 us with uvloop, a few per cent of a decide); the connection's timer checks
    that note when it fires and re-arms itself for the remaining time."""

    _header_timer: asyncio.TimerHandle | None = None
    _headers_since: float | None = None  # loop time the current request's headers began; None: not in headers

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._headers_since = self.loop.time()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT, self._check_headers)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._headers_since = self.loop.time()

    def on_headers_complete(self) -> None:
        self._headers_since = None
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None
        super().connection_lost(exc)

    def _check_headers(self) -> None:
        self._header_timer = None
        if self.transport.is_closing():
            return
        since = self._headers_since
        left = HEADER_TIMEOUT if since is None else since + HEADER_TIMEOUT - self.loop.time()
        if left <= 0:
            self.transport.close()  # headers too slow: drop the connection (nothing was dispatched yet)
            return
        self._header_timer = self.loop.call_later(left, self._check_headers)
