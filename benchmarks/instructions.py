"""One move's cost in machine instructions, which a busy machine does not change: ``python -m benchmarks.instructions``.

    python -m benchmarks.instructions [--requests 150] [--json FILE]

Time on a shared machine moves with everyone else's work (``benchmarks.move``'s CPU times moved
by a third within an hour on the 2-CPU machine, and two copies of it run side by side disagreed
by up to 5%). Instructions do not: this runs the load benchmark's game mix in process
(``benchmarks.move``: new matches, draws and discards of Normal matches through the whole app, the
SQLite register included) under valgrind's callgrind, twice, with ``--requests`` and three times
as many requests after the same warm-up, and prints the instructions per request (the difference
of the two totals over the difference in requests, so that starting Python and the app cancels
out). Two runs of the same code agree within about 2%; compare commits with it. It takes two or
three minutes and needs valgrind (``apt-get install valgrind``).

The count is the process's, so it holds the client's part too: encoding each form and reading each
answer, about a twentieth of the time in process since the forms are escaped in C
(``benchmarks.move.form_body``). Counts from before stop 46 also hold ``urlencode``'s escaping of
the save, 11% of them (``docs/load-experiments.md``, "Counting the server alone"): compare only
counts made with the same client.

The server's shuffles are seeded per request and the register does not checkpoint (a
checkpoint's count would follow the run's length, which valgrind stretches); match ids, the
sealer's random IVs and the register's file still vary a little from run to run.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main", "per_request"]

WARMUP = 100
_COLLECTED = re.compile(r"Collected : (\d+)")


async def _play(requests: int) -> None:
    from cryptography.fernet import Fernet

    import app.register.sqlite as sqlite_register
    from app.main import create_app
    from app.settings import Settings
    from benchmarks.move import play_round

    sqlite_register.CHECKPOINT_SECONDS = 1e6
    seeds = itertools.count()

    def seeded() -> random.Random:
        return random.Random(next(seeds))

    with tempfile.TemporaryDirectory(prefix="gin-instructions-") as scratch:
        app = create_app(Settings(keys=(Fernet.generate_key().decode(),), data_dir=Path(scratch)))
        app.state.new_rng = seeded
        async with app.router.lifespan_context(app):
            await play_round(app, WARMUP, seed=0)
            await play_round(app, requests, seed=1)


def _instructions(requests: int) -> int:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        raise SystemExit("valgrind is not installed: apt-get install -y valgrind")
    command = [
        valgrind,
        "--tool=callgrind",
        "--callgrind-out-file=/dev/null",
        sys.executable,
        "-m",
        "benchmarks.instructions",
    ]
    env = {**os.environ, "PYTHONHASHSEED": "0", "GIN_INSTRUCTIONS_PLAY": str(requests)}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=1800, check=False)
    found = _COLLECTED.search(result.stderr)
    if result.returncode != 0 or found is None:
        raise RuntimeError(f"callgrind failed ({result.returncode}):\n{result.stderr[-2000:]}")
    return int(found.group(1))


def per_request(requests: int = 150) -> float:
    """Instructions per request of the game mix: two callgrind runs, ``requests`` and 3 × ``requests``."""
    few, many = _instructions(requests), _instructions(3 * requests)
    return (many - few) / (2 * requests)


def main(argv: Sequence[str] | None = None) -> int:
    played = os.environ.get("GIN_INSTRUCTIONS_PLAY")
    if played is not None:  # the run under callgrind
        asyncio.run(_play(int(played)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=150, help="requests of the shorter run (default 150)")
    parser.add_argument("--json", type=Path, help="also write the figure to this file")
    options = parser.parse_args(argv)
    figure = per_request(options.requests)
    print(f"instructions per request of the game mix, in process: {figure / 1000:,.0f} thousand")
    if options.json:
        options.json.write_text(json.dumps({"instructions_per_request": figure}) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
