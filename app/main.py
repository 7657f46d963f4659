"""The ASGI app: ``create_app()`` builds it, ``app`` is what uvicorn serves (``app.main:app``)."""

from __future__ import annotations

import gc
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from app.register import open_register
from app.routes import pages, table
from app.routes.deps import StaleTable, TableProblem
from app.routes.render import is_htmx, render_chooser, render_table
from app.security import SecurityHeaders
from app.settings import Settings, get_settings
from app.startup import OneLineStartupFailure, StartupError, open_sealer, settings_problem
from app.web.templating import STATIC_DIR, templates

__all__ = ["app", "create_app"]

logger = logging.getLogger(__name__)

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

STALE_MESSAGE = (
    "This page was out of date (another tab, or a tap on an old screen), so nothing was played. "
    "Here is the game as it stands."
)


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` (declared or streamed) before any route reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        # Bodies here are small (a token and a few fields): read it whole, then hand it on.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit_kb = self.max_bytes // 1024
        request = Request(scope)
        message = f"That request was too large (over {limit_kb} KB), so it was refused. Your game is untouched."
        if is_htmx(request):
            response = render_chooser(request, message=message, status_code=413, can_resume=True)
        else:
            response = _message_page(request, "Request too large", message, 413)
        await response(scope, receive, send)


def _message_page(request: Request, title: str, message: str, status_code: int) -> Response:
    return templates.TemplateResponse(
        request, "message.html", {"title": title, "message": message}, status_code=status_code
    )


def _install_error_handlers(app: FastAPI) -> None:
    async def table_problem(request: Request, error: Exception) -> Response:
        assert isinstance(error, TableProblem)
        return render_chooser(
            request, message=error.message, status_code=error.status_code, can_resume=error.can_resume
        )

    async def stale_table(request: Request, error: Exception) -> Response:
        assert isinstance(error, StaleTable)
        return render_table(request, error.current, message=error.message or STALE_MESSAGE, status_code=409)

    async def bad_request(request: Request, error: Exception) -> Response:
        message = "That request was not understood, so nothing was played. Your game is untouched."
        if is_htmx(request):
            return render_chooser(request, message=message, status_code=400, can_resume=True)
        return _message_page(request, "Not understood", message, 400)

    async def http_error(request: Request, error: Exception) -> Response:
        assert isinstance(error, StarletteHTTPException)
        if error.status_code == 404:
            title, message = "Page not found", "There is no page at this address."
        elif error.status_code == 405:
            title, message = "Not here", "This address does not answer that kind of request."
        else:
            title, message = "Request refused", str(error.detail)
        if is_htmx(request):
            return render_chooser(request, message=message, status_code=error.status_code, can_resume=True)
        response = _message_page(request, title, message, error.status_code)
        for name, value in (error.headers or {}).items():
            response.headers[name] = value
        return response

    async def server_error(request: Request, error: Exception) -> Response:
        # Last resort: a bug. The person's save is in their browser and stays there.
        logger.exception("Unhandled error on %s", request.url.path, exc_info=error)
        message = "Something went wrong on our side, and nothing was played. Your game is untouched."
        if is_htmx(request):
            return render_chooser(request, message=message, status_code=500, can_resume=True)
        return _message_page(request, "Something went wrong", message, 500)

    app.add_exception_handler(TableProblem, table_problem)
    app.add_exception_handler(StaleTable, stale_table)
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, server_error)


_startup_objects_frozen = False


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    # What the server needs is opened before it serves, so that a broken key file or data
    # directory stops it with one line (app.startup) instead of failing every game request.
    try:
        app.state.sealer = open_sealer(app.state.settings)
        app.state.register = await open_register(app.state.settings)
    except StartupError as error:
        app.state.startup_failure = str(error)
        raise
    # Everything alive once the app is built (modules, the app, templates, lookup tables) lives
    # as long as the process. Freezing it takes it out of the collector's view, which makes each
    # full collection, a pause that every request in flight waits for, ten times shorter: 30-35 ms
    # became about 3 ms in the load benchmark, where it set the p99. Once per process: frozen
    # objects are never freed, so apps built later (in tests) do not add to them.
    global _startup_objects_frozen
    if not _startup_objects_frozen:
        _startup_objects_frozen = True
        gc.collect()
        gc.freeze()
    try:
        yield
    finally:
        await app.state.register.close()


def create_app(settings: Settings | None = None) -> FastAPI:
    """The game's web app, configured by ``settings`` (by default, the ``GIN_`` environment).

    Nothing is opened or written until the app starts (its lifespan): importing ``app.main``
    touches no disk.
    """
    settings = settings or get_settings()
    # No interactive API docs: they load scripts from a CDN, and this app's API is its HTML.
    # No automatic trailing-slash redirects: Starlette builds them from the Host header (pages.py redirects).
    app = FastAPI(
        title="Gin Rummy", docs_url=None, redoc_url=None, openapi_url=None, lifespan=_lifespan, redirect_slashes=False
    )
    app.state.settings = settings
    app.include_router(pages.router)
    app.include_router(table.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    _install_error_handlers(app)
    # Added innermost first: headers wrap everything, then the size check, then compression.
    # Level 4, not Starlette's 9: a game answer compresses to within 3% of level 9's size in
    # under half the time. Pages that never change come compressed already (pages.py).
    app.add_middleware(GZipMiddleware, minimum_size=500, compresslevel=4)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(OneLineStartupFailure)
    return app


def _unstartable(problem: str) -> FastAPI:
    """An app that refuses to start with ``problem`` as its one line (for settings that do not parse)."""

    @asynccontextmanager
    async def refuse(app: FastAPI) -> AsyncIterator[None]:
        app.state.startup_failure = problem
        raise StartupError(problem)
        yield  # pragma: no cover (makes this a generator)

    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None, lifespan=refuse)
    app.add_middleware(OneLineStartupFailure)
    return app


def _app_from_environment() -> FastAPI:
    # A malformed GIN_ variable must stop `uvicorn app.main:app` with one line too, not with a
    # traceback from the import: the app is built, and refuses to start.
    try:
        settings = get_settings()
    except ValidationError as error:
        return _unstartable(settings_problem(error))
    return create_app(settings)


app = _app_from_environment()
