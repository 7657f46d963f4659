"""One request's worth of play: the person's move, then the computer's replies until it is their turn again.

Every rule lives in ``app.engine``; this module only sequences calls to it, and the computer
decides from its ``PlayerView`` alone.
"""

from __future__ import annotations

import logging
import random

from app.ai import Level, choose
from app.engine import Action, GameState, Seat, apply, new_match, view
from app.web.saved import SavedGame

__all__ = ["COMPUTER", "HUMAN", "computer_moved", "computer_replies", "play", "start_match"]

HUMAN, COMPUTER = Seat.FIRST, Seat.SECOND
"""The web table seats the person first and the computer second."""
# A hand can't last longer than the stock (31 draws each way, plus the upcard offers); a loop
# that gets past this has a bug, and must not hang a worker.
_MAX_COMPUTER_MOVES = 80

logger = logging.getLogger(__name__)


def start_match(level: Level, rng: random.Random, previous: GameState | None = None) -> SavedGame:
    """A new match; the starting player alternates from the previous match when there is one (R3)."""
    starter = previous.next_starter if previous is not None else None
    state = new_match(rng, starter=starter)
    return SavedGame.start(computer_replies(state, level, rng), level)


def play(saved: SavedGame, action: Action, rng: random.Random) -> SavedGame:
    """The person's ``action`` and the computer's replies; ``IllegalAction`` if it isn't legal now."""
    state = apply(saved.state, action, rng)
    return saved.with_state(computer_replies(state, saved.level, rng))


def computer_replies(state: GameState, level: Level, rng: random.Random) -> GameState:
    """Let the computer move while it is its turn and the hand is still being played."""
    for _ in range(_MAX_COMPUTER_MOVES):
        if not state.phase.in_play or state.turn != COMPUTER:
            return state
        state = apply(state, _computer_move(state, level, rng), rng)
    raise RuntimeError("The computer kept moving past the length of any hand.")


def computer_moved(before: GameState | None, after: GameState) -> bool:
    """Whether the computer made a move on the way from ``before`` (``None``: a new match) to ``after``,
    in the same hand or in the next one dealt. Public: the log shows each move, its cards as ``view`` hides them."""
    same_hand = before is not None and after.deal == before.deal
    since = after.log[len(before.log) :] if before is not None and same_hand else after.log
    return any(event.player == COMPUTER for event in since)


def _computer_move(state: GameState, level: Level, rng: random.Random) -> Action:
    seen = view(state, COMPUTER)  # on its turn its view holds the legal actions, worked out once
    action = choose(seen, level, rng)
    if action in seen.legal_actions:
        return action
    # A bug in the opponent must not cost the person their game: log it and play on legally.
    logger.error("The computer chose %s, which is not legal; playing %s instead.", action, seen.legal_actions[0])
    return seen.legal_actions[0]
