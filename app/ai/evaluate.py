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
    r = rank_of(card)
    get = probs.get
    mates = [get(b, 0.0) for b in bits_of(RANK_MASKS[r] & ~card)]
    p_none = 1.0
    # Two or more of the three rank-mates.
    if len(mates) == 3:
        x, y, z = mates
        p_set = x * y + x * z + y * z - 2 * x * y * z
        p_none *= 1.0 - p_set
    low = (card >> 2, card >> 1) if r >= 2 else None
    mid = (card >> 1, card << 1) if 1 <= r <= 11 else None
    high = (card << 1, card << 2) if r <= 10 else None
    for pair in (low, mid, high):
        if pair is not None:
            p_none *= 1.0 - get(pair[0], 0.0) * get(pair[1], 0.0)
    return 1.0 - p_none


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
