"""The ASGI app: ``create_app()`` builds it, ``app`` is what uvicorn serves (``app.main:app``)."""

from __future__ import annotations

import gc
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.middleware.gzip import GZipMiddleware

from app.errors import install_error_handlers
from app.middleware import BodyLimit, OneLineStartupFailure, SecurityHeaders
from app.register import open_register
from app.routes import pages, table
from app.routes.deps import fresh_rng
from app.settings import Settings, get_settings
from app.startup import StartupError, open_sealer, settings_problem
from app.web.templating import STATIC_DIR

__all__ = ["YOUNG_COLLECTION_ALLOCATIONS", "app", "create_app"]


_startup_objects_frozen = False
YOUNG_COLLECTION_ALLOCATIONS = 10_000


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
        # A young collection every YOUNG_COLLECTION_ALLOCATIONS objects rather than CPython's 700.
        # At 700 one ran every request or two, while dozens of requests were waiting (on the
        # computer's timing floor, on the network): their objects were promoted, died old, and
        # made the full collections that every request in flight waits for far more frequent
        # (docs/load-experiments.md, "The event loop and the collector"). Nearly every object of a
        # request is freed by its reference count, so the larger threshold costs little memory.
        gc.set_threshold(YOUNG_COLLECTION_ALLOCATIONS, *gc.get_threshold()[1:])
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
    # No OpenTelemetry: nothing here exports it, and FastAPI otherwise asks OpenTelemetry's global
    # providers on every request whether one was set up (about 1% of a move).
    app = FastAPI(
        title="Gin Rummy",
        docs_url=None,
        redoc_url=None,
        openapi_url=None,
        lifespan=_lifespan,
        redirect_slashes=False,
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    app.state.settings = settings
    app.state.new_rng = fresh_rng  # tests and benchmarks put a seeded generator in its place
    # The table's routes first: moves are most of the traffic, and the router tries routes in order.
    # Added as the app's own routes, not with include_router: an included router is a route of its
    # own that matches each request, then matches it again among its routes, which cost a move
    # about 4% of its instructions (docs/load-experiments.md, "Routes without dependencies").
    app.router.routes.extend(table.routes)
    app.router.routes.extend(pages.router.routes)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    install_error_handlers(app)
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
