"""Exact minimum deadwood (R5, R6) by table look-up.

Why it is exact and fast: runs live inside one suit, sets cut across suits. So for every
way of choosing the sets (for each rank held 3 or 4 times: no set, the 4-set, or one of
the 3-sets), the rest splits by suit, and the best runs of one suit's 13-bit mask are a
precomputed table (8,192 entries). Most random hands hold no rank three times, so their
deadwood is four table look-ups.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum
from functools import lru_cache
from itertools import product
from typing import Any

from pydantic import BaseModel, ConfigDict, GetCoreSchemaHandler
from pydantic_core import core_schema

from app.engine.cards import LANE, Card, cards_mask, mask_cards
from app.engine.errors import InvalidCards

SUIT_MASK = (1 << 13) - 1
_VALUES = tuple(min(r + 1, 10) for r in range(13))


def _build_run_tables() -> tuple[list[int], list[tuple[int, ...]]]:
    """Per 13-bit suit mask: least deadwood using runs only, and the runs that reach it."""
    size = 1 << 13
    best = [0] * size
    runs: list[tuple[int, ...]] = [()] * size
    for m in range(1, size):
        low = (m & -m).bit_length() - 1
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
    return best, runs


RUN_DEADWOOD, RUN_MELDS = _build_run_tables()


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
    triples = (a & b & (c | d)) | (c & d & (a | b))
    if not triples:
        return RUN_DEADWOOD[a] + RUN_DEADWOOD[b] + RUN_DEADWOOD[c] + RUN_DEADWOOD[d]
    return _with_sets(a, b, c, d, triples)


def _with_sets(a: int, b: int, c: int, d: int, triples: int) -> int:
    """Least deadwood of the suit lanes ``a``-``d`` over every choice of sets for the ranks in ``triples``.

    For its lowest rank: no set, the whole set, and for four held any three (the fourth left for a
    run); then the next rank on what is left. Written out on the four lanes rather than enumerated
    as lists of options: these are most of the misses of the deadwood cache in the computer's
    searches, whose playouts score hundreds of thousands of hands a match.
    """
    low = triples & -triples
    rest = triples ^ low
    na, nb, nc, nd = a & ~low, b & ~low, c & ~low, d & ~low
    options = [(a, b, c, d), (na, nb, nc, nd)]
    if a & b & c & d & low:
        options += [(a, nb, nc, nd), (na, b, nc, nd), (na, nb, c, nd), (na, nb, nc, d)]
    rd = RUN_DEADWOOD
    if rest:
        return min(_with_sets(w, x, y, z, rest) for w, x, y, z in options)
    return min(rd[w] + rd[x] + rd[y] + rd[z] for w, x, y, z in options)


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


class MeldKind(StrEnum):
    """The two kinds of meld (R5)."""

    RUN = "run"
    """Three or more cards of one suit in sequence, Ace low."""
    SET = "set"
    """Three or four cards of one rank."""


class Meld(tuple[Card, ...]):
    """The cards of one meld, in display order (a run by rank, a set by suit).

    A tuple, so it reads and saves as one (a saved game stores it as a list of cards).

    >>> from app.engine.cards import parse_cards
    >>> Meld(parse_cards("7c 7d 7h")).kind, Meld(parse_cards("As 2s 3s")).kind
    (<MeldKind.SET: 'set'>, <MeldKind.RUN: 'run'>)
    """

    __slots__ = ()

    def __new__(cls, cards: Iterable[Card]) -> Meld:
        return super().__new__(cls, cards)

    @property
    def kind(self) -> MeldKind:
        # A meld holds 3+ cards; a run's ranks all differ, a set's are all the same.
        return MeldKind.SET if self[0].rank == self[1].rank else MeldKind.RUN

    def __repr__(self) -> str:
        return f"Meld({tuple(self)!r})"

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type[Any], handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        return core_schema.no_info_after_validator_function(cls, handler.generate_schema(tuple[Card, ...]))


class Arrangement(BaseModel):
    """Melds and leftover deadwood cards of one hand."""

    model_config = ConfigDict(frozen=True)

    melds: tuple[Meld, ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int


def arrangement_from_masks(meld_masks: Sequence[int], rest: int) -> Arrangement:
    """The ``Arrangement`` of melds and deadwood given as lane masks."""
    deadwood_cards = mask_cards(rest)
    # Not validated again: the masks are a hand's own, and its melds and cards are made here of their
    # types (validating made each meld afresh, about 1% of a move).
    return Arrangement.model_construct(
        melds=tuple(_meld(m) for m in meld_masks),
        deadwood_cards=deadwood_cards,
        deadwood=sum(c.value for c in deadwood_cards),
    )


def _meld(mask: int) -> Meld:
    """A meld's cards in display order: a run by rank, a set by suit."""
    return Meld(sorted(mask_cards(mask), key=lambda c: (c.rank, c.suit)))


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
    return arrangement_from_masks(best[1], best[2])


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
