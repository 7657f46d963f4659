"""Playouts on masks must finish a hand exactly as the engine does when both sides play like simple."""

import random

from app.ai.playout import play_out
from app.ai.simple import simple_choice
from app.engine import NEXT_HAND, HandKind, Phase, apply, masks, new_match, view


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
