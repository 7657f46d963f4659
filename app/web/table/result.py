"""The end of a hand and of a match: both hands as the engine arranged them, the score sheet."""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Arrangement, Card, HandRecord, HandSummary, arrange
from app.web.flow import COMPUTER, HUMAN
from app.web.table import narration
from app.web.table.faces import CardFace, face

__all__ = ["ResultView", "SheetRow", "ShownHand", "result", "sheet_row"]


@dataclass(frozen=True, slots=True)
class ShownHand:
    """One player's cards at the end of a hand, arranged by the engine."""

    owner: str
    melds: tuple[tuple[CardFace, ...], ...]
    laid_on: tuple[tuple[CardFace, ...], ...]  # per meld: the opponent's cards laid off onto it
    layoffs: tuple[CardFace, ...]
    deadwood_cards: tuple[CardFace, ...]
    deadwood: int
    note: str


@dataclass(frozen=True, slots=True)
class ResultView:
    headline: str
    score: str
    detail: str
    hands: tuple[ShownHand, ...]
    you_won: bool | None  # None: nobody scored


@dataclass(frozen=True, slots=True)
class SheetRow:
    number: int
    what: str
    you: int | None  # points won this hand
    computer: int | None
    you_total: int
    computer_total: int
    reviewable: bool = False
    """The hand is kept in the save, so "Review this hand" can replay it."""


def _shown(
    owner: str,
    arrangement: Arrangement,
    layoffs: tuple[Card, ...] = (),
    note: str = "",
    received: tuple[tuple[Card, int], ...] = (),
) -> ShownHand:
    return ShownHand(
        owner=owner,
        melds=tuple(tuple(face(c) for c in meld) for meld in arrangement.melds),
        laid_on=tuple(tuple(face(c) for c, target in received if target == i) for i in range(len(arrangement.melds))),
        layoffs=tuple(face(c) for c in layoffs),
        deadwood_cards=tuple(face(c) for c in arrangement.deadwood_cards),
        deadwood=arrangement.deadwood,
        note=note,
    )


def result(record: HandRecord) -> ResultView:
    """The hand that just ended, from the engine's record of it."""
    outcome = record.result
    if outcome is None or record.knocker is None:  # a void hand (R13, R20)
        words = narration.void_words(record)
        hands = tuple(_shown(narration.owner(p), arrange(record.hands[p])) for p in (HUMAN, COMPUTER))
        return ResultView(words.headline, words.score, words.detail, hands, None)
    knocker, defender = record.knocker, record.knocker.other
    scorer = record.winner if record.winner is not None else knocker
    words = narration.result_words(outcome, knocker, scorer)
    received = tuple(zip(outcome.layoffs, outcome.layoff_targets, strict=True))
    knocker_hand = _shown(narration.owner(knocker), outcome.knocker, note=words.knocker_note, received=received)
    defender_hand = _shown(narration.owner(defender), outcome.defender, outcome.layoffs, note=words.defender_note)
    hands = (knocker_hand, defender_hand) if knocker == HUMAN else (defender_hand, knocker_hand)
    return ResultView(words.headline, words.score, words.detail, hands, scorer == HUMAN)


def sheet_row(summary: HandSummary, reviewable: frozenset[int] = frozenset()) -> SheetRow:
    points = summary.points if summary.winner is not None else None
    return SheetRow(
        number=summary.number,
        what=narration.sheet_words(summary),
        you=points if summary.winner == HUMAN else None,
        computer=points if summary.winner == COMPUTER else None,
        you_total=summary.scores_after[HUMAN],
        computer_total=summary.scores_after[COMPUTER],
        reviewable=summary.number in reviewable,
    )
