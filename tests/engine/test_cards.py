"""Cards and their notation (R1, R4; the codes docs/protocol.md uses: rank then suit, "Td")."""

import pytest

from app.engine import Card, InvalidCards, parse_cards
from app.engine.cards import DECK


def test_r1_one_deck_of_52_distinct_cards() -> None:
    assert len(DECK) == 52
    assert len({str(c) for c in DECK}) == 52


def test_notation_round_trips_for_every_card() -> None:
    for card in DECK:
        assert Card.parse(str(card)) is card
        assert eval(repr(card), {"Card": Card}) is card


def test_parsing_accepts_either_case() -> None:
    assert Card.parse("td") is Card.parse("TD") is Card.parse("Td")
    assert str(Card.parse("as")) == "As"


def test_screen_labels_and_accessible_names() -> None:
    ten = Card.parse("Td")
    assert ten.label == "10♦"
    assert ten.name == "ten of diamonds"
    assert Card.parse("As").label == "A♠"
    assert Card.parse("As").name == "ace of spades"


def test_r4_card_values_aces_low_faces_ten() -> None:
    values = {str(c)[0]: c.value for c in DECK if c.suit == 0}
    assert values == {
        "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10, "J": 10, "Q": 10, "K": 10,
    }  # fmt: skip


@pytest.mark.parametrize("text", ["", "1s", "Ax", "10", "Tdd", "X", "  ", "♠A"])
def test_unknown_card_text_is_a_clear_value_error(text: str) -> None:
    with pytest.raises(InvalidCards, match="not a card"):
        Card.parse(text)


def test_duplicate_cards_are_refused() -> None:
    with pytest.raises(InvalidCards, match="twice"):
        parse_cards("As 2s as")


def test_parse_cards_accepts_commas_and_spaces() -> None:
    assert parse_cards("As,2s  3s") == (Card.parse("As"), Card.parse("2s"), Card.parse("3s"))


def test_cards_are_immutable() -> None:
    with pytest.raises(AttributeError):
        Card.parse("As").rank = 3
