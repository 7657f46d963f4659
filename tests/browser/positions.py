"""Games in a chosen position, sealed for a live server whose key the test knows.

The browser tests reach screens a random deal may never show in a few moves (a knock that
ends the match, a hand the computer ends) by storing such a game in the page's
localStorage, exactly as if it had been played there.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet

from app.engine import Deal, GameState, Phase, parse_cards
from app.engine.cards import DECK
from app.seal import KEY_FILE_NAME, Sealer
from app.web import SavedGame, seal_save
from tests.browser.live import serve

__all__ = ["KeyedServer", "keyed_server", "position", "sealed"]


@dataclass(frozen=True)
class KeyedServer:
    base_url: str
    sealer: Sealer

    def seal(self, state: GameState, level: str = "normal", match_id: str = "") -> str:
        return sealed(self.sealer, state, level, match_id)


@contextmanager
def keyed_server(data_dir: Path) -> Iterator[KeyedServer]:
    """The game served with a key written in advance, so tests can seal positions for it."""
    key = Fernet.generate_key().decode()
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / KEY_FILE_NAME).write_text(key + "\n", encoding="ascii")
    with serve("app.main:app", data_dir) as base_url:
        yield KeyedServer(base_url, Sealer([key]))


def sealed(sealer: Sealer, state: GameState, level: str = "normal", match_id: str = "") -> str:
    saved = SavedGame.model_validate({"format": 1, "level": level, "state": state, "match_id": match_id})
    return seal_save(sealer, saved)


def position(
    mine: str,
    theirs: str,
    discard: str,
    *,
    phase: Phase = Phase.DRAW,
    turn: int = 0,
    starter: int = 0,
    stock: str | None = None,
    salt: str = "5eed",
    **extra: Any,
) -> GameState:
    """You (player 0) hold ``mine``, the computer ``theirs``; the discard pile is ``discard`` (top last).

    The stock is ``stock`` (top first) when given, else every other card; cards in neither go
    under the discard pile. The deal records the hands, the upcard and the stock in deal order.
    """
    hands = (parse_cards(mine), parse_cards(theirs))
    pile = parse_cards(discard)
    used = {*hands[0], *hands[1], *pile}
    rest = tuple(c for c in DECK if c not in used)
    if stock is not None:
        wanted = parse_cards(stock)
        pile = (*(c for c in rest if c not in wanted), *pile)
        rest = wanted
    first = (*hands[starter], *hands[1 - starter], pile[-1])
    deck = (*first, *(c for c in DECK if c not in first))
    return GameState(
        hands=hands, stock=rest, discard=pile, phase=phase, turn=turn, starter=starter,
        deal=Deal(deck=deck, salt=salt), **extra,
    )  # fmt: skip
