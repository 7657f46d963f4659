"""How much of the load test's tail is the machine's: ``python -m benchmarks.spread [--work-ms 1.6]``.

    python -m benchmarks.spread [--work-ms 1.6] [--duration 15] [--connections 50] [--rounds 1]

With 50 requests always in flight on one worker, the median latency is 50 ÷ the request rate,
whatever the app; what the p99 adds over it is the server's and the machine's. This serves an app
that does nothing but a fixed amount of work per request (and answers 12 KB, as a table does) on
one uvicorn worker set up as ``gin-rummy``'s (asyncio's loop, httptools), and runs ``wrk`` against
it twice:

- *fixed CPU time*: each request spins until its process has used ``--work-ms`` more CPU time.
  A slow spell of the machine makes that take no longer in CPU time, so this shows the server's
  own fairness and nothing of the machine.
- *fixed work*: each request runs the same pure-Python loop, sized just before the run to take
  ``--work-ms`` of CPU. A slow spell makes it take longer, as it makes a game request take longer.

If the game's p99 ÷ p50 (``python -m benchmarks.load``) is about the fixed work's and well above
the fixed CPU time's, the game's tail is the machine's speed moving, not anything in the game's
requests, and only less CPU a request brings the p99 down: under ``TARGET_P99_MS`` it needs at
most that target ÷ (connections × the fixed work's ratio) of CPU a request (docs/load-experiments.md,
"The machine's own spread"). Needs ``wrk`` (``apt-get install wrk``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from starlette.types import Receive, Scope, Send

from benchmarks.load import TARGET_P99_MS, session_cpu_seconds
from devtools.live import running_server

__all__ = ["Run", "app", "parse_wrk", "units_for", "work"]

BODY = b"x" * 12_000
"""About the size of a table's answer."""
POST = """wrk.method = "POST"
wrk.body = string.rep("a", 900)
wrk.headers["Content-Type"] = "application/x-www-form-urlencoded"
"""
"""wrk's script: a form post about the size of a move's."""
_MODE, _AMOUNT = "GIN_SPREAD_MODE", "GIN_SPREAD_AMOUNT"


def work(units: int) -> int:
    """A fixed amount of pure-Python work: the interpreter's loop and small-integer arithmetic, as a request's."""
    total = 0
    for i in range(units):
        total += i * i % 7
    return total


def units_for(milliseconds: float, *, trials: int = 7) -> int:
    """How many ``work`` units take ``milliseconds`` of CPU on this machine now (the median of ``trials``)."""
    probe = 200_000
    times = []
    for _ in range(trials):
        started = time.process_time()
        work(probe)
        times.append(time.process_time() - started)
    return max(1, round(probe * milliseconds / 1000 / statistics.median(times)))


async def app(scope: Scope, receive: Receive, send: Send) -> None:
    """The served app: every request (``/healthz`` too) does the environment's amount of work and answers 200."""
    if scope["type"] != "http":
        return
    while (await receive()).get("more_body"):
        pass
    amount = float(os.environ.get(_AMOUNT, "0"))
    if os.environ.get(_MODE) == "cpu":
        until = time.process_time() + amount / 1000
        while time.process_time() < until:
            pass
    else:
        work(int(amount))
    headers = [(b"content-type", b"text/html"), (b"content-length", str(len(BODY)).encode())]
    await send({"type": "http.response.start", "status": 200, "headers": headers})
    await send({"type": "http.response.body", "body": BODY})


@dataclass(frozen=True)
class Run:
    """One wrk run's figures, from its ``--latency`` report."""

    rate: float
    p50_ms: float
    p99_ms: float
    requests: int
    errors: int
    cpu_ms_per_request: float = 0.0

    @property
    def ratio(self) -> float:
        return self.p99_ms / self.p50_ms if self.p50_ms else 0.0


_SECONDS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60_000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * _SECONDS[unit]


def parse_wrk(output: str) -> Run:
    """The figures of wrk's ``--latency`` report (``Run.cpu_ms_per_request`` left at 0)."""

    def found(pattern: str) -> str:
        match = re.search(pattern, output, re.MULTILINE)
        if match is None:
            raise RuntimeError(f"wrk's report has no {pattern!r}:\n{output}")
        return match.group(1)

    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", output))
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return Run(
        rate=float(found(r"^Requests/sec:\s+([\d.]+)")),
        p50_ms=_ms(found(r"^\s+50%\s+(\S+)")),
        p99_ms=_ms(found(r"^\s+99%\s+(\S+)")),
        requests=int(found(r"^\s+(\d+) requests in")),
        errors=errors + (int(non_2xx.group(1)) if non_2xx else 0),
    )


def measure(mode: str, amount: float, *, duration: int, connections: int) -> Run:
    """Serve ``app`` with ``mode`` (``cpu``: milliseconds; ``work``: units) and run wrk against it."""
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    command = [sys.executable, "-m", "uvicorn", "benchmarks.spread:app", "--host", "127.0.0.1", "--port", "{port}"]
    command += ["--loop", "asyncio", "--http", "httptools", "--no-access-log", "--log-level", "warning"]
    with tempfile.TemporaryDirectory(prefix="gin-spread-") as scratch:
        script = Path(scratch) / "post.lua"
        script.write_text(POST)
        env = {_MODE: mode, _AMOUNT: str(amount)}
        with running_server(Path(scratch), command=command, env=env) as server:
            before = session_cpu_seconds(server.pid)
            options = [f"--connections={connections}", f"--duration={duration}s", "--timeout=5s", "--latency"]
            result = subprocess.run(
                [wrk, "--threads=1", *options, f"--script={script}", server.base_url],
                capture_output=True,
                text=True,
                timeout=duration + 60,
                check=True,
            )
            cpu = session_cpu_seconds(server.pid) - before
    run = parse_wrk(result.stdout)
    return replace(run, cpu_ms_per_request=1000 * cpu / max(1, run.requests))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--work-ms", type=float, default=1.6, help="CPU milliseconds a request (default 1.6)")
    parser.add_argument("--duration", type=int, default=15, help="seconds per wrk run (default 15)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=1, help="pairs of runs, alternating (default 1)")
    options = parser.parse_args(argv)
    if not 0.1 <= options.work_ms <= 50 or not 1 <= options.duration <= 600 or options.rounds < 1:
        parser.error("--work-ms takes 0.1 to 50, --duration 1 to 600 s, --rounds 1 or more")
    print(
        f"one uvicorn worker (asyncio, httptools), wrk with {options.connections} connections, "
        f"{options.duration} s a run; answers of {len(BODY) // 1000} KB; load average before "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(f"{'':<34} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'p99/p50':>8} {'CPU ms/req':>10} {'errors':>7}")
    worst = 0.0
    for _ in range(options.rounds):
        units = units_for(options.work_ms)
        for name, mode, amount in (
            (f"fixed CPU time ({options.work_ms:g} ms)", "cpu", options.work_ms),
            (f"fixed work ({units:,} units)", "work", units),
        ):
            run = measure(mode, amount, duration=options.duration, connections=options.connections)
            print(
                f"{name:<34} {run.rate:>8.1f} {run.p50_ms:>8.1f} {run.p99_ms:>8.1f} {run.ratio:>8.2f}"
                f" {run.cpu_ms_per_request:>10.3f} {run.errors:>7}"
            )
            if mode == "work":
                worst = max(worst, run.ratio)
    if worst:
        need = TARGET_P99_MS / (options.connections * worst)
        print(
            f"\nat the fixed work's p99/p50 of {worst:.2f}, a p99 under {TARGET_P99_MS:.0f} ms with "
            f"{options.connections} requests in flight needs at most {need:.2f} ms of CPU a request"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
