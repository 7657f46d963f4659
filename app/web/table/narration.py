"""The table's words: every sentence the person reads or hears, made here from the engine's facts.

Sentences are ``app.words`` sentences (words and cards), like the hint's. Who did something is
a ``Seat`` that travels beside the words (``Line.who``), so no other module reads a sentence to
learn a fact.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from app.engine import (
    ActionKind,
    Card,
    Event,
    HandKind,
    HandRecord,
    HandResult,
    HandSummary,
    Phase,
    PlayerView,
    Seat,
)
from app.web.flow import COMPUTER, HUMAN
from app.words import Part, Sentence

__all__ = [
    "Line",
    "ResultWords",
    "knock_label",
    "match_result",
    "owner",
    "prompt",
    "result_words",
    "sheet_words",
    "turn_lines",
    "void_words",
]

_SUBJECT = {HUMAN: "You", COMPUTER: "The computer"}
_OBJECT = {HUMAN: "you", COMPUTER: "the computer"}
_OWNER = {HUMAN: "Your hand", COMPUTER: "The computer's hand"}


class Line(NamedTuple):
    """One turn of the hand's log: who moved, and the sentence that tells it.

    A named tuple rather than a frozen dataclass: a table makes one per turn of the hand on every
    move, and a tuple is made in C.
    """

    who: Seat
    words: Sentence


def owner(seat: Seat) -> str:
    """Whose hand is shown: "Your hand"."""
    return _OWNER[seat]


def turn_lines(events: tuple[Event, ...], gin: bool = False) -> tuple[Line, ...]:
    """One line per turn, oldest first: a draw and the discard that followed it, or a pass.

    ``gin``: the hand ended in Gin, so its knock is told as going Gin.
    """
    turns: list[list[Event]] = []
    for e in events:
        if turns and turns[-1][-1].player == e.player and turns[-1][-1].kind.draws:
            turns[-1].append(e)
        else:
            turns.append([e])
    return tuple(Line(turn[0].player, _turn_words(turn, gin)) for turn in turns)


def _turn_words(turn: list[Event], gin: bool) -> Sentence:
    """ "The computer took 7♥ from the discard pile and discarded K♠." """
    who = _SUBJECT[turn[0].player]
    if turn[0].kind is ActionKind.PASS:
        upcard = turn[0].card
        return (who, " passed on ", upcard if upcard else "the upcard", ".")
    parts: list[Part] = [who, " "]
    for e in turn:
        card = e.card
        if len(parts) > 2:
            parts.append(" and ")
        if e.kind is ActionKind.TAKE_UPCARD and card:
            parts += ["took the upcard ", card]
        elif e.kind is ActionKind.TAKE_DISCARD and card:
            parts += ["took ", card, " from the discard pile"]
        elif e.kind is ActionKind.DRAW_STOCK:
            # The engine hides the card of the computer's stock draw; the person's own draw is theirs to see.
            parts += ["drew ", card, " from the stock"] if card else ["drew from the stock"]
        elif e.kind is ActionKind.KNOCK and card:
            parts += ["went Gin, discarding " if gin else "knocked, discarding ", card]
        elif e.kind is ActionKind.DISCARD and card:
            parts += ["discarded ", card]
    parts.append(".")
    return tuple(parts)


def prompt(view: PlayerView, knock_possible: bool) -> Sentence:
    """What the person can do now, for the prompt line above the hand (before a card is chosen)."""
    kinds = {a.kind for a in view.legal_actions}
    top = view.discard_pile[-1] if view.discard_pile else None
    if view.phase is Phase.UPCARD and top:
        if view.passes == 0:
            return ("You start: take the upcard ", top, " or pass it to the computer.")
        return ("The computer passed on ", top, ". Take it, or pass.")
    if view.phase is Phase.DRAW:
        if ActionKind.TAKE_DISCARD not in kinds:
            return ("You both passed the upcard, so draw from the stock.",)
        if top:
            return ("Your turn: draw from the stock, or take ", top, " from the discard pile.")
        return ("Your turn: draw from the stock.",)
    if view.phase is Phase.DISCARD:
        if knock_possible:
            return ("You can knock! Tap the card to discard, then Knock or Discard.",)
        return ("Tap a card to choose your discard.",)
    return ()


def card_prompt(view: PlayerView, card: Card, leaves: dict[Card, int]) -> Sentence:
    """The prompt while ``card`` is chosen for the discard: what discarding it leaves, or why it can't go (R10)."""
    if card is view.taken_discard:
        return ("You took ", card, " from the discard pile; it can't go back this turn.")
    return ("Discarding ", card, f" leaves {leaves[card]} deadwood.")


def knock_label(kind: HandKind, kept_deadwood: int) -> str:
    """The knock button's label: "Gin", or "Knock (6)" with the deadwood it keeps."""
    return "Gin" if kind is HandKind.GIN else f"Knock ({kept_deadwood})"


@dataclass(frozen=True, slots=True)
class ResultWords:
    """The words of a hand's result screen."""

    headline: str
    score: str
    detail: str
    knocker_note: str = ""
    defender_note: str = ""


def void_words(record: HandRecord) -> ResultWords:
    """A void hand (R13, R20)."""
    return ResultWords("Void hand.", "Nobody scores.", record.reason or "The hand ended without a knock.")


def result_words(result: HandResult, knocker: Seat, scorer: Seat) -> ResultWords:
    """The headline, the score as arithmetic, and what happened, for a knock or Gin (R16–R19)."""
    defender = knocker.other
    k_dw, d_dw = result.knocker_deadwood, result.defender_deadwood
    score = f"{_SUBJECT[scorer]} {'score' if scorer == HUMAN else 'scores'} {result.formula}."
    laid = len(result.layoffs)
    after = f" after laying off {laid} card{'s' if laid != 1 else ''}" if laid else ""
    if result.kind is HandKind.GIN:
        headline = "Gin!" if knocker == HUMAN else "The computer went Gin."
        detail = (
            f"{_SUBJECT[knocker]} kept no deadwood; {_OBJECT[defender]} held {d_dw}, "
            "and nothing may be laid off against Gin."
        )
    elif result.kind is HandKind.KNOCK:
        headline = "You knocked and won the hand." if knocker == HUMAN else "The computer knocked and won the hand."
        detail = f"{_SUBJECT[knocker]} knocked with {k_dw} deadwood; {_OBJECT[defender]} held {d_dw}{after}."
    else:
        headline = f"{_SUBJECT[defender]} undercut {_OBJECT[knocker]}!"
        tie = " the same" if d_dw == k_dw else ""
        detail = (
            f"{_SUBJECT[knocker]} knocked with {k_dw} deadwood, but {_OBJECT[defender]} held{tie} {d_dw}{after}: "
            "an undercut."
        )
    knocker_note = "Gin: no deadwood" if result.kind is HandKind.GIN else f"Knocked with {k_dw} deadwood"
    defender_note = (
        f"{d_dw} deadwood after layoffs"
        if laid
        else f"{d_dw} deadwood" + (" (no layoffs against Gin)" if result.kind is HandKind.GIN else "")
    )
    return ResultWords(headline, score, detail, knocker_note, defender_note)


def sheet_words(summary: HandSummary) -> str:
    """A score-sheet line's result: "You went Gin", "The computer undercut you"."""
    if summary.kind is HandKind.VOID or summary.winner is None:
        return "Void hand"
    if summary.kind is HandKind.GIN:
        return f"{_SUBJECT[summary.winner]} went Gin"
    if summary.kind is HandKind.KNOCK:
        return f"{_SUBJECT[summary.winner]} knocked"
    return f"{_SUBJECT[summary.winner]} undercut {_OBJECT[summary.winner.other]}"


def match_result(view: PlayerView) -> str | None:
    """Who won the match, and by how much; ``None`` while it goes on."""
    if view.phase is not Phase.MATCH_OVER or view.winner is None:
        return None
    you, computer = view.scores[HUMAN], view.scores[COMPUTER]
    if view.winner == HUMAN:
        return f"You won the match, {you} to {computer}!"
    return f"The computer won the match, {computer} to {you}."
