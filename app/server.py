"""uvicorn's fast HTTP protocol with the two limits it lacks, and answers that keep a release time.

uvicorn's httptools protocol accepts request headers of any size (issue 12 sent a 32 MB one)
and waits forever for a request sent a byte at a time (1,000 of them stayed open). Its h11
protocol bounds the headers but is several times slower. ``GuardedHttpTools`` is the httptools
protocol with:

- at most ``MAX_HEADER_BYTES`` of request line and headers: a larger request is answered 400
  and the connection closed before the rest is read;
- ``GIN_REQUEST_SECONDS`` (10 s by default) from a connection's start, or from the first byte
  of a request on a kept-alive connection, to the request's last byte: a client that sends
  slower is disconnected. The app's own time to answer is not limited.

It also keeps an answer back until the time its route names (``RELEASE_TIME``): a move's answer
must not leave sooner than its level's floor (``Level.reply_seconds``), so that its time tells
nothing about the computer's cards. The route sets the time and carries on; the bytes wait here
and go out from a timer. Sleeping in the route instead cost each move two more turns of a busy
event loop (the timer's, then the task's), the largest part of a move's time under load.

``gin-rummy`` serves with it. These limits keep one server standing; they are no substitute for
the reverse proxy an internet-facing server needs in front (``docs/operations.md``).
"""

from __future__ import annotations

import asyncio
import weakref
from collections import deque
from typing import Any

from uvicorn._types import ASGIReceiveCallable, ASGISendCallable, Scope
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app.logs import QueuedAccess
from app.settings import get_settings

__all__ = ["MAX_HEADER_BYTES", "RELEASE_TIME", "AnswerWrites", "GuardedHttpTools", "Outbox"]

MAX_HEADER_BYTES = 16 * 1024
"""The page's requests carry under 2 KB of headers; 16 KB is what h11 and nginx allow by default."""


RELEASE_TIME = "gin.release_time"
"""The ASGI extension (``scope["extensions"]``) through which a route names when its answer may
leave: the route sets the extension's ``"not_before"`` (in the event loop's clock)."""


class HeadersTooLarge(Exception):
    """Raised inside the parser's callback: httptools then reports the request as invalid (400)."""


class GuardedHttpTools(HttpToolsProtocol):
    """See the module's docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._header_bytes = 0
        self._deadline: asyncio.TimerHandle | None = None
        self._request_seconds = get_settings().request_seconds
        self._outbox: Outbox | None = None
        # Each access goes to the access log's queue as its values, no record made (app.logs).
        self.access_logger = QueuedAccess.over(self.access_logger)  # type: ignore[assignment]
        app, holding, loop = self.app, _holding(self.loop), self.loop

        async def letting_go_first(scope: Scope, receive: ASGIReceiveCallable, send: ASGISendCallable) -> None:
            _let_go_due(holding, loop.time())
            await app(scope, receive, send)

        self.app = letting_go_first

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._outbox = Outbox(transport, self.loop)
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

    def on_headers_complete(self) -> None:
        super().on_headers_complete()
        cycle = self.cycle  # this request's, unless the parser stopped for an upgrade
        if cycle is not None and self._outbox is not None and not isinstance(cycle.transport, AnswerWrites):
            release: dict[object, object] = {"not_before": 0.0}
            cycle.scope.setdefault("extensions", {})[RELEASE_TIME] = release
            has_body = cycle.scope["method"] != "HEAD"
            cycle.transport = AnswerWrites(self.transport, self._outbox, release, has_body=has_body)  # type: ignore[assignment]

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


_OUTBOXES: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, list[Outbox]] = weakref.WeakKeyDictionary()


def _holding(loop: asyncio.AbstractEventLoop) -> list[Outbox]:
    """The connections on ``loop`` holding answers back, shared by all of them."""
    return _OUTBOXES.setdefault(loop, [])


def _let_go_due(holding: list[Outbox], now: float) -> None:
    # Each request's task lets go of the answers whose time has come before it starts its own
    # work: they leave within a request's time of their release time, spread through the loop's
    # turn, rather than together at the end of the turn from their timers (the clients' next
    # requests then reach the loop's next look at its sockets, not the one after).
    if holding:
        holding[:] = [outbox for outbox in holding if outbox.let_go_due(now)]


class Outbox:
    """One connection's answers on their way out: in order, each no sooner than its release time.

    An answer written before its time waits here, with any answer written after it on the same
    connection (HTTP/1.1 lets a client send the next request before the answer to the last), and
    a close waits for them. Each waiting answer leaves at once when its time has come: by the
    first request task to start after that, or else by a timer.
    """

    __slots__ = ("_close", "_holding", "_loop", "_queue", "_transport")

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport, self._loop = transport, loop
        self._holding = _holding(loop)
        self._queue: deque[tuple[float, list[bytes]]] = deque()
        self._close = False

    def write(self, data: bytes, not_before: float) -> None:
        if self._queue:
            last, chunks = self._queue[-1]
            if not_before <= last:
                chunks.append(data)
            else:
                self._queue.append((not_before, [data]))
                self._loop.call_at(not_before, self._let_go_now)
        elif not_before > self._loop.time():
            self._queue.append((not_before, [data]))
            self._holding.append(self)
            self._loop.call_at(not_before, self._let_go_now)
        else:
            self._transport.write(data)

    def close(self) -> None:
        if self._queue:
            self._close = True
        else:
            self._transport.close()

    def let_go_due(self, now: float) -> bool:
        """Write the answers whose time has come; whether any is still held."""
        queue = self._queue
        while queue and queue[0][0] <= now:
            _, chunks = queue.popleft()
            if not self._transport.is_closing():  # the client may have gone meanwhile
                self._transport.write(b"".join(chunks))
        if queue:
            return True
        if self._close:
            self._close = False
            self._transport.close()
        return False

    def _let_go_now(self) -> None:
        self.let_go_due(self._loop.time())


class AnswerWrites:
    """The connection as one request's answer writes to it: through the outbox, at its release time.

    uvicorn writes an answer's status line and headers, then its body, separately: here the two
    leave together, one ``send`` instead of two (the largest single cost in a profile of a loaded
    worker was the socket writes) and one segment for the client to read. A HEAD answer has no
    body, and "100 Continue" is a promise the client waits for: those leave as they come.
    """

    __slots__ = ("_head", "_joins_head", "_outbox", "_release", "_transport")

    def __init__(
        self, transport: asyncio.Transport, outbox: Outbox, release: dict[object, object], *, has_body: bool
    ) -> None:
        self._transport, self._outbox, self._release = transport, outbox, release
        self._joins_head = has_body
        self._head = b""

    def write(self, data: bytes) -> None:
        if self._joins_head:
            if not data.startswith(_CONTINUE):
                self._joins_head = False
                self._head = data
            else:
                self._send(data)
            return
        if self._head:
            data, self._head = self._head + data, b""
        self._send(data)

    def _send(self, data: bytes) -> None:
        not_before = self._release["not_before"]
        self._outbox.write(data, not_before if isinstance(not_before, float) else 0.0)

    def close(self) -> None:
        # An answer cut short (the app failed after its headers): what was written still leaves first.
        if self._head:
            self._send(self._head)
            self._head = b""
        self._outbox.close()

    def is_closing(self) -> bool:
        return self._transport.is_closing()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


_CONTINUE = b"HTTP/1.1 100 "
