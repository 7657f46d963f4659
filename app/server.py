"""uvicorn's fast HTTP protocol with the two limits it lacks: header size, and time to send a request.

uvicorn's httptools protocol accepts request headers of any size (issue 12 sent a 32 MB one)
and waits forever for a request sent a byte at a time (1,000 of them stayed open). Its h11
protocol bounds the headers but is several times slower. ``GuardedHttpTools`` is the httptools
protocol with:

- at most ``MAX_HEADER_BYTES`` of request line and headers: a larger request is answered 400
  and the connection closed before the rest is read;
- ``GIN_REQUEST_SECONDS`` (10 s by default) from a connection's start, or from the first byte
  of a request on a kept-alive connection, to the request's last byte: a client that sends
  slower is disconnected. The app's own time to answer is not limited.

``gin-rummy`` serves with it. These limits keep one server standing; they are no substitute for
the reverse proxy an internet-facing server needs in front (``docs/operations.md``).
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.settings import get_settings

__all__ = ["MAX_HEADER_BYTES", "GuardedHttpTools"]

MAX_HEADER_BYTES = 16 * 1024
"""The page's requests carry under 2 KB of headers; 16 KB is what h11 and nginx allow by default."""


class HeadersTooLarge(Exception):
    """Raised inside the parser's callback: httptools then reports the request as invalid (400)."""


class GuardedHttpTools(HttpToolsProtocol):
    """See the module's docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_bytes = 0
        self._deadline: asyncio.TimerHandle | None = None
        self._request_seconds = get_settings().request_seconds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = 0
        self._arm()

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4)
        super().on_header(name, value)

    def on_message_complete(self) -> None:
        self._disarm()  # the whole request is in: the app takes the time it needs
        super().on_message_complete()

    def _count(self, size: int) -> None:
        self._header_bytes += size
        if self._header_bytes > MAX_HEADER_BYTES:
            raise HeadersTooLarge

    def _arm(self) -> None:
        if self._deadline is None:
            self._deadline = self.loop.call_later(self._request_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()
