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
    """``HttpToolsProtocol`` that closes a connection whose request headers take over ``HEADER_TIMEOUT``."""

    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._arm_header_timer()

    def on_headers_complete(self) -> None:
        self._cancel_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_header_timer()
        super().connection_lost(exc)

    def _arm_header_timer(self) -> None:
        self._cancel_header_timer()
        self._header_timer = self.loop.call_later(HEADER_TIMEOUT, self._headers_too_slow)

    def _cancel_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _headers_too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()
