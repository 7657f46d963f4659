"""The engine's bit tricks (``app.engine.masks``) against their plain definitions."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from app.engine import DECK, Card, masks


def _bits_one_at_a_time(mask: int) -> list[int]:
    out = []
    while mask:
        out.append(mask & -mask)
        mask &= mask - 1
    return out


@given(st.integers(min_value=0, max_value=(1 << 80) - 1))
def test_bits_of_gives_every_set_bit_low_to_high(mask: int) -> None:
    assert masks.bits_of(mask) == _bits_one_at_a_time(mask)


@given(st.sets(st.sampled_from(DECK)))
def test_bits_of_a_hand_gives_its_cards_bits_low_to_high(cards: set[Card]) -> None:
    assert masks.bits_of(masks.cards_mask(tuple(cards))) == sorted(card.bit for card in cards)
    assert masks.bits_of(masks.FULL_DECK) == sorted(masks.CARD_OF_BIT)
