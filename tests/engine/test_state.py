"""Saved states: lossless compact JSON, and refusal of states that break the rules."""

import json
import random

import pytest

from app.engine import GameState, apply, legal_actions, new_match


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
