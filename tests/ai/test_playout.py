"""Playouts on masks must finish a hand exactly as the engine does when both sides play by the playout's rules."""

import random

from app.ai.evaluate import meld_outs
from app.ai.playout import OUTS_CREDIT, careful_discard, play_out, play_out_careful
from app.ai.simple import simple_choice
from app.engine import (
    DRAW_STOCK,
    KNOCK_LIMIT,
    NEXT_HAND,
    TAKE_DISCARD,
    VOID_STOCK,
    Action,
    ActionKind,
    HandKind,
    Phase,
    PlayerView,
    apply,
    masks,
    new_match,
    view,
)


def test_playout_matches_the_engine_with_simple_players() -> None:
    rng = random.Random(12)
    compared = nonzero = 0
    state = new_match(rng)
    while compared < 40:
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rng)
            continue
        if state.phase is Phase.HAND_OVER:
            state = apply(state, NEXT_HAND, rng)
            continue
        if state.phase is Phase.DRAW and state.passes == 0 and len(state.log) >= 4:
            me = state.turn
            expected_state = state
            while expected_state.phase is Phase.DRAW or expected_state.phase is Phase.DISCARD:
                expected_state = apply(expected_state, simple_choice(view(expected_state, expected_state.turn), rng))
            rec = expected_state.last_hand
            assert rec is not None
            sign = 0 if rec.kind is HandKind.VOID else 1 if rec.winner == me else -1
            expected = sign * rec.points
            stock = [c.bit for c in reversed(state.stock)]  # play_out pops from the end
            got = play_out(
                masks.cards_mask(state.hands[me]),
                masks.cards_mask(state.hands[1 - me]),
                state.discard[-1].bit,
                stock,
                True,
            )
            assert got == expected
            compared += 1
            nonzero += expected != 0
            state = expected_state
            continue
        state = apply(state, simple_choice(view(state, state.turn), rng), rng)
    assert nonzero > 20


def _careful_choice(v: PlayerView, rng: random.Random) -> Action:
    """``play_out_careful``'s player, on a view: the same rules, written against the engine's actions."""
    hand = masks.cards_mask(v.hand)
    dead = masks.cards_mask(v.discard_pile)
    top = v.discard_pile[-1].bit if v.discard_pile else 0
    if v.phase is Phase.DRAW:
        credit = OUTS_CREDIT * min(1.0, v.stock_size / 20.0)
        if top & meld_outs(hand) and careful_discard(hand | top, top, dead, credit)[0] < masks.deadwood_of_mask(hand):
            return TAKE_DISCARD
        return DRAW_STOCK
    taken = v.taken_discard.bit if v.taken_discard is not None else 0
    credit = OUTS_CREDIT * min(1.0, (v.stock_size + (0 if taken else 1)) / 20.0)  # as before the draw
    dw, throw = careful_discard(hand, taken, dead, credit)
    card = masks.CARD_OF_BIT[throw]
    if dw == 0 or (dw <= KNOCK_LIMIT and (dw <= KNOCK_AT or v.stock_size <= VOID_STOCK)):
        return Action(ActionKind.KNOCK, card)
    return Action(ActionKind.DISCARD, card)


KNOCK_AT = 5


def test_careful_playout_matches_the_engine() -> None:
    # R10 (the taken card stays), R11 (knock at 10 or less), R13 (void), R14-R19 (settlement).
    rng = random.Random(21)
    compared = nonzero = voids = 0
    state = new_match(rng)
    while compared < 40:
        if state.phase is Phase.MATCH_OVER:
            state = new_match(rng)
            continue
        if state.phase is Phase.HAND_OVER:
            state = apply(state, NEXT_HAND, rng)
            continue
        if state.phase is Phase.DRAW and state.passes == 0 and len(state.log) >= 4:
            me = state.turn
            end = state
            while end.phase is Phase.DRAW or end.phase is Phase.DISCARD:
                end = apply(end, _careful_choice(view(end, end.turn), rng))
            rec = end.last_hand
            assert rec is not None
            sign = 0 if rec.kind is HandKind.VOID else 1 if rec.winner == me else -1
            got = play_out_careful(
                masks.cards_mask(state.hands[me]),
                masks.cards_mask(state.hands[1 - me]),
                state.discard[-1].bit,
                [c.bit for c in reversed(state.stock)],
                True,
                masks.cards_mask(state.discard),
                KNOCK_AT,
            )
            assert got == sign * rec.points
            compared += 1
            nonzero += got != 0
            voids += rec.kind is HandKind.VOID
            state = end
            continue
        state = apply(state, simple_choice(view(state, state.turn), rng), rng)
    assert nonzero > 20 and voids > 0
