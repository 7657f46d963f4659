"""The computer opponent. It decides from a ``PlayerView`` only, never the full state (fair by construction).

>>> import random
>>> from app.engine import new_match, view
>>> state = new_match(random.Random(3))
>>> str(choose(view(state, state.turn), Level.HARD, random.Random(0))) in ("take_upcard", "pass")
True
"""

from __future__ import annotations

import random
from enum import StrEnum

from app.ai.players import PLAYERS, Player
from app.engine import Action, PlayerView


class Level(StrEnum):
    """How strongly the computer plays; chosen by the person when a match starts (Normal by default)."""

    EASY = "easy"
    """Simple greedy play with slips: sheds a random loose card now and then, takes a pile card only for a meld."""
    NORMAL = "normal"
    """Greedy on deadwood, values cards that can still make melds, avoids obviously useful discards."""
    HARD = "hard"
    """Card tracking, opponent-hand inference, safe discards, draw lookahead, knocks judged on sampled hands."""


def player_for(level: Level) -> Player:
    return PLAYERS[level.value]


def choose(view: PlayerView, level: Level, rng: random.Random) -> Action:
    """The computer's next action for the player whose view this is; always one of ``view.legal_actions``."""
    return PLAYERS[level.value](view, rng)


__all__ = ["PLAYERS", "Level", "Player", "choose", "player_for"]
