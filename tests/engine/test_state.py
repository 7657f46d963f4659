"""Saved states: lossless compact JSON, and refusal of states that break the rules."""

import json
import random

import pytest

from app.engine import GameState, HandKind, HandSummary, Seat, apply, legal_actions, new_match


def test_round_trips_through_compact_json() -> None:
    rng = random.Random(8)
    s = new_match(rng)
    for _ in range(60):
        s = apply(s, rng.choice(legal_actions(s)), rng)
        text = s.to_json()
        assert GameState.from_json(text) == s
        assert " " not in text.replace("The stock ran down to two cards without a knock (R13).", "")


def _mutated(s: GameState, **changes: object) -> str:
    data = json.loads(s.to_json())
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    "change",
    [
        {"stock": []},
        {"turn": 2},
        {"phase": "sideways"},
        {"scores": [-5, 0]},
        {"scores": [150, 0]},
        {"hands": [["As"], ["2s"]]},
    ],
)
def test_states_that_break_the_rules_are_value_errors(change: dict[str, object]) -> None:
    s = new_match(random.Random(1))
    with pytest.raises(ValueError):
        GameState.from_json(_mutated(s, **change))


def test_duplicated_card_is_refused() -> None:
    s = new_match(random.Random(1))
    data = json.loads(s.to_json())
    data["stock"][0] = data["hands"][0][0]
    with pytest.raises(ValueError, match="52 cards"):
        GameState.from_json(json.dumps(data))


@pytest.mark.parametrize("garbage", ["", "{", "[]", "null", '{"hands": 3}', "\x00\xff"])
def test_garbage_is_a_value_error(garbage: str) -> None:
    with pytest.raises(ValueError):
        GameState.from_json(garbage)


def _first_moves(seed: int) -> GameState:
    rng = random.Random(seed)
    s = new_match(rng)
    while not s.log:
        s = apply(s, legal_actions(s)[0], rng)
    return s


@pytest.mark.parametrize("card", [7, ["7h"], {"c": "7h"}, "7x", "", "7h "])
def test_a_card_that_is_not_a_card_code_is_refused(card: object) -> None:
    data = json.loads(_first_moves(2).to_json())
    data["stock"][0] = card
    with pytest.raises(ValueError, match="stock"):
        GameState.from_json(json.dumps(data))


def test_card_codes_are_read_in_either_case() -> None:
    s = _first_moves(3)
    data = json.loads(s.to_json())
    data["stock"] = [code.upper() for code in data["stock"]]
    assert GameState.from_json(json.dumps(data)) == s


@pytest.mark.parametrize("player", [2, -1, "0x1", None])
def test_an_event_by_a_player_who_does_not_exist_is_refused(player: object) -> None:
    data = json.loads(_first_moves(4).to_json())
    data["log"][0]["player"] = player
    with pytest.raises(ValueError, match="log"):
        GameState.from_json(json.dumps(data))


def test_a_deal_missing_a_card_is_refused_though_it_holds_52() -> None:
    data = json.loads(new_match(random.Random(5)).to_json())
    data["deal"]["deck"][0] = data["deal"]["deck"][1]
    with pytest.raises(ValueError, match="full deck"):
        GameState.from_json(json.dumps(data))


def test_a_hands_points_read_from_either_seat_r18_r19_r20() -> None:
    # R18/R19: the winner scores the points; R20: a void hand scores nothing for either player.
    won = HandSummary(
        number=1, starter=Seat.FIRST, kind=HandKind.UNDERCUT, knocker=Seat.FIRST, winner=Seat.SECOND, points=28,
        scores_after=(0, 28),
    )  # fmt: skip
    assert (won.points_for(Seat.SECOND), won.points_for(Seat.FIRST)) == (28, -28)
    void = won.model_copy(update={"kind": HandKind.VOID, "knocker": None, "winner": None, "points": 0})
    assert (void.points_for(Seat.FIRST), void.points_for(Seat.SECOND)) == (0, 0)
