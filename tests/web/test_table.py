"""The table's view: built from the person's ``PlayerView`` and the engine's structured facts.

Route tests check the page; these check the view itself, where the words come from facts.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from app.ai import Level
from app.engine import (
    DRAW_STOCK,
    Action,
    ActionKind,
    Card,
    Event,
    GameState,
    MeldKind,
    Phase,
    Seat,
    apply,
    arrange,
    discard_deadwoods,
    new_match,
    parse_cards,
    view,
)
from app.web import COMPUTER, HUMAN, TableView, table_view
from app.web.table import narration
from app.web.table.hand import Sort, hand_cards
from app.words import spoken
from tests.engine.states import make_state


def _table(state: GameState, **options: object) -> TableView:
    return table_view(view(state, HUMAN), Level.NORMAL, match_id="m", token="t", at="a", **options)  # type: ignore[arg-type]


def _to_discard(seed: int = 5) -> GameState:
    """A position where the person has drawn from the stock and must discard."""
    state = new_match(random.Random(seed), starter=HUMAN)
    state = apply(state, Action(ActionKind.PASS))
    state = apply(state, Action(ActionKind.PASS))
    return apply(state, DRAW_STOCK)


def test_who_moved_is_a_field_of_each_log_line() -> None:
    events = (
        Event(player=Seat.SECOND, kind=ActionKind.DRAW_STOCK),
        Event(player=Seat.SECOND, kind=ActionKind.DISCARD, card=Card.parse("Ks")),
        Event(player=Seat.FIRST, kind=ActionKind.TAKE_DISCARD, card=Card.parse("Ks")),
    )
    lines = narration.turn_lines(events)
    assert [line.who for line in lines] == [COMPUTER, HUMAN]
    assert spoken(lines[0].words) == "The computer drew from the stock and discarded king of spades."
    assert spoken(lines[1].words) == "You took king of spades from the discard pile."


def test_a_knock_that_ended_in_gin_is_told_as_gin() -> None:
    knock = (Event(player=Seat.FIRST, kind=ActionKind.KNOCK, card=Card.parse("9c")),)
    assert spoken(narration.turn_lines(knock, gin=True)[0].words) == "You went Gin, discarding nine of clubs."
    assert spoken(narration.turn_lines(knock)[0].words) == "You knocked, discarding nine of clubs."


def test_the_view_is_immutable() -> None:
    shown = _table(_to_discard())
    with pytest.raises(dataclasses.FrozenInstanceError):
        shown.phase = Phase.DRAW  # type: ignore[misc]
    with pytest.raises(AttributeError):  # a named tuple's fields can't be set
        shown.hand[0].selected = True  # type: ignore[misc]


def test_each_card_of_the_hand_is_a_small_frozen_value_with_its_meld_kind() -> None:
    state = _to_discard()
    shown = _table(state)
    assert sorted(c.face.code for c in shown.hand) == sorted(c.code for c in state.hands[HUMAN])
    assert all(c.meld in (None, MeldKind.RUN, MeldKind.SET) for c in shown.hand)
    fresh = [c for c in shown.hand if c.fresh]
    assert [c.face.code for c in fresh] == [state.log[-1].card.code]  # type: ignore[union-attr]
    assert hash(shown.hand[0]) == hash(shown.hand[0]._replace())  # usable as a cache key


def test_the_knock_button_says_gin_when_the_engine_says_the_knock_is_gin() -> None:
    hand = parse_cards("As 2s 3s 4c 5c 6c 7c 7d 7h 7s Kh")
    leaves = discard_deadwoods(hand)  # R11: shedding Kh keeps 0 deadwood, shedding 7c keeps 10
    seen = view(_to_discard(), HUMAN)
    gin, knock = Card.parse("Kh"), Card.parse("7c")
    offered = (Action(ActionKind.DISCARD, gin), Action(ActionKind.KNOCK, gin), Action(ActionKind.KNOCK, knock))
    seen = seen.model_copy(update={"hand": hand, "legal_actions": offered})
    cards = hand_cards(seen, arrange(hand), selected=None, sort=Sort.RANK, leaves=leaves)
    moves = {c.face.code: [(b.label, b.tone) for b in c.moves] for c in cards if c.moves}
    assert moves == {"Kh": [("Discard", "primary"), ("Gin", "gin")], "7c": [("Knock (10)", "knock")]}


def test_the_announcement_tells_only_the_computers_moves_then_the_prompt() -> None:
    state = new_match(random.Random(11), starter=COMPUTER)
    before = len(state.log)
    while state.turn == COMPUTER and state.phase.in_play:
        state = apply(state, view(state, COMPUTER).legal_actions[0], random.Random(0))
    shown = _table(state, announce_from=before)
    assert shown.announce[0].startswith("The computer")
    assert shown.announce[-1] == spoken(shown.prompt)
    assert all(not line.startswith("You ") for line in shown.announce[:-1])


def test_a_stale_selection_is_dropped() -> None:
    state = _to_discard()
    not_mine = next(c for c in state.stock if c not in state.hands[HUMAN])
    shown = _table(state, selected=not_mine)
    assert not any(c.selected for c in shown.hand)


def test_the_cards_the_computer_took_from_the_pile_are_shown_until_it_throws_them() -> None:
    # R9: the computer takes your 4♦ from the discard pile, then throws K♥; later it throws the 4♦ back.
    state = make_state("7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d", "4h 4c Kh Qc Jc 9c 7c 6d 2h Qh", "Tc", phase=Phase.DISCARD)
    rng = random.Random(0)
    state = apply(state, Action.parse("discard 4d"), rng)
    state = apply(state, Action.parse("take_discard"), rng)
    state = apply(state, Action.parse("discard Kh"), rng)
    assert [c.code for c in _table(state).computer_took] == ["4d"]
    state = apply(state, Action.parse("draw_stock"), rng)
    state = apply(state, Action.parse("discard Kc"), rng)
    state = apply(state, Action.parse("draw_stock"), rng)  # the computer's stock draw: its card stays hidden
    state = apply(state, Action.parse("discard 4d"), rng)
    assert _table(state).computer_took == ()
