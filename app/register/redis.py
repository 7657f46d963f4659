"""The register for several replicas: a Redis server (``GIN_REGISTER_URL=redis://host:6379/0``).

Each match is one key, ``gin-rummy:latest:<match id>``, holding the latest token and expiring
after ``GIN_REGISTER_IDLE_SECONDS`` without a request. The compare and set is a Lua script,
which Redis runs atomically: no other command runs between its read and its write.

A busy worker has many requests in flight, and each used to send its own swap: redis-py's
path through its connection pool, for one command and its answer, was most of what a request
paid Redis. So the swaps that requests make while one batch is on its way wait for it and
then go together, one pipeline (not a transaction: each script is atomic on its own, and
they run in the order they were asked for). A lone request's swap goes at once, as before.

What it guarantees follows Redis's own persistence: with ``appendonly yes`` and
``appendfsync everysec`` a crash loses at most about a second of moves, and a failover to a
replica the moves not yet copied to it; a lost move reads as an unknown match, and the
browser's save is taken as it is posted.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from hashlib import sha1
from urllib.parse import urlsplit, urlunsplit

import redis.asyncio
from redis.exceptions import NoScriptError, RedisError

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


@dataclass(slots=True)
class _Swap:
    key: str
    expected: str
    latest: str
    answer: asyncio.Future[str | None]


class RedisRegister:
    """The latest token of each match in Redis; see the module's docstring."""

    def __init__(self, client: redis.asyncio.Redis, url: str, idle_seconds: int) -> None:
        self._client = client
        self._swap_sha = sha1(_SWAP.encode()).hexdigest()
        self.name = f"Redis at {redacted(url)}"
        self._idle_ms = str(idle_seconds * 1000)
        self._waiting: list[_Swap] = []  # asked for while a batch was on its way
        self._sender: asyncio.Task[None] | None = None

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
            await client.script_load(_SWAP)  # the first swaps need not be refused and sent again
        except (RegisterUnavailable, RedisError, OSError) as error:
            await client.aclose()
            raise StartupError(
                f"the move register at {redacted(url)} does not answer ({error.__cause__ or error}): "
                "start Redis there, or correct GIN_REGISTER_URL"
            ) from None
        return register

    async def swap(self, match: str, expected: str, latest: str) -> str | None:
        swap = _Swap(KEY_PREFIX + match, expected, latest, asyncio.get_running_loop().create_future())
        self._waiting.append(swap)
        if self._sender is None:
            self._sender = asyncio.create_task(self._send_waiting())
        return await swap.answer

    async def _send_waiting(self) -> None:
        """Send what is waiting, one batch at a time, until nothing is."""
        batch: list[_Swap] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting, []
                await self._send(batch)
        except BaseException as error:  # cancelled at shutdown: no request is left waiting
            for swap in (*batch, *self._waiting):
                if not swap.answer.done():
                    swap.answer.set_exception(RegisterUnavailable(f"{self.name}: {error!r}"))
            self._waiting = []
            raise
        finally:
            self._sender = None

    async def _send(self, batch: list[_Swap]) -> None:
        try:
            answers = await self._pipeline(batch)
        except (RedisError, OSError) as error:
            answers = [error] * len(batch)
        refused = [n for n, answer in enumerate(answers) if isinstance(answer, NoScriptError)]
        if refused:
            # Redis restarted or its scripts were flushed. A refused script did nothing, so those swaps
            # are sent again; the others stand, whatever happens to these.
            try:
                await self._client.script_load(_SWAP)
                again = await self._pipeline([batch[n] for n in refused])
            except (RedisError, OSError) as error:
                again = [error] * len(refused)
            for n, answer in zip(refused, again, strict=True):
                answers[n] = answer
        for swap, answer in zip(batch, answers, strict=True):
            if swap.answer.done():  # its request was cancelled
                continue
            if isinstance(answer, BaseException):
                swap.answer.set_exception(RegisterUnavailable(f"{self.name}: {answer}"))
            else:
                swap.answer.set_result(answer if isinstance(answer, str) else None)

    async def _pipeline(self, batch: list[_Swap]) -> list[object]:
        async with self._client.pipeline(transaction=False) as pipe:
            for swap in batch:
                pipe.evalsha(self._swap_sha, 1, swap.key, swap.expected, swap.latest, self._idle_ms)
            answers: list[object] = await pipe.execute(raise_on_error=False)
        return answers

    async def ping(self) -> None:
        try:
            await self._client.set(HEALTH_KEY, str(time.time()), px=60_000)
            await self._client.get(HEALTH_KEY)
        except (RedisError, OSError) as error:
            raise RegisterUnavailable(f"{self.name}: {error}") from error

    async def close(self) -> None:
        await self._client.aclose()
