"""Under ``uvicorn --workers 2`` any worker serves any request of any game.

The two workers share only the data directory, and start with no key in it: each makes
or reads ``secret.key`` at its startup (``app.seal`` writes it atomically, so both end up
with the same key), and both open the move register's SQLite file there, so a save played
on one is the latest on the other. Several players each play a game with a new connection per
request, so the kernel hands requests to whichever worker accepts first; every answer must
be right whichever worker gave it. Which worker that was comes from uvicorn's own access
log, formatted with the process id by the test's log configuration: the app has no
test-only route or header.
"""

from __future__ import annotations

import json
import re
import sys
import threading
import traceback
from pathlib import Path

import httpx2 as httpx
import pytest

from app.register import SQLITE_FILE_NAME
from app.seal import KEY_FILE_NAME, Sealer, load_or_create_key_file
from app.web import open_save
from devtools.live import running_server
from tests.hardening.live_play import HX, Save, advance, token_of

pytestmark = pytest.mark.slow

PLAYERS = 4
REQUESTS_EACH = 30

LOG_CONFIG = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "access": {
            "()": "uvicorn.logging.AccessFormatter",
            "fmt": 'ACCESS pid=%(process)d "%(request_line)s" %(status_code)s',
            "use_colors": False,
        },
        "default": {"()": "uvicorn.logging.DefaultFormatter", "fmt": "%(levelprefix)s %(message)s"},
    },
    "handlers": {
        "access": {"class": "logging.StreamHandler", "formatter": "access", "stream": "ext://sys.stdout"},
        "default": {"class": "logging.StreamHandler", "formatter": "default", "stream": "ext://sys.stderr"},
    },
    "loggers": {
        "uvicorn": {"handlers": ["default"], "level": "INFO"},
        "uvicorn.access": {"handlers": ["access"], "level": "INFO", "propagate": False},
    },
}
_ACCESS = re.compile(r'^ACCESS pid=(\d+) "POST /game/(\w+) HTTP/1.1" (\d+)', re.MULTILINE)


def play_a_game(base_url: str, data: Path, answers: list[str], failures: list[str]) -> None:
    try:
        # A new connection for every request: a kept-alive one would stay with one worker.
        with httpx.Client(base_url=base_url, timeout=30, limits=httpx.Limits(max_keepalive_connections=0)) as client:
            started = client.post("/game/new", data={"level": "normal"}, headers=HX)
            assert started.status_code == 200, started.text[:2000]
            sealer = Sealer(load_or_create_key_file(data / KEY_FILE_NAME))
            token = token_of(started)
            save = Save(token, open_save(sealer, token))
            answers.append("new")
            while len(answers) < REQUESTS_EACH * PLAYERS:
                save = advance(client, sealer, save)  # a move, or the next hand once the computer ended one
                answers.append("move")
    except Exception:  # reported by the test's thread, which pytest sees (with where it failed)
        failures.append(traceback.format_exc(limit=-3))


def test_any_worker_serves_any_request_of_any_game(tmp_path: Path) -> None:
    config = tmp_path / "log.json"
    config.write_text(json.dumps(LOG_CONFIG), encoding="utf-8")
    data = tmp_path / "data"
    command = [
        sys.executable, "-m", "uvicorn", "app.main:app", "--host", "127.0.0.1", "--port", "{port}",
        "--workers", "2", "--log-config", str(config),
    ]  # fmt: skip
    answers: list[str] = []
    failures: list[str] = []
    with running_server(data, command=command) as server:
        arguments = (server.base_url, data, answers, failures)
        players = [threading.Thread(target=play_a_game, args=arguments) for _ in range(PLAYERS)]
        for player in players:
            player.start()
        for player in players:
            player.join(timeout=240)
        log = server.output()
    # The server's own log says why a request failed (a worker that died, a traceback): shown with the failure.
    assert not failures, f"{failures}\nthe server's log, its end:\n{log[-4000:]}"
    assert len(answers) >= REQUESTS_EACH * PLAYERS
    served = _ACCESS.findall(log)
    assert len(served) >= len(answers), log[-3000:]
    assert {status for _, _, status in served} == {"200"}
    workers = {pid for pid, _, _ in served}
    assert len(workers) == 2, f"one worker served everything: {workers}"
    per_worker = {pid: sum(1 for p, _, _ in served if p == pid) for pid in workers}
    print(f"\n{len(served)} game requests over 2 workers: {sorted(per_worker.values())}")
    assert sorted(p.name for p in data.iterdir()) == sorted([KEY_FILE_NAME, SQLITE_FILE_NAME])
