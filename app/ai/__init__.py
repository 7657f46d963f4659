"""The computer opponent. It decides from a ``PlayerView`` only, never the full state (fair by construction)."""

from __future__ import annotations

import random
from enum import StrEnum

from app.ai.simple import simple_choice
from app.engine import Action, PlayerView


class Level(StrEnum):
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


def choose(view: PlayerView, level: Level, rng: random.Random) -> Action:
    """The computer's next action for the player whose view this is; always one of ``view.legal_actions``."""
    return simple_choice(view, rng)


__all__ = ["Level", "choose"]
