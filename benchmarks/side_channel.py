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

The stock count is not all the person knows, so ``--paired`` runs the sharper experiment: at each
of ``--positions`` positions reached in play (the person about to discard), ``--variants`` games
that differ only in what the person cannot see (the computer's cards the person has not seen it
take, and the stock, dealt again at random) are each answered with the same discard, in random
order (positions with at most ``PAIRED_STOCK`` stock cards, where the computer can often knock).
Each time is divided by the median time of that position's "could not knock" variants, and
the median of that for the "could knock, waited" variants is the ratio at equal public
information, with a bootstrap interval over positions: 1.00 inside it is within noise.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.ai import Level
from app.engine import ActionKind, Card, GameState, Phase, deadwood, view
from app.main import create_app
from app.seal import Sealer
from app.settings import Settings
from app.web import COMPUTER, HUMAN, SavedGame, open_save, seal_save, stamp

__all__ = ["could_knock", "main", "measure"]

HX = {"HX-Request": "true"}
KNOCK_LIMIT = 10
BOOTSTRAP = 1000
STOCK_BUCKET = 4  # stock sizes grouped by this many cards
PAIRED_STOCK = 20  # --paired positions have at most this many stock cards: a knock is rare earlier

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
        app.state.new_rng = lambda: server_rng
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


def hidden_variant(state: GameState, rng: random.Random) -> GameState:
    """``state`` with what the person cannot see dealt again: the stock, and the computer's cards
    the person has not seen it take (its own stock draws stay in its hand, as its log says)."""
    known = set(view(state, HUMAN).opponent_known)
    drawn = {e.card for e in state.log if e.player == COMPUTER and e.kind is ActionKind.DRAW_STOCK}
    computer = state.hands[COMPUTER]
    fixed = [c for c in computer if c in known or c in drawn]
    loose = [c for c in computer if c not in known and c not in drawn] + list(state.stock)
    rng.shuffle(loose)
    cut = len(computer) - len(fixed)
    hands = list(state.hands)
    hands[COMPUTER] = (*fixed, *loose[:cut])
    return state.model_copy(update={"hands": tuple(hands), "stock": tuple(loose[cut:])})


def measure_paired(positions: int, variants: int, seed: int, level: str) -> list[dict[str, list[float]]]:
    """Per position, the times (ms) of its variants by class; see the module's docstring."""
    key = Fernet.generate_key().decode()
    sealer = Sealer([key])
    rng = random.Random(seed)
    found: list[dict[str, list[float]]] = []
    with tempfile.TemporaryDirectory(prefix="gin-side-") as scratch:
        app = create_app(Settings(keys=(key,), data_dir=Path(scratch)))
        server_rng = random.Random(seed + 1)
        app.state.new_rng = lambda: server_rng
        with TestClient(app) as client:
            token = ""
            while len(found) < positions:
                if not token:
                    token = _token(client.post("/game/new", data={"level": level, "token": ""}, headers=HX).text)
                saved = open_save(sealer, token)
                state = saved.state
                if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER) or state.turn != HUMAN:
                    token = ""
                    continue
                if state.phase is not Phase.DISCARD or len(state.stock) > PAIRED_STOCK:
                    action = "pass" if state.phase is Phase.UPCARD else "draw_stock"
                    if state.phase is Phase.DISCARD:
                        action = f"discard {rng.choice([c for c in state.hands[HUMAN] if c != state.taken_discard])}"
                    fields = {"token": token, "at": stamp(state), "action": action, "sort": "rank"}
                    token = _token(client.post("/game/act", data=fields, headers=HX).text)
                    continue
                card = rng.choice([c for c in state.hands[HUMAN] if c != state.taken_discard])
                times: dict[str, list[float]] = {"could knock, waited": [], "could not knock": []}
                for _ in range(variants):
                    variant = hidden_variant(state, rng)
                    # A match of its own for each variant: the register would answer a second
                    # token of one match with the first's position.
                    sealed = seal_save(sealer, SavedGame.start(variant, saved.level))
                    fields = {"token": sealed, "at": stamp(variant), "action": f"discard {card}", "sort": "rank"}
                    started = time.perf_counter()
                    answer = client.post("/game/act", data=fields, headers=HX)
                    elapsed = time.perf_counter() - started
                    if answer.status_code != 200:
                        raise RuntimeError(f"discard {card} answered {answer.status_code}")
                    name = _waited_class(variant, open_save(sealer, _token(answer.text)).state)
                    if name:
                        times[name].append(elapsed * 1000)
                found.append(times)
                # Play on in the real game with the same discard.
                fields = {"token": token, "at": stamp(state), "action": f"discard {card}", "sort": "rank"}
                token = _token(client.post("/game/act", data=fields, headers=HX).text)
    return found


def _waited_class(before: GameState, after: GameState) -> str | None:
    """Whether the computer, answering a discard and playing on, could have knocked after its draw."""
    if after.phase is not Phase.DISCARD and after.phase is not Phase.DRAW:
        return None  # it knocked, went gin, or the stock ran out: public anyway
    replies = after.log[len(before.log) + 1 :]
    draw = next((e for e in replies if e.player == COMPUTER and e.kind in _DRAWS), None)
    thrown = next((e for e in replies if e.player == COMPUTER and e.kind is ActionKind.DISCARD), None)
    if draw is None or thrown is None or thrown.card is None:
        return None
    eleven = [*after.hands[COMPUTER], thrown.card]
    taken = draw.card if draw.kind is ActionKind.TAKE_DISCARD else None
    return "could knock, waited" if could_knock(eleven, taken) else "could not knock"


def paired_ratio(found: list[dict[str, list[float]]]) -> float | None:
    relative = [
        ms / statistics.median(position["could not knock"])
        for position in found
        if position["could not knock"]
        for ms in position["could knock, waited"]
    ]
    return statistics.median(relative) if relative else None


def interval_around_one(resample: Callable[[], float | None]) -> tuple[float, float, str]:
    """The 95% bootstrap interval of ``BOOTSTRAP`` resampled ratios, and whether it holds 1 (no leak)."""
    resampled = sorted(value for _ in range(BOOTSTRAP) if (value := resample()) is not None)
    low, high = resampled[int(0.025 * len(resampled))], resampled[int(0.975 * len(resampled)) - 1]
    return low, high, "within noise" if low <= 1.0 <= high else "NOT within noise"


def describe_paired(found: list[dict[str, list[float]]], level: str, seed: int) -> str:
    mixed = [p for p in found if p["could knock, waited"] and p["could not knock"]]
    waited = sum(len(p["could knock, waited"]) for p in mixed)
    other = sum(len(p["could not knock"]) for p in mixed)
    lines = [
        f"{level} computer, same public position, hidden cards dealt again: {len(found)} positions, "
        f"{len(mixed)} with variants of both classes ({waited} could knock and waited, {other} could not)"
    ]
    ratio = paired_ratio(mixed)
    if ratio is None:
        return "\n".join([*lines, "no position had variants of both classes: play more positions"])
    rng = random.Random(seed)
    low, high, verdict = interval_around_one(lambda: paired_ratio(rng.choices(mixed, k=len(mixed))))
    lines.append(
        f"time of a waited move over its position's could-not-knock median: {ratio:.3f}, "
        f"95% interval {low:.3f}-{high:.3f} ({BOOTSTRAP} resamples of the positions): {verdict}"
    )
    return "\n".join(lines)


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
            low, high, verdict = interval_around_one(
                lambda: relative_median(rng.choices(waited, k=len(waited)), rng.choices(other, k=len(other)))
            )
            lines.append(
                f"at equal stock size (buckets of {STOCK_BUCKET}): {at_equal:.2f}, "
                f"95% interval {low:.2f}-{high:.2f} ({BOOTSTRAP} resamples): {verdict}"
            )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--moves", type=int, default=3000, help="classified discards to time (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", default="hard", choices=[level.value for level in Level])
    parser.add_argument("--paired", action="store_true", help="the same public positions, hidden cards dealt again")
    parser.add_argument("--positions", type=int, default=250, help="with --paired: positions (default 250)")
    parser.add_argument("--variants", type=int, default=12, help="with --paired: games per position (default 12)")
    options = parser.parse_args(argv)
    if options.paired:
        found = measure_paired(options.positions, options.variants, options.seed, options.level)
        print(describe_paired(found, options.level, options.seed))
        return 0
    print(describe(measure(options.moves, options.seed, options.level), options.level, options.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
