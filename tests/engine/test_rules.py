"""The phase machine: the deal, the first upcard, turns, knocking, void hands, the match (R2–R3, R7–R13, R20)."""

import random

import pytest

from app.engine import (
    Action,
    ActionKind,
    Card,
    GameState,
    IllegalAction,
    Phase,
    apply,
    deadwood,
    legal_actions,
    new_match,
    parse_cards,
)
from app.engine.cards import DECK
from tests.engine.states import make_state

C = Card.parse
TAKE, PASS = Action(ActionKind.TAKE_UPCARD), Action(ActionKind.PASS)
STOCK, PILE = Action(ActionKind.DRAW_STOCK), Action(ActionKind.TAKE_DISCARD)


def discard(card: str) -> Action:
    return Action(ActionKind.DISCARD, C(card))


def knock(card: str) -> Action:
    return Action(ActionKind.KNOCK, C(card))


def test_r7_deal_ten_each_an_upcard_and_31_in_stock() -> None:
    s = new_match(random.Random(1))
    assert [len(h) for h in s.hands] == [10, 10]
    assert len(s.discard) == 1 and len(s.stock) == 31
    assert sorted((*s.hands[0], *s.hands[1], *s.stock, *s.discard)) == sorted(DECK)
    # The deal is the recorded deck order: starter's 10, the other's 10, the upcard, the stock.
    deck = s.deal.deck
    assert s.hands[s.starter] == deck[:10] and s.hands[1 - s.starter] == deck[10:20]
    assert s.discard == (deck[20],) and s.stock == deck[21:]


def test_deal_fingerprint_commits_to_deck_and_salt() -> None:
    import hashlib

    s = new_match(random.Random(2))
    text = " ".join(map(str, s.deal.deck)) + " " + s.deal.salt
    assert s.deal.fingerprint == hashlib.sha256(text.encode()).hexdigest()
    assert len(s.deal.salt) == 16
    assert new_match(random.Random(3)).deal.fingerprint != s.deal.fingerprint


def test_a_seed_makes_a_whole_match_reproducible() -> None:
    def play(seed: int) -> GameState:
        rng = random.Random(seed)
        s = new_match(rng)
        for _ in range(400):
            acts = legal_actions(s)
            if not acts:
                break
            s = apply(s, rng.choice(acts), rng)
        return s

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_r3_first_starter_is_a_coin_flip() -> None:
    starters = {new_match(random.Random(seed)).starter for seed in range(40)}
    assert starters == {0, 1}


def test_r3_starts_alternate_every_hand_void_included_and_across_matches() -> None:
    rng = random.Random(5)
    s = new_match(rng, starter=1)
    seen = [s.starter]
    while s.phase is not Phase.MATCH_OVER:
        s = apply(s, legal_actions(s)[0], rng)  # take/draw stock/discard first card: mostly void hands
        if s.phase is Phase.HAND_OVER:
            s = apply(s, Action(ActionKind.NEXT_HAND), rng)
            seen.append(s.starter)
        if len(seen) > 6:
            break
    assert seen == [1, 0, 1, 0, 1, 0, 1]
    assert new_match(rng, starter=s.next_starter).starter == 1 - s.starter


def test_r8_starter_may_take_the_upcard_then_discards() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7c", phase=Phase.UPCARD)
    assert legal_actions(s) == [TAKE, PASS]
    s = apply(s, TAKE)
    assert s.phase is Phase.DISCARD and s.turn == 0 and C("7c") in s.hands[0]
    assert len(s.stock) == 31  # taking the upcard is the draw
    s = apply(s, discard("Kh"))
    assert s.phase is Phase.DRAW and s.turn == 1


def test_r8_if_the_starter_passes_the_other_player_is_offered_it() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7c", phase=Phase.UPCARD)
    s = apply(s, PASS)
    assert s.phase is Phase.UPCARD and s.turn == 1
    s = apply(s, TAKE)
    assert s.turn == 1 and s.phase is Phase.DISCARD
    s = apply(s, discard("Ks"))
    assert s.turn == 0 and s.phase is Phase.DRAW


def test_r8_if_both_pass_the_starter_must_draw_from_the_stock() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7c", phase=Phase.UPCARD)
    s = apply(apply(s, PASS), PASS)
    assert s.phase is Phase.DRAW and s.turn == 0
    assert legal_actions(s) == [STOCK]
    with pytest.raises(IllegalAction, match="R8"):
        apply(s, PILE)
    s = apply(s, STOCK)
    s = apply(s, discard("Kh"))
    assert legal_actions(s) == [STOCK, PILE]  # normal play resumes


def test_r9_a_turn_is_draw_then_discard() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7c")
    with pytest.raises(IllegalAction, match="Draw a card first"):
        apply(s, discard("Kh"))
    s = apply(s, STOCK)
    assert len(s.hands[0]) == 11
    with pytest.raises(IllegalAction, match="already drawn"):
        apply(s, STOCK)
    s = apply(s, discard("Kh"))
    assert s.discard[-1] == C("Kh") and len(s.hands[0]) == 10 and s.turn == 1


def test_r10_a_card_taken_from_the_pile_cannot_go_back_this_turn() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h")
    s = apply(s, PILE)
    assert discard("7h") not in legal_actions(s)
    with pytest.raises(IllegalAction, match=r"You took 7♥ from the discard pile; it can't go back this turn \(R10\)"):
        apply(s, discard("7h"))


def test_r10_a_card_drawn_from_the_stock_can_be_discarded_at_once() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="Qd")
    s = apply(s, STOCK)
    assert discard("Qd") in legal_actions(s)
    assert apply(s, discard("Qd")).discard[-1] == C("Qd")


def test_r11_knock_only_when_ten_or_less_remains_and_gin_at_zero() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 9c 9d 9s Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="2h")
    s = apply(s, STOCK)
    knocks = {a.card for a in legal_actions(s) if a.kind is ActionKind.KNOCK}
    assert knocks == {C("Kh"), C("2h")}  # keeping 2h leaves 2, keeping Kh leaves 10: both allowed
    for card in s.hands[0]:
        rest = [c for c in s.hands[0] if c is not card]
        assert (card in knocks) == (deadwood(rest) <= 10)
    with pytest.raises(IllegalAction, match="R11"):
        apply(s, knock("As"))
    gin = make_state("As 2s 3s 4c 5c 6c 8d 9d Td Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="7c")
    gin = apply(apply(gin, STOCK), knock("Kh"))
    assert gin.last_hand is not None and gin.last_hand.kind == "gin"


def test_r12_no_knock_before_drawing() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 7c 8d 9d Td", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h")
    with pytest.raises(IllegalAction, match="R12"):
        apply(s, knock("Td"))


def test_r11_knocking_ends_the_hand_and_scores_it() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 9c 9d 9s Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="2h")
    s = apply(apply(s, STOCK), knock("Kh"))
    assert s.phase is Phase.HAND_OVER
    rec = s.last_hand
    assert rec is not None and rec.result is not None
    assert rec.knocker == 0 and rec.result.knocker_deadwood == 2
    # The defender lays 9h on the knocker's nines; 8h Js Ks = 28 remain (R15).
    assert rec.result.layoffs == (C("9h"),)
    assert rec.result.defender_deadwood == 28 and rec.kind == "knock" and rec.winner == 0
    assert s.scores == (26, 0) and rec.points == 26
    assert legal_actions(s) == [Action(ActionKind.NEXT_HAND)]


def test_r13_e6_stock_down_to_two_without_a_knock_voids_the_hand() -> None:
    s = make_state(
        "As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="Qd 5h 5s", scores=(10, 20)
    )
    s = apply(s, STOCK)
    assert len(s.stock) == 2
    s = apply(s, discard("Qd"))
    assert s.phase is Phase.HAND_OVER
    assert s.last_hand is not None and s.last_hand.kind == "void" and s.last_hand.points == 0
    assert s.scores == (10, 20)  # R20
    nxt = apply(s, Action(ActionKind.NEXT_HAND), random.Random(1))
    assert nxt.starter == 1 and nxt.scores == (10, 20) and nxt.hand_number == 2


def test_r13_a_knock_on_the_last_turn_still_counts() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 9c 9d 9s Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="2h 5h 5s")
    s = apply(apply(s, STOCK), knock("Kh"))
    assert s.last_hand is not None and s.last_hand.kind != "void"


def test_r2_the_match_ends_at_100() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Td Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", stock="7c", scores=(90, 40))
    s = apply(apply(s, STOCK), knock("Kh"))
    assert s.phase is Phase.MATCH_OVER and s.winner == 0 and s.scores[0] >= 100
    assert legal_actions(s) == []
    with pytest.raises(IllegalAction, match="match is over"):
        apply(s, Action(ActionKind.NEXT_HAND), random.Random(0))
    assert [h.number for h in s.history] == [1]


def test_illegal_actions_explain_themselves() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h", phase=Phase.UPCARD)
    with pytest.raises(IllegalAction, match="R8"):
        apply(s, STOCK)
    s = apply(make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h"), STOCK)
    with pytest.raises(IllegalAction, match="not in your hand"):
        apply(s, discard("Ac"))
    with pytest.raises(IllegalAction):
        apply(s, "discard Kh")  # type: ignore[arg-type]
    with pytest.raises(IllegalAction, match="still being played"):
        apply(s, Action(ActionKind.NEXT_HAND))


def test_action_text_round_trips() -> None:
    for a in (TAKE, PASS, STOCK, PILE, discard("Td"), knock("As"), Action(ActionKind.NEXT_HAND)):
        assert Action.parse(str(a)) == a
    for bad in ("", "fly", "discard", "pass As", "discard Zz", "knock As 2s"):
        with pytest.raises(ValueError):
            Action.parse(bad)


def test_apply_never_changes_its_input() -> None:
    s = make_state("As 2s 3s 4c 5c 6c 8d 9d Jh Kh", "Ac 2c 3c 4d 5d 6d 8h 9h Js Ks", "7h")
    before = s.to_json()
    apply(s, STOCK)
    assert s.to_json() == before
    assert parse_cards("As 2s 3s 4c 5c 6c 8d 9d Jh Kh") == s.hands[0]
