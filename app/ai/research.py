"""Players for the arena only: the baselines, and Hard or Normal with one idea changed.

The ablations measure what each idea is worth (docs/ai.md); none of them is offered to a
person, so they stay out of the production ``PLAYERS``.
"""

from __future__ import annotations

import random
from dataclasses import replace

from app.ai.baselines import eaai_choice, gin_hunter_choice, knock_at_5_choice
from app.ai.levels import PLAYERS
from app.ai.players import HARD, NORMAL, Player, Style, level_player
from app.ai.simple import simple_choice
from app.engine import Action, PlayerView

__all__ = ["ABLATIONS", "ARENA_PLAYERS", "random_legal"]


def random_legal(v: PlayerView, rng: random.Random) -> Action:
    """The weakest baseline: any legal action, uniformly."""
    return rng.choice(v.legal_actions)


# Hard with one idea switched off, for measuring what each idea is worth (docs/ai.md).
ABLATIONS: dict[str, Style] = {
    "hard-no-inference": replace(HARD, infer=False),
    "hard-no-danger": replace(HARD, danger=0.0),
    "hard-no-outs": replace(HARD, outs=0.0),
    "hard-no-lookahead": replace(HARD, lookahead=False),
    "hard-knock-asap": replace(HARD, knock_samples=0),
    "hard-strict": replace(HARD, max_undercut=0.25),
    "hard-mc": replace(HARD, wait_playouts=30),
    "hard-mc-strict": replace(HARD, wait_playouts=30, max_undercut=0.25),
    "normal-knock-asap": replace(NORMAL, knock_fade=0),
    "hard-outs12": replace(HARD, outs=1.2),
    "hard-look4": replace(HARD, discard_lookahead=4),
    "hard-danger3": replace(HARD, danger=3.0),
    "hard-danger10": replace(HARD, danger=10.0),
}

# The levels as they decide, without the work that only evens out their timing for a person
# watching the clock (Style.even_time): the same moves, several times faster.
_UNTIMED = {level.value: level_player(replace(level.style, even_time=False)) for level in PLAYERS}

ARENA_PLAYERS: dict[str, Player] = {
    "random": random_legal,
    "simple": simple_choice,
    "eaai": eaai_choice,
    "eaai-knock5": knock_at_5_choice,
    "eaai-gin": gin_hunter_choice,
    **_UNTIMED,
    **{name: level_player(replace(style, even_time=False)) for name, style in ABLATIONS.items()},
}
"""Everything the arena can seat, by the name its command line takes."""
