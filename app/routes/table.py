"""The table's actions: resume a saved game, start a match, choose a card, make a move.

Every handler is thin: read the posted save, ask the engine (through ``app.web.play``), render.

They are Starlette's plain routes (``routes``), not FastAPI's: a FastAPI route inspects and solves
its endpoint's parameters on every request, and these take the request alone and read their form
themselves (``app.routes.deps``). The moves are most of the server's work, and that layer was 2.5%
of a move's instructions (docs/load-experiments.md, "A leaner move").
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

from fastapi import Request, Response
from starlette.concurrency import run_in_threadpool
from starlette.routing import Route

from app.ai import Level
from app.engine import Action, EngineError
from app.routes.deps import (
    Current,
    commit,
    current_game,
    new_rng,
    open_game,
    opened_game,
    read_posted,
    sealer_of,
)
from app.routes.render import render_chooser, render_review, render_table
from app.server import RELEASE_TIME
from app.web import UnreadableSave, computer_moved, open_save, play, start_match
from app.web.review import NotReviewable, is_coached, review_view

Endpoint = Callable[[Request], Awaitable[Response]]

routes: list[Route] = []
"""The table's routes, in the order they are tried (``app.main`` puts them first)."""


def post(path: str) -> Callable[[Endpoint], Endpoint]:
    """Registers the decorated endpoint for ``POST /game{path}``."""

    def add(endpoint: Endpoint) -> Endpoint:
        routes.append(Route(f"/game{path}", endpoint, methods=["POST"]))
        return endpoint

    return add


LEVEL_VALUES = ", ".join(level.value for level in Level)


def now() -> float:
    """The event loop's clock, which the server's release times are set in."""
    return asyncio.get_running_loop().time()


async def wait_out(request: Request, level: Level, started: float) -> None:
    """Let the computer's reply take at least the level's ``reply_seconds`` since ``started``.

    Its thinking takes longer for some hands than others; holding the answer back for the rest
    keeps that from showing in the answer's time. ``gin-rummy``'s server holds the answer's bytes
    itself (``app.server.RELEASE_TIME``), so the route renders it at once; under another server
    (the tests' in-process client, a bare ``uvicorn``) the route sleeps out the rest. Called only
    when the computer did move, which the answer shows anyway: a draw, after which the person
    plays on, has nothing to hide and is not kept waiting (Expert's floor is long enough to feel).
    """
    not_before = started + level.reply_seconds
    release = request.scope.get("extensions", {}).get(RELEASE_TIME)
    if release is not None:
        release["not_before"] = not_before
        return
    rest = not_before - now()
    if rest > 0:
        await asyncio.sleep(rest)


@post("/resume")
async def resume(request: Request) -> Response:
    """Show the saved game (a reload, a new tab), or the new-match screen when there is none."""
    posted = await read_posted(request)
    if not posted.token:
        return render_chooser(request)
    return render_table(request, await commit(request, open_game(posted, sealer_of(request))))


@post("/new")
async def new_match(request: Request) -> Response:
    """Deal a new match; the starting player alternates from the posted match, if it can be read (R3)."""
    posted, sealer, rng = await read_posted(request), sealer_of(request), new_rng(request)
    try:
        chosen = Level(posted.level)
    except ValueError:
        return render_chooser(
            request, message=f"{posted.level!r} is not a level; choose one of {LEVEL_VALUES}.", status_code=400
        )
    try:
        previous = open_save(sealer, posted.token).state if posted.token else None
    except UnreadableSave:
        previous = None  # the person chose to start afresh: a coin flip decides who starts
    started = now()
    if chosen.thinks_in_a_thread:
        match = await run_in_threadpool(start_match, chosen, rng, previous)
    else:
        match = start_match(chosen, rng, previous)
    game = Current(match, replace(posted, selected=None), sealer)
    if computer_moved(None, game.state):  # it starts: it took or passed the first upcard
        await wait_out(request, chosen, started)
    return render_table(request, await commit(request, game), announce_from=0)


@post("/choose")
async def choose_new_match(request: Request) -> Response:
    """The new-match screen for a game in progress; nothing changes until a match is started."""
    game = await opened_game(request)
    return render_chooser(request, can_resume=True, level=game.saved.level)


@post("/show")
async def show(request: Request) -> Response:
    """Re-render the table with the hand sorted another way (not a move; choosing a card needs no request)."""
    return render_table(request, await commit(request, await current_game(request)))


@post("/hint")
async def hint(request: Request) -> Response:
    """The table with Expert's suggested draw and discard (from the person's view only); not a move.

    Worked out off the event loop: late in a hand Expert plays its best choices out on sampled deals (tens
    of milliseconds), which on the loop would hold up every other request of the worker.
    """
    game = await commit(request, await current_game(request))
    return await run_in_threadpool(render_table, request, game, with_hint=True)


@post("/act")
async def act(request: Request) -> Response:
    """Play the person's move, let the computer reply, and show the table."""
    game, rng = await current_game(request), new_rng(request)
    before = game.state
    started = now()
    level = game.saved.level
    try:
        action = Action.parse(game.posted.action)
        if level.thinks_in_a_thread:  # long thinking would hold up the worker's other requests
            after = await run_in_threadpool(play, game.saved, action, rng)
        else:
            after = play(game.saved, action, rng)
    except EngineError as error:
        # Illegal or garbled: the same table, unchanged, with the engine's reason.
        return render_table(request, await commit(request, game), message=str(error), status_code=409)
    if computer_moved(before, after.state):
        await wait_out(request, level, started)
    # A selection survives a draw (choose your discard early); a card no longer held is dropped when shown.
    same_hand = after.state.deal == before.deal
    moved = await commit(request, game.moved_to(after))
    return render_table(request, moved, announce_from=len(before.log) if same_hand else 0)


def _whole_number(text: str) -> int | None:
    return int(text) if text.isdigit() and len(text) <= 4 else None


@post("/review")
async def review(request: Request) -> Response:
    """A finished hand of this match, move by move, with the coach's word on the person's choices.

    Not a move: nothing changes and no save is handed out. The first answer shows the moves at
    once; when the coach has not judged the hand yet, the page asks again with ``coach=1`` and
    that answer waits for the verdicts (worked out off the event loop, and kept).
    """
    game = await opened_game(request)
    number, step = _whole_number(game.posted.hand), _whole_number(game.posted.step)
    try:
        if number is None:
            raise NotReviewable("That is not a hand of this match.")
        if game.posted.coach == "1":
            shown = await run_in_threadpool(review_view, game.saved, number, step, coached=True)
        else:
            shown = review_view(game.saved, number, step, coached=is_coached(game.saved, number))
    except NotReviewable as error:
        return render_table(request, await commit(request, game), message=str(error), status_code=409)
    return render_review(request, shown, opening=step is None)
