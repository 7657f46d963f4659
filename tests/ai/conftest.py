from __future__ import annotations

import random
from collections.abc import Iterator

from app.ai.simple import simple_choice
from app.engine import GameState, Phase, apply, masks, new_match, parse_cards, view


def mask(text: str) -> int:
    return masks.cards_mask(parse_cards(text))


def states(seed: int, hands: int = 3) -> Iterator[GameState]:
    """Every state of a few seeded hands played by the simple baseline on both sides."""
    rng = random.Random(seed)
    state = new_match(rng)
    played = 0
    while played < hands and state.phase is not Phase.MATCH_OVER:
        yield state
        if state.phase is Phase.HAND_OVER:
            played += 1
        state = apply(state, simple_choice(view(state, state.turn), rng), rng)


def reshuffle_hidden(state: GameState, me: int, rng: random.Random) -> GameState:
    """The same game as far as ``me`` can tell: the opponent's unseen cards and the stock dealt anew."""
    opp = 1 - me
    known = set(view(state, me).opponent_known)
    kept = [c for c in state.hands[opp] if c in known]
    hidden = [c for c in state.hands[opp] if c not in known] + list(state.stock)
    rng.shuffle(hidden)
    split = len(state.hands[opp]) - len(kept)
    hands = list(state.hands)
    hands[opp] = tuple(kept + hidden[:split])
    return state.model_copy(update={"hands": tuple(hands), "stock": tuple(hidden[split:])})
