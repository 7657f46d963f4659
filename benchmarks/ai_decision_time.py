"""Decision time per level: p50/p95/p99 over the decisions of seeded self-play games.

    python -m benchmarks.ai_decision_time [--hands 60] [--seed 1] [--untimed] [--cpu] [--variant NAME ...]

Each level plays whole hands against the simple baseline through the engine; only the
level's own decisions are timed (view building included, as a web request pays it). Expert is
timed from ``players.EXPERT`` when ``Level`` does not offer it yet. ``--untimed`` times the
players as the arena seats them, without the work that evens out their timing (``Style.even_time``):
what a decision costs an arena run. ``--cpu`` measures the process's CPU time instead of the
wall clock: what the decisions cost one core, unchanged by other work sharing the machine (on a
busy machine the wall clock also counts the time the process waited for a core). ``--variant`` also
times research players (``research.ABLATIONS``, ``research.EXPERTS``) as a person would meet them,
with their timing evened out (unless ``--untimed``): what a variant would cost were it made a level.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

from app.ai import Level
from app.ai.levels import PLAYERS
from app.ai.players import EXPERT, Player, level_player
from app.ai.research import ABLATIONS, ARENA_PLAYERS, EXPERTS
from app.ai.simple import simple_choice
from app.engine import NEXT_HAND, Phase, apply, new_match, view


def players(untimed: bool = False, variants: tuple[str, ...] = ()) -> dict[str, Player]:
    """Every level's player, Expert included, and ``variants`` by their research names: as a person
    meets them, or (``untimed``) as the arena seats them."""
    out: dict[str, Player] = {level.value: PLAYERS[level] for level in Level}
    out.setdefault("expert", level_player(EXPERT))
    for name in variants:
        out[name] = level_player((ABLATIONS | EXPERTS)[name])
    if untimed:
        out = {name: ARENA_PLAYERS[name] for name in out}
    return out


def timings(player: Player, hands: int, seed: int, clock: Callable[[], float] = time.perf_counter) -> list[float]:
    rng = random.Random(seed)
    deal_rng = random.Random(seed + 1)
    out: list[float] = []
    state = new_match(deal_rng, starter=0)
    played = 0
    while played < hands:
        if state.phase is Phase.MATCH_OVER:
            state = new_match(deal_rng)
            continue
        if state.phase is Phase.HAND_OVER:
            played += 1
            state = apply(state, NEXT_HAND, deal_rng)
            continue
        if state.turn == 0:
            start = clock()
            action = player(view(state, 0), rng)
            out.append(clock() - start)
        else:
            action = simple_choice(view(state, 1), rng)
        state = apply(state, action, deal_rng)
    return out


def percentile(data: list[float], q: float) -> float:
    return statistics.quantiles(data, n=100, method="inclusive")[int(q) - 1]


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ai_decision_time")
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--untimed", action="store_true", help="as the arena seats them (even_time off)")
    parser.add_argument("--cpu", action="store_true", help="CPU time of this process, not the wall clock")
    parser.add_argument("--variant", nargs="*", default=[], choices=sorted(ABLATIONS | EXPERTS), metavar="NAME")
    args = parser.parse_args()
    clock = time.process_time if args.cpu else time.perf_counter
    notes = (" untimed" if args.untimed else "") + (" CPU time" if args.cpu else "")
    print(f"decision time per level, {args.hands} hands each vs simple (ms){notes}")
    print(f"{'level':12} {'decisions':>9} {'mean':>7} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7}")
    for name, player in players(args.untimed, tuple(args.variant)).items():
        t = [x * 1000 for x in timings(player, args.hands, args.seed, clock)]
        print(
            f"{name:12} {len(t):9d} {statistics.fmean(t):7.2f} {percentile(t, 50):7.2f} {percentile(t, 95):7.2f}"
            f" {percentile(t, 99):7.2f} {max(t):7.2f}"
        )


if __name__ == "__main__":
    main()
