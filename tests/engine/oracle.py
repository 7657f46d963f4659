"""A brute-force deadwood oracle, written independently of the engine's tables (golden data)."""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

from app.engine import Card


def all_melds(cards: Sequence[Card]) -> list[frozenset[Card]]:
    """Every set (3 or 4 of a rank) and run (3+ in a suit, Ace low) inside ``cards``."""
    melds: list[frozenset[Card]] = []
    held = set(cards)
    for size in (3, 4):
        for combo in combinations(cards, size):
            if len({c.rank for c in combo}) == 1:
                melds.append(frozenset(combo))
    for start in cards:
        run = [start]
        while True:
            nxt = next((c for c in held if c.suit == start.suit and c.rank == run[-1].rank + 1), None)
            if nxt is None:
                break
            run.append(nxt)
            if len(run) >= 3:
                melds.append(frozenset(run))
    return melds


def oracle_deadwood(cards: Sequence[Card]) -> int:
    """Least deadwood by trying every collection of disjoint melds."""
    melds = all_melds(cards)
    total = sum(c.value for c in cards)

    def best(i: int, used: frozenset[Card]) -> int:
        # The most value that melds i.. can cover without touching ``used``.
        if i == len(melds):
            return 0
        skip = best(i + 1, used)
        if melds[i] & used:
            return skip
        return max(skip, sum(c.value for c in melds[i]) + best(i + 1, used | melds[i]))

    return total - best(0, frozenset())
