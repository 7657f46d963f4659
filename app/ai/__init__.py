"""The computer opponent. It decides from a ``PlayerView`` only, never the full state (fair by construction).

>>> import random
>>> from app.engine import new_match, view
>>> state = new_match(random.Random(3))
>>> str(choose(view(state, state.turn), Level.HARD, random.Random(0))) in ("take_upcard", "pass")
True
"""

from __future__ import annotations

import random

from app.ai.levels import PLAYERS, Level
from app.ai.players import Player
from app.engine import Action, PlayerView


def choose(view: PlayerView, level: Level, rng: random.Random) -> Action:
    """The computer's next action for the player whose view this is; always one of ``view.legal_actions``."""
    return PLAYERS[level](view, rng)


__all__ = ["PLAYERS", "Level", "Player", "choose"]
