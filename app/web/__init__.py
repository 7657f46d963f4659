"""The web table's helpers: the saved game, one request's play, and the words the templates show."""

from app.web.flow import COMPUTER, HUMAN, computer_replies, play, start_match
from app.web.presenters import Sort, Table, spoken, table
from app.web.saved import SAVE_FORMAT, SavedGame, UnreadableSave, open_save, seal_save, stamp

__all__ = [
    "COMPUTER",
    "HUMAN",
    "SAVE_FORMAT",
    "SavedGame",
    "Sort",
    "Table",
    "UnreadableSave",
    "computer_replies",
    "open_save",
    "play",
    "seal_save",
    "spoken",
    "stamp",
    "start_match",
    "table",
]
