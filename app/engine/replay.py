"""A finished hand as data (its deal and its moves), written compactly, and replayed move by move.

A hand's deal and the moves made fix everything that happened, so a finished hand is kept as a
``PlayedHand`` and its positions are rebuilt by ``replay`` with ``apply``: the rules are never
re-derived here. Only a hand that is over can be made into one (``PlayedHand.of``): while a
hand is played its deal is secret.

The compact text (``code``) spends one character per card, so a saved match grows by about
150 bytes a hand. Its length depends on public facts only (the hand's number and the moves,
which the result reveals), never on which cards were held.

>>> import random
>>> from app.engine import new_match, legal_actions, apply
>>> state = new_match(random.Random(5), starter=0)
>>> while state.phase.in_play:
...     state = apply(state, legal_actions(state)[0])
>>> played = PlayedHand.of(state)
>>> PlayedHand.parse(played.code) == played
True
>>> replay(played)[-1].last_hand == state.last_hand
True
"""

from __future__ import annotations

import string
from dataclasses import dataclass

from app.engine.cards import DECK, Card
from app.engine.errors import InvalidState
from app.engine.rules import apply, deal_hand
from app.engine.state import TARGET_SCORE, Action, ActionKind, Deal, GameState, Seat

__all__ = ["PlayedHand", "replay"]

# One letter per card, by its index (clubs a–m, diamonds n–z, hearts A–M, spades N–Z).
_LETTERS = string.ascii_letters
_CARD_OF_LETTER = {_LETTERS[c.index]: c for c in DECK}
# Moves without a card are one sign each; a discard is its card's letter, a knock "!" and the letter.
_SIGN_OF = {ActionKind.PASS: "-", ActionKind.TAKE_UPCARD: "+", ActionKind.DRAW_STOCK: ".", ActionKind.TAKE_DISCARD: "^"}
_KIND_OF_SIGN = {sign: kind for kind, sign in _SIGN_OF.items()}
_KNOCK = "!"


def _letter(card: Card) -> str:
    return _LETTERS[card.index]


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """One finished hand of a match: who started it, its deal, and every move in order."""

    number: int
    starter: Seat
    deal: Deal
    moves: tuple[Action, ...]

    @classmethod
    def of(cls, state: GameState) -> PlayedHand:
        """The hand ``state`` has just finished; ``InvalidState`` while it is still being played."""
        if not state.phase.over:
            raise InvalidState("A hand can be kept for review only once it is over.")
        moves = tuple(Action(e.kind, e.card if e.kind.throws else None) for e in state.log)
        return cls(state.hand_number, state.starter, state.deal, moves)

    @property
    def code(self) -> str:
        """``number.starter.deck.salt.moves``, e.g. ``"3.1.<52 letters>.<16 hex>.-+k.^!Q"``."""
        deck = "".join(_letter(c) for c in self.deal.deck)
        moves = "".join(_move_code(m) for m in self.moves)
        return f"{self.number}.{int(self.starter)}.{deck}.{self.deal.salt}.{moves}"

    @classmethod
    def parse(cls, code: str) -> PlayedHand:
        """The hand ``code`` names; ``InvalidState`` for text that is not one (it is not replayed here)."""
        parts = code.split(".", 4) if isinstance(code, str) else []
        if len(parts) != 5 or not parts[0].isdigit() or parts[1] not in ("0", "1") or len(parts[2]) != 52:
            raise InvalidState("That is not a finished hand.")
        number, starter, deck, salt, moves = parts
        try:
            cards = tuple(_CARD_OF_LETTER[x] for x in deck)
            deal = Deal(deck=cards, salt=salt)
            return cls(int(number), Seat(int(starter)), deal, tuple(_parse_moves(moves)))
        except (KeyError, ValueError):
            raise InvalidState("That is not a finished hand.") from None


def _move_code(move: Action) -> str:
    if move.card is None:
        return _SIGN_OF[move.kind]
    return (_KNOCK if move.kind is ActionKind.KNOCK else "") + _letter(move.card)


def _parse_moves(text: str) -> list[Action]:
    moves: list[Action] = []
    knock = False
    for x in text:
        if x == _KNOCK and not knock:
            knock = True
        elif x in _KIND_OF_SIGN and not knock:
            moves.append(Action(_KIND_OF_SIGN[x]))
        else:
            moves.append(Action(ActionKind.KNOCK if knock else ActionKind.DISCARD, _CARD_OF_LETTER[x]))
            knock = False
    if knock:
        raise InvalidState("That is not a finished hand.")
    return moves


def replay(
    played: PlayedHand, *, scores: tuple[int, int] = (0, 0), target: int = TARGET_SCORE
) -> tuple[GameState, ...]:
    """Every position of ``played``: as dealt, then after each move, ending with the hand over.

    ``scores`` are the match's scores before the hand. ``InvalidState`` if a move is not legal
    where it was made, or the moves stop before the hand is over.
    """
    try:
        state = deal_hand(played.deal, played.starter, scores=scores, target=target, hand_number=played.number)
        states = [state]
        for move in played.moves:
            state = apply(state, move)
            states.append(state)
    except ValueError:  # the engine's errors, and a deal or position the state's checks refuse
        raise InvalidState("The kept hand does not replay by the rules.") from None
    if not state.phase.over or len(states) != len(played.moves) + 1:
        raise InvalidState("The kept hand stops before it is over.")
    return tuple(states)
