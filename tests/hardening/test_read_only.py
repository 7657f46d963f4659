"""The container can run with a read-only root filesystem: the app writes nothing outside its data directory.

No Docker engine runs here, so the test watches the real ``gin-rummy`` process instead:
a Python audit hook (PEP 578), installed before the app is imported, reports every file
opened for writing and every file-system change. A game is played, refused and served
static files; then nothing may have been written outside ``GIN_DATA_DIR``, whose only
files are the key and the move register. The working directory, ``HOME`` and ``TMPDIR`` stay empty.

The container's HEALTHCHECK command is also run against this real server.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import httpx2 as httpx
import pytest

from app.register import SQLITE_FILE_NAME
from app.seal import KEY_FILE_NAME
from devtools.live import running_server
from tests.hardening.live_play import HX, token_of

pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
DOCKERFILE = ROOT / "Dockerfile"

# Runs in the server process. It reports with os.write on stderr, which raises no audit event.
WATCHED_SERVER = textwrap.dedent(
    """
    import os, sys

    WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
    CHANGES = {
        "os.mkdir", "os.rename", "os.link", "os.symlink", "os.remove", "os.rmdir", "os.truncate",
        "os.chmod", "os.chown", "os.utime", "os.mkfifo", "os.mknod", "shutil.copyfile", "shutil.rmtree",
        "tempfile.mkstemp", "tempfile.mkdtemp",
    }

    def report(event, args):
        if event == "open":
            path, mode, flags = (tuple(args) + (None, None))[:3]
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or (
                isinstance(flags, int) and flags & WRITE_FLAGS
            )
            if not writes:
                return
            paths = [path]
        elif event in CHANGES:
            paths = [a for a in args if isinstance(a, (str, bytes, os.PathLike))][:2]
        else:
            return
        for path in paths:
            if isinstance(path, int):
                continue  # an already-open descriptor: nothing new on disk
            os.write(2, ("FILE-WRITE " + event + " " + os.path.abspath(os.fsdecode(path)) + "\\n").encode())

    sys.addaudithook(report)
    from app.cli import main
    main()
    """
)
_WRITE = re.compile(r"^FILE-WRITE (\S+) (.+)$", re.MULTILINE)


def test_the_app_writes_nothing_outside_its_data_directory(tmp_path: Path) -> None:
    data, cwd, home, tmp = (tmp_path / name for name in ("data", "cwd", "home", "tmp"))
    for directory in (cwd, home, tmp):
        directory.mkdir()
    environment = {"HOME": str(home), "TMPDIR": str(tmp), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [sys.executable, "-c", WATCHED_SERVER]
    with (
        running_server(data, env=environment, cwd=cwd, command=command) as server,
        httpx.Client(base_url=server.base_url, timeout=30) as client,
    ):
        page = client.get("/")
        for asset in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text):
            assert client.get(asset).status_code == 200
        assert client.get("/rules").status_code == 200
        game = client.post("/game/new", data={"level": "hard"}, headers=HX)
        token = token_of(game)
        for action in ("pass", "draw_stock", "take_upcard"):
            # Each from the save the last answer carried (an older one would only be shown the latest).
            token = token_of(client.post("/game/act", data={"token": token, "action": action}, headers=HX))
        assert client.post("/game/act", data={"token": token[:-9], "action": "pass"}, headers=HX).status_code == 400
        assert client.post("/game/act", content=b"x" * 200_000, headers=HX).status_code == 413
        big_form = {"token": token, "junk": "y" * 60_000}
        assert client.post("/game/resume", data=big_form, headers=HX).status_code == 200  # under the limit
        log = server.output()

    writes = [(event, path) for event, path in _WRITE.findall(log) if not path.startswith("/dev/")]
    assert writes, "the audit hook saw no write at all, not even the key: it is not working"
    outside = [(event, path) for event, path in writes if not Path(path).is_relative_to(data)]
    assert not outside, outside
    assert sorted(p.name for p in data.iterdir()) == sorted([KEY_FILE_NAME, SQLITE_FILE_NAME])
    for directory in (cwd, home, tmp):
        assert list(directory.iterdir()) == [], directory


def test_the_image_writes_no_bytecode_and_works_from_its_data_volume() -> None:
    # Read-only root: Python must not try to write .pyc files next to the code, and the working
    # directory (where anything relative would land) is the data volume.
    stage = DOCKERFILE.read_text(encoding="utf-8").split("\nFROM ")[-1]
    assert "PYTHONDONTWRITEBYTECODE=1" in stage
    assert re.search(r"^WORKDIR /data$", stage, re.MULTILINE)
    assert re.search(r"^VOLUME /data$", stage, re.MULTILINE)
    assert "GIN_DATA_DIR=/data" in stage


def test_the_healthcheck_command_passes_against_the_real_server(tmp_path: Path) -> None:
    match = re.search(r"^HEALTHCHECK .*?CMD (\[.*?\])$", DOCKERFILE.read_text(encoding="utf-8"), re.M | re.S)
    assert match, "no HEALTHCHECK ... CMD [...] in the Dockerfile"
    command = json.loads(match.group(1))
    assert command[0] == "python"
    with running_server(tmp_path) as server:
        port = server.base_url.rsplit(":", 1)[1]
        result = subprocess.run(
            [sys.executable, *command[1:]],
            env={**os.environ, "GIN_PORT": port},
            capture_output=True,
            timeout=30,
            check=False,
        )
    assert result.returncode == 0, result.stderr
