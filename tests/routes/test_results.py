"""The end of a hand in words: knock, Gin, undercut, void, layoffs, the score sheet and the match's end."""

from __future__ import annotations

import random

import pytest

from app.ai import Level
from app.engine import Action, ActionKind, Phase, PlayerView, discard_deadwoods
from tests.engine.states import make_state
from tests.routes.conftest import Player
from tests.routes.page import Page

# No melds, and nothing that fits the melds the person knocks with below: 83 deadwood.
LOOSE = "Kc Qd Jh 8c 6d 5h Ts 8h 6c Qc"


def knock_with(player: Player, mine: str, theirs: str, discard: str) -> None:
    page = player.load(make_state(mine, theirs, "4d 2h", phase=Phase.DISCARD))
    page = player.press(page.starting(discard)[0])
    knock = page.starting("Knock") + page.starting("Gin")
    assert len(knock) == 1
    player.press(knock[0])


def test_a_winning_knock_shows_both_hands_the_words_and_the_formula(player: Player) -> None:
    knock_with(player, "2s 3s 4s 7c 7d 7h 9h 9c 9d Ac Kd", LOOSE, "king of diamonds")
    page = player.page
    assert page is not None
    assert player.state.phase is Phase.HAND_OVER
    assert "You knocked and won the hand." in page.spoken
    assert "You knocked, discarding king of diamonds" in page.spoken  # the hand's log
    assert "You score 83 − 1 = 82." in page.spoken
    assert "You knocked with 1 deadwood; the computer held 83." in page.spoken
    assert "Your hand" in page.spoken and "The computer's hand" in page.spoken
    assert "queen of clubs" in page.spoken  # the computer's cards are shown now
    assert page.has("Next hand")
    assert "You knocked +82 82 0" in page.spoken  # the score sheet row


def test_layoffs_are_marked(player: Player) -> None:
    knock_with(player, "2s 3s 4s 7c 7d 7h 9h 9c 9d Ac Kd", "5s 6s Kc Qd Jh 8c 6d 5h Ts 8h", "king of diamonds")
    page = player.page
    assert page is not None
    assert "Laid off" in page.spoken
    assert "five of spades, laid off" in page.spoken and "six of spades, laid off" in page.spoken
    assert "after laying off 2 cards" in page.spoken
    # ...and shown on the knocker's meld they extend.
    assert "four of spades five of spades, laid off six of spades, laid off" in page.spoken
    assert "You score 67 − 1 = 66." in page.spoken


def test_gin_to_100_ends_the_match_and_offers_a_new_one_started_by_the_other_player(player: Player) -> None:
    knock_with(player, "2s 3s 4s 5s 7c 7d 7h 9h 9c 9d Kd", LOOSE, "king of diamonds")
    page = player.page
    assert page is not None
    assert player.state.phase is Phase.MATCH_OVER
    assert "Gin!" in page.spoken
    assert "You went Gin, discarding king of diamonds" in page.spoken  # the hand's log
    assert "You score 25 + 83 = 108." in page.spoken
    assert "nothing may be laid off against Gin" in page.spoken
    assert "You won the match, 108 to 0!" in page.spoken
    assert "You won the match, 108 to 0!" in page.announced
    assert not page.has("Next hand")
    finished = player.state
    page = player.press(page.named("New match"))  # the level form posts "level" from its checked radio
    assert page.status == 200
    assert player.state.scores == (0, 0)
    assert player.state.starter == finished.next_starter  # R3: across matches too


def test_an_undercut_against_the_person_says_so(player: Player) -> None:
    knock_with(player, "2s 3s 4s 7c 7d 7h 9h 9c 9d 8c Kd", "Ah Ad Ac 5h 5d 5c Th Jh Qh 2d", "king of diamonds")
    page = player.page
    assert page is not None
    assert "The computer undercut you!" in page.spoken  # the headline names who undercut whom
    assert "The computer scores 25 + 8 − 2 = 31." in page.spoken
    assert "You knocked with 8 deadwood, but the computer held 2: an undercut." in page.spoken
    assert "The computer undercut you" in page.spoken  # score sheet


def knocks_when_it_can(view: PlayerView, level: Level, rng: random.Random) -> Action:
    """A stand-in opponent: draws from the stock and knocks with its best discard whenever allowed."""
    if view.phase is Phase.DISCARD:
        leaves = discard_deadwoods(view.hand)
        knocks = [a for a in view.legal_actions if a.kind is ActionKind.KNOCK]
        if knocks:
            return min(knocks, key=lambda a: leaves[a.card] if a.card else 99)
    return view.legal_actions[0]


def discard_king_of_diamonds_and_let_the_computer_knock(player: Player, stock: str) -> Page:
    """E1's hands: the person throws K♦, and the computer draws the stock's top card and knocks at once."""
    state = make_state(
        "Ah Ad As 5h 5d 5s 9c Tc Jc 3h Kd", "2c 3c 4c 8h 8d 8s Jh Jd Js 6d", "4d 2h",
        phase=Phase.DISCARD, stock=stock,
    )  # fmt: skip
    page = player.load(state)
    page = player.press(page.starting("king of diamonds")[0])
    return player.press(page.named("Discard"))


def test_example_e1_the_person_undercuts_the_computer(player: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("app.web.flow.choose", knocks_when_it_can)
    page = discard_king_of_diamonds_and_let_the_computer_knock(player, stock="Kc Qc Qd Qs 7c")
    assert player.state.phase is Phase.HAND_OVER
    assert "The computer drew from the stock and knocked, discarding king of clubs." in page.spoken
    assert "You undercut the computer! You score 25 + 6 − 3 = 28." in page.announced
    assert "The computer knocked with 6 deadwood, but you held 3: an undercut." in page.spoken
    assert "You undercut the computer" in page.spoken


def test_the_computers_gin_is_told_as_gin_in_the_log_and_the_announcement(
    player: Player, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("app.web.flow.choose", knocks_when_it_can)
    page = discard_king_of_diamonds_and_let_the_computer_knock(player, stock="5c Qc Qd Qs 7c")  # 5c: Gin
    assert player.state.phase is Phase.HAND_OVER
    told = "The computer drew from the stock and went Gin, discarding six of diamonds."
    assert told in page.spoken
    assert told in page.announced
    assert "The computer went Gin." in page.spoken


def test_a_void_hand_explains_why_and_scores_nothing(player: Player) -> None:
    # E6: three cards in the stock; the person draws one and discards without knocking.
    state = make_state("2s 5c 9c Jd Kd 3c 6h Tc Qs 8d", LOOSE.replace("Qc", "Ks"), "4d 2h", stock="4h 7s Jc")
    page = player.load(state)
    page = player.press(page.starting("Stock")[0])
    page = player.press(page.starting("king of diamonds")[0])
    page = player.press(page.named("Discard"))
    assert player.state.phase is Phase.HAND_OVER
    assert "Void hand." in page.spoken and "Nobody scores." in page.spoken
    assert "stock ran down to two cards" in page.spoken
    assert "Void hand 0 0" in page.spoken
    page = player.press(page.named("Next hand"))
    assert player.state.starter == 1 - state.starter  # R3: a void hand passes the start too
