"""Fixtures shared across the test packages: a real Redis server for the move register."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import pytest

from tests.redis_server import RedisServer, running_redis


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    """One ``redis-server`` for the session (started on first use)."""
    with running_redis() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisServer) -> str:
    """The session's Redis, emptied first: each test starts with a register that knows no match."""
    with socket.create_connection(("127.0.0.1", redis_server.port), timeout=5) as connection:
        connection.sendall(b"FLUSHALL\r\n")
        assert connection.recv(64).startswith(b"+OK")
    return redis_server.url
