"""Opponent-hand inference: how likely each unseen card is to sit in the opponent's hand.

The clues are the ones strong human players use. A card taken from the pile is kept for a
meld, so its meld partners become likelier; a card discarded or passed was not wanted, so
cards that would have melded with it become less likely. Everything comes from a
``Knowledge``, so only public information and the player's own cards are used.
"""

from __future__ import annotations

import random

from app.ai.knowledge import Knowledge, neighbours
from app.engine import masks

bits_of, deadwood_of_mask = masks.bits_of, masks.deadwood_of_mask

# Multipliers per clue, found by arena runs (docs/ai.md); they only need to be roughly right.
TAKEN_PARTNER = 2.5
DISCARDED_PARTNER = 0.55
PASSED_PARTNER = 0.75
MAX_PROB = 0.95


def card_weights(
    k: Knowledge,
    taken_partner: float = TAKEN_PARTNER,
    discarded_partner: float = DISCARDED_PARTNER,
    passed_partner: float = PASSED_PARTNER,
) -> dict[int, float]:
    """A relative weight, per unseen card, for being in the opponent's hidden cards.

    ``taken_partner``, ``discarded_partner`` and ``passed_partner`` are the multipliers per clue (a player's ``Style``
    may set its own: issue 15's screening of a sharper reading of passes).
    """
    taken_near = 0
    for b in bits_of(k.opp_known):
        taken_near |= neighbours(b)
    discarded = bits_of(k.opp_discarded)
    passed = bits_of(k.opp_passed & ~k.opp_discarded)
    weights = {}
    for u in bits_of(k.unseen):
        w = 1.0
        if u & taken_near:
            w *= taken_partner
        near = neighbours(u)
        for d in discarded:
            if d & near:
                w *= discarded_partner
        for p in passed:
            if p & near:
                w *= passed_partner
        weights[u] = w
    return weights


def hidden_count(k: Knowledge) -> int:
    """How many of the opponent's cards I have not seen."""
    return k.opp_hand_size - k.opp_known.bit_count()


def opponent_probs(k: Knowledge, weights: dict[int, float] | None = None) -> dict[int, float]:
    """Probability that each card is in the opponent's hand (1 for known ones, absent means 0)."""
    if weights is None:
        weights = card_weights(k)
    total = sum(weights.values())
    n = hidden_count(k)
    probs = {b: 1.0 for b in bits_of(k.opp_known)}
    if total > 0:
        scale = n / total
        for b, w in weights.items():
            probs[b] = min(MAX_PROB, w * scale)
    return probs


def sample_hand(k: Knowledge, weights: dict[int, float], rng: random.Random, extra: int = 0) -> int:
    """One opponent hand consistent with the view: the known cards plus weighted unseen cards.

    ``extra`` more cards are drawn one by one, each time dropping the worst card: a hand that has drawn
    and discarded for a while is better than a random one, and a random sample alone would
    understate the undercut risk late in a hand.
    """
    n = hidden_count(k)
    items = list(weights.items())
    want = min(n + extra, len(items))
    # Weighted sampling without replacement (Efraimidis–Spirakis keys).
    keyed = sorted(items, key=lambda it: rng.random() ** (1.0 / it[1]), reverse=True)
    hand = k.opp_known
    for b, _ in keyed[: min(n, want)]:
        hand |= b
    # Then draw the extra cards one at a time, each time shedding the card that keeps the least
    # deadwood, as the opponent would have (hands stay at 11 cards, so this stays cheap).
    for b, _ in keyed[n:want]:
        hand |= b
        best_dw, best_bit = 999, 0
        for c in bits_of(hand & ~k.opp_known):
            dw = deadwood_of_mask(hand ^ c)
            if dw < best_dw:
                best_dw, best_bit = dw, c
        hand ^= best_bit
    return hand
