"""Published baselines for the arena: the EAAI-2021 challenge's simple player, and two patient versions.

The EAAI Undergraduate Research Challenge on Gin Rummy (Todd Neller and others, EAAI-2021) gave
its entrants a ``SimpleGinRummyPlayer`` to beat. As documented there, it:

- takes the face-up card (the first upcard, or the discard pile's top) only if that card would
  be part of a meld with the cards in hand;
- discards, among the cards it may throw (never the card just taken), one that leaves the least
  deadwood, choosing at random among ties;
- knocks at the first chance (deadwood 10 or less after its discard).

Knocking at the first chance feeds undercuts to a careful defender, so the arena also seats two
*patient* versions that differ only in when they knock (issue 15):

- ``eaai-knock5`` knocks only with 5 deadwood or less (or Gin);
- ``eaai-gin`` plays for Gin, and knocks as soon as it can only once the stock is low
  (``LOW_STOCK`` cards or fewer: about four turns each are left).

They decide from the ``PlayerView`` alone, like every player.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.engine import Action, ActionKind, Card, PlayerView, deadwood

__all__ = ["LOW_STOCK", "eaai_choice", "gin_hunter_choice", "knock_at_5_choice", "makes_a_meld"]

LOW_STOCK = 10
"""``eaai-gin`` knocks at its first chance once the stock holds this many cards or fewer."""

KnockRule = Callable[[int, PlayerView], bool]
"""Whether to knock with this much deadwood left after the discard, in this position."""


def makes_a_meld(card: Card, hand: tuple[Card, ...]) -> bool:
    """Whether ``card`` would be part of a meld with cards of ``hand``: a set of three of a rank,
    or a run of three of a suit (R4, R5; the ace is low)."""
    if sum(c.rank == card.rank for c in hand) >= 2:
        return True
    ranks = {c.rank for c in hand if c.suit == card.suit}
    r = card.rank
    return (
        (r - 2 in ranks and r - 1 in ranks)
        or (r - 1 in ranks and r + 1 in ranks)
        or (r + 1 in ranks and r + 2 in ranks)
    )


def _least_deadwood_discard(view: PlayerView, rng: random.Random) -> tuple[Card, int]:
    """A card whose discard leaves the least deadwood (never the card just taken), ties at random."""
    options: list[tuple[int, Card]] = []
    for card in view.hand:
        if card == view.taken_discard:
            continue
        options.append((deadwood([c for c in view.hand if c != card]), card))
    least = min(dw for dw, _ in options)
    return rng.choice([card for dw, card in options if dw == least]), least


def _baseline(knocks: KnockRule) -> Callable[[PlayerView, random.Random], Action]:
    def choose(view: PlayerView, rng: random.Random) -> Action:
        legal = view.legal_actions
        kinds = {a.kind for a in legal}
        if len(legal) == 1:  # forced: the next hand, or the draw after both passed
            return legal[0]
        if ActionKind.TAKE_UPCARD in kinds or ActionKind.TAKE_DISCARD in kinds:
            take = ActionKind.TAKE_UPCARD if ActionKind.TAKE_UPCARD in kinds else ActionKind.TAKE_DISCARD
            if makes_a_meld(view.discard_pile[-1], view.hand):
                return Action(take)
            return Action(ActionKind.PASS) if ActionKind.PASS in kinds else Action(ActionKind.DRAW_STOCK)
        if ActionKind.DRAW_STOCK in kinds:
            return Action(ActionKind.DRAW_STOCK)
        card, left = _least_deadwood_discard(view, rng)
        knock = Action(ActionKind.KNOCK, card)
        if knock in legal and knocks(left, view):
            return knock
        return Action(ActionKind.DISCARD, card)

    return choose


eaai_choice = _baseline(lambda left, view: True)
"""The EAAI-2021 challenge's simple player: knocks at the first chance."""

knock_at_5_choice = _baseline(lambda left, view: left <= 5)
"""Patient: knocks only with 5 deadwood or less (Gin included)."""

gin_hunter_choice = _baseline(lambda left, view: left == 0 or view.stock_size <= LOW_STOCK)
"""Patient: Gin only, until the stock is low; then knocks at the first chance."""
