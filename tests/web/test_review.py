"""app.web.review: the review screen's view object, step by step, as the template and a screen reader get it."""

from __future__ import annotations

import re
import threading
from typing import Any

import pytest

import app.web.review
from app.ai import Level
from app.ai.review import HandReview, review
from app.engine import PlayedHand, replay
from app.web import SavedGame
from app.web.review import NotReviewable, is_coached, review_view
from tests.ai.test_coach import played_hand

SPOKEN_VERDICT = re.compile(
    r"^Step \d+ of \d+: you (discarded|knocked, discarding) [a-z ]+; better: (discard|knock with) [a-z ]+[^;]*; "
    r"an? (inaccuracy|mistake|blunder), about \d+ points?\.$"
)


def saved_with(hand: PlayedHand) -> SavedGame:
    return SavedGame(format=1, level=Level.HARD, state=replay(hand)[-1], played=(hand.code,))


def test_the_first_step_shows_the_deal_and_both_hands() -> None:
    hand, _ = played_hand(2)
    shown = review_view(saved_with(hand), 1, None, coached=False)
    assert (shown.step, shown.steps) == (0, len(hand.moves))
    assert shown.spoken_step == f"Step 0 of {len(hand.moves)}: the cards as dealt."
    assert (len(shown.your_hand), len(shown.computer_hand), shown.stock_size, shown.discard_count) == (10, 10, 31, 1)
    assert shown.previous is None and shown.next == 1


def test_each_step_tells_the_move_and_the_last_shows_the_result() -> None:
    hand, _ = played_hand(2)
    saved = saved_with(hand)
    last = review_view(saved, 1, 10_000, coached=False)  # past the end: the last step
    assert last.step == last.steps and last.next is None and last.result is not None
    first = review_view(saved, 1, 1, coached=False)
    assert first.spoken_step.startswith(f"Step 1 of {first.steps}: ")
    assert sum(1 for line in first.lines if line.current) == 1


def test_the_coach_names_the_better_card_and_the_cost_in_the_spoken_step() -> None:
    hand, broken = played_hand(4, breaks_melds=True)
    saved = saved_with(hand)
    coached = review_view(saved, 1, None, coached=True)
    assert is_coached(saved, 1)
    assert coached.summary is not None and coached.summary.startswith("You gave away about ")
    flagged = [line.number for line in coached.lines if line.verdict is not None]
    assert set(broken) & set(flagged)
    for number in flagged:
        step = review_view(saved, 1, number, coached=False)  # kept: the verdicts come at once now
        assert step.coached and step.judgement is not None
        assert SPOKEN_VERDICT.match(step.spoken_step), step.spoken_step


def test_before_the_coach_has_spoken_the_steps_say_so() -> None:
    hand, _ = played_hand(5)
    saved = saved_with(hand)
    mine = next(s.number for s in review_view(saved, 1, 0, coached=False).lines if s.words[0] == "You")
    step = review_view(saved, 1, mine, coached=False)
    assert step.summary is None and not step.coached
    assert step.spoken_step.endswith("; the coach is still thinking.")


def test_only_kept_hands_can_be_reviewed() -> None:
    hand, _ = played_hand(2)
    saved = saved_with(hand)
    for number in (0, 2, 99):
        with pytest.raises(NotReviewable, match="can't be reviewed"):
            review_view(saved, number, None, coached=False)


def test_steps_asked_for_while_the_coach_works_wait_for_that_work(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each step shown before the verdicts asks for them again (coach=1): one hand, one coach's run.
    hand, _ = played_hand(6)
    saved = saved_with(hand)
    runs: list[bool] = []
    go = threading.Event()

    def held_coach(*args: Any, **kwargs: Any) -> HandReview:
        runs.append(kwargs["coached"])
        go.wait(30)
        return review(*args, **kwargs)

    monkeypatch.setattr(app.web.review, "review", held_coach)
    answers: list[object] = []

    def ask(step: int) -> None:
        answers.append(review_view(saved, 1, step, coached=True).summary)

    first = threading.Thread(target=ask, args=(1,))
    first.start()
    while not runs:
        first.join(0.01)
    later = [threading.Thread(target=ask, args=(step,)) for step in (2, 3)]
    for thread in later:
        thread.start()
        thread.join(0.3)  # each now waits for the first one's work (or, before, started its own)
    go.set()
    for thread in (first, *later):
        thread.join(60)
    assert runs == [True]
    assert len(answers) == 3 and answers[0] is not None and answers.count(answers[0]) == 3
    assert is_coached(saved, 1)
