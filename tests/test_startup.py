"""app.startup: a server that cannot work stops at startup with one line, under both ways of running it.

Each case runs the real commands in a child process: ``gin-rummy`` (``python -m app.cli``, which
checks before uvicorn starts) and ``uvicorn app.main:app`` (where the app's lifespan checks).
Before these checks, an unwritable data directory or a damaged key file started a server whose
health check answered 200 and whose every game request was a 500; a bad ``GIN_KEYS`` stopped it
with a 19-line traceback.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.main import create_app
from app.settings import Settings
from app.startup import StartupError, check_data_dir, open_sealer
from devtools.live import ROOT, free_port

SERVICE_UID = 10001  # the container image's user
UVICORN_STARTUP_FAILURE = 3


def run(command: str, env: dict[str, str], *, as_plain_user: bool = False) -> subprocess.CompletedProcess[str]:
    """``command`` ("cli" or "uvicorn") with only these ``GIN_`` variables, until it exits.

    ``as_plain_user``: root without its power to write anywhere (dropped from the capability
    bounding set), so that file permissions apply to it as to any other user.
    """
    argv = {
        "cli": [sys.executable, "-m", "app.cli"],
        "uvicorn": [sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", str(free_port())],
    }[command]
    if as_plain_user and os.geteuid() == 0:
        argv = ["setpriv", "--bounding-set=-dac_override,-dac_read_search", *argv]
    environment = {name: value for name, value in os.environ.items() if not name.startswith("GIN_")}
    environment.update(GIN_PORT=str(free_port()), PYTHONPATH=str(ROOT), PYTHONDONTWRITEBYTECODE="1", **env)
    return subprocess.run(argv, cwd=ROOT, env=environment, capture_output=True, text=True, timeout=60, check=False)


def the_one_line(command: str, result: subprocess.CompletedProcess[str]) -> str:
    """The line the server stopped with, having checked that it stopped and printed no traceback."""
    assert "Traceback" not in result.stderr, result.stderr
    if command == "cli":
        # gin-rummy checks before uvicorn starts: the line is all it prints.
        assert result.returncode == 1, result.stderr
        assert result.stderr.count("\n") == 1, result.stderr
        return result.stderr.strip()
    # uvicorn frames it with its own log lines; the app's failure is one ERROR line among them.
    assert result.returncode == UVICORN_STARTUP_FAILURE, result.stderr
    errors = [line.removeprefix("ERROR:").strip() for line in result.stderr.splitlines() if line.startswith("ERROR:")]
    assert errors[-1] == "Application startup failed. Exiting.", result.stderr
    assert len(errors) == 2, result.stderr
    return errors[0]


@pytest.fixture
def reachable_dir() -> Iterator[Path]:
    """A scratch directory its owner can enter without special powers."""
    with tempfile.TemporaryDirectory(prefix="gin-startup-") as scratch:
        yield Path(scratch)


@pytest.mark.parametrize("command", ["cli", "uvicorn"])
def test_a_data_directory_the_server_cannot_write_stops_it_with_the_fix(command: str, reachable_dir: Path) -> None:
    # As in Docker: a bind mount owned by someone else (there, root; here, the image's user).
    data = reachable_dir / "data"
    data.mkdir(mode=0o755)
    uid = os.geteuid()
    if uid == 0:
        os.chown(data, SERVICE_UID, SERVICE_UID)
    else:
        data.chmod(0o555)
    result = run(command, {"GIN_DATA_DIR": str(data)}, as_plain_user=True)
    assert (
        the_one_line(command, result) == f"{data} is not writable by uid {uid}: chown {uid} the directory you mounted"
    )


@pytest.mark.parametrize("command", ["cli", "uvicorn"])
@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (b"", "holds no key"),
        (b"\x00\xff\xfe binary\n", "is not text"),
        (b"this is not a key\n", "line 1 of the key file {path} is not a Fernet key"),
    ],
    ids=["empty", "binary", "garbage"],
)
def test_a_damaged_key_file_stops_the_server_with_the_fix(
    command: str, content: bytes, problem: str, tmp_path: Path
) -> None:
    key_file = tmp_path / "secret.key"
    key_file.write_bytes(content)
    line = the_one_line(command, run(command, {"GIN_DATA_DIR": str(tmp_path)}))
    assert problem.format(path=key_file) in line
    assert line.endswith(
        "restore it from your backup, or delete it to make a new key (games saved under the old key are then lost)"
    )
    assert key_file.read_bytes() == content  # never replaced: it may be the only copy of a key


@pytest.mark.parametrize("command", ["cli", "uvicorn"])
def test_a_malformed_gin_keys_stops_the_server_with_one_line_not_a_traceback(command: str, tmp_path: Path) -> None:
    good = Fernet.generate_key().decode()
    secret_looking = "not-a-key-but-maybe-a-secret"
    result = run(command, {"GIN_DATA_DIR": str(tmp_path), "GIN_KEYS": f"{good},{secret_looking}"})
    line = the_one_line(command, result)
    assert line.startswith("GIN_KEYS: key 2 is not a Fernet key (32 bytes, url-safe base64; make one with")
    assert secret_looking not in result.stderr and good not in result.stderr


def test_a_data_directory_that_is_a_file_is_named(tmp_path: Path) -> None:
    not_a_dir = tmp_path / "data"
    not_a_dir.write_text("")
    with pytest.raises(StartupError, match=f"^{not_a_dir} is not a directory: set GIN_DATA_DIR"):
        check_data_dir(not_a_dir)


def test_a_working_server_makes_its_key_at_startup_not_on_the_first_game(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=tmp_path / "data"))
    assert not (tmp_path / "data").exists()  # building the app writes nothing
    with TestClient(app) as client:
        assert (tmp_path / "data" / "secret.key").exists()
        answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json() == {"status": "ok"}


def test_the_lifespan_reports_a_broken_key_file_as_a_startup_error(tmp_path: Path) -> None:
    (tmp_path / "secret.key").write_text("garbage\n")
    app = create_app(Settings(data_dir=tmp_path))
    with pytest.raises(StartupError, match=r"line 1 of the key file .* is not a Fernet key"), TestClient(app):
        pass


def test_open_sealer_reads_the_key_file_the_server_made(tmp_path: Path) -> None:
    first = open_sealer(Settings(data_dir=tmp_path))
    token = first.seal(b"game")
    assert open_sealer(Settings(data_dir=tmp_path)).unseal(token) == b"game"
