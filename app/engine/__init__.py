"""The Gin Rummy rules engine: pure functions over immutable values (house rules R1–R20).

>>> import random
>>> from app.engine import new_match, legal_actions, apply, view
>>> state = new_match(random.Random(7))
>>> [str(a) for a in legal_actions(state)]
['take_upcard', 'pass']
>>> state = apply(state, legal_actions(state)[1])  # pass the first upcard
>>> view(state, state.turn).phase
<Phase.UPCARD: 'upcard'>
"""

from app.engine.cards import Card, parse_cards
from app.engine.errors import EngineError, IllegalAction, InvalidCards, InvalidState
from app.engine.melds import (
    Arrangement,
    arrange,
    best_discard_deadwood,
    deadwood,
    discard_deadwoods,
)
from app.engine.rules import apply, legal_actions, new_match
from app.engine.settle import HandKind, HandResult, Side, settle
from app.engine.state import (
    Action,
    ActionKind,
    Deal,
    Event,
    GameState,
    HandRecord,
    HandSummary,
    Phase,
)
from app.engine.view import PlayerView, view

__all__ = [
    "Action",
    "ActionKind",
    "Arrangement",
    "Card",
    "Deal",
    "EngineError",
    "Event",
    "GameState",
    "HandKind",
    "HandRecord",
    "HandResult",
    "HandSummary",
    "IllegalAction",
    "InvalidCards",
    "InvalidState",
    "Phase",
    "PlayerView",
    "Side",
    "apply",
    "arrange",
    "best_discard_deadwood",
    "deadwood",
    "discard_deadwoods",
    "legal_actions",
    "new_match",
    "parse_cards",
    "settle",
    "view",
]
