"""One worker's cost of a move, in process: ``python -m benchmarks.move [--requests 3000]``.

The load benchmark (``benchmarks.load``) measures a real server under ``wrk``, but on a shared
machine its figures move with everyone else's work. This one calls the ASGI app directly, one
request at a time, with no network and no client in between, and prints the CPU time each kind
of request costs (the median of ``--rounds`` rounds): a change's effect on a request shows as
a ratio between two runs made back to back, whatever else the machine does.

The requests are the load benchmark's game mix (``load.lua``): a table starts a Normal match,
draws and discards a random card (not the one just taken) and starts again after nine moves or
when a hand ends, always posting the save the last answer carried, through the whole app
(middleware, routes, the move register: a SQLite file of a fresh data directory, or with
``--register redis`` a fresh ``redis-server`` on a loopback port). The
computer's reply is part of each move, as on a server; its level's timing floor (an
``asyncio.sleep``) is not CPU time and is not counted.

``--tables N`` plays N tables at once, each awaiting its answer before its next request, as ``wrk``'s
connections do against a server: what the requests share while they are in flight together (the
Redis register sends the swaps asked for meanwhile as one batch) then shows. The CPU time is then the
round's, over its requests, and is not split by kind.

``--profile FILE`` also writes a ``cProfile`` of one round to FILE.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import random
import re
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet
from fastapi import FastAPI
from starlette.types import Message

from app.main import create_app
from app.settings import Settings
from devtools.live import running_redis

__all__ = ["form_body", "main", "measure", "play_round"]

MOVES_PER_MATCH = 9
_TOKEN = re.compile(r'data-token="([^"]+)"')
_PHASE = re.compile(r'id="table" class="table phase-([a-z_]+)"')
_AT = re.compile(r'id="table"[^>]*?hx-vals=\'\{"at": "([^"]*)"')
_CARD = re.compile(r'<label for="card-(\w\w)" class="([^"]*)"')
_ACTION = re.compile(r'hx-post="/game/act" hx-vals=\'\{"action": "([^"]*)"\}\'')


_FORM_ESCAPED = re.compile(r"[^A-Za-z0-9*._-]")


def _form_escape(found: re.Match[str]) -> str:
    text = found.group()
    return "+" if text == " " else "".join(f"%{byte:02X}" for byte in text.encode())


def form_body(fields: dict[str, str]) -> bytes:
    """``fields`` as a browser posts a form (the URL standard's ``application/x-www-form-urlencoded``).

    The escaping is one regular expression, in C: ``urlencode`` escapes a value byte by byte in
    Python when any byte needs it, and for a save with ``=`` in it that was several percent of the
    instructions ``benchmarks.instructions`` counted, which are the client's as well as the server's.
    """
    return "&".join(
        f"{_FORM_ESCAPED.sub(_form_escape, name)}={_FORM_ESCAPED.sub(_form_escape, value)}"
        for name, value in fields.items()
    ).encode()


class Table:
    """One person playing as ``load.lua`` does, reading each answer as the page would."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.token = self.at = self.phase = ""
        self.hand: list[str] = []
        self.actions: list[str] = []
        self.moves = 0

    def next_request(self) -> tuple[str, str, dict[str, str]]:
        """(kind, path, form) of the next request."""
        action = None
        if self.token and self.moves < MOVES_PER_MATCH:
            if self.phase == "upcard" and self.actions:
                action = self.rng.choice(self.actions)
            elif self.phase == "draw":
                action = "draw_stock"
            elif self.phase == "discard" and self.hand:
                action = f"discard {self.rng.choice(self.hand)}"
        if action is None:
            self.moves = 0
            return "new", "/game/new", {"level": "normal", "token": self.token, "sort": "rank"}
        self.moves += 1
        kind = "draw" if action == "draw_stock" else "discard" if action.startswith("discard") else "other"
        form = {"token": self.token, "at": self.at, "selected": "", "sort": "rank", "action": action}
        return kind, "/game/act", form

    def read(self, body: str) -> None:
        token, phase, at = _TOKEN.search(body), _PHASE.search(body), _AT.search(body)
        if token is None or phase is None or at is None:
            raise RuntimeError(f"an answer the page could not read:\n{body[:2000]}")
        self.token, self.phase, self.at = token.group(1), phase.group(1), at.group(1)
        self.hand = [code for code, classes in _CARD.findall(body) if "taken" not in classes.split()]
        self.actions = _ACTION.findall(body)


async def _call(app: FastAPI, path: str, body: bytes) -> tuple[int, str]:
    scope: dict[str, Any] = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [
            (b"host", b"127.0.0.1"),
            (b"hx-request", b"true"),
            (b"content-type", b"application/x-www-form-urlencoded"),
            (b"content-length", str(len(body)).encode()),
        ],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
        "state": {},
    }
    sent = False
    status = 0
    chunks: list[bytes] = []

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        await asyncio.sleep(3600)
        return {"type": "http.disconnect"}

    async def send(message: Message) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = message["status"]
        elif message["type"] == "http.response.body":
            chunks.append(message.get("body", b""))

    await app(scope, receive, send)
    return status, b"".join(chunks).decode()


async def play_round(app: FastAPI, requests: int, seed: int) -> dict[str, list[float]]:
    """Play ``requests`` requests of the game mix through ``app`` (seeded by ``seed``): CPU seconds by kind."""
    table = Table(random.Random(seed))
    times: dict[str, list[float]] = defaultdict(list)
    for _ in range(requests):
        kind, path, form = table.next_request()
        posted = form_body(form)
        started = time.process_time()
        status, body = await _call(app, path, posted)
        times[kind].append(time.process_time() - started)
        if status != 200:
            raise RuntimeError(f"{path} answered {status}:\n{body[:2000]}")
        table.read(body)
    return times


async def play_together(app: FastAPI, requests: int, seed: int, tables: int) -> float:
    """Play ``requests`` requests of the game mix as ``tables`` tables at once: CPU seconds a request."""
    left = requests

    async def play(table: Table) -> None:
        nonlocal left
        while left > 0:
            left -= 1
            _kind, path, form = table.next_request()
            status, body = await _call(app, path, form_body(form))
            if status != 200:
                raise RuntimeError(f"{path} answered {status}:\n{body[:2000]}")
            table.read(body)

    started = time.process_time()
    await asyncio.gather(*(play(Table(random.Random(seed * 1000 + n))) for n in range(tables)))
    return (time.process_time() - started) / requests


async def _measure(
    requests: int, rounds: int, profile: Path | None, register: str, tables: int = 1
) -> dict[str, float]:
    with contextlib.ExitStack() as stack:
        scratch = stack.enter_context(tempfile.TemporaryDirectory(prefix="gin-move-"))
        url = stack.enter_context(running_redis()).url if register == "redis" else ""
        settings = Settings(keys=(Fernet.generate_key().decode(),), data_dir=Path(scratch), register_url=url)
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            await play_round(app, 200, seed=0)  # warm: templates compiled, caches filled
            per_round: dict[str, list[float]] = defaultdict(list)
            for number in range(rounds):
                profiler = cProfile.Profile() if profile is not None and number == 0 else None
                if profiler is not None:
                    profiler.enable()
                if tables > 1:
                    per_round["all"].append(await play_together(app, requests, number + 1, tables))
                    times = {}
                else:
                    times = await play_round(app, requests, seed=number + 1)
                if profiler is not None and profile is not None:
                    profiler.disable()
                    profiler.dump_stats(profile)
                if not times:
                    continue
                for kind, values in times.items():
                    per_round[kind].append(statistics.fmean(values))
                per_round["all"].append(statistics.fmean([v for values in times.values() for v in values]))
    return {kind: statistics.median(values) for kind, values in per_round.items()}


def measure(
    requests: int = 3000, rounds: int = 3, profile: Path | None = None, register: str = "sqlite", tables: int = 1
) -> dict[str, float]:
    """Mean CPU seconds per request of each kind (and of ``all``), the median over ``rounds`` rounds.

    The CPU time is this process's: with ``register="redis"`` the Redis server's own work is not in it.
    With ``tables`` over 1, only ``all``.
    """
    return asyncio.run(_measure(requests, rounds, profile, register, tables))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=3000, help="requests per round (default 3000)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the median round is shown (default 3)")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the first round to this file")
    parser.add_argument(
        "--register", choices=["sqlite", "redis"], default="sqlite", help="the move register's store (default sqlite)"
    )
    parser.add_argument("--tables", type=int, default=1, help="tables playing at once (default 1)")
    options = parser.parse_args(argv)
    figures = measure(options.requests, options.rounds, options.profile, options.register, options.tables)
    print(
        f"CPU ms per request, in process, {options.register} register, {options.tables} table(s) at once "
        f"(median of {options.rounds} rounds of {options.requests} requests):"
    )
    for kind in sorted(figures, key=lambda k: (k == "all", k)):
        print(f"  {kind:<8} {figures[kind] * 1000:7.3f} ms   ({1 / figures[kind]:7.0f} /s on one core)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
