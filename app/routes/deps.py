"""What every table request carries, read once: the sealed save, the page's position, the view options.

The dependencies are ``async def`` (only reading the body may wait): a plain ``def`` dependency
costs a thread-pool hand-off per request, which the load benchmark showed to be a large share of a move.

Routes declare these as ``Annotated`` parameters so their signatures read as prose.
"""

from __future__ import annotations

import random
import secrets
from dataclasses import dataclass, replace
from typing import Annotated
from urllib.parse import parse_qsl

from fastapi import Depends, Request
from starlette.exceptions import HTTPException

from app.ai import Level
from app.engine import Card, GameState, InvalidCards
from app.seal import Sealer
from app.web import SavedGame, Sort, UnreadableSave, open_save, stamp

__all__ = [
    "Current",
    "CurrentGame",
    "OpenedGame",
    "Posted",
    "PostedForm",
    "Rng",
    "SealerDep",
    "StaleTable",
    "TableProblem",
    "current_game",
    "get_rng",
    "get_sealer",
    "open_game",
    "opened_game",
]


class TableProblem(Exception):
    """A request we answer with the new-match screen and a message (the stored save is left alone)."""

    def __init__(self, message: str, *, status_code: int = 400, can_resume: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.status_code = status_code
        self.can_resume = can_resume


@dataclass(frozen=True)
class Posted:
    """The fields the page posts with every request (the token comes from localStorage, the rest from the page)."""

    token: str
    at: str
    selected: Card | None
    sort: Sort
    action: str = ""  # the move a button posts ("discard 7h"), on /game/act
    level: str = Level.NORMAL.value  # the level chosen on the new-match screen, on /game/new (checked there)


def _card_or_none(text: str) -> Card | None:
    try:
        return Card.parse(text) if text else None
    except InvalidCards:
        return None  # a selection is a display choice: a garbled one is simply dropped


_URLENCODED = "application/x-www-form-urlencoded"
_MAX_FIELDS = 64  # a table posts six; far more is garbage, refused before it is parsed


async def _fields(request: Request) -> dict[str, str]:
    """The posted form's text fields. What htmx sends (URL-encoded) is parsed with the standard
    library, several times faster than the general form parser; anything else goes through
    Starlette's, so a multipart post still works and an uploaded file is ignored."""
    if request.headers.get("content-type", "").partition(";")[0].strip().lower() == _URLENCODED:
        text = (await request.body()).decode("utf-8", "replace")
        try:
            return dict(parse_qsl(text, keep_blank_values=True, max_num_fields=_MAX_FIELDS))
        except ValueError:
            raise HTTPException(400, "That request had too many fields.") from None
    form = await request.form(max_fields=_MAX_FIELDS)
    return {name: value for name, value in form.items() if isinstance(value, str)}


async def read_posted(request: Request) -> Posted:
    # One read of the form, by hand: declaring each field with Form() made FastAPI validate them
    # one by one, a third of a move request's time in the load benchmark.
    form = await _fields(request)
    return Posted(
        token=form.get("token", "").strip(),
        at=form.get("at", ""),
        selected=_card_or_none(form.get("selected", "")),
        sort=Sort.read(form.get("sort", "")),
        action=form.get("action", ""),
        level=form.get("level") or Level.NORMAL.value,
    )


PostedForm = Annotated[Posted, Depends(read_posted)]


async def get_sealer(request: Request) -> Sealer:
    sealer: Sealer = request.app.state.sealer
    return sealer


SealerDep = Annotated[Sealer, Depends(get_sealer)]


async def get_rng() -> random.Random:
    """The shuffle and the computer's choices; tests override this dependency with a seeded generator.

    A fresh generator per request, seeded with 256 bits from the operating system. Nobody can
    predict a deal: the seed is secret, new each time, and has far more values than a deck has
    orders (52! < 2**226). ``SystemRandom`` made a system call for every number the computer's
    play draws, which the load benchmark showed cost more than sealing the save.
    """
    return random.Random(secrets.randbits(256))


Rng = Annotated[random.Random, Depends(get_rng)]


@dataclass(frozen=True)
class Current:
    """The game a request acts on, with the options it came with and the sealer that opened it."""

    saved: SavedGame
    posted: Posted
    sealer: Sealer  # seals the answer: a save opened under an old key comes back under the current one

    @property
    def state(self) -> GameState:
        return self.saved.state

    def moved_to(self, saved: SavedGame) -> Current:
        return replace(self, saved=saved)


class StaleTable(Exception):
    """The page was showing an older position than the saved game holds (a second tab, a late tap)."""

    def __init__(self, current: Current) -> None:
        super().__init__("stale table")
        self.current = current


def open_game(posted: Posted, sealer: Sealer) -> Current:
    """The game in the posted token; ``TableProblem`` (with a sentence for the person) when there is none."""
    if not posted.token:
        raise TableProblem("No saved game came with that request. Start a new match?")
    try:
        saved = open_save(sealer, posted.token)
    except UnreadableSave as error:
        raise TableProblem(f"{error} Your stored game is untouched until you start a new match.") from None
    return Current(saved, posted, sealer)


# The two game dependencies below read the form and the sealer themselves rather than through
# PostedForm and SealerDep: each dependency level costs FastAPI measurable time on every move.


async def opened_game(request: Request) -> Current:
    return open_game(await read_posted(request), await get_sealer(request))


OpenedGame = Annotated[Current, Depends(opened_game)]


async def current_game(request: Request) -> Current:
    """The opened game, provided the page showed its current position (else ``StaleTable``)."""
    game = await opened_game(request)
    if game.posted.at and game.posted.at != stamp(game.state):
        raise StaleTable(game)
    return game


CurrentGame = Annotated[Current, Depends(current_game)]
