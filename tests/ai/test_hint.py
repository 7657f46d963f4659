"""Hints: Expert's draw and discard for the person, with a one-line reason, from the view alone."""

from __future__ import annotations

import random

import pytest

from app.ai import Level, choose
from app.ai.hint import Hint, NoHint, hint
from app.engine import Action, ActionKind, Card, Event, Phase, PlayerView, legal_actions, view
from app.words import plain
from tests.ai.conftest import states
from tests.browser.positions import position

C = Card.parse


def test_every_hint_in_played_hands_is_legal_and_one_line() -> None:
    checked = 0
    for state in states(5, hands=2):
        if not state.phase.in_play:
            continue
        seen = view(state, state.turn)
        h = hint(seen)
        first = h.draw if h.draw is not None else h.discard
        assert first in legal_actions(state)
        assert "\n" not in h.text and h.text.endswith(".")
        assert h.reason, "every hint says why"
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_hint_is_what_expert_would_play(seed: int) -> None:
    for state in states(seed, hands=1):
        if not state.phase.in_play:
            continue
        seen = view(state, state.turn)
        h = hint(seen, random.Random(seed))
        assert (h.draw or h.discard) == choose(seen, Level.EXPERT, random.Random(seed))


def test_where_expert_and_hard_part_the_hint_follows_expert() -> None:
    # The two differ only in when to knock (Expert's rule is fitted against Hard, issue 15); the hint,
    # and the coach with it, follow the stronger player.
    parted = 0
    for seed in (3, 4, 7):
        for state in states(seed):
            if state.phase is not Phase.DISCARD:
                continue
            seen = view(state, state.turn)
            expert = choose(seen, Level.EXPERT, random.Random(seed))
            if expert == choose(seen, Level.HARD, random.Random(seed)):
                continue
            assert hint(seen, random.Random(seed)).discard == expert
            parted += 1
    assert parted >= 3  # a knock where Hard plays on, or the other way round, in each of these hands


def test_asking_twice_gives_the_same_hint() -> None:
    state = next(s for s in states(9) if s.phase is Phase.DISCARD)
    seen = view(state, state.turn)
    assert hint(seen) == hint(seen)


def test_no_hint_when_it_is_not_your_move() -> None:
    state = next(s for s in states(4) if s.phase is Phase.DRAW)
    with pytest.raises(NoHint):
        hint(view(state, 1 - state.turn))
    over = next(s for s in states(4, hands=1) if s.phase is Phase.HAND_OVER)
    with pytest.raises(NoHint):
        hint(view(over, 0))


def discard_view(mine: str, theirs: str, pile: str, log: tuple[Event, ...] = ()) -> PlayerView:
    return view(position(mine, theirs, pile, phase=Phase.DISCARD, log=log), 0)


def test_a_knock_is_suggested_with_the_deadwood_kept() -> None:
    h = hint(discard_view("7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d", "Kd Qc Jc 9c 7c 6d 2h Qh Ks Js", "Tc"))
    assert h.discard == Action(ActionKind.KNOCK, C("Kc"))
    assert plain(h.advice) == "Knock with K♣."
    assert plain(h.reason) == "You keep 4 deadwood, low enough to win the hand."


def test_gin_says_gin() -> None:
    h = hint(discard_view("7h 8h 9h 5c 5d 5s As 2s 3s 4s Kc", "Kd Qc Jc 9c 7c 6d 2h Qh Ks Js", "Tc"))
    assert h.discard == Action(ActionKind.KNOCK, C("Kc"))
    assert plain(h.reason).startswith("Gin: all ten cards you keep are in melds")


def test_the_reason_names_the_pair_kept_and_the_computers_latest_throw() -> None:
    # Melds A-2-3♣ and 7♠7♥7♣; 9♥ 10♥ a pair; K♥ the high loose card; the computer just threw K♣.
    log = (Event(player=1, kind=ActionKind.DRAW_STOCK), Event(player=1, kind=ActionKind.DISCARD, card=C("Kc")),
           Event(player=0, kind=ActionKind.DRAW_STOCK, card=C("9h")))  # fmt: skip
    h = hint(discard_view("Ac 2c 3c 7s 7h 7c 9h Th Kh 2d 4s", "Qc Jc 9c 8c 6h Qh 2h Qs Js Ts", "5h Kc", log))
    assert h.discard == Action(ActionKind.DISCARD, C("Kh"))
    text = plain(h.reason)
    assert "keeps 9♥ 10♥ for a run" in text
    assert "the computer just threw K♣" in text
    assert text.count(";") <= 2, "one line: three clauses at most"


def test_a_card_worth_taking_is_explained_with_its_meld() -> None:
    seen = view(position("6h 7h 2c 2d 5s 9c Jd Qs Ks 4d", "Kd Qc Jc 8c 7c 6d 2h Ah Kh Js", "3c 8h"), 0)
    h: Hint = hint(seen)
    assert h.draw == Action(ActionKind.TAKE_DISCARD)
    assert h.discard is not None and h.discard.card not in (C("8h"), C("6h"), C("7h"))
    assert plain(h.advice).startswith("Take 8♥, then discard ")
    assert plain(h.reason).startswith("8♥ makes a run with 6♥ 7♥")


def test_a_useless_pile_card_means_the_stock_and_a_planned_discard() -> None:
    seen = view(position("6h 7h 2c 2d 5s 9c Jd Qs Ks 4d", "Kd Qc Jc 8c 7c 6d 2h Ah Kh Js", "3c 8d"), 0)
    h = hint(seen)
    assert h.draw == Action(ActionKind.DRAW_STOCK)
    assert plain(h.advice).startswith("Draw from the stock; if the new card doesn't fit, discard ")
    assert plain(h.reason).startswith("8♦ doesn't fit your hand")
