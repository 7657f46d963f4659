"""Playouts on masks must finish a hand exactly as the engine does when both sides play by the playout's rules."""

import random
from collections.abc import Callable, Iterator

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
    GameState,
    HandKind,
    Phase,
    PlayerView,
    apply,
    masks,
    new_match,
    view,
)

Player = Callable[[PlayerView, random.Random], Action]


def _played_out(seed: int, choice: Player, count: int = 40) -> Iterator[tuple[GameState, int, HandKind]]:
    """``count`` positions of seeded matches (a draw, once the hand is under way), each with the points to
    the player to move (negative: the opponent's) and the kind of hand when ``choice`` plays it out
    on both seats in the engine; between them the matches go on with the simple player."""
    rng = random.Random(seed)
    compared = 0
    state = new_match(rng)
    while compared < count:
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
                end = apply(end, choice(view(end, end.turn), rng))
            rec = end.last_hand
            assert rec is not None
            sign = 0 if rec.kind is HandKind.VOID else 1 if rec.winner == me else -1
            yield state, sign * rec.points, rec.kind
            compared += 1
            state = end
            continue
        state = apply(state, simple_choice(view(state, state.turn), rng), rng)


def test_playout_matches_the_engine_with_simple_players() -> None:
    nonzero = 0
    for state, expected, _ in _played_out(12, simple_choice):
        me = state.turn
        stock = [c.bit for c in reversed(state.stock)]  # play_out pops from the end
        got = play_out(
            masks.cards_mask(state.hands[me]),
            masks.cards_mask(state.hands[1 - me]),
            state.discard[-1].bit,
            stock,
            True,
        )
        assert got == expected
        nonzero += expected != 0
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
    nonzero = voids = 0
    for state, expected, kind in _played_out(21, _careful_choice):
        me = state.turn
        got = play_out_careful(
            masks.cards_mask(state.hands[me]),
            masks.cards_mask(state.hands[1 - me]),
            state.discard[-1].bit,
            [c.bit for c in reversed(state.stock)],
            True,
            masks.cards_mask(state.discard),
            KNOCK_AT,
        )
        assert got == expected
        nonzero += got != 0
        voids += kind is HandKind.VOID
    assert nonzero > 20 and voids > 0
