"""uvicorn's logging, with the access log written by a thread of its own, less one line.

The access log is written off the event loop. A line written on the loop is a ``write`` to
stdout in the middle of serving: a few microseconds each when the reader keeps up, but a pipe
whose reader stops (a stuck log shipper, a paused terminal) fills, and every request of the
worker then waits on it. ``QueuedAccessLog`` keeps each record in a bounded queue, and a
thread of its own formats and writes them, ten times a second; when the queue is full (the
reader has stopped for a long while), lines are dropped and counted, rather than the game
stalling or the memory growing. The error log stays as uvicorn has it: it is rare, and it must not lose a line.

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
from typing import Any, TextIO

from uvicorn.config import LOGGING_CONFIG

__all__ = ["QUEUED_LINES", "QueuedAccessLog", "QuietHealthProbes", "log_config"]

HEALTH_PATH = "/healthz"
QUEUED_LINES = 10_000
"""Access lines waiting to be written, at most (a few MB): about 20 s of one busy worker."""
WRITE_SECONDS = 0.1
"""How often the waiting lines are written: a line appears at most this late."""
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
        self._waiting: deque[logging.LogRecord] = deque()
        self._closing = threading.Event()
        self._thread = threading.Thread(target=self._write_until_closed, name="access-log", daemon=True)
        self._thread.start()

    def emit(self, record: logging.LogRecord) -> None:
        # Not formatted here: the thread formats it, off the loop. uvicorn makes each record
        # afresh, with arguments that are plain values, so it can be handed on as is.
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
            record = self._waiting.popleft()
            try:
                lines.append(self.format(record) + "\n")
            except Exception:
                self.handleError(record)
        if lines:
            try:
                self.stream.write("".join(lines))
                self.stream.flush()
            except Exception:
                self.handleError(record)

    def close(self) -> None:
        # Writes what is waiting, then stops the thread. A reader that never came back keeps the
        # thread in its write: the process does not wait for it (a daemon thread).
        self._closing.set()
        self._thread.join(CLOSE_SECONDS)
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
