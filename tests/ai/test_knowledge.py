"""Card tracking from the view: what is mine, what the opponent holds openly, what is unseen."""

from app.ai.knowledge import FULL_DECK, OPP_PASSED, OPP_THREW, OPP_TOOK, from_view, neighbours
from app.engine import Card, masks, view
from tests.ai.conftest import mask, states

CARD = masks.CARD_OF_BIT.__getitem__


def test_unseen_is_exactly_the_opponents_hidden_cards_and_the_stock() -> None:
    checked = 0
    for state in states(seed=5, hands=4):
        if state.phase.over:
            continue
        v = view(state, 1)
        k = from_view(v)
        hidden = masks.cards_mask(state.stock) | (masks.cards_mask(state.hands[0]) & ~k.opp_known)
        assert k.unseen == hidden
        assert k.hand == masks.cards_mask(state.hands[1])
        assert k.opp_known & ~masks.cards_mask(state.hands[0]) == 0  # known cards are really held
        assert k.unseen | k.hand | k.opp_known | masks.cards_mask(state.discard) == FULL_DECK
        checked += 1
    assert checked > 30


def test_opponent_pile_picks_are_tracked_until_discarded() -> None:
    seen_known = False
    for state in states(seed=11, hands=6):
        if state.phase.over:
            continue
        k = from_view(view(state, 0))
        picked = {e.card for e in state.log if e.player == 1 and e.kind.value in ("take_upcard", "take_discard")}
        thrown = {e.card for e in state.log if e.player == 1 and e.kind.value in ("discard", "knock")}
        expected = masks.cards_mask(c for c in picked - thrown if isinstance(c, Card))
        assert k.opp_known == expected
        seen_known |= bool(expected)
    assert seen_known


def test_neighbours_are_rank_mates_and_suit_mates_within_two() -> None:
    assert neighbours(mask("7h")) == mask("7c 7d 7s 5h 6h 8h 9h")
    assert neighbours(mask("Ac")) == mask("Ad Ah As 2c 3c")
    assert neighbours(mask("Ks")) == mask("Kc Kd Kh Qs Js")


def test_the_opponents_moves_are_replayed_in_order_from_the_public_log() -> None:
    # Particle inference replays them: its throws in order, its takes, and every face-up card it declined.
    checked = 0
    for state in states(seed=11, hands=6):
        if state.phase.over:
            continue
        v = view(state, 0)
        k = from_view(v)
        acts = k.opp_actions
        assert [b for kind, b in acts if kind == OPP_THREW] == [c.bit for c in v.opponent_discarded]
        took = masks.cards_mask(e.card for e in state.log if e.player == 1 and e.kind.takes_pile and e.card)
        assert masks.cards_mask(CARD(b) for kind, b in acts if kind == OPP_TOOK) == took
        passed = 0
        for kind, b in acts:
            passed |= b if kind == OPP_PASSED else 0
        assert passed == k.opp_passed
        checked += bool(acts)
    assert checked > 20
