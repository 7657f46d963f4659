"""uvicorn's logging, with the access log written by a thread of its own, less one line.

The access log is written off the event loop. A line written on the loop is a ``write`` to
stdout in the middle of serving: a few microseconds each when the reader keeps up, but a pipe
whose reader stops (a stuck log shipper, a paused terminal) fills, and every request of the
worker then waits on it. ``QueuedAccessLog`` keeps each record in a bounded queue, and a
thread of its own formats and writes them, ten times a second; when the queue is full (the
reader has stopped for a long while), lines are dropped and counted, rather than the game
stalling or the memory growing. The error log stays as uvicorn has it: it is rare, and it must not lose a line.

Under ``gin-rummy``'s own protocol (``app.server``) an access costs the event loop almost nothing:
uvicorn's call to log it (``access_logger.info``) hands its five values to the queue as they are
(``QueuedAccess``), and the thread writes each line itself (``AccessLine``), exactly as uvicorn's
formatter would. Making a ``LogRecord`` on the loop and formatting it on the thread had cost 2.5-3% of
a request's instructions (docs/load-experiments.md, "A leaner move").

A successful health probe is not logged. The container's health check asks ``GET /healthz``
every 5 s (and a proxy may too), which would be 17,280 identical access-log lines a day burying
the requests that matter. Only answers of 200 are dropped: a failing probe (503) is still
logged, and so is every other request.
"""

from __future__ import annotations

import copy
import logging
import threading
from collections import deque
from http import HTTPStatus
from typing import Any, TextIO

from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter

__all__ = ["QUEUED_LINES", "AccessLine", "QueuedAccess", "QueuedAccessLog", "QuietHealthProbes", "log_config"]

HEALTH_PATH = "/healthz"
QUEUED_LINES = 10_000
"""Access lines waiting to be written, at most (a few MB): about 20 s of one busy worker."""
WRITE_SECONDS = 0.1
"""How often the waiting lines are written: a line appears at most this late."""
CLOSE_SECONDS = 2.0
"""How long closing waits for the queued lines to be written (a reader that stopped never takes them)."""


def _quiet_probe(access: tuple[object, ...]) -> bool:
    # uvicorn logs an access as (client address, method, path with query, HTTP version, status).
    _, method, path, _, status = access
    return method in ("GET", "HEAD") and path == HEALTH_PATH and status == 200


class QuietHealthProbes(logging.Filter):
    """Drops uvicorn access records of ``GET /healthz`` answered 200."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple) and len(record.args) == 5:
            return not _quiet_probe(record.args)
        return True


# uvicorn's access format (its default logging configuration, which log_config() keeps).
_ACCESS_FORMAT = LOGGING_CONFIG["formatters"]["access"]["fmt"]
_PHRASES = {status.value: status.phrase for status in HTTPStatus}


class AccessLine(AccessFormatter):
    """uvicorn's access formatter, which writes the line of an access given as its five values (``line``)."""

    def line(self, access: tuple[Any, ...]) -> str:
        """What ``format`` gives for uvicorn's record of ``access`` (at INFO), without making the record."""
        if self.use_colors or self._fmt != _ACCESS_FORMAT:
            return self.format(_record(access))
        client, method, path, version, status = access
        # As uvicorn's formatter writes it: the level name padded to eight, then the status's phrase.
        return f'INFO:     {client} - "{method} {path} HTTP/{version}" {status} {_PHRASES.get(int(status), "")}'


def _record(access: tuple[Any, ...]) -> logging.LogRecord:
    return logging.LogRecord("uvicorn.access", logging.INFO, __file__, 0, '%s - "%s %s HTTP/%s" %d', access, None)


def _as_record(item: logging.LogRecord | tuple[Any, ...]) -> logging.LogRecord:
    return item if isinstance(item, logging.LogRecord) else _record(item)


class QueuedAccessLog(logging.Handler):
    """Keeps each record for a thread that formats and writes them in batches (see the module's docstring).

    The thread wakes every ``WRITE_SECONDS`` and writes what is waiting in one ``write``: waking
    it for each line (a ``queue.Queue``) cost the worker about a tenth of its time in handing the
    interpreter back and forth. Appending to a ``deque`` takes no lock.
    """

    def __init__(self, stream: TextIO, max_lines: int = QUEUED_LINES) -> None:
        super().__init__()
        self.stream = stream
        self.max_lines = max_lines
        self.dropped = 0
        """Records dropped because too many were waiting."""
        self._waiting: deque[logging.LogRecord | tuple[Any, ...]] = deque()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._write_until_closed, name="access-log", daemon=True)
        self._thread.start()

    def emit(self, record: logging.LogRecord | tuple[Any, ...]) -> None:
        """Queues a record, or an access as its five values (``QueuedAccess``), for the thread to write.

        Not formatted here: the thread formats it, off the loop. uvicorn makes each record afresh,
        with arguments that are plain values, so it can be handed on as is.
        """
        if len(self._waiting) >= self.max_lines:
            self.dropped += 1
        else:
            self._waiting.append(record)

    def _write_until_closed(self) -> None:
        while not self._closing.wait(WRITE_SECONDS):
            self._write_waiting()
        self._write_waiting()

    def _write_waiting(self) -> None:
        lines = []
        while self._waiting:
            item = self._waiting.popleft()
            try:
                if isinstance(item, logging.LogRecord):
                    lines.append(self.format(item) + "\n")
                elif isinstance(self.formatter, AccessLine):
                    lines.append(self.formatter.line(item) + "\n")
                else:
                    lines.append(self.format(_as_record(item)) + "\n")
            except Exception:
                self.handleError(_as_record(item))
        if lines:
            try:
                self.stream.write("".join(lines))
                self.stream.flush()
            except Exception:
                self.handleError(_as_record(item))

    def close(self) -> None:
        # Writes what is waiting, then stops the thread. A reader that never came back keeps the
        # thread in its write: the process does not wait for it (a daemon thread).
        self._closing.set()
        self._thread.join(CLOSE_SECONDS)
        super().close()


class QueuedAccess:
    """What ``gin-rummy``'s protocol logs accesses through in place of the ``uvicorn.access`` logger.

    uvicorn calls ``access_logger.info(format, *five values)`` for each answer. Where that logger
    writes only to a ``QueuedAccessLog`` (``log_config()``'s configuration), the values go straight
    to its queue: no ``LogRecord`` is made on the event loop, and the health probes are dropped as
    ``QuietHealthProbes`` drops them. Any other configuration is left to the logger itself.
    """

    __slots__ = ("_handler", "_logger")

    def __init__(self, logger: logging.Logger, handler: QueuedAccessLog) -> None:
        self._logger, self._handler = logger, handler

    @classmethod
    def over(cls, logger: logging.Logger) -> QueuedAccess | logging.Logger:
        """A ``QueuedAccess`` for ``logger`` if it writes only to a ``QueuedAccessLog``, else ``logger``."""
        handlers = logger.handlers
        if logger.propagate or len(handlers) != 1 or not isinstance(handlers[0], QueuedAccessLog):
            return logger
        return cls(logger, handlers[0])

    def info(self, msg: str, *args: Any) -> None:
        if len(args) == 5 and self._logger.isEnabledFor(logging.INFO):
            if not _quiet_probe(args):
                self._handler.emit(args)
        else:
            self._logger.info(msg, *args)


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration, its access log queued and filtered (every worker uses it)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["quiet_health_probes"] = {"()": f"{__name__}.QuietHealthProbes"}
    config["formatters"]["access"]["()"] = f"{__name__}.AccessLine"
    access = config["handlers"]["access"]
    del access["class"]
    access["()"] = f"{__name__}.QueuedAccessLog"
    access["filters"] = ["quiet_health_probes"]
    return config
