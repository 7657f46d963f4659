"""app.ai.coach and app.ai.review: the coach judges the person's decisions from their view alone,
flags broken melds, passes Expert's own play, and says the same thing twice."""

from __future__ import annotations

import random

from app.ai import Level, choose
from app.ai.coach import THRESHOLDS, Judgement, Verdict, judge, verdict_of
from app.ai.review import HandReview, decisions, review
from app.engine import (
    Action,
    ActionKind,
    Card,
    GameState,
    PlayedHand,
    Seat,
    apply,
    arrange,
    legal_actions,
    new_match,
    view,
)
from app.words import plain
from tests.ai.conftest import reshuffle_hidden

PERSON = Seat.FIRST


def played_hand(seed: int, *, breaks_melds: bool = False) -> tuple[PlayedHand, set[int]]:
    """One hand, Expert on both sides; with ``breaks_melds`` the person throws the
    highest card of a made meld whenever it holds one. Also the step numbers of those throws."""
    rng = random.Random(seed)
    state = new_match(rng, starter=seed % 2)
    broken: set[int] = set()
    while state.phase.in_play:
        action = choose(view(state, state.turn), Level.EXPERT, rng)
        if breaks_melds and state.turn == PERSON and state.phase.value == "discard":
            melded = [c for m in arrange(state.hands[PERSON]).melds for c in m if c is not state.taken_discard]
            if melded:
                action = Action(ActionKind.DISCARD, max(melded, key=lambda c: (c.value, c.index)))
                broken.add(len(state.log) + 1)
        state = apply(state, action)
    return PlayedHand.of(state), broken


def test_verdicts_follow_the_documented_thresholds() -> None:
    assert verdict_of(0.0) is Verdict.GOOD
    assert verdict_of(THRESHOLDS[Verdict.INACCURACY] - 0.01) is Verdict.GOOD
    assert verdict_of(THRESHOLDS[Verdict.INACCURACY]) is Verdict.INACCURACY
    assert verdict_of(THRESHOLDS[Verdict.MISTAKE]) is Verdict.MISTAKE
    assert verdict_of(THRESHOLDS[Verdict.BLUNDER] + 5) is Verdict.BLUNDER


def test_experts_own_play_shows_no_mistakes_or_blunders() -> None:
    judged = 0
    for seed in range(6):
        hand, _ = played_hand(seed)
        result = review(hand, PERSON)
        assert result.judgements is not None
        for number, judgement in result.judgements.items():
            assert judgement.verdict in (Verdict.GOOD, Verdict.INACCURACY), (seed, number, judgement)
            judged += 1
    assert judged > 40


def test_throwing_cards_out_of_made_melds_shows_as_mistakes_or_blunders_with_the_better_card() -> None:
    verdicts: list[Verdict] = []
    for seed in range(16):
        hand, broken = played_hand(seed, breaks_melds=True)
        result = review(hand, PERSON)
        assert result.judgements is not None
        for number in broken:
            judgement = result.judgements[number]
            verdicts.append(judgement.verdict)
            if judgement.verdict is Verdict.GOOD:
                continue  # a hand already lost either way: nothing left to give away
            assert judgement.best != judgement.chosen and judgement.best.card is not None
            assert plain(judgement.reason).startswith(f"Better: discard {judgement.best.card.label}") or plain(
                judgement.reason
            ).startswith(f"Better: knock with {judgement.best.card.label}")
    bad = sum(v in (Verdict.MISTAKE, Verdict.BLUNDER) for v in verdicts)
    # Breaking a meld of aces, twos and threes in a poor hand, or in a hand already lost, can cost little:
    # about one break in seven in these hands (14 of 100 with the Expert of stop 33, 16 of 110 with stop 34's).
    assert len(verdicts) >= 60 and bad >= 0.8 * len(verdicts), verdicts


def test_the_same_review_twice_gives_the_same_verdicts() -> None:
    hand, _ = played_hand(2, breaks_melds=True)
    first, second = review(hand, PERSON), review(hand, PERSON)
    assert first.judgements == second.judgements
    assert first.summary == second.summary


def test_the_coach_never_reads_hidden_cards() -> None:
    # The same position as far as the person can tell, with the computer's unseen cards and the
    # stock dealt anew: the coach must say exactly the same.
    shuffler = random.Random(5)
    compared = 0
    for seed in (1, 3):
        hand, _ = played_hand(seed, breaks_melds=True)
        for step in review(hand, PERSON, coached=False).steps:
            if step.mover != PERSON or len(legal_actions(step.before)) < 2:
                continue
            twin = GameState.model_validate(reshuffle_hidden(step.before, PERSON, shuffler).model_dump())
            assert twin.hands[1 - PERSON] != step.before.hands[1 - PERSON] or twin.stock != step.before.stock
            mine, theirs = judge(view(step.before, PERSON), step.move, 24), judge(view(twin, PERSON), step.move, 24)
            assert mine == theirs
            compared += 1
    assert compared > 10


def test_a_review_replays_every_move_and_judges_only_real_choices() -> None:
    hand, broken = played_hand(4, breaks_melds=True)
    result = review(hand, PERSON)
    assert [s.move for s in result.steps] == list(hand.moves)
    assert result.steps[-1].after.phase.over
    assert result.judgements is not None
    assert set(result.judgements) == {s.number for s in decisions(result.steps, PERSON)}
    assert all(result.steps[n - 1].mover == PERSON for n in result.judgements)
    summary = result.summary
    assert summary is not None and broken
    assert summary.total == sum(j.cost for j in result.judgements.values())
    assert summary.discards >= THRESHOLDS[Verdict.MISTAKE]


def test_a_late_knock_is_counted_as_one() -> None:
    # Expert would knock; the person played on: the summary names a late knock.
    kd = Card.parse("Kd")
    judgement = Judgement(Action(ActionKind.DISCARD, kd), Action(ActionKind.KNOCK, kd), 4.0, Verdict.MISTAKE, (), ())
    hand, _ = played_hand(0)
    base = review(hand, PERSON, coached=False)
    coached = HandReview(base.played, PERSON, base.dealt, base.steps, {1: judgement})
    assert coached.summary is not None
    assert (coached.summary.late_knock, coached.summary.discards, coached.summary.total) == (4.0, 0.0, 4.0)
