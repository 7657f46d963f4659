"""The engine's bit tricks, public for the computer opponent: a hand as one int over 64-bit lanes.

Suit ``s`` occupies bits ``16*s .. 16*s+12`` and rank ``r`` is bit ``r`` of its lane (see
``cards.py``), so shifting a hand by one bit moves every card to its suit neighbour, and a
rank's four cards are one bit per lane. Everything here is exact and shared with the rules:
the deadwood, the knocker's arrangements and the defender's layoffs are the very functions
``settle`` scores a knock with.

>>> from app.engine import parse_cards
>>> hand = cards_mask(parse_cards("As 2s 3s 7c 7d 7h Kd"))
>>> deadwood_of_mask(hand), [str(c) for c in mask_cards(hand & RANK_MASKS[6])]
(10, ['7c', '7d', '7h'])
"""

from __future__ import annotations

from app.engine.cards import DECK, LANE, Card, cards_mask, mask_cards
from app.engine.melds import SUIT_MASK, deadwood_of_mask, melds_in, min_arrangements
from app.engine.settle import best_defence

__all__ = [
    "BIT_VALUE",
    "CARD_OF_BIT",
    "FULL_DECK",
    "LANE",
    "RANK_MASKS",
    "SUIT_MASK",
    "best_defence",
    "bits_of",
    "cards_mask",
    "deadwood_of_mask",
    "mask_cards",
    "melds_in",
    "min_arrangements",
    "rank_of",
]

FULL_DECK = cards_mask(DECK)
"""All 52 cards."""
RANK_MASKS = tuple(sum(1 << (LANE * s + r) for s in range(4)) for r in range(13))
"""Per rank (0 = Ace), its four cards."""
BIT_VALUE = {c.bit: c.value for c in DECK}
"""Each card's deadwood value (R4), by its bit."""
CARD_OF_BIT: dict[int, Card] = {c.bit: c for c in DECK}


# The set bits of each byte value, at each byte of a hand's 64 bits: a mask's bits come a byte at a
# time rather than a bit at a time (the computer lists its 30-odd unseen cards on every decision).
_BYTE_BITS = tuple(
    tuple(tuple(1 << (8 * at + i) for i in range(8) if value >> i & 1) for value in range(256)) for at in range(8)
)


def bits_of(mask: int) -> list[int]:
    """The single-card bits of a mask, low to high."""
    out: list[int] = []
    for byte_bits in _BYTE_BITS:
        if not mask:
            return out
        out += byte_bits[mask & 0xFF]
        mask >>= 8
    high = mask << 64  # bits above a hand's 64, which no card has: one at a time
    while high:
        low = high & -high
        out.append(low)
        high ^= low
    return out


def rank_of(bit: int) -> int:
    """The rank (0 = Ace .. 12 = King) of a single-card bit."""
    return (bit.bit_length() - 1) % LANE
