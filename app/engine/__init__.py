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

from app.engine import masks
from app.engine.cards import DECK, Card, parse_cards
from app.engine.errors import EngineError, IllegalAction, InvalidCards, InvalidState
from app.engine.melds import Arrangement, Meld, MeldKind, arrange, best_discard_deadwood, deadwood, discard_deadwoods
from app.engine.replay import PlayedHand, replay
from app.engine.rules import (
    DRAW_STOCK,
    NEXT_HAND,
    PASS,
    TAKE_DISCARD,
    TAKE_UPCARD,
    VOID_STOCK,
    apply,
    deal_hand,
    legal_actions,
    new_match,
)
from app.engine.settle import (
    GIN_BONUS,
    KNOCK_LIMIT,
    UNDERCUT_BONUS,
    HandKind,
    HandResult,
    Side,
    knock_kind,
    score,
    settle,
)
from app.engine.state import (
    SEATS,
    TARGET_SCORE,
    Action,
    ActionKind,
    Deal,
    Event,
    GameState,
    HandRecord,
    HandSummary,
    Phase,
    Seat,
)
from app.engine.view import PlayerView, view

__all__ = [
    "DECK",
    "DRAW_STOCK",
    "GIN_BONUS",
    "KNOCK_LIMIT",
    "NEXT_HAND",
    "PASS",
    "SEATS",
    "TAKE_DISCARD",
    "TAKE_UPCARD",
    "TARGET_SCORE",
    "UNDERCUT_BONUS",
    "VOID_STOCK",
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
    "Meld",
    "MeldKind",
    "Phase",
    "PlayedHand",
    "PlayerView",
    "Seat",
    "Side",
    "apply",
    "arrange",
    "best_discard_deadwood",
    "deadwood",
    "deal_hand",
    "discard_deadwoods",
    "knock_kind",
    "legal_actions",
    "masks",
    "new_match",
    "parse_cards",
    "replay",
    "score",
    "settle",
    "view",
]
