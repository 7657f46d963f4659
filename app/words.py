"""Sentences as the table speaks them: tuples of words and cards, written once, shown two ways.

The page draws each card of a sentence as a glyph (``inline_card`` in ``_macros.html``) and a
screen reader reads its name (``spoken``), so a sentence keeps its cards as ``Card`` values
rather than as text. The table's narration (``app.web.table.narration``) and the hint
(``app.ai.hint``) both build their sentences with these helpers.

>>> from app.engine import Card
>>> line = join_clauses(("keeps ", *card_list([Card.parse("8h"), Card.parse("7h")]), " for a run"))
>>> spoken(line), plain(line)
('Keeps seven of hearts eight of hearts for a run.', 'Keeps 7♥ 8♥ for a run.')
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engine import Card

__all__ = ["Part", "Sentence", "capital", "card_list", "join_clauses", "plain", "spoken"]

Part = str | Card
Sentence = tuple[Part, ...]


def spoken(sentence: Sentence) -> str:
    """The sentence for a screen reader's live region: each card by its name."""
    return "".join(p.name if isinstance(p, Card) else p for p in sentence)


def plain(sentence: Sentence) -> str:
    """The sentence as short text: each card as its label (``7♥``)."""
    return "".join(p.label if isinstance(p, Card) else p for p in sentence)


def capital(sentence: Sentence) -> Sentence:
    """The sentence with its first word capitalised (a sentence that starts with a card is left alone)."""
    if not sentence or not isinstance(sentence[0], str):
        return sentence
    first = sentence[0]
    return (first[:1].upper() + first[1:], *sentence[1:])


def join_clauses(*clauses: Sentence) -> Sentence:
    """Clauses as one sentence: joined by semicolons, capitalised, with a full stop (empty clauses skipped)."""
    parts: list[Part] = []
    for clause in clauses:
        if clause:
            parts.extend(("; ", *clause) if parts else clause)
    if not parts:
        return ()
    return (*capital(tuple(parts)), ".")


def card_list(cards: Iterable[Card]) -> Sentence:
    """Cards by rank, then suit, separated by spaces."""
    out: list[Part] = []
    for c in sorted(cards, key=lambda c: (c.rank, c.suit)):
        if out:
            out.append(" ")
        out.append(c)
    return tuple(out)
