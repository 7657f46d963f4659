"""Plain pages: the table's first load, the rules, and the health check."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response

from app.routes.render import render_loading
from app.web.templating import templates

router = APIRouter(tags=["pages"])


@router.get("/")
async def table_page(request: Request) -> Response:
    """The table. The saved game is in the browser, so the page fetches it right after loading."""
    return render_loading(request)


@router.get("/rules")
async def rules_page(request: Request) -> Response:
    return templates.TemplateResponse(request, "rules.html", {})


@router.get("/stats")
async def stats_page(request: Request) -> Response:
    """Statistics kept in this browser: the page is a frame that its script fills from localStorage."""
    return templates.TemplateResponse(request, "stats.html", {})


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """For the container's HEALTHCHECK: answers as soon as the app can serve."""
    return {"status": "ok"}
