"""Opponent-hand inference: clues move the weights the right way, and samples fit the view."""

import random
from dataclasses import replace

from app.ai.inference import (
    card_weights,
    inconsistency,
    least_after_throw,
    opponent_probs,
    particle_probs,
    particles,
    sample_hand,
)
from app.ai.knowledge import OPP_PASSED, OPP_THREW, Knowledge, from_view
from app.engine import Phase, masks, view
from tests.ai.conftest import mask, states


def _knowledge() -> Knowledge:  # a real mid-hand view
    for state in states(seed=3, hands=1):
        if state.phase is Phase.DRAW:
            return from_view(view(state, state.turn))
    raise AssertionError("no draw phase")


def _fresh(hand: str, pile: str) -> Knowledge:
    return Knowledge(
        hand=mask(hand), pile=tuple(mask(c) for c in pile.split()), opp_known=0, opp_discarded=0, opp_passed=0,
        stock_size=30, opp_hand_size=10, opp_stock_draws=0, discards=0, phase=Phase.DRAW,
        taken=0, can_take=True,
    )  # fmt: skip


def test_taken_cards_raise_their_partners_and_discards_lower_theirs() -> None:
    k = _fresh("Ac 2c 3c 4d 5d Ts Js Qs Kh Kd", "9c")
    target, partner = mask("7h"), mask("8h")
    base = card_weights(k)[target]
    assert base == card_weights(k)[mask("2h")]  # no clue yet: alike
    took = replace(k, opp_known=partner, pile=(mask("9c"),))
    assert card_weights(took)[target] > base
    assert card_weights(took)[mask("2h")] == base  # not a partner of 8h
    threw = replace(k, opp_discarded=partner, pile=(mask("9c"), partner))
    assert card_weights(threw)[target] < base
    passed = replace(k, opp_passed=partner, pile=(mask("9c"), partner))
    assert card_weights(threw)[target] < card_weights(passed)[target] < base


def test_probabilities_sum_to_the_opponents_hand_size() -> None:
    k = _knowledge()
    probs = opponent_probs(k)
    assert abs(sum(probs.values()) - k.opp_hand_size) < 0.5
    assert all(0.0 <= p <= 1.0 for p in probs.values())


def test_samples_hold_the_known_cards_and_only_unseen_others() -> None:
    rng = random.Random(1)
    for state in states(seed=9, hands=3):
        if state.phase not in (Phase.DRAW, Phase.DISCARD):
            continue
        me = state.turn
        k = from_view(view(state, me))
        weights = card_weights(k)
        for extra in (0, 4):
            hand = sample_hand(k, weights, rng, extra)
            assert hand & k.opp_known == k.opp_known
            assert hand & ~k.opp_known & ~k.unseen == 0
            assert hand.bit_count() == len(state.hands[1 - me])
            assert hand & masks.cards_mask(state.hands[me]) == 0


def test_particles_before_any_extra_draw_are_the_hands_sample_hand_draws_from_the_same_generator() -> None:
    # particles() works the weights' exponents out once for all its hands: the draws must stay those of
    # sample_hand (the same cards for the same random numbers), or the weights would mean something else.
    for state in states(seed=9, hands=3):
        if state.phase not in (Phase.DRAW, Phase.DISCARD):
            continue
        k = from_view(view(state, state.turn))
        weights = card_weights(k)
        for seed in range(5):
            hands, _ = particles(k, weights, random.Random(seed), 3, 0, 0.5, 3)
            expected = random.Random(seed)
            assert hands == [sample_hand(k, weights, expected, 0) for _ in range(3)]


def test_the_least_deadwood_after_a_throw_is_the_best_of_every_throw() -> None:
    # Its pruning (a throw lowers the deadwood by at most the card's value) must never miss the best.
    rng = random.Random(4)
    deck = masks.bits_of(masks.FULL_DECK)
    for size in (11, 12, 13):
        for _ in range(300):
            hand = sum(rng.sample(deck, size))
            forbidden = rng.choice([0, *masks.bits_of(hand)])
            best = min(masks.deadwood_of_mask(hand ^ x) for x in masks.bits_of(hand & ~forbidden))
            assert least_after_throw(hand, forbidden) == best


def test_a_hand_that_would_have_melded_the_card_thrown_or_passed_fits_the_moves_worse() -> None:
    # The opponent passed 7h, then drew blind and threw Kc. Holding 7c 7d, passing 7h gave away a set;
    # holding Qc Jc, throwing Kc broke a run; a hand with neither fits its moves.
    k = replace(
        _fresh("Ac 2c 3c 4d 5d Ts Js Qs Kh Kd", "7h Kc"),
        opp_passed=mask("7h"), opp_discarded=mask("Kc"),
        opp_actions=((OPP_PASSED, mask("7h")), (OPP_THREW, mask("Kc"))),
    )  # fmt: skip
    fits = mask("2h 3h 4h 8s 9d 5c 6s 9h 4s 3d")
    assert inconsistency(k, fits, 3) == 0
    assert inconsistency(k, fits ^ mask("2h 3h") | mask("7c 7d"), 3) > 0
    assert inconsistency(k, fits ^ mask("2h 3h") | mask("Qc Jc"), 3) > 0


def test_particle_probabilities_sum_to_the_opponents_hand_size() -> None:
    k = _knowledge()
    hands, weights = particles(k, card_weights(k), random.Random(2), 100, 2, 0.5, 3)
    assert len(hands) == len(weights) == 100 and max(weights) == 1.0
    probs = particle_probs(k, hands, weights)
    assert abs(sum(probs.values()) - k.opp_hand_size) < 0.5
    assert all(0.0 <= p <= 1.0 for p in probs.values())
