"""benchmarks.spread: reading wrk's report, and the app whose fixed work stands in for a request."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from benchmarks.spread import BODY, app, main, parse_wrk, work

# wrk 4.1.0's report for a run with --latency (figures invented; the layout is wrk's).
REPORT = """Running 15s test @ http://127.0.0.1:41201
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency    81.92ms   12.35ms   1.19s    91.12%
    Req/Sec   637.95     61.13   747.00     71.33%
  Latency Distribution
     50%   77.82ms
     75%   80.12ms
     90%   84.40ms
     99%    1.19s
  9569 requests in 15.01s, 112.57MB read
  Socket errors: connect 0, read 2, write 1, timeout 3
  Non-2xx or 3xx responses: 4
Requests/sec:    637.24
Transfer/sec:      7.50MB
"""


def test_wrks_report_is_read_in_milliseconds_whatever_its_units() -> None:
    run = parse_wrk(REPORT)
    assert (run.rate, run.p50_ms, run.p99_ms, run.requests) == (637.24, 77.82, 1190.0, 9569)
    assert run.errors == 2 + 1 + 3 + 4
    assert run.ratio == pytest.approx(1190.0 / 77.82)
    assert parse_wrk(REPORT.replace("77.82ms", "950.00us")).p50_ms == pytest.approx(0.95)


def test_a_report_without_its_percentiles_is_an_error_not_a_zero() -> None:
    with pytest.raises(RuntimeError, match="99%"):
        parse_wrk(REPORT.replace("     99%    1.19s\n", ""))


def test_the_work_is_the_same_for_the_same_units() -> None:
    assert work(1000) == work(1000) == sum(i * i % 7 for i in range(1000))


def test_the_app_answers_any_request_with_a_tables_worth_of_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    async def ask(mode: str) -> httpx.Response:
        monkeypatch.setenv("GIN_SPREAD_MODE", mode)
        monkeypatch.setenv("GIN_SPREAD_AMOUNT", "0.2" if mode == "cpu" else "500")
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://spread") as client:
            return await client.post("/game/act", content=b"a" * 900)

    for mode in ("cpu", "work"):
        answer = asyncio.run(ask(mode))
        assert answer.status_code == 200 and answer.content == BODY


@pytest.mark.slow
def test_the_command_serves_both_apps_under_wrk_and_says_what_cpu_a_request_may_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--duration", "1", "--work-ms", "0.5", "--connections", "5"]) == 0
    lines = capsys.readouterr().out.splitlines()
    cpu = next(line for line in lines if line.startswith("fixed CPU time (0.5 ms)"))
    fixed = next(line for line in lines if line.startswith("fixed work ("))
    for line in (cpu, fixed):
        rate, p50, p99, _ratio, _cpu, errors = line.rsplit(maxsplit=6)[-6:]
        assert float(rate) > 0 and 0 < float(p50) <= float(p99) and errors == "0"
    assert lines[-1].startswith("at the fixed work's p99/p50 of ")
    assert lines[-1].endswith(" ms of CPU a request")
