"""What the table adds for trust and comfort: the fair-deal check, the statistics record, the hint, and motion.

Everything here is derived from the person's ``PlayerView``: the deal's deck and salt only once
the view reveals them (at the end of a hand), the computer's stock draws without their cards,
the hint from ``app.ai.hint`` on the same view.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.ai.hint import Hint, NoHint, hint
from app.engine import ActionKind, Phase, PlayerView
from app.web.flow import COMPUTER, HUMAN
from app.web.table.faces import CardFace, face
from app.words import Sentence

__all__ = ["DealCheck", "HintView", "Motion", "computer_took", "deal_check", "hint_view", "motion", "record"]

_WHO = {HUMAN: "you", COMPUTER: "computer"}


@dataclass(frozen=True, slots=True)
class HintView:
    """A hint as the table shows it: the advice, the reason, and what to mark."""

    advice: Sentence
    reason: Sentence
    card: str | None  # the code of the card to throw, marked in the hand
    pile: str | None  # "stock" or "discard": the pile to draw from, marked on the table


@dataclass(frozen=True, slots=True)
class Motion:
    """The moves a response carries, so the page can show them in order (each one a CSS animation step).

    Only set right after a move; re-rendering the same position (choosing a card, sorting) moves nothing.
    """

    you_threw: CardFace | None = None  # your discard, flying from your hand to the pile
    you_threw_taken: bool = False  # ... and then on to the computer, which took it
    cpu_took: CardFace | None = None  # a pile card the computer took (not your discard)
    cpu_drew: bool = False  # the computer drew from the stock (its card stays hidden)
    cpu_threw: bool = False  # the pile's top card was just thrown by the computer
    you_drew: str | None = None  # "stock" or "pile": the card you just drew arrives in your hand
    under: CardFace | None = None  # the card under the pile's top, shown while the top flies in
    under_is_yours: bool = False  # ... your discard, which flies in from your hand first
    cpu_step: int = 1  # the animation step of the computer's draw; its discard comes one step later
    last_move: Sentence = ()  # on a result screen: the computer's turn that ended the hand


def computer_took(view: PlayerView) -> tuple[CardFace, ...]:
    """The cards the computer took from the discard pile this hand and still holds, in the order taken.

    Public information (both players saw each card go from the pile to its hand, and what it threw
    since): a careful player tracks it anyway, so the table shows it beside the computer's hand.
    """
    held: list[CardFace] = []
    for e in view.log:
        if e.player != COMPUTER or e.card is None:
            continue  # the person's moves, and the computer's stock draws (their card stays hidden)
        if e.kind.takes_pile:
            held.append(face(e.card))
        elif e.kind.throws:
            held = [c for c in held if c.code != e.card.code]
    return tuple(held)


@dataclass(frozen=True, slots=True)
class DealCheck:
    """The fair deal (docs/rules.md): the fingerprint shown at the deal, the deck and salt once it is over."""

    match_id: str
    hand_key: str  # "<match id>:<hand number>": one key per hand, for the fingerprint and the statistics
    fingerprint: str
    commitment: str | None  # the deck order and salt, "As 7d … Kc 1f2e…", once the hand is over


def hint_view(view: PlayerView) -> HintView | None:
    """Expert's suggestion for the person, or ``None`` when there is no move to make."""
    try:
        h = hint(view)
    except NoHint:
        return None
    return HintView(h.advice, h.reason, h.card.code if h.card else None, _pile(h))


def _pile(h: Hint) -> str | None:
    if h.draw is None:
        return None
    if h.draw.kind is ActionKind.DRAW_STOCK:
        return "stock"
    if h.draw.kind.takes_pile:
        return "discard"
    return None


def deal_check(view: PlayerView, match_id: str) -> DealCheck:
    deal = view.revealed_deal
    return DealCheck(
        match_id=match_id,
        hand_key=f"{match_id}:{view.hand_number}",
        fingerprint=view.fingerprint,
        commitment=deal.commitment_text if view.phase.over and deal is not None else None,
    )


def record(view: PlayerView, match_id: str, level: str) -> dict[str, Any] | None:
    """The finished hand (and match) for the browser's statistics, which it keeps per ``level`` (the
    level's value); ``None`` while a hand is played."""
    last = view.last_hand
    if last is None or not view.phase.over:
        return None
    result = last.result
    entry: dict[str, Any] = {
        "key": f"{match_id}:{last.number}",
        "level": level,
        "kind": last.kind.value,
        "knocker": _WHO.get(last.knocker) if last.knocker is not None else None,
        "winner": _WHO.get(last.winner) if last.winner is not None else None,
        "points": last.points,
        "knockerDeadwood": result.knocker_deadwood if result is not None else None,
        "match": None,
    }
    if view.phase is Phase.MATCH_OVER and view.winner is not None:
        entry["match"] = {
            "key": match_id,
            "winner": _WHO[view.winner],
            "you": view.scores[HUMAN],
            "computer": view.scores[COMPUTER],
        }
    return entry


def motion(view: PlayerView, announce_from: int | None, last_move: Sentence) -> Motion:
    """The moves since ``announce_from`` (this hand's log index), in the order the page animates them."""
    if announce_from is None:
        return Motion()
    if view.phase.over:
        return Motion(last_move=last_move)
    you_threw: CardFace | None = None
    you_threw_taken = False
    cpu_took: CardFace | None = None
    cpu_drew = cpu_threw = False
    you_drew: str | None = None
    for e in view.log[announce_from:]:
        if e.player == HUMAN:
            if e.kind is ActionKind.DISCARD and e.card is not None:
                you_threw = face(e.card)
            elif e.kind is ActionKind.DRAW_STOCK:
                you_drew = "stock"
            elif e.kind.takes_pile:
                you_drew = "pile"
        elif e.kind is ActionKind.DRAW_STOCK:
            cpu_drew = True
        elif e.kind.takes_pile and e.card is not None:
            if you_threw is not None and e.card.code == you_threw.code:
                you_threw_taken = True
            else:
                cpu_took = face(e.card)
        elif e.kind is ActionKind.DISCARD:
            cpu_threw = True
    pile = view.discard_pile
    under = face(pile[-2]) if len(pile) >= 2 and (cpu_threw or you_threw) else None
    return Motion(
        under=under,
        under_is_yours=under is not None and you_threw is not None and under.code == you_threw.code,
        you_threw=you_threw,
        you_threw_taken=you_threw_taken,
        cpu_took=cpu_took,
        cpu_drew=cpu_drew,
        cpu_threw=cpu_threw,
        you_drew=you_drew,
        cpu_step=2 if you_threw is not None else 1,
    )
