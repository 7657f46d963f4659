"""uvicorn's logging, with the access log written by a thread of its own, less one line.

The access log is written off the event loop. A line written on the loop is a ``write`` to
stdout in the middle of serving: a few microseconds each when the reader keeps up, but a pipe
whose reader stops (a stuck log shipper, a paused terminal) fills, and every request of the
worker then waits on it. ``QueuedAccessLog`` hands each record to a bounded queue, and a
thread of its own formats and writes it; when the queue is full (the reader has stopped
for a long while), lines are dropped and counted, rather than the game stalling or the memory
growing. The error log stays as uvicorn has it: it is rare, and it must not lose a line.

A successful health probe is not logged. The container's health check asks ``GET /healthz``
every 5 s (and a proxy may too), which would be 17,280 identical access-log lines a day burying
the requests that matter. Only answers of 200 are dropped: a failing probe (503) is still
logged, and so is every other request.
"""

from __future__ import annotations

import contextlib
import copy
import logging
import queue
import threading
from logging.handlers import QueueHandler
from typing import Any, TextIO

from uvicorn.config import LOGGING_CONFIG

__all__ = ["QUEUED_LINES", "QueuedAccessLog", "QuietHealthProbes", "log_config"]

HEALTH_PATH = "/healthz"
QUEUED_LINES = 10_000
"""Access lines waiting to be written, at most (a few MB): about 20 s of one busy worker."""
CLOSE_SECONDS = 2.0
"""How long closing waits for the queued lines to be written (a reader that stopped never takes them)."""


class QuietHealthProbes(logging.Filter):
    """Drops uvicorn access records of ``GET /healthz`` answered 200."""

    def filter(self, record: logging.LogRecord) -> bool:
        # uvicorn logs an access as (client address, method, path with query, HTTP version, status).
        if isinstance(record.args, tuple) and len(record.args) == 5:
            _, method, path, _, status = record.args
            return not (method in ("GET", "HEAD") and path == HEALTH_PATH and status == 200)
        return True


class QueuedAccessLog(QueueHandler):
    """Queues each record for a thread that formats and writes it to ``stream`` (see the module's docstring).

    Its formatter is the writing handler's: formatting happens in the thread too.
    """

    def __init__(self, stream: TextIO, max_lines: int = QUEUED_LINES) -> None:
        super().__init__(queue.Queue(max_lines))
        self.writer = logging.StreamHandler(stream)
        self.dropped = 0
        """Records dropped because the queue was full."""
        self._thread = threading.Thread(target=self._write, name="access-log", daemon=True)
        self._thread.start()

    def _write(self) -> None:
        while (record := self.queue.get()) is not None:
            self.writer.handle(record)

    def setFormatter(self, fmt: logging.Formatter | None) -> None:
        # The formatter logging's configuration gives this handler (uvicorn's access format) is the writer's.
        self.writer.setFormatter(fmt)

    def prepare(self, record: logging.LogRecord) -> logging.LogRecord:
        # Not formatted here (QueueHandler's default): the writer formats it, off the loop. uvicorn
        # makes each record afresh, with arguments that are plain values, so it can be handed on as is.
        return record

    def enqueue(self, record: logging.LogRecord) -> None:
        try:
            self.queue.put_nowait(record)
        except queue.Full:
            self.dropped += 1

    def close(self) -> None:
        # Writes what is queued, then stops the thread. A reader that never came back keeps the
        # queue full and the thread waiting: the process does not wait for it (a daemon thread).
        with contextlib.suppress(queue.Full):
            self.queue.put_nowait(None)
        self._thread.join(CLOSE_SECONDS)
        self.writer.flush()
        super().close()


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration, its access log queued and filtered (every worker uses it)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["quiet_health_probes"] = {"()": f"{__name__}.QuietHealthProbes"}
    access = config["handlers"]["access"]
    del access["class"]
    access["()"] = f"{__name__}.QueuedAccessLog"
    access["filters"] = ["quiet_health_probes"]
    return config
