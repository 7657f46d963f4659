"""Only the game's own pages can change the save (issue 12, reproduction 2).

A page on another origin auto-submits a form to each of the game's POST routes, as a hostile
site would, with the attacker's own sealed match in it. Before, ``/game/new`` replaced the game in
progress with a fresh Easy match (the answer was a whole page, and the page's script stored its
token on load), and ``/game/resume`` planted the attacker's match. Now each is refused, and the
save in localStorage stays byte for byte what it was.

The hostile pages are served from another loopback port: once as ``127.0.0.1`` (same site,
another origin: the ``Origin`` check refuses it) and once as ``localhost`` (another site:
``Sec-Fetch-Site: cross-site``).
"""

from __future__ import annotations

import html
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Browser

from tests.browser.table_page import Table

ROUTES = ["/game/new", "/game/resume", "/game/act", "/game/show", "/game/hint", "/game/choose"]


def hostile_server(game_url: str, attacker_token: str) -> ThreadingHTTPServer:
    class Hostile(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            route = parse_qs(urlsplit(self.path).query)["route"][0]
            fields = {"token": attacker_token, "level": "easy", "action": "draw_stock", "sort": "rank"}
            inputs = "".join(f'<input name="{k}" value="{html.escape(v)}">' for k, v in fields.items())
            body = (
                f'<!doctype html><form id="f" method="post" action="{game_url}{route}">{inputs}</form>'
                '<script>document.getElementById("f").submit()</script>'
            ).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return ThreadingHTTPServer(("127.0.0.1", 0), Hostile)


@pytest.fixture
def attacker_token(browser: Browser, live_server: str) -> str:
    """A save of the attacker's own match on the same server."""
    context = browser.new_context()
    table = Table(context.new_page(), live_server)
    table.open()
    table.new_match()
    token = table.token
    context.close()
    return token


@pytest.fixture
def hostile(live_server: str, attacker_token: str) -> Iterator[int]:
    server = hostile_server(live_server, attacker_token)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_a_form_from_another_site_changes_no_save(browser: Browser, live_server: str, hostile: int) -> None:
    context = browser.new_context()
    page = context.new_page()
    table = Table(page, live_server)
    table.open()
    table.new_match()
    table.press(table.to_my_draw())  # a move of the person's: a draw, after passing an offered upcard
    saved = table.stored()
    assert saved and saved == table.token
    refused: list[tuple[str, str, int]] = []
    for host in ("127.0.0.1", "localhost"):
        for route in ROUTES:
            target = live_server + route
            with page.expect_response(target) as answer:
                page.goto(f"http://{host}:{hostile}/?route={route}")
            page.wait_for_load_state("load")
            refused.append((host, route, answer.value.status))
            # Read at the game's own origin (the page the form navigated to), where the save lives.
            assert page.evaluate("location.origin") == live_server
            assert table.stored() == saved, (host, route)
    context.close()
    assert all(status == 403 for _, _, status in refused), refused


def test_the_table_still_opens_the_save_after_an_attack(browser: Browser, live_server: str, hostile: int) -> None:
    context = browser.new_context()
    page = context.new_page()
    table = Table(page, live_server)
    table.open()
    table.new_match()
    saved = table.stored()
    match = page.get_attribute("#table", "data-match")
    page.goto(f"http://localhost:{hostile}/?route=/game/new")
    page.wait_for_url(live_server + "/game/new")
    assert table.stored() == saved
    table.open()  # the page posts its save: the same match comes back (sealed afresh), not the attacker's
    assert page.get_attribute("#table", "data-match") == match
    context.close()
