"""The table's keyboard shortcuts, defined once: the buttons carry them (``aria-keyshortcuts``), the
rules page lists them, and ``keys.js`` reads them from the page (``data-shortcuts``)."""

from __future__ import annotations

import json
from dataclasses import dataclass

from markupsafe import Markup

__all__ = ["KEY_OF", "SHORTCUTS", "SHORTCUTS_DATA", "Shortcut"]


@dataclass(frozen=True, slots=True)
class Shortcut:
    key: str
    """The key as ``event.key`` and ``aria-keyshortcuts`` name it: ``S``, ``Enter``."""
    keys: Markup
    """The key as the rules page shows it."""
    does: Markup
    """What it does, for the rules page."""
    controls: tuple[str, ...] = ()
    """The ids of the buttons it presses, the first one present; none: keys.js handles it (arrows, Escape)."""
    unavailable: str = ""
    """What the table says when none of them can be pressed now (keys.js words the card-dependent cases)."""


SHORTCUTS = (
    Shortcut("S", Markup("<kbd>S</kbd>"), Markup("Draw from the <strong>Stock</strong>."), ("stock",),
             "You can't draw from the stock now."),
    Shortcut("D", Markup("<kbd>D</kbd>"),
             Markup("Take the top of the <strong>Discard pile</strong> (or <strong>Take</strong> the first upcard)."),
             ("discard-pile", "act-take"), "You can't take the discard pile now."),
    Shortcut("P", Markup("<kbd>P</kbd>"), Markup("<strong>Pass</strong> the first upcard."), ("act-pass",),
             "There is no upcard to pass now."),
    Shortcut("Arrows", Markup("<kbd>←</kbd> <kbd>→</kbd> (or <kbd>↑</kbd> <kbd>↓</kbd>)"),
             Markup("Move the selection to the previous or next card of your hand.")),
    Shortcut("Enter", Markup("<kbd>Enter</kbd>"),
             Markup("<strong>Discard</strong> the selected card (on a card that isn't selected, Enter selects it)."),
             ("act-discard",)),
    Shortcut("K", Markup("<kbd>K</kbd>"),
             Markup("<strong>Knock</strong> (or go <strong>Gin</strong>) with the selected card, "
                    "when the rules allow it."),
             ("act-knock",)),
    Shortcut("Escape", Markup("<kbd>Esc</kbd>"), Markup("Put the selected card back.")),
    Shortcut("H", Markup("<kbd>H</kbd>"), Markup("Ask for a <strong>Hint</strong>."), ("act-hint",),
             "No hint now: it isn't your move."),
    Shortcut("N", Markup("<kbd>N</kbd>"), Markup("Deal the <strong>Next hand</strong>."), ("act-next",),
             "The hand is still being played."),
)  # fmt: skip

KEY_OF = {control: s.key for s in SHORTCUTS for control in s.controls}
"""The shortcut of each control that has one, by the control's id."""

SHORTCUTS_DATA = json.dumps({s.key: {"controls": s.controls, "note": s.unavailable} for s in SHORTCUTS if s.controls})
"""What keys.js needs, as JSON for the table's ``data-shortcuts``."""
