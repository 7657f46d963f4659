"""The review screen: one finished hand, one move at a time, with the coach's word on the person's choices.

The hand is over, so both hands show at every step. The coach's judgements are worked out once
per hand and kept: the first page of a review shows the moves at once, and the verdicts follow in
a second request when they are not ready yet. Each step shown before then asks for them again;
those requests wait for the work already under way instead of starting it again.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass

from app.ai.coach import Judgement, Verdict
from app.ai.review import HandReview, Summary, review
from app.engine import Card, InvalidState, Phase, PlayedHand, arrange
from app.web.flow import COMPUTER, HUMAN
from app.web.saved import SavedGame
from app.web.table import narration
from app.web.table.faces import CardFace, face
from app.web.table.result import ResultView, result
from app.words import Sentence, spoken

__all__ = ["NotReviewable", "ReviewView", "StepLine", "is_coached", "review_view"]


class NotReviewable(ValueError):
    """There is no finished hand of that number in this save; ``str(error)`` is for the person."""


@dataclass(frozen=True, slots=True)
class StepLine:
    """One move in the list to jump from."""

    number: int
    words: Sentence
    verdict: Verdict | None
    current: bool


@dataclass(frozen=True, slots=True)
class ReviewView:
    """Everything the review template shows for one step of one finished hand."""

    hand_number: int
    step: int
    """0: as dealt; n: after the n-th move."""
    steps: int
    your_hand: tuple[CardFace, ...]
    computer_hand: tuple[CardFace, ...]
    your_deadwood: int
    computer_deadwood: int
    discard_pile: tuple[CardFace, ...]
    """Top last; the last few only."""
    discard_count: int
    stock_size: int
    move: Sentence
    """The move that led here: "You discarded K♠."."""
    judgement: Judgement | None
    coach_line: Sentence
    """The coach on this move: "A mistake, about 3 points. Better: discard 9♣; 9♣ is loose."."""
    spoken_step: str
    """The whole step for a screen reader: "Step 7 of 23: you discarded king of spades; better: ..."."""
    summary: str | None
    """None until the coach has spoken."""
    coached: bool
    lines: tuple[StepLine, ...]
    result: ResultView | None
    """At the last step: the hand's result."""
    scores: tuple[int, int]

    screen = "review"

    @property
    def announce(self) -> tuple[str, ...]:
        return (self.spoken_step,)

    @property
    def previous(self) -> int | None:
        return self.step - 1 if self.step > 0 else None

    @property
    def next(self) -> int | None:
        return self.step + 1 if self.step < self.steps else None


def _played(saved: SavedGame, number: int) -> tuple[PlayedHand, tuple[int, int]]:
    try:
        played = saved.played_hand(number)
    except InvalidState:
        played = None
    if played is None:
        raise NotReviewable(f"Hand {number} can't be reviewed: only hands of this match that are over can be.")
    before = next((h.scores_after for h in saved.state.history if h.number == number - 1), (0, 0))
    return played, before


_Key = tuple[str, tuple[int, int], int]  # the hand's code, the scores before it, the match's target
_KEPT_REVIEWS = 64
_coached: OrderedDict[_Key, HandReview] = OrderedDict()
"""Coached reviews, latest used last: a review is a pure function of the finished hand's public code."""


_coaching: dict[_Key, Future[HandReview]] = {}
"""Coached reviews being worked out, for the requests that ask for the same hand meanwhile."""
_lock = threading.Lock()  # the coach=1 answers are worked out in the thread pool


def _review(key: _Key, coached: bool) -> HandReview:
    code, scores, target = key
    under_way: Future[HandReview] | None = None
    mine: Future[HandReview] | None = None
    with _lock:
        kept = _coached.get(key)
        if kept is not None:
            _coached.move_to_end(key)
            return kept
        if coached and (under_way := _coaching.get(key)) is None:
            mine = _coaching[key] = Future()
    if under_way is not None:
        return under_way.result()
    if mine is None:
        return review(PlayedHand.parse(code), HUMAN, scores=scores, target=target, coached=False)
    try:
        hand = review(PlayedHand.parse(code), HUMAN, scores=scores, target=target, coached=True)
    except BaseException as error:
        with _lock:
            del _coaching[key]
        mine.set_exception(error)
        raise
    with _lock:
        _coached[key] = hand
        while len(_coached) > _KEPT_REVIEWS:
            _coached.popitem(last=False)
        del _coaching[key]
    mine.set_result(hand)
    return hand


def _key(saved: SavedGame, number: int) -> _Key:
    played, before = _played(saved, number)
    return played.code, before, saved.state.target


def is_coached(saved: SavedGame, number: int) -> bool:
    """Whether the coach's judgements of hand ``number`` are ready (``NotReviewable`` if there is no such hand)."""
    key = _key(saved, number)
    with _lock:
        return key in _coached


def review_view(saved: SavedGame, number: int, step: int | None, *, coached: bool) -> ReviewView:
    """Hand ``number`` of ``saved`` at ``step`` (``None``: the first step); ``NotReviewable`` if there is no such hand.

    ``coached`` asks for the coach's judgements, computing them if needed (slow the first time).
    """
    try:
        hand = _review(_key(saved, number), coached)
    except InvalidState:
        raise NotReviewable(f"Hand {number} can't be reviewed: its moves do not replay by the rules.") from None
    total = len(hand.steps)
    at = 0 if step is None else min(max(step, 0), total)
    state = hand.steps[at - 1].after if at else hand.dealt
    judgements = hand.judgements or {}
    judgement = judgements.get(at)
    move: Sentence = ("The cards as dealt.",) if at == 0 else _move_words(hand, at)
    coach_line = _coach_line(judgement)
    said = _spoken_step(at, total, hand, judgement, coached=hand.judgements is not None)
    lines = tuple(
        StepLine(s.number, _move_words(hand, s.number), _flag(judgements.get(s.number)), s.number == at)
        for s in hand.steps
    )
    record = state.last_hand if state.phase in (Phase.HAND_OVER, Phase.MATCH_OVER) else None
    return ReviewView(
        hand_number=number,
        step=at,
        steps=total,
        your_hand=_faces(state.hands[HUMAN]),
        computer_hand=_faces(state.hands[COMPUTER]),
        your_deadwood=arrange(state.hands[HUMAN]).deadwood,
        computer_deadwood=arrange(state.hands[COMPUTER]).deadwood,
        discard_pile=tuple(face(c) for c in state.discard[-6:]),
        discard_count=len(state.discard),
        stock_size=len(state.stock),
        move=move,
        judgement=judgement,
        coach_line=coach_line,
        spoken_step=said,
        summary=_summary_words(hand.summary),
        coached=hand.judgements is not None,
        lines=lines,
        result=result(record) if record is not None and at == total else None,
        scores=state.scores,
    )


def _faces(cards: tuple[Card, ...]) -> tuple[CardFace, ...]:
    """Melds first, as the engine arranges them, then the loose cards."""
    arranged = arrange(cards)
    ordered = [c for meld in arranged.melds for c in meld] + sorted(arranged.deadwood_cards, key=lambda c: c.index)
    return tuple(face(c) for c in ordered)


def _move_words(hand: HandReview, number: int) -> Sentence:
    step = hand.steps[number - 1]
    event = step.after.log[-1] if step.after.log else None
    if event is None:
        return (str(step.move),)
    return narration.turn_lines((event,))[0].words


def _flag(judgement: Judgement | None) -> Verdict | None:
    return judgement.verdict if judgement is not None and judgement.verdict is not Verdict.GOOD else None


def _points(cost: float) -> str:
    rounded = max(1, round(cost))
    return f"about {rounded} point{'s' if rounded != 1 else ''}"


def _coach_line(judgement: Judgement | None) -> Sentence:
    if judgement is None:
        return ()
    if judgement.verdict is Verdict.GOOD:
        return ("Good: as strong as the coach's choice.",)
    head = f"{judgement.verdict.article.capitalize()} {judgement.verdict.value}, {_points(judgement.cost)}. "
    return (head, *judgement.reason)


def _spoken_step(at: int, total: int, hand: HandReview, judgement: Judgement | None, *, coached: bool) -> str:
    head = f"Step {at} of {total}: "
    if at == 0:
        return head + "the cards as dealt."
    words = spoken(_move_words(hand, at)).rstrip(".")
    text = head + words[:1].lower() + words[1:]
    if judgement is None:
        if coached or hand.steps[at - 1].mover != HUMAN:
            return text + "."
        return text + "; the coach is still thinking."
    if judgement.verdict is Verdict.GOOD:
        return text + "; good."
    better = spoken(judgement.reason).removeprefix("Better: ").split(";")[0].rstrip(".")
    return (
        f"{text}; better: {better}; {judgement.verdict.article} {judgement.verdict.value}, {_points(judgement.cost)}."
    )


def _summary_words(summary: Summary | None) -> str | None:
    if summary is None:
        return None
    if summary.total < 0.5:
        return "You gave nothing away in this hand: the coach would have played it your way."
    parts = [
        (summary.discards, "in discards"),
        (summary.draws, "in draws"),
        (summary.late_knock, "in a late knock"),
        (summary.early_knock, "in an early knock"),
    ]
    named = [f"{round(v)} {where}" for v, where in parts if round(v) >= 1]
    total = round(summary.total)
    tail = f": {', '.join(named)}" if named else ""
    return f"You gave away about {total} point{'s' if total != 1 else ''} in this hand{tail}."
