"""app.engine.replay: a finished hand kept as its deal and moves, and replayed exactly by the rules."""

from __future__ import annotations

import random

import pytest

from app.engine import (
    Action,
    ActionKind,
    GameState,
    InvalidState,
    PlayedHand,
    apply,
    legal_actions,
    new_match,
    replay,
)


def finished_hands(seed: int, count: int) -> list[GameState]:
    """The end position of ``count`` hands of random legal play (knocks whenever offered, so hands end)."""
    rng = random.Random(seed)
    state = new_match(rng)
    ends: list[GameState] = []
    while len(ends) < count:
        if state.phase.over:
            ends.append(state)
            if state.winner is not None:
                state = new_match(rng)
                continue
        actions = legal_actions(state)
        knocks = [a for a in actions if a.kind is ActionKind.KNOCK]
        state = apply(state, knocks[0] if knocks and rng.random() < 0.5 else rng.choice(actions), rng)
    return ends


ENDS = finished_hands(1, 40)


def test_replay_reproduces_every_position_of_the_hand() -> None:
    for end in ENDS:
        played = PlayedHand.of(end)
        before = end.history[-2].scores_after if len(end.history) > 1 else (0, 0)
        states = replay(PlayedHand.parse(played.code), scores=before, target=end.target)
        last = states[-1]
        assert last.last_hand == end.last_hand  # R14-R20: the same result, arrangements and layoffs
        assert (last.hands, last.stock, last.discard, last.log) == (end.hands, end.stock, end.discard, end.log)
        assert (last.scores, last.phase, last.winner) == (end.scores, end.phase, end.winner)
        for i, state in enumerate(states):
            assert state.log == end.log[:i]  # each step is the position after exactly i moves


def test_the_sample_holds_knocks_gins_and_void_hands() -> None:
    kinds = {end.last_hand.kind.value for end in ENDS if end.last_hand is not None}
    assert {"knock", "void"} <= kinds, kinds


def test_code_round_trips_and_its_length_depends_on_public_facts_only() -> None:
    for end in ENDS:
        played = PlayedHand.of(end)
        assert PlayedHand.parse(played.code) == played
        move_chars = sum(1 + (m.kind is ActionKind.KNOCK) for m in played.moves)
        assert len(played.code) == len(str(played.number)) + 3 + 53 + 17 + move_chars


def test_a_hand_in_play_cannot_be_kept() -> None:
    state = new_match(random.Random(2))
    state = apply(state, legal_actions(state)[1])
    with pytest.raises(InvalidState, match="only once it is over"):
        PlayedHand.of(state)


@pytest.mark.parametrize(
    "code",
    ["", "garbage", "1.2." + "a" * 52 + ".0123456789abcdef.", "1.0." + "a" * 52 + ".0123456789abcdef.", "1.0.ab.c.d"],
)
def test_text_that_is_not_a_hand_is_refused(code: str) -> None:
    with pytest.raises(InvalidState):
        replay(PlayedHand.parse(code))


def test_moves_that_break_the_rules_or_stop_early_are_refused() -> None:
    played = PlayedHand.of(ENDS[0])
    with pytest.raises(InvalidState, match="stops before it is over"):
        replay(PlayedHand(played.number, played.starter, played.deal, played.moves[:-1]))
    wrong = (Action(ActionKind.DRAW_STOCK), *played.moves[1:])  # R8: the first move answers the upcard
    with pytest.raises(InvalidState, match="does not replay"):
        replay(PlayedHand(played.number, played.starter, played.deal, wrong))
