"""The web table's helpers: the saved game, one request's play, and the view each screen shows."""

from app.web.flow import COMPUTER, HUMAN, computer_moved, computer_replies, play, start_match
from app.web.saved import SAVE_FORMAT, SavedGame, UnreadableSave, open_save, seal_save, stamp
from app.web.table import ChooserView, Sort, TableView, table_view

__all__ = [
    "COMPUTER",
    "HUMAN",
    "SAVE_FORMAT",
    "ChooserView",
    "SavedGame",
    "Sort",
    "TableView",
    "UnreadableSave",
    "computer_moved",
    "computer_replies",
    "open_save",
    "play",
    "seal_save",
    "stamp",
    "start_match",
    "table_view",
]
