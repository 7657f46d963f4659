"""The computer's levels, each defined once: its value, its name and blurb on screen, and its ``Style``.

The new-match chooser, the routes, the saved game, the words on the table and the production
``PLAYERS`` all read this enum, so adding a level is one line here.
"""

from __future__ import annotations

from enum import StrEnum

from app.ai import players
from app.ai.players import Player, Style, level_player

__all__ = ["PLAYERS", "THREAD_FLOOR_SECONDS", "Level"]

THREAD_FLOOR_SECONDS = 0.1
"""Levels whose reply floor is at least this think in a worker thread (``Level.thinks_in_a_thread``)."""


class Level(StrEnum):
    """How strongly the computer plays; chosen by the person when a match starts (Normal by default).

    >>> Level("expert").label, Level.EASY.blurb, [level.value for level in Level]
    ('Expert', 'relaxed', ['easy', 'normal', 'hard', 'expert'])
    """

    label: str
    """The level's name on screen."""
    blurb: str
    """A few words under the name in the chooser."""
    style: Style
    """The ideas its player uses (``players.py``)."""
    reply_seconds: float
    """The least time the computer's reply to a move takes: the routes wait out what its thinking
    did not use. How long a decision takes depends on the cards the computer holds (Hard weighs a
    knock on sampled hands, its lookahead costs more for some hands), so without a floor the time
    of an answer would tell the person something about those cards. Each floor is above the
    level's slowest reply measured by ``python -m benchmarks.side_channel`` (docs/ai.md)."""

    @property
    def thinks_in_a_thread(self) -> bool:
        """Whether the routes work its replies out off the event loop.

        A floor this long means decisions of tens of milliseconds and more (Expert's search): on the
        event loop they would hold up every other request the worker serves meanwhile. Quicker
        levels stay on the loop, where a thread's hand-over would cost more than their thinking.
        """
        return self.reply_seconds >= THREAD_FLOOR_SECONDS

    # Only the members below call this. ``Level("hard")`` is a look-up by value that never does;
    # the defaults are there so that type checkers accept that one-argument call.
    def __new__(
        cls, value: str, label: str = "", blurb: str = "", style: Style = players.NORMAL, reply_seconds: float = 0.0
    ) -> Level:
        level = str.__new__(cls, value)
        level._value_ = value
        level.label, level.blurb, level.style, level.reply_seconds = label, blurb, style, reply_seconds
        return level

    EASY = "easy", "Easy", "relaxed", players.EASY, 0.005
    """Simple greedy play with slips: sheds a random loose card now and then, takes a pile card only for a meld."""
    NORMAL = "normal", "Normal", "a fair fight", players.NORMAL, 0.005
    """Greedy on deadwood, values cards that can still make melds, avoids obviously useful discards."""
    HARD = "hard", "Hard", "plays to win", players.HARD, 0.040
    """Card tracking, opponent-hand inference, safe discards, draw lookahead, knocks judged on sampled hands."""
    EXPERT = "expert", "Expert", "thinks it over", players.EXPERT, 0.300
    """The strongest game, for people who want to work for a win: Hard's ideas with more thinking (up to
    300 ms a decision at p95, issue 15). Its floor is above its slowest measured decision, so every
    reply of its takes the floor's time, and the table shows a thinking cue for it (``table.css``)."""


PLAYERS: dict[Level, Player] = {level: level_player(level.style) for level in Level}
"""The production players, one per level (the arena's research players are in ``research.py``)."""
