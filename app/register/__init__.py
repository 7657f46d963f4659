"""The move register: per match, the latest sealed game this server handed out.

The browser keeps the save; the register only makes sure each save is played once. Every
answer that carries a token goes through ``Register.swap``: it becomes the match's latest token
if the request came with the latest one (or with any token of a match the register does not
know: wiped, or idle past ``GIN_REGISTER_IDLE_SECONDS``). Otherwise nothing is stored, and the
caller gets the latest token to show instead: an older page, a second tab, a replayed save or
the loser of a double tap sees the position the server already played, and plays nothing.

Two stores, chosen by ``GIN_REGISTER_URL``:

- empty (the default): a SQLite file in the data directory (``app.register.sqlite``), shared
  by the workers of one machine;
- ``redis://…``, ``rediss://…`` or ``unix://…``: a Redis server (``app.register.redis``),
  shared by any number of replicas.

Both compare and set in one atomic step; ``docs/operations.md`` says what each guarantees.
"""

from __future__ import annotations

from typing import Protocol

from app.settings import Settings

__all__ = ["REDIS_SCHEMES", "Register", "RegisterUnavailable", "open_register"]

REDIS_SCHEMES = ("redis", "rediss", "unix")


class RegisterUnavailable(Exception):
    """The register could not be read or written (so nothing may be played); the message is for the log."""


class Register(Protocol):
    """Where each match's latest sealed token is kept."""

    name: str
    """What the register is, for messages (``SQLite file data/register.sqlite3``); never a password."""

    async def swap(self, match: str, expected: str, latest: str) -> str | None:
        """Make ``latest`` the match's token if it now holds ``expected`` or nothing: ``None``.

        Otherwise store nothing and return the token it holds. Atomic: of several calls with the
        same ``expected``, exactly one succeeds. Raises ``RegisterUnavailable``.
        """
        ...

    async def ping(self) -> None:
        """Touch the store (a read and a write); ``RegisterUnavailable`` if it does not answer."""
        ...

    async def close(self) -> None: ...


async def open_register(settings: Settings) -> Register:
    """The register ``settings`` name, opened and tried; ``app.startup.StartupError`` if it cannot be."""
    scheme = settings.register_url.partition(":")[0].lower()
    if scheme in REDIS_SCHEMES:
        from app.register.redis import RedisRegister

        return await RedisRegister.open(settings.register_url, idle_seconds=settings.register_idle_seconds)
    from app.register.sqlite import SQLiteRegister

    return SQLiteRegister.open(settings.data_dir / SQLITE_FILE_NAME, idle_seconds=settings.register_idle_seconds)


SQLITE_FILE_NAME = "register.sqlite3"
