"""Load test over loopback with ``wrk``: game moves against a static page of the same server.

    python -m benchmarks.load [--duration 60] [--connections 50] [--workers N] [--levels normal]

Starts ``gin-rummy`` on a free 127.0.0.1 port with a fresh data directory, plays a few
games through HTTP to collect real sealed tokens, then runs ``wrk`` twice against it:

1. the game mix: new matches, draws, and discards (each discard includes the computer's
   whole reply: engine, opponent, render, seal), replaying those tokens at random;
2. a static page (``/rules`` by default: a page with no game work) for the same time.

It prints requests/s, p50/p99 latency and error counts (non-2xx responses and socket
errors) for both, and the ratio of the two request rates, then stops the server. The
exit status is 1 if any request failed. ``wrk`` comes from Debian: ``apt-get install wrk``.

The server runs one uvicorn worker per CPU this process may use (``--workers`` overrides it),
as ``docs/operations.md`` recommends deploying it: the targets are for the machine, not for
one core of it.

Each run is bounded: wrk stops itself after ``--duration`` seconds, and the script kills
it (and the server) if it overstays.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.parse
import urllib.request
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from benchmarks.live import running_server

__all__ = ["Measurement", "Prepared", "Report", "cores", "main", "prepare", "run"]

HERE = Path(__file__).resolve().parent
SCRIPT = HERE / "load.lua"
HX = {"HX-Request": "true", "Accept-Encoding": "gzip"}
# One new match for every nine moves, and as many draws as discards: a turn is a draw then a discard.
MIX = {"new": 2, "draw": 9, "discard": 9}
TARGET_P99_MS = 100.0
TARGET_RATIO = 0.40

_TOKEN = re.compile(r'data-token="([^"]+)"')
_TABLE_VALS = re.compile(r"""id="table"[^>]*?hx-vals='([^']*)'""", re.DOTALL)
_PHASE = re.compile(r'id="table" class="table phase-([a-z_]+)"')
_CARD = re.compile(r'id="card-([2-9TJQKA][cdhs])"\s+class="([^"]*)"')
_ACTION = re.compile(r"""hx-post="/game/act" hx-vals='([^']*)'""")


@dataclass(frozen=True)
class Prepared:
    """Form bodies of real requests, by kind: each one answered 200 when it was collected."""

    new: list[str]
    draw: list[str]
    discard: list[str]


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

    @property
    def rate(self) -> float:
        return self.requests / self.seconds if self.seconds else 0.0

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
    prepared: dict[str, int]
    levels: tuple[str, ...]
    load_average: tuple[float, float, float]

    @property
    def ratio(self) -> float:
        return self.game.rate / self.static.rate if self.static.rate else 0.0

    @property
    def errors(self) -> int:
        return self.game.errors + self.static.errors


def cores() -> int:
    """The CPUs this process may run on (its affinity, which a container's cpuset narrows)."""
    return len(os.sched_getaffinity(0))


def _post(base_url: str, path: str, fields: dict[str, str]) -> tuple[int, str]:
    body = urllib.parse.urlencode(fields).encode()
    request = urllib.request.Request(f"{base_url}{path}", data=body, headers={"HX-Request": "true"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        status: int = response.status
        return status, response.read().decode()


def _table(page: str) -> tuple[str, str, dict[str, str], list[tuple[str, str]], set[str]]:
    """The token, phase, table values, hand (card, classes) and offered actions of a table page."""
    token = _TOKEN.search(page)
    vals = _TABLE_VALS.search(page)
    phase = _PHASE.search(page)
    if token is None or vals is None or phase is None:
        raise RuntimeError(f"not a table page:\n{page[:2000]}")
    actions = {json.loads(html.unescape(m))["action"] for m in _ACTION.findall(page)}
    return token.group(1), phase.group(1), json.loads(html.unescape(vals.group(1))), _CARD.findall(page), actions


def prepare(
    base_url: str, *, games: int = 24, turns: int = 6, seed: int = 1, levels: Sequence[str] = ("normal",)
) -> Prepared:
    """Play ``games`` games for up to ``turns`` turns each, keeping every draw and discard request.

    The games' levels cycle through ``levels``: a discard's cost is mostly the computer's reply,
    and Hard thinks longest. Every kept request was answered 200 here, so during the load any
    failure is the server's.
    """
    rng = random.Random(seed)
    new, draws, discards = [], [], []
    for game in range(games):
        level = levels[game % len(levels)]
        fields = {"level": level, "token": "", "sort": "rank"}
        status, page = _post(base_url, "/game/new", fields)
        assert status == 200, status
        new.append(urllib.parse.urlencode(fields))
        for _turn in range(turns):
            token, phase, vals, hand, actions = _table(page)
            base = {"token": token, "at": vals["at"], "selected": "", "sort": "rank"}
            if phase == "upcard":
                # The first upcard: pass it or take it, as a person would; not part of the mix.
                action = rng.choice(sorted(actions))
            elif phase == "draw":
                for drawing in sorted(actions & {"draw_stock", "take_discard"}):
                    draws.append(urllib.parse.urlencode({**base, "action": drawing}))
                action = "draw_stock"
            elif phase == "discard":
                # Not the card just taken from the discard pile (R10): the engine would refuse it.
                card = rng.choice([code for code, classes in hand if "taken" not in classes.split()])
                action = f"discard {card}"
                discards.append(urllib.parse.urlencode({**base, "action": action}))
            else:
                break
            status, page = _post(base_url, "/game/act", {**base, "action": action})
            assert status == 200, (status, page[:2000])
    for kind, bodies in (("draw", draws), ("discard", discards)):
        for body in bodies:
            status, _ = _post(base_url, "/game/act", dict(urllib.parse.parse_qsl(body)))
            if status != 200:
                raise RuntimeError(f"a prepared {kind} request answered {status}")
    return Prepared(new=new, draw=draws, discard=discards)


def _lua_string(text: str) -> str:
    return json.dumps(text)  # a JSON string of ASCII is a valid Lua string literal


def _write_requests(prepared: Prepared, directory: Path) -> Path:
    lines = ["return {"]
    for kind, weight in MIX.items():
        bodies = getattr(prepared, kind)
        path = "/game/new" if kind == "new" else "/game/act"
        lines.append(f"  {{ weight = {weight}, path = {_lua_string(path)}, bodies = {{")
        lines.extend(f"    {_lua_string(body)}," for body in bodies)
        lines.append("  } },")
    lines.append("}")
    out = directory / "requests.lua"
    out.write_text("\n".join(lines) + "\n", encoding="ascii")
    return out


def _wrk(wrk: str, url: str, *, connections: int, duration: int, threads: int, env: dict[str, str]) -> Measurement:
    command = [
        wrk,
        f"--threads={threads}",
        f"--connections={connections}",
        f"--duration={duration}s",
        "--timeout=5s",
        f"--script={SCRIPT}",
        url,
    ]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=duration + 60, check=False, env={**env, "PATH": "/usr/bin"}
    )
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
    )


def run(
    *,
    duration: int = 60,
    connections: int = 50,
    threads: int = 1,
    workers: int | None = None,
    static_path: str = "/rules",
    games: int = 24,
    seed: int = 1,
    levels: Sequence[str] = ("normal",),
) -> Report:
    """Start a server, prepare tokens, measure the game mix then the static page, stop the server."""
    # Another busy process on this machine skews every figure: record how busy it was.
    load_average = os.getloadavg()
    workers = workers or cores()
    wrk = shutil.which("wrk")
    if wrk is None:
        raise SystemExit("wrk is not installed: apt-get install -y wrk")
    with tempfile.TemporaryDirectory(prefix="gin-load-") as scratch:
        directory = Path(scratch)
        (directory / "data").mkdir()
        # The server's access log goes to a file, as it would in production (not to this terminal).
        with running_server(directory / "data", workers=workers) as server:
            prepared = prepare(server.base_url, games=games, seed=seed, levels=levels)
            requests_file = _write_requests(prepared, directory)
            env = {"GIN_LOAD_REQUESTS": str(requests_file), "GIN_LOAD_PATH": static_path}
            game = _wrk(
                wrk, server.base_url, connections=connections, duration=duration, threads=threads,
                env={**env, "GIN_LOAD_MODE": "game"},
            )  # fmt: skip
            static = _wrk(
                wrk, server.base_url, connections=connections, duration=duration, threads=threads,
                env={**env, "GIN_LOAD_MODE": "static"},
            )  # fmt: skip
    counts = {"new": len(prepared.new), "draw": len(prepared.draw), "discard": len(prepared.discard)}
    return Report(game, static, static_path, connections, duration, workers, counts, tuple(levels), load_average)


def _line(name: str, m: Measurement) -> str:
    return (
        f"{name:<22} {m.rate:>9.1f} {m.p50_ms:>9.1f} {m.p99_ms:>9.1f} {m.max_ms:>9.1f} "
        f"{m.non_2xx:>8} {m.socket_errors:>8}"
    )


def describe(report: Report) -> str:
    mix = ", ".join(f"{kind} {weight}" for kind, weight in MIX.items())
    game, static = report.game, report.static
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
            f"game mix (weights {mix}) replaying {report.prepared['draw']} draw, "
            f"{report.prepared['discard']} discard and {report.prepared['new']} new-match requests "
            f"of {'/'.join(report.levels)} games",
            "",
            f"{'':<22} {'req/s':>9} {'p50 ms':>9} {'p99 ms':>9} {'max ms':>9} {'non-2xx':>8} {'socket':>8}",
            _line("game mix", game),
            _line(f"static {report.static_path}", static),
            "",
            f"game / static request rate: {report.ratio:.0%}",
            f"game statuses: {game.statuses}   static statuses: {static.statuses}",
            "",
            *(f"[{'met' if ok else 'MISSED'}] {target}" for target, ok in verdict.items()),
        ]
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--duration", type=int, default=60, help="seconds per wrk run (default 60)")
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--threads", type=int, default=1, help="wrk threads (it shares the CPU with the server)")
    parser.add_argument("--workers", type=int, default=None, help="uvicorn workers (default: one per CPU)")
    parser.add_argument("--static-path", default="/rules", help="the static page to compare with")
    parser.add_argument("--games", type=int, default=24, help="games played to collect tokens")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--levels", default="normal", help="computer levels of the games replayed, comma-separated (default normal)"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this file")
    options = parser.parse_args(argv)
    if not 1 <= options.duration <= 600:
        parser.error("--duration must be between 1 and 600 seconds")
    levels = tuple(level.strip() for level in options.levels.split(",") if level.strip())
    if not levels or not set(levels) <= {"easy", "normal", "hard"}:
        parser.error("--levels takes easy, normal and hard, comma-separated")
    report = run(
        duration=options.duration,
        connections=options.connections,
        threads=options.threads,
        workers=options.workers,
        static_path=options.static_path,
        games=options.games,
        seed=options.seed,
        levels=levels,
    )
    print(describe(report))
    if options.json:
        figures = {**asdict(report), "ratio": report.ratio, "game_rate": report.game.rate}
        options.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main())
