"""Card faces: a card as the page draws it, made once per card."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import DECK, Card

__all__ = ["FACES", "CardFace", "face"]

# U+FE0E asks for the text form of the suit glyph: some phones draw ♥ as a coloured emoji otherwise.
_TEXT_STYLE = "\ufe0e"


@dataclass(frozen=True, slots=True, eq=False)
class CardFace:
    """A card as drawn on screen: glyphs for the eye, the name for screen readers.

    Made once per card (``FACES``), so compared and hashed by identity: the drawn hand's cards are
    remembered by their faces (``app.web.templating``), and a field-by-field hash is Python code.
    """

    code: str  # "7h": what the page posts back
    rank: str  # "7", "10", "K"
    suit: str  # "♥" in text style
    name: str  # "seven of hearts"
    suit_name: str  # "hearts": the CSS class that colours it (two or four colours, as the person chose)


def _make_face(card: Card) -> CardFace:
    return CardFace(
        code=card.code,
        rank=card.rank_label,
        suit=card.suit_glyph + _TEXT_STYLE,
        name=card.name,
        suit_name=card.suit_name,
    )


# Made once: a table shows twenty-odd faces per request, and a face never changes.
FACES = tuple(_make_face(card) for card in DECK)


def face(card: Card) -> CardFace:
    return FACES[card.index]
