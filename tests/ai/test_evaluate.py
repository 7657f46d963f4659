"""Meld outs and discard danger, checked against the deadwood engine and hand-worked cases."""

import random

from app.ai.evaluate import danger, meld_outs, run_outs, set_outs
from app.engine import masks
from tests.ai.conftest import mask

CARD_BITS = tuple(masks.CARD_OF_BIT)
bits_of, melds_in = masks.bits_of, masks.melds_in


def test_outs_match_a_brute_force_meld_search() -> None:
    rng = random.Random(2)
    for _ in range(300):
        hand = sum(rng.sample(CARD_BITS, 10))
        brute = 0
        for b in CARD_BITS:
            if b & hand:
                continue
            if any(m & b for m in melds_in(hand | b)):
                brute |= b
        assert meld_outs(hand) == brute


def test_run_and_set_outs_by_hand() -> None:
    assert run_outs(mask("5h 6h")) == mask("4h 7h")
    assert run_outs(mask("5h 7h")) == mask("6h")
    assert run_outs(mask("Ah 2h")) == mask("3h")  # no card below the ace
    assert run_outs(mask("Qs Ks")) == mask("Js")  # Q-K-A is no run
    assert set_outs(mask("9c 9d")) == mask("9h 9s")
    assert set_outs(mask("9c 9d 9s")) == mask("9h")
    assert set_outs(mask("9c 8d")) == 0


def test_danger_grows_with_what_the_opponent_may_hold() -> None:
    card = mask("7h")
    assert danger(card, {}) == 0.0
    assert danger(card, {mask("7c"): 1.0, mask("7d"): 1.0}) == 1.0
    assert danger(card, {mask("8h"): 1.0, mask("9h"): 1.0}) == 1.0
    low = danger(card, {b: 0.2 for b in bits_of(mask("7c 7d 6h 8h"))})
    high = danger(card, {b: 0.6 for b in bits_of(mask("7c 7d 6h 8h"))})
    assert 0.0 < low < high < 1.0
    # Cards that cannot be in a meld with 7h do not matter.
    assert danger(card, {mask("2c"): 1.0, mask("Kd"): 1.0}) == 0.0


def test_danger_counts_runs_only_within_the_suit_from_ace_to_king() -> None:
    # The run partners are worked out once per card: at the ends of a suit only one side exists.
    assert danger(mask("As"), {mask("2s"): 1.0, mask("3s"): 1.0}) == 1.0
    assert danger(mask("As"), {mask("Ks"): 1.0, mask("Qs"): 1.0}) == 0.0  # K-A is no run
    assert danger(mask("Ks"), {mask("Qs"): 1.0, mask("Js"): 1.0}) == 1.0
    assert danger(mask("Ks"), {mask("As"): 1.0, mask("2s"): 1.0}) == 0.0
    assert danger(mask("Ac"), {mask("Kh"): 1.0, mask("Qh"): 1.0}) == 0.0  # the next suit's lane is not a neighbour
    assert danger(mask("5d"), {mask("4d"): 1.0, mask("6d"): 1.0}) == 1.0  # a card between two
    # Two of the rank, whichever two: the set term sees all three other suits.
    for pair in ("5c 5h", "5c 5s", "5h 5s"):
        assert danger(mask("5d"), {b: 1.0 for b in bits_of(mask(pair))}) == 1.0
