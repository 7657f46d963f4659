"""Build game states for tests from readable card text."""

from __future__ import annotations

from typing import Any

from app.engine import Deal, GameState, Phase, parse_cards
from app.engine.cards import DECK


def make_state(
    mine: str,
    theirs: str,
    discard: str,
    *,
    phase: Phase = Phase.DRAW,
    turn: int = 0,
    starter: int = 0,
    stock: str | None = None,
    salt: str = "00",
    **extra: Any,
) -> GameState:
    """Player 0 holds ``mine``, player 1 ``theirs``; the discard pile is ``discard`` (top last).

    The stock is ``stock`` (top first) when given, else every other card; cards in neither go
    under the discard pile. The deal records the hands and the upcard in deal order (R7).
    """
    hands = (parse_cards(mine), parse_cards(theirs))
    pile = parse_cards(discard)
    used = {*hands[0], *hands[1], *pile}
    rest = tuple(c for c in DECK if c not in used)
    if stock is not None:
        wanted = parse_cards(stock)
        rest = (*wanted, *(c for c in rest if c not in wanted))
        # The other cards of the deck still have to be somewhere: beyond the stock they go under the pile.
        pile = (*rest[len(wanted) :], *pile)
        rest = wanted
    # A deal consistent with R7 for the cards we know: hands, then the upcard (top of the pile).
    first = (*hands[starter], *hands[1 - starter], pile[-1])
    deck = (*first, *(c for c in DECK if c not in first))
    return GameState(
        hands=hands, stock=rest, discard=pile, phase=phase, turn=turn, starter=starter,
        deal=Deal(deck=deck, salt=salt), **extra,
    )  # fmt: skip
