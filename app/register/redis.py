"""The register for several replicas: a Redis server (``GIN_REGISTER_URL=redis://host:6379/0``).

Each match is one key, ``gin-rummy:latest:<match id>``, holding the latest token and expiring
after ``GIN_REGISTER_IDLE_SECONDS`` without a request. The compare and set is a Lua script,
which Redis runs atomically: no other command runs between its read and its write.

What it guarantees follows Redis's own persistence: with ``appendonly yes`` and
``appendfsync everysec`` a crash loses at most about a second of moves, and a failover to a
replica the moves not yet copied to it; a lost move reads as an unknown match, and the
browser's save is taken as it is posted.
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio
from redis.exceptions import RedisError

from app.register import RegisterUnavailable
from app.startup import StartupError

__all__ = ["KEY_PREFIX", "RedisRegister", "redacted"]

KEY_PREFIX = "gin-rummy:latest:"
HEALTH_KEY = "gin-rummy:health"
TIMEOUT_SECONDS = 2.0
# KEYS[1] the match; ARGV: the expected token, the new one, the idle time in ms. Returns nil
# when the new token was stored, else the match's token (unchanged).
_SWAP = """
local current = redis.call('GET', KEYS[1])
if current == false or current == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return false
end
return current
"""


def redacted(url: str) -> str:
    """``url`` without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username or ''}:***@{host}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class RedisRegister:
    """The latest token of each match in Redis; see the module's docstring."""

    def __init__(self, client: redis.asyncio.Redis, url: str, idle_seconds: int) -> None:
        self._client = client
        self._swap_script: Any = client.register_script(_SWAP)
        self.name = f"Redis at {redacted(url)}"
        self._idle_ms = str(idle_seconds * 1000)

    @classmethod
    async def open(cls, url: str, *, idle_seconds: int) -> RedisRegister:
        """Connect and try the server; ``StartupError`` with the fix if it does not answer."""
        try:
            client = redis.asyncio.Redis.from_url(
                url, socket_timeout=TIMEOUT_SECONDS, socket_connect_timeout=TIMEOUT_SECONDS, decode_responses=True
            )
        except ValueError as error:
            raise StartupError(f"GIN_REGISTER_URL is not a Redis URL ({error}): use redis://host:6379/0") from None
        register = cls(client, url, idle_seconds)
        try:
            await register.ping()
        except RegisterUnavailable as error:
            await client.aclose()
            raise StartupError(
                f"the move register at {redacted(url)} does not answer ({error.__cause__ or error}): "
                "start Redis there, or correct GIN_REGISTER_URL"
            ) from None
        return register

    async def swap(self, match: str, expected: str, latest: str) -> str | None:
        try:
            current: str | None = await self._swap_script(
                keys=[KEY_PREFIX + match], args=[expected, latest, self._idle_ms]
            )
        except (RedisError, OSError) as error:
            raise RegisterUnavailable(f"{self.name}: {error}") from error
        return current

    async def ping(self) -> None:
        try:
            await self._client.set(HEALTH_KEY, str(time.time()), px=60_000)
            await self._client.get(HEALTH_KEY)
        except (RedisError, OSError) as error:
            raise RegisterUnavailable(f"{self.name}: {error}") from error

    async def close(self) -> None:
        await self._client.aclose()
