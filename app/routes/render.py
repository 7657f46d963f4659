"""Render the one table template: the whole page, or just its blocks for an htmx swap."""

from __future__ import annotations

from fastapi import Request, Response
from fastapi.responses import HTMLResponse

from app.ai import Level
from app.engine import view
from app.routes.deps import Current
from app.web import HUMAN, ChooserView, TableView, stamp, table_view
from app.web.review import ReviewView
from app.web.templating import render_blocks, templates

__all__ = ["is_htmx", "render_chooser", "render_loading", "render_review", "render_table"]

TABLE_TEMPLATE = "table.html"
# The table and the live region: htmx swaps the first in place and the second out of band.
_SWAPPED_BLOCKS = ("table", "announce")


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _render(request: Request, shown: TableView | ChooserView | ReviewView, status_code: int) -> Response:
    response: Response
    if is_htmx(request):
        swapped = render_blocks(TABLE_TEMPLATE, _SWAPPED_BLOCKS, {"t": shown, "oob": True})
        response = HTMLResponse(swapped, status_code=status_code)
    else:
        response = templates.TemplateResponse(
            request, TABLE_TEMPLATE, {"t": shown, "oob": False}, status_code=status_code
        )
    response.headers["Vary"] = "HX-Request"
    # The page carries the sealed save: no cache (shared or private) should keep a copy.
    response.headers["Cache-Control"] = "no-store"
    return response


def _handed_out(game: Current) -> str:
    # A token the register does not hold would be refused as out of date on the next move.
    if not game.token:
        raise RuntimeError("a table was rendered with a game that was not committed to the register")
    return game.token


def render_loading(request: Request) -> Response:
    """The first page: an empty table that asks for the saved game as soon as the script can read it."""
    return _render(request, ChooserView(screen="loading"), 200)


def render_chooser(
    request: Request,
    *,
    message: str | None = None,
    status_code: int = 200,
    can_resume: bool = False,
    level: Level = Level.NORMAL,
) -> Response:
    """The new-match screen: pick a level; with a message when something went wrong."""
    return _render(request, ChooserView(level, message, can_resume), status_code)


def render_table(
    request: Request,
    game: Current,
    *,
    message: str | None = None,
    status_code: int = 200,
    announce_from: int | None = None,
    with_hint: bool = False,
) -> Response:
    """The table for ``game``, carrying its registered token (``app.routes.deps.commit``).

    ``with_hint`` adds Expert's suggestion (the person asked for a hint).
    """
    shown = table_view(
        view(game.state, HUMAN),
        game.saved.level,
        match_id=game.saved.match_id,
        token=_handed_out(game),
        at=stamp(game.state),
        selected=game.posted.selected,
        sort=game.posted.sort,
        announce_from=announce_from,
        with_hint=with_hint,
        message=message,
        reviewable=game.saved.reviewable,
    )
    response = _render(request, shown, status_code)
    if announce_from == 0 or (announce_from is not None and not shown.in_play):
        # A new hand or a hand's result: show it from the top (a phone is scrolled down to the hand).
        response.headers["HX-Reswap"] = "outerHTML show:window:top"
    return response


def render_review(request: Request, shown: ReviewView, *, opening: bool = False) -> Response:
    """A finished hand's review, at one step. It carries no save: the browser keeps the one it has."""
    response = _render(request, shown, 200)
    if opening:  # shown from the top, as a new screen (a phone may be scrolled down to the score sheet)
        response.headers["HX-Reswap"] = "outerHTML show:window:top"
    return response
