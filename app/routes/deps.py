"""What every table request carries, read once: the sealed save, the page's position, the view options.

Each table route calls what it needs first thing (``current_game(request)``, ``new_rng(request)``)
rather than declaring it as a FastAPI dependency: each dependency level cost a move about 4% of its
instructions (``docs/load-experiments.md``, "Routes without dependencies"), and the routes' first lines
say the same thing as a signature would.
"""

from __future__ import annotations

import logging
import random
import secrets
from dataclasses import dataclass, replace
from urllib.parse import parse_qsl, urlsplit

from fastapi import Request
from starlette.exceptions import HTTPException

from app.ai import Level
from app.engine import Card, GameState, InvalidCards
from app.register import Register, RegisterUnavailable
from app.seal import Sealer
from app.web import SavedGame, Sort, UnreadableSave, open_save, seal_save, stamp

__all__ = [
    "CANNOT_SAVE",
    "FOREIGN",
    "MOVED_ON",
    "Current",
    "Posted",
    "StaleTable",
    "TableProblem",
    "commit",
    "current_game",
    "fresh_rng",
    "new_rng",
    "open_game",
    "opened_game",
    "read_posted",
    "sealer_of",
]


logger = logging.getLogger(__name__)

MOVED_ON = "This game had moved on, in another tab or from an older page: here it is now."
CANNOT_SAVE = "Can't save right now, nothing was played. Your game is untouched: try again in a moment."


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
    hand: str = ""  # on /game/review: the finished hand to review, its step, and "1" to wait for the coach
    step: str = ""
    coach: str = ""


def _card_or_none(text: str) -> Card | None:
    try:
        return Card.parse(text) if text else None
    except InvalidCards:
        return None  # a selection is a display choice: a garbled one is simply dropped


_URLENCODED = "application/x-www-form-urlencoded"
_MAX_FIELDS = 64  # a table posts six; far more is garbage, refused before it is parsed


_NOT_A_FORM = "That request was not a form this page sends, so nothing was played. Your game is untouched."
_ECHO = 24  # characters of a refused field quoted back: enough to recognise, never the whole of it


async def _fields(request: Request) -> dict[str, str]:
    """The posted form's text fields: URL-encoded, as htmx sends them (415 for any other body),
    parsed with the standard library, several times faster than a general form parser."""
    if request.headers.get("content-type", "").partition(";")[0].strip().lower() != _URLENCODED:
        raise HTTPException(415, _NOT_A_FORM)
    text = (await request.body()).decode("utf-8", "replace")
    try:
        return dict(parse_qsl(text, keep_blank_values=True, max_num_fields=_MAX_FIELDS))
    except ValueError:
        raise HTTPException(400, "That request had too many fields.") from None


def _prefix(text: str) -> str:
    # Refusals quote what was posted; a 60 KB field must not come back whole (twice).
    return text if len(text) <= _ECHO else text[:_ECHO] + "…"


FOREIGN = "That request did not come from this game's own page, so nothing was played. Your game is untouched."


def refuse_foreign(request: Request) -> None:
    """Only the page's own htmx may change a game: 403 for anything else (a form on another site).

    htmx sends ``HX-Request``, which a form or a cross-origin script cannot (a custom header
    needs CORS, which this app never grants). Browsers also say where a request came from:
    ``Sec-Fetch-Site: cross-site`` for another site, and ``Origin`` naming another origin
    (another port of the same host included). ``Origin`` is compared with ``Host`` by host and
    port only: behind a proxy that terminates TLS the scheme differs, and the proxy must pass
    the public ``Host`` on (``docs/operations.md``).
    """
    headers = request.headers
    origin = headers.get("origin")
    if (
        headers.get("hx-request") != "true"
        or headers.get("sec-fetch-site") == "cross-site"
        or (origin is not None and urlsplit(origin).netloc.lower() != headers.get("host", "").lower())
    ):
        raise HTTPException(403, FOREIGN)


async def read_posted(request: Request) -> Posted:
    # Every game route reads its form here, so this is also where foreign requests stop.
    refuse_foreign(request)
    # One read of the form, by hand: declaring each field with Form() made FastAPI validate them
    # one by one, a third of a move request's time in the load benchmark.
    form = await _fields(request)
    return Posted(
        token=form.get("token", "").strip(),
        at=form.get("at", ""),
        selected=_card_or_none(form.get("selected", "")),
        sort=Sort.read(form.get("sort", "")),
        action=_prefix(form.get("action", "")),
        level=_prefix(form.get("level") or Level.NORMAL.value),
        hand=_prefix(form.get("hand", "")),
        step=_prefix(form.get("step", "")),
        coach=_prefix(form.get("coach", "")),
    )


def sealer_of(request: Request) -> Sealer:
    sealer: Sealer = request.app.state.sealer
    return sealer


def fresh_rng() -> random.Random:
    """A fresh generator for one request: the shuffle and the computer's choices.

    Seeded with 256 bits from the operating system. Nobody can predict a deal: the seed is
    secret, new each time, and has far more values than a deck has orders (52! < 2**226).
    ``SystemRandom`` made a system call for every number the computer's play draws, which the
    load benchmark showed cost more than sealing the save.
    """
    return random.Random(secrets.randbits(256))


def new_rng(request: Request) -> random.Random:
    """The generator for this request: ``app.state.new_rng()``, which is ``fresh_rng`` unless a
    test or benchmark put a seeded one in its place."""
    rng: random.Random = request.app.state.new_rng()
    return rng


@dataclass(frozen=True)
class Current:
    """The game a request acts on, with the options it came with and the sealer that opened it."""

    saved: SavedGame
    posted: Posted
    sealer: Sealer  # seals the answer: a save opened under an old key comes back under the current one
    token: str = ""
    """The sealed save handed out for this game, once ``commit`` has made it the match's latest."""

    @property
    def state(self) -> GameState:
        return self.saved.state

    # Made directly rather than with dataclasses.replace, which works out the fields anew on every
    # call: every move makes two (docs/load-experiments.md, "Leaner still").
    def moved_to(self, saved: SavedGame) -> Current:
        return Current(saved, self.posted, self.sealer)

    def handed_out(self, token: str) -> Current:
        """This game with ``token``, the sealed save the register now holds as the match's latest."""
        return Current(self.saved, self.posted, self.sealer, token)


class StaleTable(Exception):
    """The request showed an older position than the current one: ``current`` is shown instead, nothing played.

    Either the page's position was older than the save it posted (``message`` is None: a second
    tab of this browser, a late tap), or the save itself was older than the match's latest
    (``MOVED_ON``: another device, an old copy, a double tap's loser, an answer that never arrived).
    """

    def __init__(self, current: Current, message: str | None = None) -> None:
        super().__init__("stale table")
        self.current = current
        self.message = message


def open_game(posted: Posted, sealer: Sealer) -> Current:
    """The game in the posted token; ``TableProblem`` (with a sentence for the person) when there is none."""
    if not posted.token:
        raise TableProblem("No saved game came with that request. Start a new match?")
    try:
        saved = open_save(sealer, posted.token)
    except UnreadableSave as error:
        raise TableProblem(f"{error} Your stored game is untouched until you start a new match.") from None
    return Current(saved, posted, sealer)


async def commit(request: Request, game: Current) -> Current:
    """``game`` with the token to hand out, made the match's latest in the register.

    Every answer that carries a save comes through here. If the register holds a later save
    of this match than the one posted, nothing is stored and ``StaleTable`` shows that one
    (``MOVED_ON``): so an old save is never played, and of two requests racing with one save
    exactly one is played, the other shown its result. If the register cannot be reached,
    ``TableProblem`` (``CANNOT_SAVE``): the answer carries no save, so the browser keeps its own.
    """
    register: Register = request.app.state.register
    # Sealed afresh even when nothing changed: a save opened under an old key comes back under
    # the current one, and the page can tell each answer from the last by its token.
    token = seal_save(game.sealer, game.saved)
    try:
        latest = await register.swap(game.saved.match_id, game.posted.token, token)
    except RegisterUnavailable as error:
        logger.error("The move register is unavailable: %s", error)
        raise TableProblem(CANNOT_SAVE, status_code=503, can_resume=True) from None
    if latest is None:
        return game.handed_out(token)
    shown = open_game(replace(game.posted, token=latest, selected=None), game.sealer)
    raise StaleTable(replace(shown, token=latest), MOVED_ON)


async def opened_game(request: Request) -> Current:
    """The game in the posted form; ``TableProblem`` when there is none."""
    return open_game(await read_posted(request), sealer_of(request))


async def current_game(request: Request) -> Current:
    """The opened game, provided the page showed its current position (else ``StaleTable``)."""
    game = await opened_game(request)
    if game.posted.at and game.posted.at != stamp(game.state):
        # Shown as it stands: the card the old page had raised belongs to another position.
        raise StaleTable(await commit(request, replace(game, posted=replace(game.posted, selected=None))))
    return game
