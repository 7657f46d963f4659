"""Hand features on lane masks: meld outs (cards that would make a meld) and discard danger.

Lane layout reminder: suit ``s`` uses bits ``16*s .. 16*s+12``. Shifting a hand by one or
two bits moves each card to its suit neighbour; anything shifted into the three spare bits
of a lane (or across lanes) lands on a position that is never a card, and is removed by
the final ``& live`` or ``& FULL_DECK``.
"""

from __future__ import annotations

from app.engine import masks

FULL_DECK, RANK_MASKS, LANE, SUIT_MASK = masks.FULL_DECK, masks.RANK_MASKS, masks.LANE, masks.SUIT_MASK
bits_of, rank_of = masks.bits_of, masks.rank_of


def run_outs(hand: int) -> int:
    """Cards that would complete a run of three (or more) with two cards of ``hand``."""
    up1, up2 = hand << 1, hand << 2
    dn1, dn2 = hand >> 1, hand >> 2
    return ((up1 & up2) | (up1 & dn1) | (dn1 & dn2)) & FULL_DECK & ~hand


def set_outs(hand: int) -> int:
    """Cards that would complete (or extend) a set with cards of ``hand``: ranks held twice or more."""
    a, b = hand & SUIT_MASK, (hand >> LANE) & SUIT_MASK
    c, d = (hand >> 2 * LANE) & SUIT_MASK, hand >> 3 * LANE
    pairs = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d)
    spread = pairs | pairs << LANE | pairs << 2 * LANE | pairs << 3 * LANE
    return spread & ~hand


def meld_outs(hand: int) -> int:
    return run_outs(hand) | set_outs(hand)


def danger(card: int, probs: dict[int, float]) -> float:
    """Probability the opponent can meld ``card``: it holds two of its rank, or two suit-mates in line.

    Independence between cards is assumed; it is rough, and only used to rank discards.
    """
    get = probs.get
    a, b, c = _RANK_MATES[card]
    x, y, z = get(a, 0.0), get(b, 0.0), get(c, 0.0)
    # Two or more of the three rank-mates.
    p_none = 1.0 - (x * y + x * z + y * z - 2 * x * y * z)
    for low, high in _RUN_MATES[card]:
        p_none *= 1.0 - get(low, 0.0) * get(high, 0.0)
    return 1.0 - p_none


def _run_mates(card: int) -> tuple[tuple[int, int], ...]:
    # The pairs of suit-mates that would make a run of three with ``card``: below it, around it, above it.
    r = rank_of(card)
    pairs = ((card >> 2, card >> 1, r >= 2), (card >> 1, card << 1, 1 <= r <= 11), (card << 1, card << 2, r <= 10))
    return tuple((low, high) for low, high, fits in pairs if fits)


# Per card bit, worked out once: the computer asks ``danger`` of a dozen cards at every decision.
_RANK_MATES = {bit: tuple(bits_of(RANK_MASKS[rank_of(bit)] & ~bit)) for bit in masks.CARD_OF_BIT}
_RUN_MATES = {bit: _run_mates(bit) for bit in masks.CARD_OF_BIT}


def outs_weight(hand: int, live: dict[int, float]) -> float:
    """Expected number of meld-making cards still to come: each live out weighted by its chance of being drawable."""
    outs = meld_outs(hand)
    total = 0.0
    get = live.get
    while outs:
        low = outs & -outs
        outs ^= low
        total += get(low, 0.0)
    return total
