"""Review this hand: the save's growth, the review's timing, and the coach's calibration.

    python -m benchmarks.review size [--hands 15]
    python -m benchmarks.review timing [--hands 40] [--cpu]
    python -m benchmarks.review calibration [--hands 150] [--every 3] [--samples 48]

``size``: one long match (target raised so that it lasts) played through ``app.web.play`` with the
Hard player on both sides; after each finished hand, the sealed token's length with the kept
hands and without them.

``timing``: finished hands (the person played by Normal, so that the coach has choices to
weigh, the computer by Hard), each reviewed through the real app (``TestClient``, a fresh
SQLite register): the first answer (the moves, no verdicts: "first paint" on the server) and
the ``coach=1`` answer (every verdict). Each hand is reviewed once, so nothing is served from
the review cache. ``--cpu`` measures the process's CPU time instead of the wall clock (the app
runs in this process): what the answers cost one core, whatever else shares the machine.

``calibration``: arena hands of the Hard player against itself; at every ``every``-th decision
of either side, the coach's value of the position (its expected points for the mover, played
as Hard would) against the points that mover actually got when the hand ended (0 for a void
hand), bucketed by the prediction.
"""

from __future__ import annotations

import argparse
import itertools
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.ai import Level, choose
from app.ai.coach import judge
from app.engine import NEXT_HAND, GameState, Phase, Seat, apply, new_match, view
from app.main import create_app
from app.seal import Sealer
from app.settings import Settings
from app.web import SavedGame, computer_replies, play, seal_save

HX = {"HX-Request": "true"}


def percentile(data: list[float], q: int) -> float:
    return statistics.quantiles(data, n=100, method="inclusive")[q - 1] if len(data) > 1 else data[0]


def size(hands: int) -> None:
    sealer = Sealer([Fernet.generate_key()])
    rng = random.Random(1)
    state = new_match(rng, starter=0, target=10_000)  # long enough for any number of hands
    saved = SavedGame.start(computer_replies(state, Level.HARD, rng), Level.HARD)
    start = len(seal_save(sealer, saved))
    print(f"sealed save (token characters) over a {hands}-hand match, Hard on both sides")
    print(f"{'hand':>4} {'moves':>5} {'with kept hands':>16} {'without':>8} {'kept adds':>10}")
    print(f"{0:4d} {'':>5} {start:16d} {start:8d} {0:10d}")
    finished = 0
    while finished < hands:
        if saved.state.phase is Phase.HAND_OVER:
            saved = play(saved, NEXT_HAND, rng)
            continue
        moves = len(saved.state.log)
        saved = play(saved, choose(view(saved.state, 0), Level.HARD, rng), rng)
        if saved.state.phase is Phase.HAND_OVER:
            finished += 1
            with_kept = len(seal_save(sealer, saved))
            without = len(seal_save(sealer, saved.model_copy(update={"played": ()})))
            print(f"{finished:4d} {len(saved.state.log):5d} {with_kept:16d} {without:8d} {with_kept - without:10d}")
        elif len(saved.state.log) == moves:
            raise RuntimeError("no progress")
    codes = sum(len(c) for c in saved.played)
    print(f"kept hands: {len(saved.played)}, {codes} characters of code ({codes / len(saved.played):.0f} a hand)")


def finished_hand(seed: int) -> SavedGame:
    """One hand, the person played by Normal and the computer by Hard, through ``app.web.play``."""
    rng = random.Random(seed)
    state = new_match(rng, starter=seed % 2)
    saved = SavedGame.start(computer_replies(state, Level.HARD, rng), Level.HARD)
    while saved.state.phase.in_play:
        saved = play(saved, choose(view(saved.state, 0), Level.NORMAL, rng), rng)
    return saved


def timing(hands: int, clock: Callable[[], float] = time.perf_counter) -> None:
    first: list[float] = []
    full: list[float] = []
    decisions = []
    with tempfile.TemporaryDirectory() as data:
        settings = Settings(keys=(Fernet.generate_key().decode(),), data_dir=Path(data))
        app = create_app(settings)
        sealer = Sealer.from_settings(settings)
        with TestClient(app) as client:
            for seed in range(hands):
                saved = finished_hand(seed)
                token = seal_save(sealer, saved)
                body = {"token": token, "hand": "1"}
                start = clock()
                response = client.post("/game/review", data=body, headers=HX)
                first.append(clock() - start)
                assert response.status_code == 200 and "coach-wait" in response.text, response.text[:300]
                start = clock()
                response = client.post("/game/review", data={**body, "step": "0", "coach": "1"}, headers=HX)
                full.append(clock() - start)
                assert response.status_code == 200 and "You gave" in response.text
                decisions.append(sum(1 for e in saved.state.log if e.player == 0))
    what = "CPU time" if clock is time.process_time else "server time"
    print(f"review of one finished hand, {hands} hands (person: Normal, computer: Hard), {what} in ms")
    print(f"{'answer':26} {'p50':>7} {'p95':>7} {'max':>7}")
    for name, data_ in (("first paint (moves)", first), ("coach=1 (every verdict)", full)):
        ms = [x * 1000 for x in data_]
        print(f"{name:26} {percentile(ms, 50):7.0f} {percentile(ms, 95):7.0f} {max(ms):7.0f}")
    print(f"moves of the person per hand: median {statistics.median(decisions):.0f}, max {max(decisions)}")


BUCKETS = (-30.0, -15.0, -5.0, 0.0, 5.0, 15.0, 30.0)


def _points_for(end: GameState, seat: Seat) -> int:
    return 0 if end.last_hand is None else end.last_hand.points_for(seat)


def calibration(hands: int, every: int, samples: int) -> None:
    pairs: list[tuple[float, int]] = []
    started = time.perf_counter()
    for seed in range(hands):
        rng = random.Random(10_000 + seed)
        state = new_match(rng, starter=seed % 2)
        judged: list[tuple[float, Seat]] = []
        count = 0
        while state.phase.in_play:
            me = state.turn
            v = view(state, me)
            action = choose(v, Level.HARD, rng)
            if len(v.legal_actions) > 1:
                count += 1
                if count % every == 0:
                    value = judge(v, action, samples, valued=True).value
                    assert value is not None
                    judged.append((value, me))
            state = apply(state, action, rng)
        pairs += [(value, _points_for(state, me)) for value, me in judged]
    elapsed = time.perf_counter() - started
    print(f"coach calibration: {hands} Hard-vs-Hard hands, every {every}th decision of either side,")
    print(f"{samples} samples each: {len(pairs)} positions ({elapsed:.0f} s)")
    print(f"{'predicted (points for the mover)':34} {'positions':>9} {'mean predicted':>15} {'mean actual':>12}")
    edges = (float("-inf"), *BUCKETS, float("inf"))
    for low, high in itertools.pairwise(edges):
        inside = [(p, a) for p, a in pairs if low < p <= high]
        if not inside:
            continue
        label = f"({low:g}, {high:g}]"
        mean_p = statistics.fmean(p for p, _ in inside)
        mean_a = statistics.fmean(a for _, a in inside)
        print(f"{label:34} {len(inside):9d} {mean_p:15.1f} {mean_a:12.1f}")
    err = statistics.fmean(abs(p - a) for p, a in pairs)
    print(f"mean absolute error per position: {err:.1f} points (one hand's points are very spread out)")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.review")
    parser.add_argument("what", choices=["size", "timing", "calibration"])
    parser.add_argument("--hands", type=int)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--samples", type=int, default=48)
    parser.add_argument("--cpu", action="store_true", help="timing: CPU time of this process, not the wall clock")
    args = parser.parse_args()
    if args.what == "size":
        size(args.hands or 15)
    elif args.what == "timing":
        timing(args.hands or 40, time.process_time if args.cpu else time.perf_counter)
    else:
        calibration(args.hands or 150, args.every, args.samples)


if __name__ == "__main__":
    main()
