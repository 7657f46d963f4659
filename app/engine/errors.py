"""The engine's exceptions: all are ``ValueError`` subclasses with a sentence a person understands."""


class EngineError(ValueError):
    """Base class of every error the rules engine raises on bad input."""


class InvalidCards(EngineError):
    """Card text that is not a card, a duplicate card, or a hand of the wrong size."""


class IllegalAction(EngineError):
    """An action that ``legal_actions`` does not list for this state; the message names the rule."""


class InvalidState(EngineError):
    """A game state that breaks the rules (cards missing or duplicated, impossible sizes)."""
