"""Serve an ASGI app in a child process on a free loopback port, for browser tests."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    """A loopback port nobody listens on right now (the OS picks it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serve(app: str, data_dir: Path, *, startup_timeout: float = 30.0) -> Iterator[str]:
    """Run ``uvicorn <app>`` until ``/healthz`` answers 200; yield its base URL; stop it.

    The child sees no ``GIN_*`` variable from this environment except ``GIN_DATA_DIR``,
    so a developer's own settings never leak into a test.
    """
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIN_")}
    environment["GIN_DATA_DIR"] = str(data_dir)
    command = [sys.executable, "-m", "uvicorn", app, "--host", "127.0.0.1", "--port", str(port)]
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, cwd=ROOT, env=environment, stdout=log, stderr=subprocess.STDOUT)
        try:
            _wait_until_healthy(process, f"{base_url}/healthz", startup_timeout, log)
            yield base_url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _wait_until_healthy(process: subprocess.Popen[bytes], url: str, timeout: float, log: IO[bytes]) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}:\n{_read(log)}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer 200 within {timeout:.0f} s:\n{_read(log)}")


def _read(log: IO[bytes]) -> str:
    log.seek(0)
    return log.read().decode(errors="replace")[-5000:]
