"""Card tracking: what one player knows, boiled down from a ``PlayerView`` to 64-bit lane masks.

Everything the computer decides is computed from a ``Knowledge``, and a ``Knowledge`` is
built from a ``PlayerView`` only, so no hidden card can reach a decision (fair by
construction). Masks make the hot loops (deadwood, meld checks) plain integer arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import TARGET_SCORE, ActionKind, Phase, PlayerView, masks

FULL_DECK, RANK_MASKS, bits_of, rank_of = masks.FULL_DECK, masks.RANK_MASKS, masks.bits_of, masks.rank_of


OPP_PASSED, OPP_TOOK, OPP_THREW = 0, 1, 2
"""The kinds of ``Knowledge.opp_actions``."""


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
    score: int = 0
    """My match score before this hand."""
    opp_score: int = 0
    target: int = TARGET_SCORE
    """The score that wins the match (R2)."""
    opp_actions: tuple[tuple[int, int], ...] = ()
    """The opponent's moves this hand, in order, as ``(OPP_PASSED | OPP_TOOK | OPP_THREW, card bit)``: a
    face-up card it declined, took, or threw. Particle inference (``inference.particles``) replays them."""

    @property
    def top(self) -> int:
        return self.pile[-1] if self.pile else 0

    @property
    def pile_mask(self) -> int:
        """The discard pile's cards as one mask."""
        mask = 0
        for b in self.pile:
            mask |= b
        return mask

    @property
    def unseen(self) -> int:
        """Cards I have never seen: the opponent's hidden cards and the stock."""
        return FULL_DECK & ~(self.hand | self.opp_known | self.pile_mask)


def from_view(v: PlayerView) -> Knowledge:
    """Boil a ``PlayerView`` down to masks. This is the only door between the game and the computer."""
    me = v.player
    opp_draws = 0
    discards = 0
    top = 0  # the face-up card before each event, as the log shows it
    opp_actions: list[tuple[int, int]] = []
    for e in v.log:
        bit = e.card.bit if e.card is not None else 0
        mine = e.player == me
        if e.kind.throws:
            discards += 1
            if not mine:
                opp_actions.append((OPP_THREW, bit))
            top = bit
        elif e.kind is ActionKind.PASS:
            if not mine and bit:
                opp_actions.append((OPP_PASSED, bit))
            top = bit
        elif e.kind.takes_pile:
            if not mine and bit:
                opp_actions.append((OPP_TOOK, bit))
            top = 0
        elif e.kind is ActionKind.DRAW_STOCK and not mine:
            opp_draws += 1
            # Drawing blind declines the face-up card, unless it declined that one already (the upcard).
            if top and (OPP_PASSED, top) not in opp_actions[-1:]:
                opp_actions.append((OPP_PASSED, top))
    kinds = {a.kind for a in v.legal_actions}
    return Knowledge(
        hand=masks.cards_mask(v.hand),
        pile=tuple(c.bit for c in v.discard_pile),
        opp_known=masks.cards_mask(v.opponent_known),
        opp_discarded=masks.cards_mask(v.opponent_discarded),
        opp_passed=masks.cards_mask(v.opponent_passed),
        stock_size=v.stock_size,
        opp_hand_size=v.opponent_hand_size,
        opp_stock_draws=opp_draws,
        discards=discards,
        phase=v.phase,
        taken=v.taken_discard.bit if v.taken_discard is not None else 0,
        can_take=ActionKind.TAKE_DISCARD in kinds or ActionKind.TAKE_UPCARD in kinds,
        score=v.scores[me],
        opp_score=v.scores[1 - me],
        target=v.target,
        opp_actions=tuple(opp_actions),
    )
