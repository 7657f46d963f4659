"""Render the one table template: the whole page, or just its blocks for an htmx swap."""

from __future__ import annotations

from typing import Any

from fastapi import Request, Response

from app.ai import Level
from app.engine import view
from app.routes.deps import Current
from app.web import HUMAN, seal_save, spoken, stamp, table
from app.web.aids import aids
from app.web.templating import templates

__all__ = ["is_htmx", "render_chooser", "render_loading", "render_table"]

TABLE_TEMPLATE = "table.html"
# The table and the live region: htmx swaps the first in place and the second out of band.
_SWAPPED_BLOCKS = ["table", "announce"]


def is_htmx(request: Request) -> bool:
    return request.headers.get("HX-Request") == "true"


def _render(request: Request, context: dict[str, Any], status_code: int) -> Response:
    partial = is_htmx(request)
    context["oob"] = partial
    context.setdefault("announce", ())
    response = templates.TemplateResponse(
        request,
        TABLE_TEMPLATE,
        context,
        status_code=status_code,
        block_names=_SWAPPED_BLOCKS if partial else [],
    )
    response.headers["Vary"] = "HX-Request"
    # The page carries the sealed save: no cache (shared or private) should keep a copy.
    response.headers["Cache-Control"] = "no-store"
    return response


def render_loading(request: Request) -> Response:
    """The first page: an empty table that asks for the saved game as soon as the script can read it."""
    return _render(request, {"screen": "loading"}, 200)


def render_chooser(
    request: Request,
    *,
    message: str | None = None,
    status_code: int = 200,
    can_resume: bool = False,
    level: Level = Level.NORMAL,
) -> Response:
    """The new-match screen: pick a level; with a message when something went wrong."""
    context = {
        "screen": "chooser",
        "message": message,
        "can_resume": can_resume,
        "level": level.value,
        "announce": (message,) if message else (),
    }
    return _render(request, context, status_code)


def render_table(
    request: Request,
    game: Current,
    *,
    message: str | None = None,
    status_code: int = 200,
    announce_from: int | None = None,
    with_hint: bool = False,
) -> Response:
    """The table for ``game``, carrying a freshly sealed token (so an old key's save is re-sealed too).

    ``with_hint`` adds the Hard player's suggestion (the person asked for a hint).
    """
    seen = view(game.state, HUMAN)
    shown = table(
        seen, game.saved.level, selected=game.posted.selected, sort=game.posted.sort, announce_from=announce_from
    )
    # On a result screen reached by the computer's move, that move is shown first (motion), then the result.
    last_move = shown.log[0] if shown.log and shown.log[0][0] == "The computer" else ()
    extra = aids(seen, game.saved.match_id, announce_from=announce_from, with_hint=with_hint, last_move=last_move)
    announce = [spoken(s) for s in shown.announce]
    if extra.hint is not None:
        announce.append(spoken(extra.hint.advice) + " " + spoken(extra.hint.reason))
    if message:
        announce.insert(0, message)
    context = {
        "screen": "table",
        "t": shown,
        "aids": extra,
        "token": seal_save(game.sealer, game.saved),
        "at": stamp(game.state),
        "message": message,
        "announce": announce,
    }
    response = _render(request, context, status_code)
    if announce_from == 0 or (announce_from is not None and not shown.in_play):
        # A new hand or a hand's result: show it from the top (a phone is scrolled down to the hand).
        response.headers["HX-Reswap"] = "outerHTML show:window:top"
    return response
