"""What a player may know: never the opponent's other cards, never the stock."""

import random

from app.engine import Action, ActionKind, Card, Phase, PlayerView, apply, legal_actions, new_match, view
from tests.engine.states import make_state

C = Card.parse


def test_view_shows_own_hand_and_hides_the_rest() -> None:
    s = new_match(random.Random(4), starter=0)
    v = view(s, 1)
    assert v.hand == s.hands[1]
    assert v.opponent_hand_size == 10 and v.stock_size == 31
    dumped = v.model_dump_json()
    for card in (*s.hands[0], *s.stock):
        assert f'"{card}"' not in dumped  # neither the opponent's cards nor the stock
    assert v.revealed_deal is None and v.fingerprint == s.deal.fingerprint


def test_only_the_player_to_move_gets_legal_actions() -> None:
    s = new_match(random.Random(4), starter=0)
    assert view(s, 0).legal_actions == tuple(legal_actions(s))
    assert view(s, 1).legal_actions == ()
    assert view(s, 0).my_turn and not view(s, 1).my_turn


def test_stock_draws_are_hidden_from_the_opponent_and_pile_takes_are_known() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="Qd 4h 5h 6s")
    s = apply(s, Action(ActionKind.DRAW_STOCK))
    s = apply(s, Action(ActionKind.DISCARD, C("Kh")))
    s = apply(s, Action(ActionKind.TAKE_DISCARD))  # player 1 takes Kh
    opp_view = view(s, 1)
    assert opp_view.log[0].kind is ActionKind.DRAW_STOCK and opp_view.log[0].card is None
    assert "Qd" not in opp_view.model_dump_json()
    mine = view(s, 0)
    assert mine.log[0].card == C("Qd")
    assert mine.opponent_known == (C("Kh"),)
    assert mine.opponent_passed == ()  # player 1 took the top card
    assert view(s, 1).opponent_passed == (C("7h"),)  # player 0 drew from the stock over 7h
    s = apply(s, Action(ActionKind.DISCARD, C("Ks")))
    assert view(s, 0).opponent_known == (C("Kh"),)
    assert view(s, 0).opponent_discarded == (C("Ks"),)


def test_passed_upcard_is_recorded() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", phase=Phase.UPCARD)
    s = apply(s, Action(ActionKind.PASS))
    assert view(s, 1).opponent_passed == (C("7h"),)


def test_the_deal_is_revealed_when_the_hand_is_over() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 9c 9d 9s Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="2h")
    s = apply(apply(s, Action(ActionKind.DRAW_STOCK)), Action(ActionKind.KNOCK, C("Kh")))
    v = view(s, 1)
    assert v.revealed_deal == s.deal
    assert v.last_hand is not None and v.last_hand.hands[0] == s.hands[0]


def test_a_view_is_exactly_what_validating_its_fields_would_build() -> None:
    # view() builds PlayerView without validation (its fields come from a validated state): each
    # field must still hold the declared type, as validation would have made it, through whole matches.
    rng = random.Random(11)
    checked = 0
    for _ in range(5):  # five hands played at random, to their end (the deal revealed, the result)
        s = new_match(rng)
        while True:
            for player in (0, 1):
                v = view(s, player)
                validated = PlayerView.model_validate(dict(v))
                assert validated == v
                assert all(type(getattr(validated, name)) is type(getattr(v, name)) for name in PlayerView.model_fields)
                checked += 1
            if s.phase.over:
                break
            s = apply(s, rng.choice(legal_actions(s)))
    assert checked > 100
