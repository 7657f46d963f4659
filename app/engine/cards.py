"""Cards: 52 interned immutable values, parsed from and printed as ``As``, ``Td``, ``7h``.

Each card carries a one-bit mask over a 64-bit "lane" layout (suit ``s`` occupies bits
``16*s .. 16*s+12``, rank ``r`` is bit ``r`` of its lane), so a hand is one int and meld
search is table look-ups on 13-bit suit lanes (see ``melds.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from operator import attrgetter
from typing import Any, ClassVar

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

from app.engine.errors import InvalidCards

RANKS = "A23456789TJQK"
SUITS = "cdhs"
RANK_NAMES = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
RANK_LABELS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_GLYPHS = ("♣", "♦", "♥", "♠")
LANE = 16  # bits per suit lane in a hand mask


class Card:
    """One playing card. There are exactly 52 instances; ``Card(rank, suit)`` returns one.

    >>> Card.parse("Td")
    Card.parse('Td')
    >>> str(Card.parse("as")), Card.parse("7h").value, Card.parse("Kc").name
    ('As', 7, 'king of clubs')
    """

    __slots__ = ("bit", "code", "index", "rank", "suit", "value")
    _all: ClassVar[list[Card]] = []
    rank: int  # 0 = Ace .. 12 = King (R4: Aces are low)
    suit: int  # 0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades
    index: int  # suit * 13 + rank: a dense 0..51 id
    bit: int  # 1 << (16 * suit + rank)
    value: int  # deadwood points (R4)
    code: str  # "7h": how the card is written, in text and in JSON

    def __new__(cls, rank: int, suit: int) -> Card:
        if cls._all:
            if not (0 <= rank < 13 and 0 <= suit < 4):
                raise InvalidCards(f"No card has rank {rank} and suit {suit}.")
            return cls._all[suit * 13 + rank]
        return super().__new__(cls)  # only while building the 52 cards below

    @classmethod
    def _build(cls, rank: int, suit: int) -> Card:
        card = object.__new__(cls)
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("index", suit * 13 + rank),
            ("bit", 1 << (LANE * suit + rank)),
            ("value", min(rank + 1, 10)),
            ("code", RANKS[rank] + SUITS[suit]),
        ):
            object.__setattr__(card, name, value)
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        return (Card, (self.rank, self.suit))

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse two characters, rank then suit, in either case (``"Td"``, ``"td"``, ``"TD"``)."""
        card = _BY_TEXT.get(text) if isinstance(text, str) else None
        if card is not None:  # the common case, and a hot one: every saved game holds 100+ cards
            return card
        if not isinstance(text, str):
            raise InvalidCards(f"A card is written as text like 'Td', not {type(text).__name__}.")
        t = text.strip()
        if t[:2] == "10" and len(t) == 3:  # accept the on-screen "10d" too
            t = "T" + t[2]
        if len(t) != 2 or t[0].upper() not in RANKS or t[1].lower() not in SUITS:
            raise InvalidCards(
                f"{text!r} is not a card: write rank then suit, like 'As' or 'Td' "
                f"(ranks {' '.join(RANKS)}, suits c d h s)."
            )
        return cls._all[SUITS.index(t[1].lower()) * 13 + RANKS.index(t[0].upper())]

    @property
    def label(self) -> str:
        """What the screen shows: ``10♦``, ``A♠``."""
        return RANK_LABELS[self.rank] + SUIT_GLYPHS[self.suit]

    @property
    def rank_label(self) -> str:
        """The rank as the screen shows it: ``10``, ``A``."""
        return RANK_LABELS[self.rank]

    @property
    def suit_glyph(self) -> str:
        return SUIT_GLYPHS[self.suit]

    @property
    def suit_name(self) -> str:
        """``hearts``: also the CSS class that colours the card."""
        return SUIT_NAMES[self.suit]

    @property
    def name(self) -> str:
        """The accessible name: ``ten of diamonds``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        return self.index

    @classmethod
    def __get_pydantic_core_schema__(cls, source: type[Any], handler: GetCoreSchemaHandler) -> core_schema.CoreSchema:
        # In JSON a card is its two-character text; in Python it stays the interned Card. A saved
        # game holds 150-odd cards, so both directions avoid Python code per card: the text is
        # checked in Rust, looked up by a dict method written in C, and written from a slot.
        from_text = core_schema.chain_schema(
            [core_schema.str_schema(), core_schema.no_info_plain_validator_function(_BY_TEXT.__getitem__)]
        )
        return core_schema.json_or_python_schema(
            json_schema=from_text,
            python_schema=core_schema.union_schema(
                [core_schema.is_instance_schema(Card), from_text], mode="left_to_right"
            ),
            serialization=core_schema.plain_serializer_function_ser_schema(attrgetter("code")),
        )


class _CardsByText(dict[str, Card]):
    """Each card by its code in any case ("7h", "7H"); a miss is a ``ValueError`` (as pydantic expects)."""

    def __missing__(self, key: str) -> Card:
        raise InvalidCards(f"{key!r} is not a card.")


Card._all.extend(Card._build(r, s) for s in range(4) for r in range(13))
DECK: tuple[Card, ...] = tuple(Card._all)
_BY_TEXT = _CardsByText(
    (r + u, c) for c in DECK for r in {c.code[0], c.code[0].lower()} for u in {c.code[1], c.code[1].upper()}
)


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse space- or comma-separated cards; duplicates are an error.

    >>> parse_cards("As 2s 3s")
    (Card.parse('As'), Card.parse('2s'), Card.parse('3s'))
    """
    if not isinstance(text, str):
        raise InvalidCards(f"Cards are written as text like 'As 2s 3s', not {type(text).__name__}.")
    cards = tuple(Card.parse(t) for t in text.replace(",", " ").split())
    check_distinct(cards)
    return cards


def check_distinct(cards: Iterable[Card]) -> None:
    seen: set[Card] = set()
    for c in cards:
        if not isinstance(c, Card):
            raise InvalidCards(f"{c!r} is not a card.")
        if c in seen:
            raise InvalidCards(f"{c} appears twice; a deck has one of each card.")
        seen.add(c)


def cards_mask(cards: Iterable[Card]) -> int:
    mask = 0
    for c in cards:
        mask |= c.bit
    return mask


_BIT_TO_CARD = {c.bit: c for c in DECK}


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The cards of a lane mask, in suit-then-rank order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(_BIT_TO_CARD[low])
        mask ^= low
    return tuple(out)
