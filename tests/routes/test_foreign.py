"""Only the page's own htmx may change a game (issue 12, reproduction 2, at the HTTP level).

Before, a plain form post from any origin to ``/game/new`` answered with a fresh match, and one
to ``/game/resume`` with the attacker's token showed the attacker's match, both as whole pages
whose token the page's script stored. The browser test (``tests/browser/test_cross_site.py``)
shows the save surviving a real hostile page; here each route and each signal is checked.
"""

from __future__ import annotations

import html

import pytest
from fastapi.testclient import TestClient

from app.routes.deps import FOREIGN
from tests.routes.conftest import Player
from tests.routes.page import read

ROUTES = ["/game/new", "/game/resume", "/game/choose", "/game/show", "/game/hint", "/game/act"]
HX = {"HX-Request": "true"}
OWN = "testserver"  # the Host TestClient sends


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "headers",
    [
        {},  # a plain form: no HX-Request
        {**HX, "Sec-Fetch-Site": "cross-site"},
        {**HX, "Origin": "http://testserver:8081"},  # same host, another port: another origin
        {**HX, "Origin": "https://evil.example"},
        {**HX, "Origin": "null"},  # a sandboxed frame, a file:// page
    ],
    ids=["no HX-Request", "cross-site", "another port", "another host", "null origin"],
)
def test_a_request_from_anywhere_but_the_page_changes_nothing(
    client: TestClient, player: Player, route: str, headers: dict[str, str]
) -> None:
    player.new_match()
    answer = client.post(
        route, data={"token": player.token, "level": "easy", "action": "draw_stock", "sort": "rank"}, headers=headers
    )
    assert answer.status_code == 403
    assert FOREIGN in html.unescape(answer.text)
    assert 'data-token="' not in answer.text, "no save in the answer, so nothing to store"


@pytest.mark.parametrize("route", ROUTES)
@pytest.mark.parametrize(
    "headers",
    [{**HX, "Origin": f"http://{OWN}", "Sec-Fetch-Site": "same-origin"}, {**HX, "Origin": f"https://{OWN}"}, HX],
    ids=["same origin", "behind a TLS proxy", "no Origin (an older browser)"],
)
def test_the_pages_own_requests_are_served(player: Player, route: str, headers: dict[str, str]) -> None:
    player.new_match()
    data = {"token": player.token, "level": "easy", "action": "draw_stock", "sort": "rank"}
    page = read(player.client.post(route, data=data, headers=headers))
    assert page.status in (200, 409), (page.status, page.message)  # 409: a draw that is not legal now
    assert page.message != FOREIGN
