"""The error pages: every refusal or failure answers with a screen the person can act on.

An htmx request gets the new-match screen with the message (and a way back to the stored
game, which is left untouched); any other request gets a plain page (``message.html``).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from app.routes.deps import StaleTable, TableProblem
from app.routes.render import is_htmx, render_chooser, render_table
from app.web.templating import templates

__all__ = ["STALE_MESSAGE", "install_error_handlers", "message_page"]

logger = logging.getLogger(__name__)

STALE_MESSAGE = (
    "This page was out of date (another tab, or a tap on an old screen), so nothing was played. "
    "Here is the game as it stands."
)


def message_page(request: Request, title: str, message: str, status_code: int) -> Response:
    return templates.TemplateResponse(
        request, "message.html", {"title": title, "message": message}, status_code=status_code
    )


def install_error_handlers(app: FastAPI) -> None:
    """Every error answers with a page the person can act on, and never loses their game."""

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
        return message_page(request, "Not understood", message, 400)

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
        response = message_page(request, title, message, error.status_code)
        for name, value in (error.headers or {}).items():
            response.headers[name] = value
        return response

    async def server_error(request: Request, error: Exception) -> Response:
        # Last resort: a bug. The person's save is in their browser and stays there.
        logger.exception("Unhandled error on %s", request.url.path, exc_info=error)
        message = "Something went wrong on our side, and nothing was played. Your game is untouched."
        if is_htmx(request):
            return render_chooser(request, message=message, status_code=500, can_resume=True)
        return message_page(request, "Something went wrong", message, 500)

    app.add_exception_handler(TableProblem, table_problem)
    app.add_exception_handler(StaleTable, stale_table)
    app.add_exception_handler(RequestValidationError, bad_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(Exception, server_error)
