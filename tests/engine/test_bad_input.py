"""Bad input: every public function answers garbage with a ValueError subclass, never another exception."""

import contextlib
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine import (
    Action,
    Card,
    GameState,
    apply,
    arrange,
    deadwood,
    legal_actions,
    new_match,
    parse_cards,
    settle,
    view,
)

junk = st.one_of(
    st.none(),
    st.integers(),
    st.text(max_size=40),
    st.binary(max_size=20),
    st.lists(st.one_of(st.text(max_size=3), st.integers()), max_size=12),
    st.lists(st.sampled_from([Card.parse(t) for t in ("As", "2s", "Kd", "7h")]), max_size=14),
)


def _only_value_errors(fn: Any, *args: Any) -> None:
    # Any other exception type escapes and fails the test.
    with contextlib.suppress(ValueError):
        fn(*args)


@settings(max_examples=300, deadline=None)
@given(junk)
def test_card_functions_reject_garbage_with_value_errors(value: Any) -> None:
    for fn in (deadwood, arrange, parse_cards, Card.parse, Action.parse, GameState.from_json):
        _only_value_errors(fn, value)


@settings(max_examples=200, deadline=None)
@given(junk, junk)
def test_settle_rejects_garbage_with_value_errors(a: Any, b: Any) -> None:
    _only_value_errors(settle, a, b)


@settings(max_examples=200, deadline=None)
@given(junk)
def test_state_functions_reject_garbage_with_value_errors(value: Any) -> None:
    state = new_match(random.Random(0))
    _only_value_errors(apply, value, legal_actions(state)[0])
    _only_value_errors(apply, state, value)
    _only_value_errors(legal_actions, value)
    _only_value_errors(view, state, value)
    _only_value_errors(view, value, 0)


def test_a_non_state_is_named_plainly() -> None:
    with pytest.raises(ValueError, match="not a game state"):
        legal_actions("hello")  # type: ignore[arg-type]
