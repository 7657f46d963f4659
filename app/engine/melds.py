"""Exact minimum deadwood (R5, R6) by table look-up.

Why it is exact and fast: runs live inside one suit, sets cut across suits. So for every
way of choosing the sets (for each rank held 3 or 4 times: no set, the 4-set, or one of
the 3-sets), the rest splits by suit, and the best runs of one suit's 13-bit mask are a
precomputed table (8,192 entries). Most random hands hold no rank three times, so their
deadwood is four table look-ups.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import product

from pydantic import BaseModel, ConfigDict

from app.engine.cards import LANE, Card, cards_mask, mask_cards
from app.engine.errors import InvalidCards

SUIT_MASK = (1 << 13) - 1
_VALUES = tuple(min(r + 1, 10) for r in range(13))


def _build_run_tables() -> tuple[list[int], list[tuple[int, ...]], list[int]]:
    """Per 13-bit suit mask: least deadwood using runs only, the runs that reach it, its value."""
    size = 1 << 13
    best = [0] * size
    runs: list[tuple[int, ...]] = [()] * size
    value = [0] * size
    for m in range(1, size):
        low = (m & -m).bit_length() - 1
        value[m] = value[m & (m - 1)] + _VALUES[low]
        # The lowest card is either deadwood or starts a run low..high (R5: 3+ in a row).
        rest = m & (m - 1)
        b, r = best[rest] + _VALUES[low], runs[rest]
        run = 1 << low
        high = low
        while high + 1 < 13 and m >> (high + 1) & 1:
            high += 1
            run |= 1 << high
            if high - low >= 2 and best[m & ~run] < b:
                b, r = best[m & ~run], (run, *runs[m & ~run])
        best[m], runs[m] = b, r
    return best, runs, value


RUN_DEADWOOD, RUN_MELDS, SUIT_VALUE = _build_run_tables()


def _set_options(mask: int) -> list[list[int]]:
    """For each rank held 3+ times: the lane masks a set of that rank may take (0 = no set)."""
    a, b = mask & SUIT_MASK, (mask >> LANE) & SUIT_MASK
    c, d = (mask >> 2 * LANE) & SUIT_MASK, (mask >> 3 * LANE) & SUIT_MASK
    triples = (a & b & (c | d)) | (c & d & (a | b))
    options = []
    while triples:
        low = triples & -triples
        triples ^= low
        rank_bits = [low << (LANE * s) for s in range(4) if mask & (low << (LANE * s))]
        full = sum(rank_bits)
        opts = [0, full]
        if len(rank_bits) == 4:  # a 4-set, or any 3 of them (the fourth may sit in a run)
            opts += [full ^ bit for bit in rank_bits]
        options.append(opts)
    return options


def _runs_only_deadwood(mask: int) -> int:
    return (
        RUN_DEADWOOD[mask & SUIT_MASK]
        + RUN_DEADWOOD[(mask >> LANE) & SUIT_MASK]
        + RUN_DEADWOOD[(mask >> 2 * LANE) & SUIT_MASK]
        + RUN_DEADWOOD[mask >> 3 * LANE]
    )


# Remembered: within one request the same hands are scored again and again (the legal knocks,
# the computer's view of them, its discard choice), and a look-up costs a fraction of a score.
@lru_cache(maxsize=1 << 12)  # a move needs dozens; a small cache also keeps full GC passes short
def deadwood_of_mask(mask: int) -> int:
    """Least deadwood of a lane mask: the hot path of the engine and the computer player."""
    a, b = mask & SUIT_MASK, (mask >> LANE) & SUIT_MASK
    c, d = (mask >> 2 * LANE) & SUIT_MASK, mask >> 3 * LANE
    if not ((a & b & (c | d)) | (c & d & (a | b))):
        return RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[d]
    best = 999
    for choice in product(*_set_options(mask)):
        rest = mask & ~sum(choice)
        dw = _runs_only_deadwood(rest)
        if dw < best:
            best = dw
    return best


def _check(cards: Sequence[Card], sizes: range = range(12)) -> int:
    try:
        mask = cards_mask(cards)
    except (AttributeError, TypeError):
        raise InvalidCards("Expected a sequence of cards.") from None
    n = len(cards)
    if mask.bit_count() != n:
        raise InvalidCards("A hand can't hold the same card twice.")
    if n not in sizes:
        raise InvalidCards(f"A hand of {n} cards is not possible here (expected {sizes.start}–{sizes.stop - 1}).")
    return mask


def deadwood(cards: Sequence[Card]) -> int:
    """Least deadwood over every legal arrangement of 0–11 cards (R6).

    >>> from app.engine.cards import parse_cards
    >>> deadwood(parse_cards("As 2s 3s 7c 7d 7h Kd"))
    10
    """
    return deadwood_of_mask(_check(cards))


class Arrangement(BaseModel):
    """Melds and leftover deadwood cards of one hand."""

    model_config = ConfigDict(frozen=True)

    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int


def _arrangement(meld_masks: Sequence[int], rest: int) -> Arrangement:
    deadwood_cards = mask_cards(rest)
    return Arrangement(
        melds=tuple(_meld_cards(m) for m in meld_masks),
        deadwood_cards=deadwood_cards,
        deadwood=sum(c.value for c in deadwood_cards),
    )


def _meld_cards(mask: int) -> tuple[Card, ...]:
    """A meld's cards in display order: a run by rank, a set by suit."""
    return tuple(sorted(mask_cards(mask), key=lambda c: (c.rank, c.suit)))


def arrange_mask(mask: int) -> Arrangement:
    best: tuple[int, list[int], int] | None = None
    for choice in product(*_set_options(mask)):
        rest = mask & ~sum(choice)
        dw = _runs_only_deadwood(rest)
        if best is None or dw < best[0]:
            melds = [m for m in choice if m]
            for s in range(4):
                lane = (rest >> (LANE * s)) & SUIT_MASK
                melds += [run << (LANE * s) for run in RUN_MELDS[lane]]
            best = (dw, melds, rest & ~sum(melds))
    assert best is not None
    return _arrangement(best[1], best[2])


def arrange(cards: Sequence[Card]) -> Arrangement:
    """A minimum-deadwood arrangement of 0–11 cards (R6).

    >>> from app.engine.cards import parse_cards
    >>> a = arrange(parse_cards("Qs Ks As 2s 3s"))  # E5: Q-K-A is no run, A-2-3 is
    >>> [" ".join(map(str, m)) for m in a.melds], a.deadwood
    (['As 2s 3s'], 20)
    """
    return arrange_mask(_check(cards))


def melds_in(mask: int) -> list[int]:
    """Every meld (R5) inside a lane mask, as lane masks."""
    out = []
    for s in range(4):
        lane = (mask >> (LANE * s)) & SUIT_MASK
        for low in range(11):
            run = 0
            for high in range(low, 13):
                if not lane >> high & 1:
                    break
                run |= 1 << high
                if high - low >= 2:
                    out.append(run << (LANE * s))
    for r in range(13):
        bits = [1 << (LANE * s + r) for s in range(4) if mask >> (LANE * s + r) & 1]
        if len(bits) >= 3:
            full = sum(bits)
            out.append(full)
            if len(bits) == 4:
                out += [full ^ b for b in bits]
    return out


def min_arrangements(mask: int) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every arrangement reaching the least deadwood, as (meld masks, deadwood mask).

    Used where ties matter (R14 picks among them); not on the hot path.
    """
    target = deadwood_of_mask(mask)
    melds = melds_in(mask)

    def walk(rest: int, chosen: tuple[int, ...], dead: int, dead_value: int) -> Iterator[tuple[tuple[int, ...], int]]:
        if dead_value > target:
            return
        if not rest:
            if dead_value == target:
                yield chosen, dead
            return
        low = rest & -rest
        # The lowest remaining card is deadwood, or it is in one meld that fits what is left.
        card = mask_cards(low)[0]
        yield from walk(rest ^ low, chosen, dead | low, dead_value + card.value)
        for m in melds:
            if m & low and m & rest == m:
                yield from walk(rest & ~m, (*chosen, m), dead, dead_value)

    yield from walk(mask, (), 0, 0)


def discard_deadwoods(hand: Sequence[Card]) -> dict[Card, int]:
    """For an 11-card hand: the deadwood left by each possible discard."""
    mask = _check(hand, range(11, 12))
    return {c: deadwood_of_mask(mask ^ c.bit) for c in hand}


def best_discard_deadwood(hand: Sequence[Card]) -> int:
    """The least deadwood an 11-card hand can keep after one discard."""
    return min(discard_deadwoods(hand).values())
