"""Plain pages: the table's first load, the rules, and the health check."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

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


HEALTH_PROBE = b"healthz"


@router.get("/healthz")
async def healthz(request: Request) -> Response:
    """For the container's HEALTHCHECK: 200 only if this server can seal and open a save right now."""
    try:
        sealer = request.app.state.sealer
        works = sealer.unseal(sealer.seal(HEALTH_PROBE)) == HEALTH_PROBE
    except Exception:  # whatever broke, the answer is the same: not healthy
        works = False
    if not works:
        return JSONResponse({"status": "unavailable", "problem": "saves cannot be sealed"}, status_code=503)
    return JSONResponse({"status": "ok"})
