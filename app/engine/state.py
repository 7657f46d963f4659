"""The whole match as one immutable value that round-trips through compact JSON."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from functools import cached_property

from pydantic import BaseModel, ConfigDict, model_validator

from app.engine.cards import DECK, Card, cards_mask
from app.engine.errors import InvalidCards, InvalidState
from app.engine.settle import HandKind, HandResult

TARGET_SCORE = 100  # R2
_FULL_DECK = cards_mask(DECK)


class Seat(IntEnum):
    """One of the two players, named by seat. The players' hands, scores and turns are indexed by it.

    >>> Seat.FIRST.other, Seat(1) is Seat.SECOND
    (<Seat.SECOND: 1>, True)
    """

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Seat:
        """The opponent."""
        return _OTHER[self]


_OTHER = {Seat.FIRST: Seat.SECOND, Seat.SECOND: Seat.FIRST}
SEATS = (Seat.FIRST, Seat.SECOND)


class Phase(StrEnum):
    """Where a hand stands; each phase has its own small set of legal actions."""

    UPCARD = "upcard"
    """The first upcard is offered: take it or pass (R8)."""
    DRAW = "draw"
    """The player to move draws from the stock or the discard pile (R9)."""
    DISCARD = "discard"
    """The player to move discards, optionally knocking (R9, R11)."""
    HAND_OVER = "hand_over"
    """The hand has been scored (or voided); the next hand waits."""
    MATCH_OVER = "match_over"
    """Someone reached 100 (R2)."""

    in_play: bool
    """A hand is being played: the player to move has an upcard, a draw or a discard to decide."""
    over: bool
    """The hand has ended (and perhaps the match): its result is on the table."""

    def __init__(self, value: str) -> None:
        # Attributes, not properties, as ActionKind's: asked many times a request.
        self.over = value in ("hand_over", "match_over")
        self.in_play = not self.over


class ActionKind(StrEnum):
    """What a move does; a discard or a knock also names its card."""

    TAKE_UPCARD = "take_upcard"
    PASS = "pass"
    DRAW_STOCK = "draw_stock"
    TAKE_DISCARD = "take_discard"
    DISCARD = "discard"
    KNOCK = "knock"
    NEXT_HAND = "next_hand"

    draws: bool
    """The mover gains a card: from the stock, or the face-up card (R8, R9)."""
    takes_pile: bool
    """The mover takes the face-up card (the upcard or the top discard), which everyone sees."""
    throws: bool
    """The mover puts a card on the discard pile (a discard, or a knock's discard)."""

    def __init__(self, value: str) -> None:
        # Attributes of each member, not properties: the rules, every view and the players ask them
        # of each event of a hand, dozens of times a request.
        self.takes_pile = value in ("take_upcard", "take_discard")
        self.draws = self.takes_pile or value == "draw_stock"
        self.throws = value in ("discard", "knock")


@dataclass(frozen=True, slots=True)
class Action:
    """One move. ``str(action)`` and ``Action.parse`` round-trip: ``"discard 7h"``, ``"pass"``."""

    kind: ActionKind
    card: Card | None = None

    def __post_init__(self) -> None:
        if self.kind.throws != (self.card is not None):
            raise InvalidCards(f"The action {self.kind.value!r} {'needs' if self.card is None else 'takes no'} card.")

    def __str__(self) -> str:
        return self.kind.value if self.card is None else f"{self.kind.value} {self.card}"

    @classmethod
    def parse(cls, text: str) -> Action:
        parts = text.split() if isinstance(text, str) else []
        if not parts or parts[0] not in ActionKind._value2member_map_ or len(parts) > 2:
            raise InvalidCards(f"{text!r} is not an action.")
        kind = ActionKind(parts[0])
        return cls(kind, Card.parse(parts[1]) if len(parts) == 2 else None)


class Event(BaseModel):
    """One thing that happened this hand. A stock draw's card is hidden from the opponent by ``view``."""

    model_config = ConfigDict(frozen=True)

    player: Seat
    kind: ActionKind
    card: Card | None = None


class Deal(BaseModel):
    """The shuffled deck and a random salt: published as a fingerprint when dealt, revealed after.

    Cards 1–10 go to the starting player, 11–20 to the other, card 21 is the upcard, and
    cards 22–52 are the stock, top first.
    """

    model_config = ConfigDict(frozen=True)

    deck: tuple[Card, ...]
    salt: str

    @cached_property  # every view shows it; hashing the deck each time was a visible cost per request
    def fingerprint(self) -> str:
        """SHA-256 (hex) of the deck order and salt: ``"As 7d … Kc" + " " + salt``."""
        return hashlib.sha256(self.commitment_text.encode()).hexdigest()

    @property
    def commitment_text(self) -> str:
        return " ".join([c.code for c in self.deck]) + " " + self.salt


class HandSummary(BaseModel):
    """One line of the score sheet."""

    model_config = ConfigDict(frozen=True)

    number: int
    starter: Seat
    kind: HandKind
    knocker: Seat | None
    winner: Seat | None
    points: int
    scores_after: tuple[int, int]

    def points_for(self, seat: Seat) -> int:
        """The hand's points from ``seat``'s side: positive when it won them, negative when the other
        seat did, 0 for a void hand."""
        if self.winner is None:
            return 0
        return self.points if self.winner == seat else -self.points


class HandRecord(HandSummary):
    """The full story of the hand that just ended, for the end-of-hand screen."""

    result: HandResult | None
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    deal: Deal
    reason: str | None = None


class GameState(BaseModel):
    """A whole match. Immutable: the rules return a new state for every action."""

    model_config = ConfigDict(frozen=True)

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    stock: tuple[Card, ...]  # top first
    discard: tuple[Card, ...]  # top last
    phase: Phase
    turn: Seat
    starter: Seat
    passes: int = 0  # first-upcard passes so far (R8); 2 means the starter must draw from the stock
    taken_discard: Card | None = None  # R10: can't go back this turn
    scores: tuple[int, int] = (0, 0)
    target: int = TARGET_SCORE
    hand_number: int = 1
    deal: Deal
    log: tuple[Event, ...] = ()
    last_hand: HandRecord | None = None
    history: tuple[HandSummary, ...] = ()
    winner: Seat | None = None

    @model_validator(mode="after")
    def _obeys_the_rules(self) -> GameState:
        # 52 cards whose bits cover all 52 lanes' bits: each card exactly once (cheaper than sets or sorting).
        cards = (*self.hands[0], *self.hands[1], *self.stock, *self.discard)
        if len(cards) != 52 or cards_mask(cards) != _FULL_DECK:
            raise InvalidState("The saved game does not hold each of the 52 cards exactly once.")
        if not 0 <= self.passes <= 2:
            raise InvalidState("The saved game counts more passes of the upcard than there are players.")
        if len(self.deal.deck) != 52 or cards_mask(self.deal.deck) != _FULL_DECK:
            raise InvalidState("The saved deal is not a full deck.")
        sizes = sorted(len(h) for h in self.hands)
        expected = [10, 11] if self.phase is Phase.DISCARD else [10, 10]
        if sizes != expected:
            raise InvalidState(f"In the {self.phase.value} phase hands hold {expected}, not {sizes} cards.")
        if self.phase is Phase.DISCARD and len(self.hands[self.turn]) != 11:
            raise InvalidState("The player to discard must hold 11 cards.")
        if self.taken_discard is not None and self.taken_discard not in self.hands[self.turn]:
            raise InvalidState("The card taken from the discard pile is not in the mover's hand.")
        if min(self.scores) < 0 or (self.phase is not Phase.MATCH_OVER and max(self.scores) >= self.target):
            raise InvalidState("The saved scores are impossible.")
        return self

    def to_json(self) -> str:
        return self.model_dump_json(exclude_defaults=True)

    @classmethod
    def from_json(cls, data: str | bytes) -> GameState:
        """Parse and check a saved state; any problem raises a ``ValueError`` subclass."""
        return cls.model_validate_json(data)

    @property
    def next_starter(self) -> Seat:
        """Who starts the next hand or match (R3: it alternates, void hands and matches included)."""
        return self.starter.other
