"""The table over HTTP: a whole hand, the buttons the rules allow, and nothing hidden in the page."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from app.ai import PLAYERS, Level
from app.engine import Action, ActionKind, Card, GameState, Phase, apply, discard_deadwoods, legal_actions, view
from tests.engine.states import make_state
from tests.routes.conftest import Player
from tests.routes.page import Page

COMPUTER = 1


def hidden_cards(state: GameState) -> list[Card]:
    """The stock, and during a hand the computer's cards the person can't know about (shown once it ends)."""
    if state.phase not in (Phase.UPCARD, Phase.DRAW, Phase.DISCARD):
        return list(state.stock)
    known = set(view(state, 0).opponent_known)
    return [c for c in state.hands[COMPUTER] if c not in known] + list(state.stock)


def assert_nothing_hidden_shows(page: Page, state: GameState) -> None:
    for card in hidden_cards(state):
        for text in (card.name, card.label, f'"{card}"', f"card-{card}"):
            assert text not in page.html, f"{text!r} (a hidden card) is in the page"


def choose_discard(state: GameState) -> Card:
    """The discard keeping the least deadwood, never the card just taken (R10)."""
    leaves = discard_deadwoods(state.hands[0])
    return min((c for c in leaves if c is not state.taken_discard), key=lambda c: (leaves[c], -c.value))


def play_one_turn(player: Player) -> Page:
    """One decision, made by pressing the page's own buttons."""
    page = player.page
    assert page is not None
    state = player.state
    if page.has("Pass"):
        return player.press(page.named("Pass"))
    stock = page.starting("Stock")
    if stock:
        return player.press(stock[0])
    assert state.phase is Phase.DISCARD
    card = choose_discard(state)
    page = player.press(page.starting(card.name)[0])
    assert page.selected == str(card)
    knock = page.starting("Knock") or page.starting("Gin")
    return player.press(knock[0] if knock else page.named("Discard"))


def test_first_visit_offers_a_new_match_with_normal_preselected(player: Player) -> None:
    page = player.post("/game/resume")
    assert page.status == 200
    assert page.has("New match")
    assert 'value="normal" checked' in page.html
    assert page.token == ""  # nothing to store yet


def test_a_new_match_deals_ten_cards_named_in_words_and_saves_the_level(player: Player) -> None:
    page = player.new_match("hard")
    assert page.status == 200
    assert player.saved.level == "hard"
    state = player.state
    mine = state.hands[0]
    assert len(page.cards) == len(mine) in (10, 11)
    for card in mine:
        assert page.starting(card.name), f"no button named after {card.name}"
    assert "Your hand" in page.spoken
    assert "Hard" in page.spoken


@pytest.mark.parametrize("seed", [7, 11, 2024])
def test_a_whole_hand_plays_to_the_result_over_http(player: Player) -> None:
    page = player.new_match()
    turns = 0
    for turns in range(200):  # noqa: B007 (counted below)
        state = player.state
        assert page.status == 200, page.message
        assert_nothing_hidden_shows(page, state)
        # The page offers only legal moves (cards get Discard/Knock once selected).
        legal = {str(a) for a in legal_actions(state)} if state.turn == 0 or state.phase is Phase.HAND_OVER else set()
        assert page.actions <= legal, page.actions - legal
        if page.has("Next hand"):
            break
        page = play_one_turn(player)
    else:
        raise AssertionError("the hand never ended")
    assert turns >= 2, "the hand should have been played, not just dealt"
    record = player.state.last_hand
    assert record is not None
    assert player.state.phase is Phase.HAND_OVER
    assert page.has("Next hand")
    assert "Score sheet" in page.spoken
    if record.result is not None:
        assert record.result.formula in page.spoken
        assert page.starting("Next hand")
    else:
        assert "Void hand." in page.spoken and "Nobody scores." in page.spoken
    # The computer's hand is shown once the hand is over.
    assert record.hands[COMPUTER][0].name in page.html
    page = player.press(page.named("Next hand"))
    assert page.status == 200
    assert player.state.hand_number == 2
    assert player.state.starter != record.starter  # R3


def test_discard_buttons_are_exactly_the_legal_actions_for_the_selected_card(player: Player) -> None:
    page = player.load(
        # 11 cards for player 0: melds 2-3-4♠ and 7♣7♦7♥, so some discards allow a knock and one is Gin-free.
        make_discard_state()
    )
    state = player.state
    assert page.actions == set(), "nothing to press before a card is chosen"
    # Rendered with the table, card by card: exactly the engine's moves with that card (none for a click).
    assert page.all_card_moves == {
        str(c): {str(a) for a in legal_actions(state) if a.card is c} for c in state.hands[0]
    }
    assert "selected" not in page.root_vals, "the choice stays in the browser"
    before_choosing = page.prompt
    for card in state.hands[0]:
        button = page.starting(card.name)[0]
        page = player.press(button)
        expected = {str(a) for a in legal_actions(state) if a.card is card}
        assert page.actions == expected, card
        leaves = discard_deadwoods(state.hands[0])[card]
        knock = page.starting("Knock") + page.starting("Gin")
        if Action(ActionKind.KNOCK, card) in legal_actions(state):
            assert [b.name for b in knock] == ["Gin" if leaves == 0 else f"Knock ({leaves})"]
        else:
            assert knock == []
        assert page.prompt.endswith(f" leaves {leaves} deadwood."), page.prompt
        assert player.state == state  # choosing is not a move
        # Tapping the selected card again puts it back.
        page = player.press(page.starting(card.name)[0])
        assert page.selected == ""
        assert page.prompt == before_choosing


def make_discard_state() -> GameState:
    from tests.engine.states import make_state

    return make_state(
        "2s 3s 4s 7c 7d 7h 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 2h",
        phase=Phase.DISCARD, turn=0,
    )  # fmt: skip


def test_the_card_just_taken_from_the_discard_pile_cannot_go_back_and_the_page_says_why(player: Player) -> None:
    from tests.engine.states import make_state

    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state)
    page = player.press(page.starting("Discard pile")[0])
    assert player.state.taken_discard == Card.parse("7h")
    taken = page.starting("seven of hearts")[0]
    assert "can't be discarded this turn" in taken.name
    page = player.press(taken)
    assert page.actions == set()
    assert page.prompt == "You took seven of hearts from the discard pile; it can't go back this turn."


def test_the_computer_replies_in_the_same_request_and_the_log_says_what_it_did(player: Player) -> None:
    from tests.engine.states import make_state

    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state)
    page = player.press(page.starting("Stock")[0])
    page = player.press(page.starting("king of diamonds")[0])
    page = player.press(page.named("Discard"))
    assert page.status == 200
    assert player.state.turn == 0 and player.state.phase is Phase.DRAW
    said = [e for e in player.state.log if e.player == COMPUTER]
    assert len(said) == 2
    line = (
        "The computer took king of diamonds from the discard pile"
        if said[0].card == Card.parse("Kd")
        else ("The computer drew from the stock")
    )
    assert line in page.spoken
    assert line in page.announced  # the live region tells screen-reader users too
    discarded = said[1].card
    assert discarded is not None
    assert f"discarded {discarded.name}" in page.announced


def test_sorting_by_suit_is_a_view_choice_not_a_move(player: Player) -> None:
    page = player.new_match()
    before = player.state
    player.sort = "suit"  # what the page's script posts once "by suit" is chosen in the Sort menu
    page = player.post("/game/show", **page.root_vals)
    assert player.state == before
    assert '<option value="suit" selected>' in page.html
    order = [b.id.removeprefix("card-") for b in page.cards]
    suits = [Card.parse(code).suit for code in order]
    # Grouped by suit: each suit's cards sit together.
    assert all(suits.index(s) + suits.count(s) - 1 == max(i for i, x in enumerate(suits) if x == s) for s in suits)


def test_sorting_melds_first_puts_runs_in_order_then_sets_then_deadwood_by_value(player: Player) -> None:
    # R5/R6: the best arrangement is A-2-3♠, 7-8-9♥ and the fives; 4♦ and K♣ are deadwood.
    state = make_state("Kc 5d 9h 4d As 5c 7h 3s 5s 8h 2s", "Kd Qc Jc 9c 7c 6d 2h Qh Ks Js", "Tc", phase=Phase.DISCARD)
    player.sort = "melds"
    page = player.load(state)
    order = [b.id.removeprefix("card-") for b in page.cards]
    assert order == ["As", "2s", "3s", "7h", "8h", "9h", "5s", "5c", "5d", "4d", "Kc"]
    assert '<option value="melds" selected>' in page.html


def test_the_cards_the_computer_took_from_the_pile_show_beside_its_hand(player: Player) -> None:
    # R9: the computer takes your 4♦ from the discard pile (public), then throws K♥.
    state = make_state("7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d", "4h 4c Kh Qc Jc 9c 7c 6d 2h Qh", "Tc", phase=Phase.DISCARD)
    rng = random.Random(0)
    for move in ("discard 4d", "take_discard", "discard Kh"):
        state = apply(state, Action.parse(move), rng)
    page = player.load(state)
    assert "10 cards, face down Took four of diamonds" in page.spoken


def test_the_hard_computer_s_reply_takes_at_least_its_floor_whatever_its_cards(player: Player) -> None:
    # A decision takes longer for some hands than others; the floor keeps that out of the answer's time.
    # (Easy's and Normal's floors are shorter than any request: only Hard's can be seen here.)
    level = "hard"
    floor = Level(level).reply_seconds
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state, level=level)
    page = player.press(page.starting("Stock")[0])
    page = player.press(page.starting("king of diamonds")[0])
    started = time.perf_counter()
    page = player.press(page.named("Discard"))
    assert time.perf_counter() - started >= floor
    assert page.status == 200
    assert [e.player for e in player.state.log[-2:]] == [COMPUTER, COMPUTER]  # it did reply


@pytest.mark.parametrize("level", list(Level))
def test_the_reply_floor_is_waited_out_only_when_the_computer_moved(
    player: Player, monkeypatch: pytest.MonkeyPatch, level: Level
) -> None:
    # Whether the computer moved is on the table anyway (its move is shown), so a draw, after which the
    # person plays on, waits for nothing: with Expert's floor it would lag for no reason. Counted, not timed.
    waited: list[Level] = []

    async def wait_out(request: object, level: Level, started: float) -> None:
        waited.append(level)

    monkeypatch.setattr("app.routes.table.wait_out", wait_out)
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state, level=level.value)
    page = player.press(page.starting("Stock")[0])
    assert waited == [] and player.state.log[-1].player != COMPUTER
    page = player.press(page.starting("king of diamonds")[0])
    page = player.press(page.named("Discard"))
    assert waited == [level] and player.state.log[-1].player == COMPUTER
    assert page.status == 200


def on_an_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@pytest.mark.parametrize("level", list(Level))
def test_a_level_that_thinks_long_thinks_off_the_event_loop(
    player: Player, monkeypatch: pytest.MonkeyPatch, level: Level
) -> None:
    # Expert's search takes tens of milliseconds and more: on the event loop it would hold up every other
    # request of the worker. The quicker levels think on the loop (a thread's hand-over costs more).
    on_loop: list[bool] = []
    decide = PLAYERS[level]

    def watched(v: object, rng: random.Random) -> Action:
        on_loop.append(on_an_event_loop())
        return decide(v, rng)  # type: ignore[arg-type]

    monkeypatch.setitem(PLAYERS, level, watched)
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state, level=level.value)
    page = player.press(page.starting("Stock")[0])
    page = player.press(page.starting("king of diamonds")[0])
    page = player.press(page.named("Discard"))
    assert page.status == 200
    assert on_loop, "the computer replied"
    assert on_loop == [not level.thinks_in_a_thread] * len(on_loop)
    assert [level for level in Level if level.thinks_in_a_thread] == [Level.EXPERT]
