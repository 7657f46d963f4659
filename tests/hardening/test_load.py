"""The short load run: 50 connections for 10 s of game moves, then of a static page, with zero errors.

The figures are printed (``python -m benchmarks.load`` is the full 60-second run); only the
error count is asserted here, since speed on a shared CI machine says little.
"""

from __future__ import annotations

import pytest

from benchmarks.load import describe, run
from tests.ci import required_tool

pytestmark = pytest.mark.slow


@pytest.fixture
def wrk() -> str:
    return required_tool("wrk", "apt-get install wrk")


def test_ten_seconds_of_load_without_a_single_error(wrk: str, capsys: pytest.CaptureFixture[str]) -> None:
    report = run(duration=10, connections=50, games=12)
    with capsys.disabled():
        print("\n" + describe(report))
    assert report.prepared["draw"] > 0 and report.prepared["discard"] > 0 and report.prepared["new"] > 0
    # Both runs really happened: a server that answered nothing would also have "no errors".
    assert report.game.requests > 100 and report.static.requests > 100
    assert report.game.statuses == {"200": report.game.requests}
    assert report.static.statuses == {"200": report.static.requests}
    assert report.errors == 0, describe(report)
