"""Engine speed: ``python -m benchmarks.engine`` prints the figures issue #2 asks for.

- median µs of ``deadwood`` on 20,000 fresh random 10-card hands and on meld-dense hands
  (few adjacent ranks: many overlapping sets and runs), plus the worst dense case (two
  4-sets and a 3-set in 11 cards). The engine remembers scored hands (``deadwood_of_mask``
  is cached); the cache is emptied before every timed call, so these are the figures of
  the computation itself;
- ``settle`` calls per second on knockable hands;
- full hands per second of random legal play through ``apply``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from app.engine import DECK, ActionKind, Card, Phase, apply, deadwood, legal_actions, masks, new_match, settle


def _median_us(fn: Callable[[Sequence[Card]], object], hands: list[tuple[Card, ...]]) -> tuple[float, float]:
    clock = time.perf_counter_ns
    times = []
    for hand in hands:
        masks.deadwood_of_mask.cache_clear()
        t = clock()
        fn(hand)
        times.append(clock() - t)
    times.sort()
    return statistics.median(times) / 1000, times[int(len(times) * 0.99)] / 1000


def _dense(rng: random.Random, size: int) -> tuple[Card, ...]:
    low = rng.randrange(0, 10)
    pool = [c for c in DECK if low <= c.rank < low + rng.choice((3, 4))]
    return tuple(rng.sample(pool, min(size, len(pool))))


def _worst(rng: random.Random) -> tuple[Card, ...]:
    # Two full ranks and three of a third, adjacent: every set choice multiplies (6 × 6 × 2).
    low = rng.randrange(0, 11)
    cards = [c for c in DECK if c.rank in (low, low + 1)] + rng.sample([c for c in DECK if c.rank == low + 2], 3)
    return tuple(cards)


def _knockable(rng: random.Random) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    while True:
        k = _dense(rng, 10)
        if len(k) == 10 and deadwood(k) <= 10:
            rest = [c for c in DECK if c not in k]
            return k, tuple(rng.sample(rest, 10))


def _random_hands_per_second(seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    hands = 0
    start = time.perf_counter()
    state = new_match(rng)
    while time.perf_counter() - start < seconds:
        acts = legal_actions(state)
        if not acts:
            state = new_match(rng, starter=state.next_starter)
            continue
        knocks = [a for a in acts if a.kind is ActionKind.KNOCK]
        state = apply(state, rng.choice(knocks or acts), rng)
        if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
            hands += 1
    return hands / (time.perf_counter() - start)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=20_000, help="hands per deadwood measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    seen: set[frozenset[Card]] = set()
    fresh: list[tuple[Card, ...]] = []
    while len(fresh) < args.n:
        hand = tuple(rng.sample(DECK, 10))
        if frozenset(hand) not in seen:
            seen.add(frozenset(hand))
            fresh.append(hand)
    dense = [_dense(rng, 10) for _ in range(args.n)]
    worst = [_worst(rng) for _ in range(2_000)]
    deadwood(fresh[0])  # import-time tables are built already; this only warms the call path

    med, p99 = _median_us(deadwood, fresh)
    print(f"deadwood, {args.n:,} fresh random 10-card hands: median {med:.2f} µs (p99 {p99:.2f} µs)")
    med, p99 = _median_us(deadwood, dense)
    print(f"deadwood, {args.n:,} meld-dense 10-card hands:    median {med:.2f} µs (p99 {p99:.2f} µs)")
    med, p99 = _median_us(deadwood, worst)
    print(f"deadwood, 2,000 worst-case 11-card hands (4+4+3 of adjacent ranks): median {med:.2f} µs (p99 {p99:.2f} µs)")

    pairs = [_knockable(rng) for _ in range(2_000)]
    start = time.perf_counter()
    for k, d in pairs:
        settle(k, d)
    print(f"settle: {len(pairs) / (time.perf_counter() - start):,.0f} calls/s (knockable meld-dense hands)")
    print(f"random legal play through apply: {_random_hands_per_second(5.0, args.seed):,.0f} hands/s")


if __name__ == "__main__":
    main()
