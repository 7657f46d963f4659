"""app.security: every response carries the strict headers; caching follows what the response holds."""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from fastapi import FastAPI, Response
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.testclient import TestClient
from starlette.middleware.gzip import GZipMiddleware

from app.middleware import SecurityHeaders
from app.security import (
    CONTENT_SECURITY_POLICY,
    IMMUTABLE,
    STATIC_DIR,
    static_digests,
    static_url,
)

BIG_HTML = "<!doctype html><title>t</title>" + "<p>Gin Rummy table</p>" * 200
STYLE = b"body { color: green }\n" * 50


@pytest.fixture
def static_root(tmp_path: Path) -> Path:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "table.css").write_bytes(STYLE)
    (tmp_path / "app.js").write_bytes(b"console.log('hi');\n")
    return tmp_path


@pytest.fixture
def client(static_root: Path) -> Iterator[TestClient]:
    app = FastAPI()

    @app.get("/page", response_class=HTMLResponse)
    def page() -> str:
        return BIG_HTML

    @app.get("/own-cache")
    def own_cache() -> Response:
        return PlainTextResponse("x", headers={"Cache-Control": "max-age=60"})

    @app.get("/own-csp")
    def own_csp() -> Response:
        return PlainTextResponse("x", headers={"Content-Security-Policy": "default-src *"})

    app.mount("/static", StaticFiles(directory=static_root), name="static")
    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(SecurityHeaders, static_root=static_root)
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:10]


@pytest.mark.parametrize("path", ["/page", "/own-cache", "/missing", "/static/css/table.css"])
def test_every_response_carries_the_strict_headers(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    assert response.headers["x-content-type-options"] == "nosniff"
    assert response.headers["referrer-policy"] == "no-referrer"
    assert response.headers["x-frame-options"] == "DENY"


def test_the_policy_allows_this_origin_only_and_nothing_inline() -> None:
    directives = dict(part.strip().split(" ", 1) for part in CONTENT_SECURITY_POLICY.split(";"))
    assert directives == {
        "default-src": "'self'",
        "script-src": "'self'",
        "style-src": "'self'",
        "img-src": "'self' data:",
        "frame-ancestors": "'none'",
        "base-uri": "'none'",
        "form-action": "'self'",
    }
    assert "unsafe" not in CONTENT_SECURITY_POLICY  # no 'unsafe-inline', no 'unsafe-eval'


def test_a_route_that_sets_its_own_policy_is_replaced_never_doubled(client: TestClient) -> None:
    # Two CSP headers would both be enforced; a looser one must not survive either.
    response = client.get("/own-csp")
    assert response.headers.get_list("content-security-policy") == [CONTENT_SECURITY_POLICY]


def test_dynamic_responses_are_never_stored(client: TestClient) -> None:
    assert client.get("/page").headers["cache-control"] == "no-store"
    assert client.get("/missing").headers["cache-control"] == "no-store"
    assert client.post("/page").headers["cache-control"] == "no-store"  # a 405


def test_a_route_keeps_its_own_cache_control(client: TestClient) -> None:
    assert client.get("/own-cache").headers.get_list("cache-control") == ["max-age=60"]


def test_a_static_file_under_its_current_version_is_cached_for_a_year(client: TestClient) -> None:
    response = client.get(f"/static/css/table.css?v={digest(STYLE)}")
    assert response.status_code == 200
    assert response.headers["cache-control"] == IMMUTABLE == "public, max-age=31536000, immutable"


@pytest.mark.parametrize(
    "query",
    ["", "?v=0000000000", f"?v={digest(STYLE)}&v=0000000000", f"?v={digest(STYLE)[:-1]}", f"?x={digest(STYLE)}"],
    ids=["unversioned", "old-version", "two-versions", "short-version", "other-parameter"],
)
def test_a_static_file_under_any_other_url_is_revalidated(client: TestClient, query: str) -> None:
    # The file served is today's: keeping it a year under an old version's URL would pin the wrong content.
    response = client.get(f"/static/css/table.css{query}")
    assert response.status_code == 200
    assert response.headers["cache-control"] == "no-cache"
    assert response.headers["etag"]


def test_a_version_of_one_file_does_not_make_another_immutable(client: TestClient, static_root: Path) -> None:
    js = digest((static_root / "app.js").read_bytes())
    assert client.get(f"/static/css/table.css?v={js}").headers["cache-control"] == "no-cache"
    assert client.get(f"/static/app.js?v={js}").headers["cache-control"] == IMMUTABLE


def test_a_missing_static_file_is_not_cached(client: TestClient) -> None:
    response = client.get("/static/nothing.css?v=0000000000")
    assert response.status_code == 404
    assert response.headers["cache-control"] == "no-cache"


def test_html_js_and_css_are_compressed_for_clients_that_accept_gzip(client: TestClient) -> None:
    for path in ("/page", f"/static/css/table.css?v={digest(STYLE)}"):
        response = client.get(path, headers={"Accept-Encoding": "gzip"})
        assert response.headers["content-encoding"] == "gzip", path
        assert response.headers["content-security-policy"] == CONTENT_SECURITY_POLICY
    plain = client.get("/page", headers={"Accept-Encoding": "identity"})
    assert "content-encoding" not in plain.headers
    assert plain.text == BIG_HTML


def test_static_url_names_the_current_digest_of_the_packaged_file() -> None:
    for path in ("favicon.svg", "css/table.css", "js/table.js"):
        data = (STATIC_DIR / path).read_bytes()
        assert static_url(path) == f"/static/{path}?v={digest(data)}"
    assert set(static_digests()) >= {"favicon.svg", "css/table.css", "js/table.js"}


def test_static_url_refuses_a_file_that_does_not_exist() -> None:
    with pytest.raises(LookupError, match=r"nothing\.css"):
        static_url("nothing.css")
    with pytest.raises(LookupError):
        static_url("../security.py")


def test_lifespan_scopes_pass_through_untouched() -> None:
    seen: list[str] = []

    async def inner(scope, receive, send) -> None:
        seen.append(scope["type"])

    middleware = SecurityHeaders(inner)

    async def never() -> dict[str, str]:
        raise AssertionError

    async def no_send(message) -> None:
        raise AssertionError

    # In a thread of its own: after a browser test, Playwright's sync API keeps an event loop
    # running in the main thread, where asyncio.run refuses to start.
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, middleware({"type": "lifespan"}, never, no_send)).result()
    assert seen == ["lifespan"]


def test_the_game_sends_these_headers_and_links_its_static_files_for_good(tmp_path: Path) -> None:
    from cryptography.fernet import Fernet

    from app.main import create_app
    from app.settings import Settings

    settings = Settings(keys=(Fernet.generate_key().decode(),), data_dir=tmp_path)
    with TestClient(create_app(settings)) as client:
        pages = [client.get("/"), client.get("/rules")]
        new = client.post("/game/new", data={"level": "easy"}, headers={"HX-Request": "true"})
        for response in [*pages, new]:
            assert response.status_code == 200
            assert response.headers.get_list("content-security-policy") == [CONTENT_SECURITY_POLICY]
            assert response.headers["cache-control"] == "no-store"
        linked = {url for page in pages for url in re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)}
        assert len(linked) >= 3  # the stylesheet, htmx and the page's script at least
        for url in linked:
            response = client.get(url, headers={"Accept-Encoding": "gzip"})
            assert response.status_code == 200, url
            assert response.headers["cache-control"] == IMMUTABLE, url
            if url.split("?")[0].endswith((".js", ".css")):
                assert response.headers["content-encoding"] == "gzip", url
