"""app.logs: the access log is written off the event loop; the health probes' lines are dropped, every other kept."""

from __future__ import annotations

import http.client
import io
import logging
import logging.config
import threading
import time
from pathlib import Path

import pytest
from uvicorn.logging import AccessFormatter

from app.logs import AccessLine, QueuedAccess, QueuedAccessLog, QuietHealthProbes, log_config
from devtools.live import running_server


def access(method: str, path: str, status: int) -> logging.LogRecord:
    # The shape of uvicorn's access record: a format string and five arguments.
    return logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:51234", method, path, "1.1", status), None,
    )  # fmt: skip


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_successful_health_probe_is_not_logged(method: str) -> None:
    assert not QuietHealthProbes().filter(access(method, "/healthz", 200))


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/healthz", 503),  # a failing probe is news
        ("GET", "/healthz?verbose=1", 200),
        ("GET", "/", 200),
        ("POST", "/game/new", 200),
        ("POST", "/healthz", 405),
    ],
)
def test_every_other_access_is_logged(method: str, path: str, status: int) -> None:
    assert QuietHealthProbes().filter(access(method, path, status))


def test_uvicorn_access_handler_carries_the_filter(capsys: pytest.CaptureFixture[str]) -> None:
    # The configuration as uvicorn applies it, but on a logger of the test's own, so that
    # uvicorn's loggers keep their handlers for the other tests.
    config = log_config()
    config["loggers"] = {"tests.access": {"handlers": ["access"], "level": "INFO", "propagate": False}}
    logging.config.dictConfig(config)
    logger = logging.getLogger("tests.access")
    try:
        logger.handle(access("GET", "/healthz", 200))
        logger.handle(access("POST", "/game/act", 200))
    finally:
        for handler in logger.handlers[:]:
            logger.removeHandler(handler)
            handler.close()  # the queued lines are written before it closes
    out = capsys.readouterr().out
    assert "/game/act" in out
    assert "/healthz" not in out


class HeldStream(io.StringIO):
    """A stream whose writes wait until ``release`` is set, as a pipe whose reader has stopped."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def write(self, text: str) -> int:
        self.entered.set()
        self.release.wait()
        return super().write(text)


def test_the_access_log_is_written_by_its_own_thread_and_a_stopped_reader_holds_up_nobody() -> None:
    stream = HeldStream()
    handler = QueuedAccessLog(stream, max_lines=5)
    handler.setFormatter(AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s', use_colors=False))
    logger = logging.getLogger("tests.queued_access")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        logger.handle(access("POST", "/game/act?n=0", 200))
        assert stream.entered.wait(10)  # the thread is writing the first line, and waits

        # Were the lines written by the caller, its first call would wait as long as the reader.
        def log_the_rest() -> None:
            for n in range(1, 20):
                logger.handle(access("POST", f"/game/act?n={n}", 200))

        caller = threading.Thread(target=log_the_rest)
        caller.start()
        caller.join(10)
        assert not caller.is_alive()
        assert handler.dropped == 14  # five lines wait in the queue; the rest are dropped, not kept in memory

        stream.release.set()
    finally:
        stream.release.set()
        logger.removeHandler(handler)
        handler.close()
    lines = stream.getvalue().splitlines()
    assert lines == [f'127.0.0.1:51234 - "POST /game/act?n={n} HTTP/1.1" 200 OK' for n in range(6)]


def test_a_server_whose_access_log_nobody_reads_keeps_answering(tmp_path: Path) -> None:
    # 2,000 access lines of about 80 bytes: several times what a pipe holds (64 KB). A server that
    # wrote its access log on the event loop stopped answering once the pipe was full.
    with running_server(tmp_path, unread_stdout=True) as server:
        host, port = server.base_url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            for n in range(2000):
                connection.request("GET", f"/static/favicon.svg?n={n}")
                response = connection.getresponse()
                response.read()
                assert response.status == 200, n
        finally:
            connection.close()


ACCESSES = [
    ("127.0.0.1:51234", "POST", "/game/act", "1.1", 200),
    ("127.0.0.1:51234", "GET", "/rules?x=%41%25&y=ü", "1.1", 304),
    ("[::1]:80", "HEAD", "/healthz", "1.0", 503),
    ("10.0.0.7:9", "POST", "/game/new", "1.1", 415),
    ("10.0.0.7:9", "GET", "/nowhere", "1.1", 404),
    ("10.0.0.7:9", "GET", "/odd", "1.1", 599),  # no phrase: uvicorn leaves a space
]


@pytest.mark.parametrize("access_values", ACCESSES)
@pytest.mark.parametrize("use_colors", [False, True])
def test_an_access_line_is_written_exactly_as_uvicorns_formatter_writes_it(
    access_values: tuple[str, str, str, str, int], use_colors: bool
) -> None:
    fmt = log_config()["formatters"]["access"]["fmt"]
    _, method, path, _, status = access_values
    uvicorns = AccessFormatter(fmt, use_colors=use_colors).format(access(method, path, status))
    if access_values[0] != "127.0.0.1:51234":
        uvicorns = uvicorns.replace("127.0.0.1:51234", access_values[0]).replace("HTTP/1.1", f"HTTP/{access_values[3]}")
    assert AccessLine(fmt, use_colors=use_colors).line(access_values) == uvicorns


def test_accesses_go_to_the_queue_as_values_and_come_out_as_uvicorns_lines(capsys: pytest.CaptureFixture[str]) -> None:
    config = log_config()
    config["formatters"]["access"]["use_colors"] = False
    config["loggers"] = {"tests.fast_access": {"handlers": ["access"], "level": "INFO", "propagate": False}}
    logging.config.dictConfig(config)
    logger = logging.getLogger("tests.fast_access")
    fast = QueuedAccess.over(logger)
    assert isinstance(fast, QueuedAccess)
    try:
        for values in ACCESSES:
            fast.info('%s - "%s %s HTTP/%s" %d', *values)
        fast.info('%s - "%s %s HTTP/%s" %d', "127.0.0.1:5", "GET", "/healthz", "1.1", 200)  # a probe: dropped
    finally:
        for handler in logger.handlers[:]:
            logger.removeHandler(handler)
            handler.close()
    formatter = AccessFormatter(config["formatters"]["access"]["fmt"], use_colors=False)
    expected = []
    for client, method, path, version, status in ACCESSES:
        record = access(method, path, status)
        record.args = (client, method, path, version, status)
        expected.append(formatter.format(record))
    assert capsys.readouterr().out.splitlines() == expected


def test_a_logger_configured_otherwise_is_logged_through_as_it_is() -> None:
    logger = logging.getLogger("tests.other_access")
    assert QueuedAccess.over(logger) is logger  # no handler of ours: it propagates to the root's
    logger.propagate = False
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    try:
        assert QueuedAccess.over(logger) is logger
    finally:
        logger.removeHandler(handler)


def test_a_live_servers_access_log_has_a_line_for_each_request_but_the_health_probes(tmp_path: Path) -> None:
    with running_server(tmp_path) as server:
        host, port = server.base_url.removeprefix("http://").split(":")
        connection = http.client.HTTPConnection(host, int(port), timeout=10)
        try:
            for path in ("/rules", "/healthz", "/static/favicon.svg?n=1", "/nowhere"):
                connection.request("GET", path)
                connection.getresponse().read()
        finally:
            connection.close()
        deadline = time.monotonic() + 10
        while "/nowhere" not in server.output() and time.monotonic() < deadline:
            time.sleep(0.05)  # the thread writes every tenth of a second
        lines = [line for line in server.output().splitlines() if " HTTP/1.1" in line]
    assert [line.split(" - ", 1)[1] for line in lines] == [
        '"GET /rules HTTP/1.1" 200 OK',
        '"GET /static/favicon.svg?n=1 HTTP/1.1" 200 OK',
        '"GET /nowhere HTTP/1.1" 404 Not Found',
    ]
    assert all(line.startswith("INFO:     127.0.0.1:") for line in lines)
