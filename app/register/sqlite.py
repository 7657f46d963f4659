"""The default register: one SQLite file in the data directory, shared by the workers of one machine.

Write-ahead logging lets readers and the one writer work at once; each swap is a single
``INSERT … ON CONFLICT DO UPDATE … WHERE`` statement, which SQLite runs as one transaction
under its write lock, so of two workers swapping the same match from the same token exactly
one changes the row. A statement takes tens of microseconds, so it runs on the event loop
rather than paying for a hand-off to a thread; a lock held elsewhere longer than
``BUSY_SECONDS`` makes the swap fail (``RegisterUnavailable``), and nothing is played.

``synchronous=NORMAL``: a commit survives the server process dying at any moment; a power
cut may lose the last moves, which then read as unknown matches (their saves are taken as the
browser posts them).

A commit in WAL mode with ``synchronous=NORMAL`` only appends to the log; the fsyncs happen when
the log is copied back into the database (a checkpoint). SQLite would run that inside whichever
commit fills the log, on the event loop, where a slow disk stalls every request in flight for as
long as the fsync takes. So the swaps never checkpoint (``wal_autocheckpoint=0``): a thread of
the register's own does, every ``CHECKPOINT_SECONDS``, on a connection of its own, passively
(it never waits for, nor blocks, a swap).

A passive checkpoint copies the log into the database, but SQLite starts the log afresh only
when a write begins with every frame copied; under steady load some swap always lands during
the copy, so the log grew without end (120 MB after 15 s of ``benchmarks.load``). So when the
log is over ``RESTART_FRAMES`` after a passive checkpoint, the thread asks for a restarting one:
it has next to nothing left to copy, and holds the swaps back only for its one fsync (about
2 ms here), once every few seconds under full load and never at a quiet time.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from pathlib import Path

from app.register import RegisterUnavailable
from app.startup import StartupError, check_data_dir

__all__ = ["BUSY_SECONDS", "CHECKPOINT_SECONDS", "RESTART_FRAMES", "SQLiteRegister"]

BUSY_SECONDS = 2.0
CHECKPOINT_SECONDS = 1.0
RESTART_FRAMES = 4096  # 16 MB of 4 KB pages: a few seconds of one busy worker's swaps
LOG_SIZE_LIMIT = RESTART_FRAMES * 4096  # bytes the log's file is cut back to when it starts afresh
SWEEP_EVERY_SECONDS = 600.0
REFRESH_SECONDS = 3600.0  # how old a match's ``touched`` may grow before a swap writes it again
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS latest (match TEXT PRIMARY KEY, token TEXT NOT NULL, touched REAL NOT NULL)",
    "CREATE INDEX IF NOT EXISTS latest_touched ON latest (touched)",
    "CREATE TABLE IF NOT EXISTS health (id INTEGER PRIMARY KEY CHECK (id = 1), touched REAL NOT NULL)",
)
# The row changes only if it holds the expected token, or has been idle too long (an expired
# match is as good as unknown); an absent row is inserted. One statement: atomic.
_SWAP = (
    "INSERT INTO latest (match, token, touched) VALUES (:match, :latest, :now) "
    "ON CONFLICT (match) DO UPDATE SET token = excluded.token, touched = excluded.touched "
    "WHERE latest.token = :expected OR latest.touched < :expired"
)
# Most swaps: the match moves on from the token the register holds, touched lately. The token alone
# changes, which leaves the index on ``touched`` alone (see ``SQLiteRegister._swap``).
_MOVE = "UPDATE latest SET token = :latest WHERE match = :match AND token = :expected AND touched >= :fresh"
_READ = "SELECT token FROM latest WHERE match = ?"
_TOUCH_HEALTH = (
    "INSERT INTO health (id, touched) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET touched = excluded.touched"
)


class SQLiteRegister:
    """The latest token of each match in a SQLite table; see the module's docstring."""

    def __init__(self, connection: sqlite3.Connection, path: Path, idle_seconds: int) -> None:
        self._db = connection
        self.path = path
        self.name = f"SQLite file {path}"
        self.idle_seconds = idle_seconds
        # An idle match so expires up to this much sooner than ``idle_seconds`` after its last move.
        self._refresh_seconds = min(REFRESH_SECONDS, idle_seconds / 2)
        self._next_sweep = 0.0
        self._closing = threading.Event()
        self._checkpointer = threading.Thread(
            target=self._checkpoint_until_closed, name="register-checkpoint", daemon=True
        )

    @classmethod
    def open(cls, path: Path, *, idle_seconds: int) -> SQLiteRegister:
        """Open (or make) the register at ``path``; ``StartupError`` with the fix if it cannot be."""
        check_data_dir(path.parent)
        try:
            # Autocommit (isolation_level=None): each statement is its own transaction.
            connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None, check_same_thread=False)
            mode = connection.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            connection.execute("PRAGMA synchronous=NORMAL")
            connection.execute("PRAGMA wal_autocheckpoint=0")  # the checkpointer thread's job
            connection.execute(f"PRAGMA journal_size_limit={LOG_SIZE_LIMIT}")  # after a burst
            for statement in _SCHEMA:
                connection.execute(statement)
        except sqlite3.DatabaseError as error:
            raise StartupError(
                f"the move register {path} cannot be opened ({error}): move the file away and restart "
                "(a new register is made; games go on from the saves in the browsers)"
            ) from None
        if mode != "wal":
            raise StartupError(
                f"the move register {path} cannot use write-ahead logging: put GIN_DATA_DIR on a local disk"
            )
        register = cls(connection, path, idle_seconds)
        register._sweep(time.time())
        register._checkpointer.start()
        return register

    async def swap(self, match: str, expected: str, latest: str) -> str | None:
        try:
            return self._swap(match, expected, latest)
        except sqlite3.Error as error:
            raise RegisterUnavailable(f"{self.name}: {error}") from None

    def _swap(self, match: str, expected: str, latest: str) -> str | None:
        now = time.time()
        values = {
            "match": match,
            "latest": latest,
            "now": now,
            "expected": expected,
            "expired": now - self.idle_seconds,
            "fresh": now - self._refresh_seconds,
        }
        # A move from the held token of a match touched within the refresh period changes the
        # token alone: ``touched`` and its index stay as they are, which took a swap from about
        # 52 to 30 µs and its log from 3.3 pages to 1.3 (docs/load-experiments.md, "Leaner still").
        # Anything else (a new match, one touched longer ago, a refused or expired token) goes
        # through the upsert below, which also sets ``touched``. Each statement is atomic alone.
        moved = self._db.execute(_MOVE, values).rowcount == 1
        # Between a refused swap and the read, the row can only move on (or, swept, vanish: then
        # the match is unknown and the swap is tried again, as the register would have taken it).
        for _ in range(3):
            if moved or self._db.execute(_SWAP, values).rowcount == 1:
                if now >= self._next_sweep:
                    self._sweep(now)
                return None
            row = self._db.execute(_READ, (match,)).fetchone()
            if row is not None:
                token: str = row[0]
                return token
        raise RegisterUnavailable(f"{self.name}: match {match} kept vanishing")

    def _sweep(self, now: float) -> None:
        # Idle matches are forgotten: an expired row is ignored by the swap anyway; this keeps the file small.
        self._db.execute("DELETE FROM latest WHERE touched < ?", (now - self.idle_seconds,))
        self._next_sweep = now + SWEEP_EVERY_SECONDS

    async def ping(self) -> None:
        try:
            self._db.execute(_TOUCH_HEALTH, (time.time(),))
            self._db.execute(_READ, ("",)).fetchone()
        except sqlite3.Error as error:
            raise RegisterUnavailable(f"{self.name}: {error}") from None

    def _checkpoint_until_closed(self) -> None:
        checkpoints = sqlite3.connect(
            self.path, timeout=CHECKPOINT_SECONDS, isolation_level=None, check_same_thread=False
        )
        try:
            while not self._closing.wait(CHECKPOINT_SECONDS):
                # Another worker's checkpoint may be running, or the disk failing (the swaps say so).
                with contextlib.suppress(sqlite3.Error):
                    _checkpoint(checkpoints)
        finally:
            checkpoints.close()

    async def close(self) -> None:
        self._closing.set()
        self._checkpointer.join()
        self._db.close()


def _checkpoint(connection: sqlite3.Connection) -> None:
    """Copy the log into the database; if the log has grown long, have the next swap start it afresh."""
    _busy, frames, _copied = connection.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
    if frames > RESTART_FRAMES:
        # Waits (the connection's timeout) for the swap holding the write lock, if one is.
        connection.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
