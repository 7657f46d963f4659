"""The short load run: 50 connections for 10 s of game moves, then of a static page, with zero errors,
with each store of the move register.

The figures are printed (``python -m benchmarks.load`` is the full 60-second run); only the
error count is asserted here, since speed on a shared CI machine says little.
"""

from __future__ import annotations

import pytest

from benchmarks.load import describe, run
from tests.ci import required_tool
from tests.redis_server import redis_server_binary

pytestmark = pytest.mark.slow


@pytest.fixture
def wrk() -> str:
    return required_tool("wrk", "apt-get install wrk")


@pytest.mark.parametrize("register", ["sqlite", "redis"])
def test_ten_seconds_of_load_without_a_single_error(
    wrk: str, register: str, capsys: pytest.CaptureFixture[str]
) -> None:
    if register == "redis":
        redis_server_binary()  # skips locally, fails in CI, without it
    report = run(duration=10, connections=50, register=register)
    with capsys.disabled():
        print("\n" + describe(report))
    # Every connection played: new matches, draws and discards, and every answer was a table.
    kinds = report.game.kinds
    assert kinds["new"] > 0 and kinds["draw"] > 0 and kinds["discard"] > 0, kinds
    assert kinds.get("lost", 0) == 0, kinds
    # Both runs really happened: a server that answered nothing would also have "no errors".
    assert report.game.requests > 100 and report.static.requests > 100
    assert report.game.statuses == {"200": report.game.requests}
    assert report.static.statuses == {"200": report.static.requests}
    assert report.errors == 0, describe(report)
