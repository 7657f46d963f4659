"""Sequencing a request's play (``app.web.flow``): the computer's replies, and its bugs kept off the table."""

from __future__ import annotations

import logging
import random

import pytest

from app.ai import Level
from app.engine import Action, ActionKind, Phase, PlayerView, legal_actions, view
from app.web.flow import COMPUTER, computer_replies
from tests.engine.states import make_state


def test_an_illegal_choice_of_the_computer_is_logged_and_replaced_by_its_first_legal_action(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # R9: drawing is all it may do at the start of its turn; a bug that has it discard must not
    # cost the person their game, nor play the illegal move.
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h", turn=COMPUTER)
    wrong = Action(kind=ActionKind.DISCARD, card=state.hands[COMPUTER][0])
    assert wrong not in legal_actions(state)
    seen: list[PlayerView] = []

    def buggy(shown: PlayerView, level: Level, rng: random.Random) -> Action:
        seen.append(shown)
        return wrong

    monkeypatch.setattr("app.web.flow.choose", buggy)
    with caplog.at_level(logging.ERROR, logger="app.web.flow"):
        after = computer_replies(state, Level.NORMAL, random.Random(1))
    # It drew (the first legal action); after the draw the same discard was legal, and was played.
    first = legal_actions(state)[0]
    assert first.kind is ActionKind.DRAW_STOCK
    assert after.log[len(state.log)].kind is first.kind and after.log[len(state.log)].player == COMPUTER
    assert after.turn != COMPUTER and after.phase is Phase.DRAW
    assert seen[0] == view(state, COMPUTER)  # it chose from its own view only
    assert after.log[-1].kind is ActionKind.DISCARD and after.log[-1].card == wrong.card
    assert len(seen) == 2 and len(caplog.records) == 1
    assert f"The computer chose {wrong}, which is not legal; playing {first} instead." in caplog.records[0].getMessage()
