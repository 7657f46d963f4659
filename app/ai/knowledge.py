"""Card tracking: what one player knows, boiled down from a ``PlayerView`` to 64-bit lane masks.

Everything the computer decides is computed from a ``Knowledge``, and a ``Knowledge`` is
built from a ``PlayerView`` only, so no hidden card can reach a decision (fair by
construction). Masks make the hot loops (deadwood, meld checks) plain integer arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import ActionKind, Phase, PlayerView
from app.engine.cards import DECK, LANE, cards_mask

FULL_DECK = cards_mask(DECK)
RANK_MASKS = tuple(sum(1 << (LANE * s + r) for s in range(4)) for r in range(13))
CARD_BITS = tuple(c.bit for c in DECK)
# Deadwood value of each lane bit position (only the 52 card positions are ever set).
BIT_VALUE = {c.bit: c.value for c in DECK}

_DISCARDS = (ActionKind.DISCARD, ActionKind.KNOCK)


def bits_of(mask: int) -> list[int]:
    """The single-card bits of a mask, low to high."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low)
        mask ^= low
    return out


def rank_of(bit: int) -> int:
    return (bit.bit_length() - 1) % LANE


def neighbours(bit: int) -> int:
    """Cards that can share a meld with ``bit``: its rank-mates and suit-mates within two ranks."""
    r = rank_of(bit)
    mask = RANK_MASKS[r] & ~bit
    for d in (-2, -1, 1, 2):
        if 0 <= r + d < 13:
            mask |= bit << d if d > 0 else bit >> -d
    return mask


@dataclass(frozen=True, slots=True)
class Knowledge:
    """One player's knowledge of the hand in play, as masks. Built only from a ``PlayerView``."""

    hand: int
    """My cards."""
    pile: tuple[int, ...]
    """The discard pile, bottom first (top last), as card bits."""
    opp_known: int
    """Cards the opponent took from the pile and still holds."""
    opp_discarded: int
    opp_passed: int
    """Face-up cards the opponent declined (passed upcard, or top discard when it drew from the stock)."""
    my_discarded: int
    stock_size: int
    opp_hand_size: int
    opp_stock_draws: int
    """How many times the opponent drew blind from the stock this hand (how far its hand may have improved)."""
    discards: int
    """Discards made so far this hand by both players (how far the hand has gone)."""
    phase: Phase
    taken: int
    """The card I just took from the pile (R10: it can't go back this turn), else 0."""
    can_take: bool
    """Whether the top of the pile may be taken now (not after both passed the upcard)."""
    my_score: int
    opp_score: int
    target: int

    @property
    def top(self) -> int:
        return self.pile[-1] if self.pile else 0

    @property
    def unseen(self) -> int:
        """Cards I have never seen: the opponent's hidden cards and the stock."""
        seen = self.hand | self.opp_known
        for b in self.pile:
            seen |= b
        return FULL_DECK & ~seen

    @property
    def dead(self) -> int:
        """Cards out of play for good: the discard pile below its top card."""
        m = 0
        for b in self.pile[:-1]:
            m |= b
        return m


def from_view(v: PlayerView) -> Knowledge:
    """Boil a ``PlayerView`` down to masks. This is the only door between the game and the computer."""
    me = v.player
    my_discarded = 0
    opp_draws = 0
    discards = 0
    for e in v.log:
        if e.kind in _DISCARDS:
            discards += 1
            if e.player == me and e.card is not None:
                my_discarded |= e.card.bit
        elif e.kind is ActionKind.DRAW_STOCK and e.player != me:
            opp_draws += 1
    kinds = {a.kind for a in v.legal_actions}
    return Knowledge(
        hand=cards_mask(v.hand),
        pile=tuple(c.bit for c in v.discard_pile),
        opp_known=cards_mask(v.opponent_known),
        opp_discarded=cards_mask(v.opponent_discarded),
        opp_passed=cards_mask(v.opponent_passed),
        my_discarded=my_discarded,
        stock_size=v.stock_size,
        opp_hand_size=v.opponent_hand_size,
        opp_stock_draws=opp_draws,
        discards=discards,
        phase=v.phase,
        taken=v.taken_discard.bit if v.taken_discard is not None else 0,
        can_take=ActionKind.TAKE_DISCARD in kinds or ActionKind.TAKE_UPCARD in kinds,
        my_score=v.scores[me],
        opp_score=v.scores[1 - me],
        target=v.target,
    )
