"""Exact minimum deadwood (R4, R5, R6, E5), checked against a brute-force oracle."""

import random
from collections import Counter

import pytest

from app.engine import (
    Arrangement,
    Card,
    InvalidCards,
    Meld,
    arrange,
    best_discard_deadwood,
    deadwood,
    discard_deadwoods,
    parse_cards,
)
from app.engine.cards import DECK
from tests.engine.oracle import oracle_deadwood


def test_r5_sets_of_three_and_four() -> None:
    assert deadwood(parse_cards("7c 7d 7h")) == 0
    assert deadwood(parse_cards("7c 7d 7h 7s")) == 0
    assert deadwood(parse_cards("7c 7d")) == 14


def test_r5_runs_are_one_suit_consecutive_ace_low() -> None:
    assert deadwood(parse_cards("As 2s 3s")) == 0
    assert deadwood(parse_cards("9h Th Jh Qh Kh")) == 0
    assert deadwood(parse_cards("As 2s 3c")) == 6  # mixed suits are no run


def test_e5_q_k_a_is_no_run_but_a_2_3_is() -> None:
    a = arrange(parse_cards("Qs Ks As 2s 3s"))
    assert a.melds == (parse_cards("As 2s 3s"),)
    assert set(a.deadwood_cards) == set(parse_cards("Qs Ks"))
    assert a.deadwood == 20
    assert deadwood(parse_cards("Ks As 2s")) == 13  # K-A-2 is no run either


def test_r6_a_card_belongs_to_one_meld_and_deadwood_is_the_minimum() -> None:
    # 7s could join the set or the run; the best arrangement uses it where it saves most.
    hand = parse_cards("5s 6s 7s 7c 7d 8d")
    # In the run, 7c 7d 8d = 22 are left; in the set 7s 7c 7d, 5s 6s 8d = 19 are.
    assert deadwood(hand) == 19
    assert arrange(hand).melds == (parse_cards("7c 7d 7s"),)
    assert deadwood(parse_cards("5s 6s 7s 7c 7d 7h")) == 0
    assert arrange(parse_cards("5s 6s 7s 7c 7d 7h")).deadwood == 0


def test_r4_deadwood_values() -> None:
    assert deadwood(parse_cards("Ac Kd Qh Js Th")) == 41


@pytest.mark.parametrize("size", [0, 1, 2, 5, 10, 11])
def test_deadwood_agrees_with_the_oracle_on_random_hands(size: int) -> None:
    rng = random.Random(size)
    for _ in range(1500 if size >= 10 else 300):
        cards = rng.sample(DECK, size)
        assert deadwood(cards) == oracle_deadwood(cards), cards


def _dense_hand(rng: random.Random, size: int) -> list[Card]:
    # Few ranks and suits close together: many overlapping sets and runs.
    low = rng.randrange(0, 10)
    ranks = range(low, low + rng.choice((3, 4)))
    pool = [c for c in DECK if c.rank in ranks]
    return rng.sample(pool, min(size, len(pool)))


def test_deadwood_agrees_with_the_oracle_on_meld_dense_hands() -> None:
    rng = random.Random(99)
    for _ in range(3000):
        cards = _dense_hand(rng, rng.choice((10, 11)))
        assert deadwood(cards) == oracle_deadwood(cards), cards


def test_r6_hands_built_around_sets_agree_with_the_oracle() -> None:
    # deadwood_of_mask writes out the choices of sets on the suit lanes (no set, the whole set, or
    # for four held any three, the fourth left for a run), one rank held 3+ times after another.
    rng = random.Random(2025)
    four = several = 0
    for _ in range(3000):
        ranks = rng.sample(range(13), rng.choice((1, 1, 2, 3)))
        cards = {DECK[13 * s + r] for r in ranks for s in rng.sample(range(4), rng.choice((3, 4)))}
        cards |= set(rng.sample([c for c in DECK if c.rank not in ranks], max(0, rng.randint(4, 11) - len(cards))))
        hand = sorted(cards, key=lambda c: c.bit)[:11]
        held = Counter(c.rank for c in hand)
        four += 4 in held.values()
        several += sum(n >= 3 for n in held.values()) >= 2
        assert deadwood(hand) == oracle_deadwood(hand), hand
    assert four > 500 and several > 500


def test_arrange_is_consistent_with_deadwood() -> None:
    rng = random.Random(5)
    for _ in range(1000):
        cards = _dense_hand(rng, 10) if rng.random() < 0.5 else rng.sample(DECK, 10)
        a = arrange(cards)
        melded = [c for m in a.melds for c in m]
        assert sorted(melded + list(a.deadwood_cards)) == sorted(cards)
        assert a.deadwood == sum(c.value for c in a.deadwood_cards) == deadwood(cards)
        for meld in a.melds:
            assert deadwood(meld) == 0 and len(meld) >= 3


def test_regression_11_cards_whose_best_discard_leaves_10() -> None:
    # A well-known implementation reports 11 for this hand.
    hand = parse_cards("3c 3d 4s 5c 5d 5s 6c 6d 6h 6s 7s")
    assert best_discard_deadwood(hand) == 10
    assert min(oracle_deadwood([c for c in hand if c is not d]) for d in hand) == 10


def test_regression_11_cards_whose_best_discard_leaves_7() -> None:
    hand = parse_cards("5s 6s 5c 6c Ad 2d 4d 5d 6d 7d 6h")
    assert best_discard_deadwood(hand) == 7
    assert discard_deadwoods(hand) == {d: oracle_deadwood([c for c in hand if c is not d]) for d in hand}


def test_wrong_sizes_and_duplicates_are_clear_errors() -> None:
    with pytest.raises(InvalidCards):
        deadwood(list(DECK[:12]))
    with pytest.raises(InvalidCards, match="twice"):
        deadwood([DECK[0], DECK[0]])
    with pytest.raises(InvalidCards):
        deadwood(["As", "2s"])  # type: ignore[list-item]
    with pytest.raises(InvalidCards):
        discard_deadwoods(DECK[:10])


def test_an_arrangement_is_exactly_what_validating_its_fields_would_build() -> None:
    # arrange() builds Arrangement without validation: its fields must hold the declared types.
    rng = random.Random(8)
    for size in [0, 3, 7, 10, 11] * 40:
        a = arrange(rng.sample(DECK, size))
        validated = Arrangement.model_validate(dict(a))
        assert validated == a
        assert all(type(m) is Meld for m in a.melds) and type(a.melds) is tuple
        assert type(a.deadwood_cards) is tuple and all(type(c) is Card for c in a.deadwood_cards)
        assert type(a.deadwood) is int
