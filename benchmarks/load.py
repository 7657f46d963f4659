"""Load test over loopback with ``wrk``: game moves against a static page of the same server.

    python -m benchmarks.load [--duration 60] [--connections 50] [--workers N] [--levels normal]
                              [--register sqlite|redis] [--python PATH]

Starts ``gin-rummy`` on a free 127.0.0.1 port with a fresh data directory (and, for
``--register redis``, a fresh ``redis-server`` as its move register), then runs ``wrk`` twice:

1. the game mix: each connection plays its own matches (``load.lua``): new matches, draws and
   discards, each posting the save the previous answer carried, as the page does (the move
   register answers any older save with the latest position instead of playing it). Each
   discard includes the computer's whole reply: engine, opponent, render, seal, register;
2. a static page (``/rules`` by default: a page with no game work) for the same time.

It prints requests/s, p50/p99 latency and error counts (non-2xx responses and socket
errors) for both, the ratio of the two request rates, and the server's CPU time (its
processes' user and system time, from ``/proc``) per request and as a share of its workers'
time, then stops the server. The exit status is 1 if any request failed.

The share says whether the figures are the server's own: with 50 requests always in flight a
worker should be busy all the time (about 100%); much less means other processes had its CPU.
Giving them a low ``nice`` is not enough where the kernel groups processes by session
(``/proc/sys/kernel/sched_autogroup_enabled``): the groups share the CPUs equally, whatever
each process's nice (``docs/load-experiments.md``, "Whose CPU it was"). ``wrk`` comes from Debian:
``apt-get install wrk``.

It also names the interpreter that ran the server, and the shared ``libpython`` it calls into, if
any: builds differ (a pyenv build without ``--enable-optimizations`` against Debian's
``/usr/bin/python3.11``, the interpreter of the Docker image's stand-in base), and figures from two
of them are not the same measurement (``docs/load-experiments.md``, "The interpreter"). ``--python`` runs
the server with another environment's interpreter (one where the game's dependencies are installed,
e.g. by ``scripts/install runtime`` in a virtualenv made with it).

The server runs one uvicorn worker per CPU this process may use (``--workers`` overrides it),
as ``docs/operations.md`` recommends deploying it: the targets are for the machine, not for
one core of it.

Each run is bounded: wrk stops itself after ``--duration`` seconds, and the script kills
it (and the server) if it overstays.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from contextlib import ExitStack
from dataclasses import asdict, dataclass
from pathlib import Path

from app.ai import Level
from devtools.live import running_redis, running_server

__all__ = ["Measurement", "Report", "cores", "main", "run"]

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "load.lua"
TARGET_P99_MS = 100.0
TARGET_RATIO = 0.40


@dataclass(frozen=True)
class Measurement:
    """One wrk run, from the Lua script's ``done`` summary."""

    requests: int
    seconds: float
    p50_ms: float
    p99_ms: float
    max_ms: float
    non_2xx: int
    socket_errors: int
    statuses: dict[str, int]
    kinds: dict[str, int]
    cpu_seconds: float
    """The server's processes' CPU time (user and system) during the run."""

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

    @property
    def cpu_ms_per_request(self) -> float:
        return 1000 * self.cpu_seconds / self.requests if self.requests else 0.0

    @property
    def errors(self) -> int:
        return self.non_2xx + self.socket_errors


@dataclass(frozen=True)
class Report:
    game: Measurement
    static: Measurement
    static_path: str
    connections: int
    duration: int
    workers: int
    register: str
    levels: tuple[str, ...]
    load_average: tuple[float, float, float]
    interpreter: str
    """Which interpreter ran the server (``interpreter_of``)."""

    @property
    def ratio(self) -> float:
        return self.game.rate / self.static.rate if self.static.rate else 0.0

    @property
    def errors(self) -> int:
        return self.game.errors + self.static.errors


def cores() -> int:
    """The CPUs this process may run on (its affinity, which a container's cpuset narrows)."""
    return len(os.sched_getaffinity(0))


_TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")


def session_cpu_seconds(session: int) -> float:
    """User and system CPU seconds of the live processes in ``session`` (the server and its workers)."""
    total = 0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            # After the command's closing parenthesis: state, ppid, pgrp, session, ..., utime (12th), stime.
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:  # the process ended meanwhile
            continue
        if int(fields[3]) == session:
            total += int(fields[11]) + int(fields[12])
    return total / _TICKS_PER_SECOND


def interpreter_of(pid: int) -> str:
    """The executable of process ``pid``, and the shared ``libpython`` it runs on, if any.

    Read from ``/proc``, so it names what actually ran, whatever a configuration says: a shared
    library's calls go through indirections a static build does not pay.
    """
    executable = os.readlink(f"/proc/{pid}/exe")
    libraries = sorted(
        {
            line.split()[-1]
            for line in Path(f"/proc/{pid}/maps").read_text().splitlines()
            if "/libpython" in line and ".so" in line
        }
    )
    return f"{executable}, " + (f"shared {', '.join(libraries)}" if libraries else "libpython built in")


def _wrk(
    wrk: str, url: str, *, connections: int, duration: int, threads: int, env: dict[str, str], server_pid: int
) -> Measurement:
    command = [
        wrk,
        f"--threads={threads}",
        f"--connections={connections}",
        f"--duration={duration}s",
        "--timeout=5s",
        f"--script={SCRIPT}",
        url,
    ]
    cpu_before = session_cpu_seconds(server_pid)
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=duration + 60, check=False, env={**env, "PATH": "/usr/bin"}
    )
    cpu_seconds = session_cpu_seconds(server_pid) - cpu_before
    if result.returncode != 0:
        raise RuntimeError(f"wrk failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    found = [line for line in result.stdout.splitlines() if line.startswith("LOAD-SUMMARY ")]
    if not found:
        raise RuntimeError(f"wrk printed no summary:\n{result.stdout}\n{result.stderr}")
    data = json.loads(found[-1].removeprefix("LOAD-SUMMARY "))
    return Measurement(
        requests=data["requests"],
        seconds=data["duration_us"] / 1e6,
        p50_ms=data["p50_us"] / 1000,
        p99_ms=data["p99_us"] / 1000,
        max_ms=data["max_us"] / 1000,
        non_2xx=data["non_2xx"],
        socket_errors=sum(data["socket"].values()),
        statuses={str(k): int(v) for k, v in (data["statuses"] or {}).items()},
        kinds={str(k): int(v) for k, v in (data.get("kinds") or {}).items()},
        cpu_seconds=cpu_seconds,
    )


def run(
    *,
    duration: int = 60,
    connections: int = 50,
    threads: int = 1,
    workers: int | None = None,
    static_path: str = "/rules",
    levels: Sequence[str] = ("normal",),
    register: str = "sqlite",
    warmup: int = 0,
    python: str = sys.executable,
) -> Report:
    """Start a server (and its register), measure the game mix then the static page, stop them."""
    # Another busy process on this machine skews every figure: record how busy it was.
    load_average = os.getloadavg()
    workers = workers or cores()
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    with tempfile.TemporaryDirectory(prefix="gin-load-") as scratch, ExitStack() as stack:
        directory = Path(scratch)
        (directory / "data").mkdir()
        env: dict[str, str] = {}
        if register == "redis":
            env["GIN_REGISTER_URL"] = stack.enter_context(running_redis()).url
        # The server's access log goes to a file, as it would in production (not to this terminal).
        server = stack.enter_context(
            running_server(directory / "data", workers=workers, env=env, command=[python, "-m", "app.cli"])
        )
        interpreter = interpreter_of(server.pid)
        load_env = {"GIN_LOAD_PATH": static_path, "GIN_LOAD_LEVELS": ",".join(levels)}
        if warmup:
            # Not measured: the first requests of a fresh process fill its caches (templates
            # compiled, modules' first use); those seconds are the start, not the steady state.
            _wrk(
                wrk, server.base_url, connections=connections, duration=warmup, threads=connections,
                env={**load_env, "GIN_LOAD_MODE": "game"}, server_pid=server.pid,
            )  # fmt: skip
        # One wrk thread per connection: each thread plays one table, reading every answer.
        game = _wrk(
            wrk, server.base_url, connections=connections, duration=duration, threads=connections,
            env={**load_env, "GIN_LOAD_MODE": "game"}, server_pid=server.pid,
        )  # fmt: skip
        static = _wrk(
            wrk, server.base_url, connections=connections, duration=duration, threads=threads,
            env={**load_env, "GIN_LOAD_MODE": "static"}, server_pid=server.pid,
        )  # fmt: skip
    return Report(
        game, static, static_path, connections, duration, workers, register, tuple(levels), load_average, interpreter
    )


BUSY_ENOUGH = 0.85
"""A worker under 50 connections busy less than this share of the time did not have its CPU to itself
(judged only when a CPU is left for wrk: with a worker on every CPU they share them with it by design)."""


def busy(m: Measurement, workers: int) -> float:
    """The server's CPU time over the run's, per worker: about 1 when nothing else wanted the CPU."""
    return m.cpu_seconds / (m.seconds * workers) if m.seconds else 0.0


def _line(name: str, m: Measurement, workers: int) -> str:
    return (
        f"{name:<22} {m.rate:>9.1f} {m.p50_ms:>9.1f} {m.p99_ms:>9.1f} {m.max_ms:>9.1f} "
        f"{m.non_2xx:>8} {m.socket_errors:>8} {m.cpu_ms_per_request:>10.3f} {busy(m, workers):>6.0%}"
    )


def describe(report: Report) -> str:
    game, static = report.game, report.static
    kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(game.kinds.items()) if count)
    verdict = {
        "zero errors": report.errors == 0,
        f"game p99 under {TARGET_P99_MS:.0f} ms": game.p99_ms < TARGET_P99_MS,
        f"game rate at least {TARGET_RATIO:.0%} of static": report.ratio >= TARGET_RATIO,
    }
    return "\n".join(
        [
            f"wrk over 127.0.0.1: {report.connections} connections, {report.duration} s each, "
            f"{report.workers} uvicorn worker(s); load average before the run "
            + " ".join(f"{x:.2f}" for x in report.load_average)
            + f" on {cores()} CPUs",
            f"game mix: each connection plays its own {'/'.join(report.levels)} matches ({kinds}); "
            f"move register: {report.register}",
            f"server interpreter: {report.interpreter}",
            "",
            f"{'':<22} {'req/s':>9} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9} {'non-2xx':>8} {'socket':>8}"
            f" {'CPU ms/req':>10} {'busy':>6}",
            _line("game mix", game, report.workers),
            _line(f"static {report.static_path}", static, report.workers),
            "",
            f"game / static request rate: {report.ratio:.0%}",
            f"game statuses: {game.statuses}   static statuses: {static.statuses}",
            "",
            *(f"[{'met' if ok else 'MISSED'}] {target}" for target, ok in verdict.items()),
            *(
                [
                    f"(the server was busy {busy(game, report.workers):.0%} of the game run: other processes "
                    "had part of its CPU, so these figures are not the server's alone)"
                ]
                if report.workers < cores() and busy(game, report.workers) < BUSY_ENOUGH
                else []
            ),
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--duration", type=int, default=60, help="seconds per wrk run (default 60)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (it shares the CPU with the server)")
    parser.add_argument("--workers", type=int, default=None, help="uvicorn workers (default: one per CPU)")
    parser.add_argument("--static-path", default="/rules", help="the static page to compare with")
    parser.add_argument(
        "--register", choices=["sqlite", "redis"], default="sqlite", help="the move register's store (default sqlite)"
    )
    parser.add_argument(
        "--levels", default="normal", help="computer levels of the games replayed, comma-separated (default normal)"
    )
    parser.add_argument("--warmup", type=int, default=0, help="seconds of unmeasured game mix first (default 0)")
    parser.add_argument(
        "--python", default=sys.executable, help="the interpreter that runs the server (default: this one)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args(argv)
    if not 1 <= options.duration <= 600:
        parser.error("--duration must be between 1 and 600 seconds")
    levels = tuple(level.strip() for level in options.levels.split(",") if level.strip())
    if not levels or not set(levels) <= {level.value for level in Level}:
        parser.error(f"--levels takes {', '.join(level.value for level in Level)}, comma-separated")
    report = run(
        duration=options.duration,
        connections=options.connections,
        threads=options.threads,
        workers=options.workers,
        static_path=options.static_path,
        levels=levels,
        register=options.register,
        warmup=options.warmup,
        python=options.python,
    )
    print(describe(report))
    if options.json:
        figures = {**asdict(report), "ratio": report.ratio, "game_rate": report.game.rate}
        options.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
