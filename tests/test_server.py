"""app.server: the real ``gin-rummy`` bounds request headers, disconnects slow clients, and holds a
move's answer back until its floor (issue 12).

Before, uvicorn's httptools protocol took a 32 MB header, and 1,000 requests sent a byte at a
time stayed open for as long as the client liked.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import socket
import time
from collections.abc import Iterator

import pytest
from uvicorn.config import Config
from uvicorn.server import ServerState

from app.ai import Level
from app.logs import QueuedAccess, QueuedAccessLog
from app.server import MAX_HEADER_BYTES, AnswerWrites, GuardedHttpTools, Outbox
from devtools.live import LiveServer, running_server

pytestmark = pytest.mark.slow

REQUEST_SECONDS = 1.0


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    env = {"GIN_REQUEST_SECONDS": str(REQUEST_SECONDS)}
    with running_server(tmp_path_factory.mktemp("data"), env=env) as live:
        yield live


def connect(server: LiveServer) -> socket.socket:
    port = int(server.base_url.rsplit(":", 1)[1])
    return socket.create_connection(("127.0.0.1", port), timeout=30)


def read_all(connection: socket.socket) -> bytes:
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


def test_a_header_over_the_limit_is_refused_and_the_connection_closed(server: LiveServer) -> None:
    with connect(server) as connection:
        header = b"X-Filler: " + b"a" * (2 * MAX_HEADER_BYTES) + b"\r\n"
        with contextlib.suppress(OSError):  # the server may close before all of it is sent
            connection.sendall(b"GET /rules HTTP/1.1\r\nHost: 127.0.0.1\r\n" + header + b"\r\n")
        answer = read_all(connection)
    assert answer.startswith(b"HTTP/1.1 400"), answer[:200]


def test_headers_under_the_limit_are_served(server: LiveServer) -> None:
    with connect(server) as connection:
        header = b"X-Filler: " + b"a" * (MAX_HEADER_BYTES // 2) + b"\r\n"
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" + header + b"\r\n")
        assert read_all(connection).startswith(b"HTTP/1.1 200")


def test_slow_clients_are_disconnected_after_the_request_deadline(server: LiveServer) -> None:
    # The deadline runs from each connection's start, so the clock is read before the first one:
    # read after them, a stall of 0.1 s between the last connect and the reading failed the test.
    started = time.monotonic()
    connections = [connect(server) for _ in range(50)]
    try:
        for connection in connections:
            connection.sendall(b"GET /rules HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and then nothing more
        for connection in connections:
            connection.settimeout(REQUEST_SECONDS * 20)
            assert read_all(connection) == b"", "closed without an answer"
        waited = time.monotonic() - started
    finally:
        for connection in connections:
            connection.close()
    assert REQUEST_SECONDS * 0.9 <= waited < REQUEST_SECONDS * 20
    # And the server still serves everyone else.
    with connect(server) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        assert read_all(connection).startswith(b"HTTP/1.1 200")


def test_a_kept_alive_connection_is_not_cut_while_the_app_answers(server: LiveServer) -> None:
    with connect(server) as connection:
        for _ in range(3):
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            answer = b""
            while not answer.endswith(b'{"status":"ok"}'):  # headers and body may come in separate reads
                chunk = connection.recv(65536)
                assert chunk, f"closed after {answer!r}"
                answer += chunk
            assert answer.startswith(b"HTTP/1.1 200")
            time.sleep(REQUEST_SECONDS * 1.5)  # idle between requests: the keep-alive timeout (5 s) applies


def test_a_held_answer_leaves_after_its_floor_and_before_the_next_answer_on_its_connection(
    server: LiveServer,
) -> None:
    # The server, not the route, waits out the floor of a move's answer (app.server's outbox). A
    # client may send its next request before the answer comes (HTTP/1.1 pipelining): the next
    # answer, which has no floor, must still come second. The floor applies when the computer moves:
    # in a new match, when it starts (R3: the starter alternates from the posted match), so of two
    # matches in a row one waits.
    floor = Level.HARD.reply_seconds
    health = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    def new_match(token: bytes) -> bytes:
        form = b"level=hard&token=" + token
        return (
            b"POST /game/new HTTP/1.1\r\nHost: 127.0.0.1\r\nHX-Request: true\r\n"
            b"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: %d\r\n\r\n%s" % (len(form), form)
        )

    def token_in(answer: bytes) -> bytes:
        token = re.search(rb'data-token="([^"]+)"', answer)
        assert token, answer[:300]
        return token.group(1)

    with connect(server) as connection:  # a first match warms the server up: the next ones are quick
        connection.sendall(new_match(b"").replace(b"Host:", b"Connection: close\r\nHost:"))
        token = token_in(read_all(connection))
    waits = []
    for _ in range(2):
        with connect(server) as connection:
            started = time.perf_counter()
            connection.sendall(new_match(token) + health)
            first = connection.recv(65536)
            waits.append(time.perf_counter() - started)
            answers = first + read_all(connection)
        assert answers.startswith(b"HTTP/1.1 200"), answers[:200]
        table, _, rest = answers.partition(b'{"status":"ok"}')
        assert b"data-token=" in table, "the table came first"
        assert rest == b"" and table.count(b"HTTP/1.1 200") == 2, "then the health check, last"
        token = token_in(table)
    assert max(waits) >= floor


class _Sent:
    """What reaches the connection's socket: one entry per write (a stand-in for asyncio's transport)."""

    def __init__(self) -> None:
        self.writes: list[bytes] = []
        self.closed = False

    def write(self, data: bytes) -> None:
        self.writes.append(data)

    def close(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed


HEAD_BLOCK = b"HTTP/1.1 200 OK\r\ncontent-length: 4\r\n\r\n"


def answer_writes(*, has_body: bool = True) -> tuple[_Sent, AnswerWrites]:
    sent = _Sent()
    loop = asyncio.new_event_loop()
    loop.close()  # only its clock is read: nothing here is held back
    outbox = Outbox(sent, loop)  # type: ignore[arg-type]
    return sent, AnswerWrites(sent, outbox, {"not_before": 0.0}, has_body=has_body)  # type: ignore[arg-type]


def test_an_answers_headers_and_body_leave_in_one_write() -> None:
    # uvicorn writes the head, then the body: two sends, where one does (the socket writes were
    # the largest single cost in a loaded worker's profile).
    sent, writes = answer_writes()
    writes.write(HEAD_BLOCK)
    assert sent.writes == []
    writes.write(b"body")
    assert sent.writes == [HEAD_BLOCK + b"body"]
    writes.write(b"HTTP/1.1 200 OK\r\n\r\n")  # anything after the head leaves as it comes
    assert len(sent.writes) == 2


def test_a_head_answer_and_a_continue_leave_at_once() -> None:
    sent, writes = answer_writes(has_body=False)  # HEAD: uvicorn writes no body after the head
    writes.write(HEAD_BLOCK)
    assert sent.writes == [HEAD_BLOCK]
    sent, writes = answer_writes()
    writes.write(b"HTTP/1.1 100 Continue\r\n\r\n")  # the client waits for it before sending its body
    assert sent.writes == [b"HTTP/1.1 100 Continue\r\n\r\n"]
    writes.write(HEAD_BLOCK)
    writes.write(b"body")
    assert sent.writes[1:] == [HEAD_BLOCK + b"body"]


def test_an_answer_cut_short_after_its_head_still_sends_the_head_before_closing() -> None:
    sent, writes = answer_writes()
    writes.write(HEAD_BLOCK)
    writes.close()
    assert sent.writes == [HEAD_BLOCK] and sent.closed


def test_the_protocol_hands_accesses_to_the_queued_access_log_without_making_records() -> None:
    # With the access log configured as gin-rummy configures it (app.logs.log_config), uvicorn's
    # call to log an access goes straight to the queue: no LogRecord on the event loop.
    logger = logging.getLogger("uvicorn.access")
    kept = logger.handlers[:], logger.propagate
    handler = QueuedAccessLog(io.StringIO())
    logger.handlers[:], logger.propagate = [handler], False
    loop = asyncio.new_event_loop()
    try:
        config = Config(app=_no_app, log_config=None)
        config.load()
        assert isinstance(protocol(config, loop).access_logger, QueuedAccess)
        logger.propagate = True  # configured otherwise: uvicorn's logger, as it is
        assert protocol(config, loop).access_logger is logger
    finally:
        loop.close()
        logger.handlers[:], logger.propagate = kept
        handler.close()


def protocol(config: Config, loop: asyncio.AbstractEventLoop) -> GuardedHttpTools:
    return GuardedHttpTools(config=config, server_state=ServerState(), app_state={}, _loop=loop)


async def _no_app(scope: object, receive: object, send: object) -> None:
    raise AssertionError("not called")
