"""The "simple" baseline: take the upcard only if it improves the hand, shed the highest deadwood, knock at once."""

from __future__ import annotations

import random

from app.engine import Action, ActionKind, Card, PlayerView, deadwood


def _best_discard(hand: tuple[Card, ...], forbidden: Card | None) -> tuple[Card, int]:
    """The discard keeping the least deadwood; ties shed the higher card."""
    options = []
    for card in hand:
        if card is forbidden:
            continue
        rest = tuple(c for c in hand if c is not card)
        options.append((deadwood(rest), -card.value, -card.rank, card))
    dw, _, _, card = min(options)
    return card, dw


def _improves(hand: tuple[Card, ...], card: Card) -> bool:
    _, dw = _best_discard((*hand, card), card)
    return dw < deadwood(hand)


def simple_choice(view: PlayerView, rng: random.Random) -> Action:
    legal = view.legal_actions
    kinds = {a.kind for a in legal}
    if ActionKind.NEXT_HAND in kinds:
        return Action(ActionKind.NEXT_HAND)
    if ActionKind.TAKE_UPCARD in kinds or ActionKind.TAKE_DISCARD in kinds:
        top = view.discard_pile[-1]
        take = ActionKind.TAKE_UPCARD if ActionKind.TAKE_UPCARD in kinds else ActionKind.TAKE_DISCARD
        if _improves(view.hand, top):
            return Action(take)
        return Action(ActionKind.PASS) if ActionKind.PASS in kinds else Action(ActionKind.DRAW_STOCK)
    if ActionKind.DRAW_STOCK in kinds:
        return Action(ActionKind.DRAW_STOCK)
    card, _ = _best_discard(view.hand, view.taken_discard)
    knock = Action(ActionKind.KNOCK, card)
    return knock if knock in legal else Action(ActionKind.DISCARD, card)
