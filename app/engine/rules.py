"""The phase machine: ``new_match``, ``legal_actions`` and ``apply`` (R3, R7–R13).

``legal_actions`` is the one source of truth: ``apply`` accepts exactly what it lists, and
when it refuses, ``_why_illegal`` explains in a sentence that names the rule.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from app.engine.cards import DECK, Card, cards_mask
from app.engine.errors import IllegalAction, InvalidState
from app.engine.melds import deadwood_of_mask
from app.engine.settle import KNOCK_LIMIT, HandKind, Side, settle
from app.engine.state import (
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

VOID_STOCK = 2  # R13: a turn ending with 2 or fewer stock cards voids the hand

TAKE_UPCARD = Action(ActionKind.TAKE_UPCARD)
PASS = Action(ActionKind.PASS)
DRAW_STOCK = Action(ActionKind.DRAW_STOCK)
TAKE_DISCARD = Action(ActionKind.TAKE_DISCARD)
NEXT_HAND = Action(ActionKind.NEXT_HAND)
# Every throw, made once: a discard phase offers one or two per card, and the computer's players
# list them for each decision, so building them afresh was a visible part of every move.
_DISCARDS = {card: Action(ActionKind.DISCARD, card) for card in DECK}
_KNOCKS = {card: Action(ActionKind.KNOCK, card) for card in DECK}


def _fresh_hand(rng: random.Random, starter: Seat, **carry: object) -> GameState:
    deck = list(DECK)
    rng.shuffle(deck)
    return deal_hand(Deal(deck=tuple(deck), salt=f"{rng.getrandbits(64):016x}"), starter, **carry)


def deal_hand(deal: Deal, starter: Seat, **carry: object) -> GameState:
    """The hand ``deal`` gives when ``starter`` starts, before anyone moves (R7); ``carry`` sets the
    match's other fields (scores, hand number, history). A finished hand is replayed from here."""
    deck = deal.deck
    first, second = tuple(deck[:10]), tuple(deck[10:20])
    hands = (first, second) if starter is Seat.FIRST else (second, first)
    return GameState(
        hands=hands, stock=tuple(deck[21:]), discard=(deck[20],), phase=Phase.UPCARD,
        turn=starter, starter=starter, deal=deal, **carry,
    )  # fmt: skip


def new_match(rng: random.Random, *, starter: int | None = None, target: int = 100) -> GameState:
    """Deal the first hand of a match. Who starts is a fair coin flip unless given (R3)."""
    if starter is None:
        starter = rng.randrange(2)
    if isinstance(starter, bool) or starter not in (0, 1):
        raise IllegalAction("The starting player must be 0 or 1.")
    return _fresh_hand(rng, Seat(starter), target=target)


def _knock_deadwood(state: GameState, card: Card) -> int:
    hand = state.hands[state.turn]
    return deadwood_of_mask(cards_mask(hand) ^ card.bit)


def legal_actions(state: GameState) -> list[Action]:
    """Every action the player to move may take now, in a stable order."""
    if not isinstance(state, GameState):
        raise InvalidState(f"{type(state).__name__} is not a game state.")
    phase = state.phase
    if phase is Phase.UPCARD:
        return [TAKE_UPCARD, PASS]  # R8
    if phase is Phase.DRAW:
        if state.passes == 2 or not state.discard:  # R8: both passed, so the stock it is
            return [DRAW_STOCK]
        return [DRAW_STOCK, TAKE_DISCARD]
    if phase is Phase.DISCARD:
        hand = state.hands[state.turn]
        mask = cards_mask(hand)
        actions = []
        for card in hand:
            if card is state.taken_discard:  # R10
                continue
            actions.append(_DISCARDS[card])
            if deadwood_of_mask(mask ^ card.bit) <= KNOCK_LIMIT:  # R11
                actions.append(_KNOCKS[card])
        return actions
    if phase is Phase.HAND_OVER:
        return [NEXT_HAND]
    return []  # MATCH_OVER: a new match is a new state


def _why_illegal(state: GameState, action: Action) -> str:
    phase, kind, card = state.phase, action.kind, action.card
    if phase is Phase.MATCH_OVER:
        return "The match is over; start a new match."
    if phase is Phase.HAND_OVER:
        return "This hand is over; go on to the next hand."
    if kind is ActionKind.NEXT_HAND:
        return "The hand is still being played."
    if phase is Phase.UPCARD:
        return "First take the upcard or pass it (R8)."
    if kind in (ActionKind.TAKE_UPCARD, ActionKind.PASS):
        return "The first upcard has already been taken or passed (R8)."
    if phase is Phase.DRAW:
        if kind is ActionKind.TAKE_DISCARD:
            return "Both players passed the upcard, so the first draw comes from the stock (R8)."
        if kind is ActionKind.KNOCK:
            return "You can't knock before drawing (R12)."
        return "Draw a card first, from the stock or the discard pile (R9)."
    # DISCARD phase
    if kind in (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD):
        return "You have already drawn this turn; now discard a card (R9)."
    assert card is not None
    if card not in state.hands[state.turn]:
        return f"{card.label} is not in your hand."
    if card is state.taken_discard:
        return f"You took {card.label} from the discard pile; it can't go back this turn (R10)."
    dw = _knock_deadwood(state, card)
    return f"Discarding {card.label} leaves {dw} deadwood; you may knock only with {KNOCK_LIMIT} or less (R11)."


def _draw(state: GameState, card: Card, from_discard: bool, event: Event) -> GameState:
    hands = list(state.hands)
    hands[state.turn] = (*hands[state.turn], card)
    return state.model_copy(
        update={
            "hands": tuple(hands),
            "stock": state.stock if from_discard else state.stock[1:],
            "discard": state.discard[:-1] if from_discard else state.discard,
            "phase": Phase.DISCARD,
            "taken_discard": card if from_discard else None,
            "log": (*state.log, event),
        }
    )


def _end_hand(state: GameState, record: HandRecord, scores: tuple[int, int]) -> GameState:
    summary = HandSummary.model_validate(record.model_dump(include=set(HandSummary.model_fields)))
    winner = next((seat for seat in Seat if scores[seat] >= state.target), None)  # R2
    return state.model_copy(
        update={
            "phase": Phase.MATCH_OVER if winner is not None else Phase.HAND_OVER,
            "scores": scores,
            "last_hand": record,
            "history": (*state.history, summary),
            "winner": winner,
            "taken_discard": None,
        }
    )


def _discard(state: GameState, card: Card, knock: bool) -> GameState:
    me = state.turn
    hands = list(state.hands)
    hands[me] = tuple(c for c in hands[me] if c is not card)
    kind = ActionKind.KNOCK if knock else ActionKind.DISCARD
    after = state.model_copy(
        update={
            "hands": tuple(hands),
            "discard": (*state.discard, card),
            "log": (*state.log, Event(player=me, kind=kind, card=card)),
            "taken_discard": None,
        }
    )
    common = {"number": state.hand_number, "starter": state.starter, "hands": after.hands, "deal": state.deal}
    if knock:
        result = settle(hands[me], hands[me.other])  # R14–R19
        scorer = me if result.winner is Side.KNOCKER else me.other
        scores = list(state.scores)
        scores[scorer] += result.points
        record = HandRecord(
            kind=result.kind, knocker=me, winner=scorer, points=result.points, result=result,
            scores_after=(scores[0], scores[1]), **common,
        )  # fmt: skip
        return _end_hand(after, record, (scores[0], scores[1]))
    if len(state.stock) <= VOID_STOCK:  # R13
        record = HandRecord(
            kind=HandKind.VOID, knocker=None, winner=None, points=0, result=None,
            scores_after=state.scores, reason="The stock ran down to two cards without a knock (R13).",
            **common,
        )  # fmt: skip
        return _end_hand(after, record, state.scores)  # R20
    return after.model_copy(update={"phase": Phase.DRAW, "turn": me.other, "passes": 0})


def _next_hand(state: GameState, rng: random.Random | None) -> GameState:
    if rng is None:
        raise IllegalAction("Dealing the next hand needs a random generator.")
    fresh = _fresh_hand(
        rng, state.next_starter, scores=state.scores, target=state.target,
        hand_number=state.hand_number + 1, history=state.history, last_hand=state.last_hand,
    )  # fmt: skip
    return fresh


def apply(state: GameState, action: Action, rng: random.Random | None = None) -> GameState:
    """The state after ``action``; ``IllegalAction`` (naming the rule) if it is not legal now.

    ``rng`` is used only to deal the next hand.
    """
    if not isinstance(state, GameState):
        raise InvalidState(f"{type(state).__name__} is not a game state.")
    if not isinstance(action, Action):
        raise IllegalAction(f"{action!r} is not an action.")
    if action not in legal_actions(state):
        raise IllegalAction(_why_illegal(state, action))
    return _APPLY[action.kind](state, action, rng)


def _take_upcard(state: GameState, action: Action, rng: random.Random | None) -> GameState:
    # R8: taking the upcard is this player's draw; they discard next.
    card = state.discard[-1]
    return _draw(state, card, True, Event(player=state.turn, kind=ActionKind.TAKE_UPCARD, card=card))


def _pass(state: GameState, action: Action, rng: random.Random | None) -> GameState:
    passes = state.passes + 1
    event = Event(player=state.turn, kind=ActionKind.PASS, card=state.discard[-1])
    if passes == 1:  # R8: the other player is offered the upcard
        return state.model_copy(update={"passes": 1, "turn": state.turn.other, "log": (*state.log, event)})
    # R8: both passed; the starting player must draw from the stock.
    return state.model_copy(
        update={"passes": 2, "turn": state.starter, "phase": Phase.DRAW, "log": (*state.log, event)}
    )


def _draw_stock(state: GameState, action: Action, rng: random.Random | None) -> GameState:
    card = state.stock[0]
    return _draw(state, card, False, Event(player=state.turn, kind=ActionKind.DRAW_STOCK, card=card))


def _take_discard(state: GameState, action: Action, rng: random.Random | None) -> GameState:
    card = state.discard[-1]
    return _draw(state, card, True, Event(player=state.turn, kind=ActionKind.TAKE_DISCARD, card=card))


def _discard_action(state: GameState, action: Action, rng: random.Random | None) -> GameState:
    assert action.card is not None
    return _discard(state, action.card, action.kind is ActionKind.KNOCK)


def _next_hand_action(state: GameState, action: Action, rng: random.Random | None) -> GameState:
    return _next_hand(state, rng)


_APPLY: dict[ActionKind, Callable[[GameState, Action, random.Random | None], GameState]] = {
    ActionKind.TAKE_UPCARD: _take_upcard,
    ActionKind.PASS: _pass,
    ActionKind.DRAW_STOCK: _draw_stock,
    ActionKind.TAKE_DISCARD: _take_discard,
    ActionKind.DISCARD: _discard_action,
    ActionKind.KNOCK: _discard_action,
    ActionKind.NEXT_HAND: _next_hand_action,
}
