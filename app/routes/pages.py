"""Plain pages: the table's first load, the rules, and the health check."""

from __future__ import annotations

import gzip
from functools import cache

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse, RedirectResponse
from starlette.exceptions import HTTPException

from app.register import Register, RegisterUnavailable
from app.routes.render import render_loading
from app.web.templating import templates

router = APIRouter(tags=["pages"])


@router.api_route("/", methods=["GET", "HEAD"])
async def table_page(request: Request) -> Response:
    """The table. The saved game is in the browser, so the page fetches it right after loading."""
    return render_loading(request)


@cache
def _fixed_page(template: str) -> tuple[bytes, bytes]:
    # These pages are the same for everyone until the server is upgraded: rendered and compressed
    # (at gzip's best level) once per process. Compressing the 18 KB rules page at level 9 on
    # every request set /rules' p99 under load (issue 12: 191-265 ms, against 14-19 ms without gzip).
    body = templates.get_template(template).render().encode()
    return body, gzip.compress(body, compresslevel=9, mtime=0)


def _fixed(request: Request, template: str) -> Response:
    body, packed = _fixed_page(template)
    if "gzip" in request.headers.get("accept-encoding", ""):
        # Already encoded: the compression middleware passes it through as it is, Vary and all.
        headers = {"Vary": "Accept-Encoding", "Content-Encoding": "gzip"}
        return Response(packed, media_type="text/html; charset=utf-8", headers=headers)
    # Plain: the compression middleware adds the Vary itself (a second one here came out twice).
    return Response(body, media_type="text/html; charset=utf-8")


@router.api_route("/rules", methods=["GET", "HEAD"])
async def rules_page(request: Request) -> Response:
    return _fixed(request, "rules.html")


@router.api_route("/stats", methods=["GET", "HEAD"])
async def stats_page(request: Request) -> Response:
    """Statistics kept in this browser: the page is a frame that its script fills from localStorage."""
    return _fixed(request, "stats.html")


_PAGES = frozenset({"rules", "stats"})


@router.api_route("/{page}/", methods=["GET", "HEAD"], include_in_schema=False)
async def without_the_slash(page: str) -> Response:
    """``/rules/`` leads to ``/rules``. The location is a path: the ``Host`` a request names is never echoed."""
    if page not in _PAGES:
        raise HTTPException(404)
    return RedirectResponse(f"/{page}", status_code=308)


HEALTH_PROBE = b"healthz"


@router.api_route("/healthz", methods=["GET", "HEAD"])
async def healthz(request: Request) -> Response:
    """For the container's HEALTHCHECK: 200 only if this server can seal and open a save, and reach
    its move register, right now."""
    try:
        sealer = request.app.state.sealer
        works = sealer.unseal(sealer.seal(HEALTH_PROBE)) == HEALTH_PROBE
    except Exception:  # whatever broke, the answer is the same: not healthy
        works = False
    if not works:
        return JSONResponse({"status": "unavailable", "problem": "saves cannot be sealed"}, status_code=503)
    register: Register = request.app.state.register
    try:
        await register.ping()
    except RegisterUnavailable:
        return JSONResponse({"status": "unavailable", "problem": "the move register does not answer"}, status_code=503)
    return JSONResponse({"status": "ok"})
