"""Run a real server in a child process on a free loopback port, and stop it.

The one live-server helper of the tests and the benchmarks. ``running_server`` runs the real
``gin-rummy`` command (``python -m app.cli``, configured through ``GIN_*`` variables): the load
benchmark and the tests that need a real server (restarts, several workers) exercise exactly
what production runs. ``serve`` runs ``uvicorn`` on any ASGI app, for the browser tests (the
game, or a stub).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import IO

__all__ = ["ROOT", "LiveServer", "RedisServer", "free_port", "running_redis", "running_server", "serve"]

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class LiveServer:
    base_url: str
    pid: int
    log: IO[bytes]

    def output(self) -> str:
        """What the server printed so far (its last 20,000 characters)."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-20_000:]


@contextmanager
def running_server(
    data_dir: Path,
    *,
    workers: int = 1,
    keys: str | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path = ROOT,
    command: list[str] | None = None,
    startup_timeout: float = 60.0,
    unread_stdout: bool = False,
) -> Iterator[LiveServer]:
    """``gin-rummy`` serving on 127.0.0.1 until ``/healthz`` answers; yields it; stops it.

    The child sees none of this environment's ``GIN_*`` variables except those given here,
    so a developer's own settings never leak into a measurement or a test. ``command``
    replaces ``python -m app.cli``; ``{port}`` in its arguments becomes the port chosen.
    With ``unread_stdout``, its standard output (the access log) is a pipe nobody reads, as
    when a log shipper stops: it fills after about 64 KB. Its standard error is still kept.
    """
    port = free_port()
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIN_")}
    environment.update(GIN_HOST="127.0.0.1", GIN_PORT=str(port), GIN_WORKERS=str(workers), GIN_DATA_DIR=str(data_dir))
    if keys is not None:
        environment["GIN_KEYS"] = keys
    environment.update(env or {})
    # The package is importable from the repository even when it is not installed.
    environment["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), environment.get("PYTHONPATH")]))
    with tempfile.TemporaryFile() as log:
        # A session of its own: uvicorn's worker processes can be stopped along with it.
        process = subprocess.Popen(
            [part.replace("{port}", str(port)) for part in command or [sys.executable, "-m", "app.cli"]],
            cwd=cwd,
            env=environment,
            stdout=subprocess.PIPE if unread_stdout else log,
            stderr=log if unread_stdout else subprocess.STDOUT,
            start_new_session=True,
        )
        server = LiveServer(f"http://127.0.0.1:{port}", process.pid, log)
        try:
            _wait_until_healthy(process, server, startup_timeout)
            yield server
        finally:
            _stop(process)
            if process.stdout is not None:
                process.stdout.close()


@contextmanager
def serve(app: str, data_dir: Path, *, startup_timeout: float = 60.0) -> Iterator[str]:
    """``uvicorn <app>`` (``module:attribute``) until ``/healthz`` answers; yields its base URL; stops it."""
    command = [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", "{port}"]
    with running_server(data_dir, command=command, startup_timeout=startup_timeout) as server:
        yield server.base_url


def _wait_until_healthy(process: subprocess.Popen[bytes], server: LiveServer, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{server.output()}")
        try:
            with urllib.request.urlopen(f"{server.base_url}/healthz", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the server did not answer /healthz within {timeout:.0f} s:\n{server.output()}")


def _stop(process: subprocess.Popen[bytes]) -> None:
    # SIGTERM first: uvicorn shuts its workers down gracefully. Then the whole session
    # (only the processes this function started) if anything lingers.
    if process.poll() is None:
        process.terminate()
        with suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
    with suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()


@dataclass(frozen=True)
class RedisServer:
    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            with suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=10)
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()


@contextmanager
def running_redis(binary: str | None = None) -> Iterator[RedisServer]:
    """A fresh ``redis-server`` (Debian's package) on 127.0.0.1, answering PING; stopped afterwards.

    No configuration file and no persistence: it keeps everything in memory and leaves nothing behind.
    """
    binary = binary or shutil.which("redis-server")
    if binary is None:
        raise RuntimeError("redis-server is not installed: apt-get install redis-server")
    port = free_port()
    command = [binary, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"]
    command += ["--protected-mode", "yes", "--loglevel", "warning", "--dir", tempfile.gettempdir()]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    server = RedisServer(port, process)
    try:
        _wait_for_ping(server)
        yield server
    finally:
        server.stop()


def _wait_for_ping(server: RedisServer, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.process.poll() is not None:
            raise RuntimeError(f"redis-server exited with {server.process.returncode}")
        with suppress(OSError), socket.create_connection(("127.0.0.1", server.port), timeout=1) as connection:
            connection.sendall(b"PING\r\n")
            if connection.recv(64).startswith(b"+PONG"):
                return
        time.sleep(0.05)
    raise RuntimeError(f"redis-server did not answer on port {server.port} within {timeout:.0f} s")
