"""The table screen as one immutable ``TableView``, built from the person's ``PlayerView``; no rules here.

- ``faces``: each card as drawn (glyphs and a name), made once.
- ``hand``: the person's hand, card by card, and the buttons of their move.
- ``narration``: every sentence the table says, from the engine's structured facts.
- ``result``: a finished hand, both hands arranged by the engine, and the score sheet.
- ``aids``: the fair-deal check, the statistics record, the hint, and motion.
- ``assembly``: ``table_view`` puts them together; ``chooser_view`` is the new-match screen.

Every fact about the game (legal moves, deadwood, melds, scores) comes from the engine, and
everything is built from the person's view, so no card the person may not see can reach the page.
"""

from app.web.table.assembly import ChooserView, TableView, table_view
from app.web.table.faces import FACES, CardFace, face
from app.web.table.hand import Button, HandCard, Sort
from app.web.table.narration import Line

__all__ = [
    "FACES",
    "Button",
    "CardFace",
    "ChooserView",
    "HandCard",
    "Line",
    "Sort",
    "TableView",
    "face",
    "table_view",
]
