"""The EAAI-2021 baseline and its two patient versions play as documented (app/ai/baselines.py)."""

import random

import pytest

from app.ai.baselines import LOW_STOCK, eaai_choice, gin_hunter_choice, knock_at_5_choice, makes_a_meld
from app.ai.players import Player
from app.engine import Action, ActionKind, Card, GameState, Phase, parse_cards, view
from tests.ai.conftest import reshuffle_hidden
from tests.engine.states import make_state

ALL = [eaai_choice, knock_at_5_choice, gin_hunter_choice]


def test_a_card_makes_a_meld_with_two_of_its_rank_or_two_neighbours_of_its_suit() -> None:
    hand = parse_cards("7c 7d 3s 4s Jh Kh 2d")
    assert makes_a_meld(Card.parse("7h"), hand)  # a set of three sevens
    assert makes_a_meld(Card.parse("5s"), hand) and makes_a_meld(Card.parse("2s"), hand)  # runs 3-4-5, 2-3-4
    assert makes_a_meld(Card.parse("Qh"), hand)  # J-Q-K of hearts
    assert not makes_a_meld(Card.parse("9s"), hand)  # nothing of spades next to it
    assert not makes_a_meld(Card.parse("Ad"), hand)  # A-2 of diamonds is only a pair


@pytest.mark.parametrize("player", ALL)
def test_the_upcard_is_taken_only_when_it_makes_a_meld(player: Player) -> None:
    melding = make_state("7c 7d 3s 4s 9h Kh 2d Jc Qd 5h", "Ac 2c 3c 4c 5c 6c 8c 9c Tc Kc", "7h", phase=Phase.UPCARD)
    assert player(view(melding, 0), random.Random(1)).kind is ActionKind.TAKE_UPCARD
    loose = make_state("7c 7d 3s 4s 9h Kh 2d Jc Qd 5h", "Ac 2c 3c 4c 5c 6c 8c 9c Tc Kc", "8s", phase=Phase.UPCARD)
    assert player(view(loose, 0), random.Random(1)).kind is ActionKind.PASS


@pytest.mark.parametrize("player", ALL)
def test_a_discard_leaves_the_least_deadwood_never_the_card_just_taken_ties_at_random(player: Player) -> None:
    # After taking the 7h into 7c 7d: K and Q leave the same deadwood (ties); the 7h may not go back.
    state = make_state(
        "7c 7d 7h 3s 4s 5s 9h 9d Ah 2c Kd", "Ac 2d 3c 4c 5c 6c 8c 9c Tc Kc", "Qs",
        phase=Phase.DISCARD, taken_discard=Card.parse("7h"),
    )  # fmt: skip
    thrown = {player(view(state, 0), random.Random(seed)).card for seed in range(40)}
    assert thrown == {Card.parse("Kd")}
    tie = make_state("7c 7d 7h 3s 4s 5s 9h Ah 2c Kd Qd", "Ac 2d 3c 4c 5c 6c 8c 9c Tc Kc", "Qs", phase=Phase.DISCARD)
    thrown = {player(view(tie, 0), random.Random(seed)).card for seed in range(40)}
    assert thrown == {Card.parse("Kd"), Card.parse("Qd")}  # both leave 9 + 1 + 2 + 10 = 22


def knock_position(deadwood_hand: str, stock: int) -> GameState:
    """Player 0 to discard with melds 3s4s5s and 7c7d7h plus ``deadwood_hand`` and the Kd to throw."""
    state = make_state(
        f"3s 4s 5s 7c 7d 7h {deadwood_hand} Kd", "2c 4c 5c 6c 8c 9c Tc Jc Qc Kc", "Qs", phase=Phase.DISCARD
    )
    # Move cards from the stock to the discard pile's bottom until the stock holds ``stock`` cards.
    extra = len(state.stock) - stock
    return state.model_copy(update={"stock": state.stock[extra:], "discard": (*state.stock[:extra], *state.discard)})


def test_the_eaai_player_knocks_at_the_first_chance() -> None:
    state = knock_position("9h 8d Ad 2h", stock=25)  # keeps 9 + 8 + 1 + 2 = 20
    assert eaai_choice(view(state, 0), random.Random(0)).kind is ActionKind.DISCARD
    state = knock_position("2h 3d Ad Ac", stock=25)  # keeps 2 + 3 + 1 + 1 = 7
    assert eaai_choice(view(state, 0), random.Random(0)) == Action(ActionKind.KNOCK, Card.parse("Kd"))


def test_knock_at_5_waits_with_6_to_10_and_knocks_with_5_or_less() -> None:
    seven = knock_position("2h 3d Ad Ac", stock=25)
    assert knock_at_5_choice(view(seven, 0), random.Random(0)).kind is ActionKind.DISCARD
    four = knock_position("2h Ad Ac Ah", stock=25)  # A A A is a set: keeps 2
    assert knock_at_5_choice(view(four, 0), random.Random(0)).kind is ActionKind.KNOCK


def test_the_gin_hunter_waits_for_gin_until_the_stock_is_low() -> None:
    early = knock_position("2h 3d Ad Ac", stock=LOW_STOCK + 5)
    assert gin_hunter_choice(view(early, 0), random.Random(0)).kind is ActionKind.DISCARD
    late = knock_position("2h 3d Ad Ac", stock=LOW_STOCK)
    assert gin_hunter_choice(view(late, 0), random.Random(0)).kind is ActionKind.KNOCK


@pytest.mark.parametrize("player", ALL)
def test_baselines_ignore_hidden_cards(player: Player) -> None:
    from tests.ai.conftest import states

    shuffler = random.Random(5)
    compared = 0
    for state in states(seed=4, hands=2):
        if state.phase.over:
            continue
        twin = GameState.model_validate(reshuffle_hidden(state, state.turn, shuffler).model_dump())
        for s in range(3):
            assert player(view(state, state.turn), random.Random(s)) == player(view(twin, state.turn), random.Random(s))
        compared += 1
    assert compared > 20
