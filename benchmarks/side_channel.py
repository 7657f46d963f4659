"""Does a move's response time tell whether the computer could have knocked?

    python -m benchmarks.side_channel [--moves 3000] [--seed 1] [--level hard]

Plays matches against the app in process (``TestClient``: the whole request, from form
parsing to the sealed answer, without the network), the person drawing from the stock and
discarding a random card, and times every discard. Each discard the computer answers with a
discard of its own (the hand going on) is classed by what the computer held after its draw,
read from the sealed save with the server's key:

- **could knock, waited**: some discard would have left it 10 deadwood or less (R11), and it
  discarded without knocking;
- **could not knock**: no discard would have.

It prints the median, p90 and count of each class and their ratio. Issue 12 measured 10.6 ms
against 4.0 ms over 3,510 moves: Hard weighed a knock with 40 sampled hands only when one was
possible, so a slow answer meant "the computer is close". The classes must now be within noise.

The raw ratio mixes in what the person already knows: a computer able to knock is, more often,
late in a hand, where each move costs differently. So it also prints the ratio at equal public
information: each move's time over the median time of "could not knock" moves made with the same
stock size (a count the table shows), the median of that for "could knock, waited", and a 95%
bootstrap interval for it (``BOOTSTRAP`` resamples of both classes). An interval that holds 1.00 is
within noise: timing tells the person nothing the stock count had not.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.engine import ActionKind, Card, Phase, deadwood
from app.main import create_app
from app.routes.deps import get_rng
from app.seal import Sealer
from app.settings import Settings
from app.web import COMPUTER, HUMAN, open_save, stamp

__all__ = ["could_knock", "main", "measure"]

HX = {"HX-Request": "true"}
KNOCK_LIMIT = 10
BOOTSTRAP = 1000
STOCK_BUCKET = 4  # stock sizes grouped by this many cards

Classes = dict[str, list[tuple[float, int]]]  # per class: (milliseconds, stock size before the move)


def could_knock(eleven: Sequence[Card], taken: Card | None) -> bool:
    """Whether some discard (not the card just taken from the pile, R10) leaves 10 deadwood or less."""
    return any(deadwood([c for c in eleven if c != card]) <= KNOCK_LIMIT for card in eleven if card != taken)


def measure(moves: int, seed: int, level: str) -> Classes:
    key = Fernet.generate_key().decode()
    sealer = Sealer([key])
    rng = random.Random(seed)
    classes: Classes = {"could knock, waited": [], "could not knock": []}
    with tempfile.TemporaryDirectory(prefix="gin-side-") as scratch:
        app = create_app(Settings(keys=(key,), data_dir=Path(scratch)))
        server_rng = random.Random(seed + 1)
        app.dependency_overrides[get_rng] = lambda: server_rng
        with TestClient(app) as client:
            token = ""
            while sum(len(v) for v in classes.values()) < moves:
                if not token:
                    answer = client.post("/game/new", data={"level": level, "token": ""}, headers=HX)
                    token = _token(answer.text)
                saved = open_save(sealer, token)
                state = saved.state
                if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER) or state.turn != HUMAN:
                    token = ""  # a hand ended: a new match keeps the positions mid-hand
                    continue
                if state.phase is Phase.UPCARD:
                    action = "pass"
                elif state.phase is Phase.DRAW:
                    action = "draw_stock"
                else:
                    card = rng.choice([c for c in state.hands[HUMAN] if c != state.taken_discard])
                    action = f"discard {card}"
                fields = {"token": token, "at": stamp(state), "action": action, "sort": "rank"}
                started = time.perf_counter()
                answer = client.post("/game/act", data=fields, headers=HX)
                elapsed = time.perf_counter() - started
                if answer.status_code != 200:
                    raise RuntimeError(f"{action} answered {answer.status_code}")
                token = _token(answer.text)
                if not action.startswith("discard"):
                    continue
                after = open_save(sealer, token).state
                replies = after.log[len(state.log) + 1 :]
                if after.phase is not Phase.DISCARD and after.phase is not Phase.DRAW:
                    continue  # the computer knocked, went gin, or the stock ran out: public anyway
                draw = next((e for e in replies if e.player == COMPUTER and e.kind in _DRAWS), None)
                thrown = next((e for e in replies if e.player == COMPUTER and e.kind is ActionKind.DISCARD), None)
                if draw is None or thrown is None or thrown.card is None:
                    continue
                eleven = [*after.hands[COMPUTER], thrown.card]
                taken = draw.card if draw.kind is ActionKind.TAKE_DISCARD else None
                name = "could knock, waited" if could_knock(eleven, taken) else "could not knock"
                classes[name].append((elapsed * 1000, len(state.stock)))
    return classes


_DRAWS = (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD)


def _token(page: str) -> str:
    start = page.index('data-token="') + len('data-token="')
    return page[start : page.index('"', start)]


def relative_median(waited: list[tuple[float, int]], other: list[tuple[float, int]]) -> float | None:
    """The median of each waited move's time over the median "could not knock" time at its stock size."""
    by_bucket: dict[int, list[float]] = {}
    for ms, stock in other:
        by_bucket.setdefault(stock // STOCK_BUCKET, []).append(ms)
    medians = {bucket: statistics.median(times) for bucket, times in by_bucket.items()}
    relative = [ms / medians[stock // STOCK_BUCKET] for ms, stock in waited if stock // STOCK_BUCKET in medians]
    return statistics.median(relative) if relative else None


def describe(classes: Classes, level: str, seed: int = 0) -> str:
    lines = [f"{level} computer, in-process move time (ms) by what the computer held after its draw", ""]
    lines.append(f"{'class':<22} {'moves':>6} {'median':>8} {'p90':>8}")
    for name, moves in classes.items():
        times = [ms for ms, _ in moves]
        if times:
            p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
            lines.append(f"{name:<22} {len(times):>6} {statistics.median(times):>8.2f} {p90:>8.2f}")
    waited, other = classes["could knock, waited"], classes["could not knock"]
    if waited and other:
        ratio = statistics.median(ms for ms, _ in waited) / statistics.median(ms for ms, _ in other)
        lines += ["", f"median ratio (could knock, waited / could not knock): {ratio:.2f}"]
        at_equal = relative_median(waited, other)
        if at_equal is not None:
            rng = random.Random(seed)
            resampled = sorted(
                value
                for _ in range(BOOTSTRAP)
                if (value := relative_median(rng.choices(waited, k=len(waited)), rng.choices(other, k=len(other))))
                is not None
            )
            low, high = resampled[int(0.025 * len(resampled))], resampled[int(0.975 * len(resampled)) - 1]
            verdict = "within noise" if low <= 1.0 <= high else "NOT within noise"
            lines.append(
                f"at equal stock size (buckets of {STOCK_BUCKET}): {at_equal:.2f}, "
                f"95% interval {low:.2f}-{high:.2f} ({BOOTSTRAP} resamples): {verdict}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=3000, help="classified discards to time (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="hard", choices=["easy", "normal", "hard"])
    options = parser.parse_args(argv)
    print(describe(measure(options.moves, options.seed, options.level), options.level, options.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
