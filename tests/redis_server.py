"""A real ``redis-server`` for the register's tests (``devtools.live.running_redis``).

``.ci/run`` installs Debian's package; without it the tests that need it skip locally and fail in CI.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from devtools.live import RedisServer
from devtools.live import running_redis as _running_redis
from tests.ci import required_tool

__all__ = ["RedisServer", "redis_server_binary", "running_redis"]


def redis_server_binary() -> str:
    return required_tool("redis-server", "apt-get install redis-server")


@contextmanager
def running_redis() -> Iterator[RedisServer]:
    """A fresh ``redis-server`` on a free loopback port; stopped afterwards."""
    with _running_redis(redis_server_binary()) as server:
        yield server
