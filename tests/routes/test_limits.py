"""Issue 12's smaller findings, each reproduced: echoes, HEAD, redirects, body types, the stale redraw."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.engine import Phase
from app.web import HUMAN, stamp
from tests.routes.conftest import Player
from tests.routes.page import read

HX = {"HX-Request": "true"}
LONG = "x" * 60_000


@pytest.mark.parametrize("field", ["action", "level"])
def test_a_refused_action_or_level_is_echoed_as_a_short_prefix_only(player: Player, field: str) -> None:
    # Before: a 60 KB action came back twice, in a 129 KB answer.
    player.new_match()
    path = "/game/act" if field == "action" else "/game/new"
    answer = player.client.post(path, data={"token": player.token, field: LONG, "sort": "rank"}, headers=HX)
    assert answer.status_code in (400, 409)
    assert "x" * 41 not in answer.text
    assert len(answer.content) < 30_000
    assert "xxxxxxxx" in read(answer).message  # the person still sees what was refused


@pytest.mark.parametrize("path", ["/", "/rules", "/stats", "/healthz"])
def test_every_page_answers_head(client: TestClient, path: str) -> None:
    get, head = client.get(path), client.head(path)
    assert head.status_code == get.status_code == 200
    assert head.content == b""
    assert head.headers["content-type"] == get.headers["content-type"]


@pytest.mark.parametrize("path", ["/rules/", "/stats/"])
def test_a_trailing_slash_redirects_without_reflecting_the_host(client: TestClient, path: str) -> None:
    answer = client.get(path, headers={"Host": "evil.example"}, follow_redirects=False)
    assert answer.status_code in (301, 307, 308)
    assert answer.headers["location"] == path.rstrip("/")
    assert "evil" not in answer.text


@pytest.mark.parametrize(
    ("content_type", "body"),
    [
        (
            "multipart/form-data; boundary=x",
            b'--x\r\nContent-Disposition: form-data; name="level"\r\n\r\neasy\r\n--x--\r\n',
        ),
        ("application/json", b'{"level": "easy"}'),
        ("text/plain", b"level=easy"),
    ],
)
@pytest.mark.parametrize("route", ["/game/new", "/game/resume", "/game/act"])
def test_game_routes_take_url_encoded_forms_only(
    client: TestClient, route: str, content_type: str, body: bytes
) -> None:
    answer = client.post(route, content=body, headers={**HX, "Content-Type": content_type})
    assert answer.status_code == 415
    assert "nothing was played" in read(answer).message
    assert 'data-token="' not in answer.text


def test_an_out_of_date_tab_is_redrawn_without_the_card_it_tapped(player: Player) -> None:
    # A second tab showed the discard; this tab, still at the draw, taps a card: the table it gets
    # back is the current one, at the draw, with no card raised.
    player.new_match()
    while player.state.phase is not Phase.DRAW:
        player.post("/game/act", action="pass", at=stamp(player.state))
    old_at = stamp(player.state)
    player.post("/game/act", action="draw_stock", at=old_at)
    assert player.state.phase.value == "discard"
    card = str(player.state.hands[HUMAN][0])
    stale = player.post("/game/show", at=old_at, selected=card)
    assert stale.status == 409
    assert 'type="radio" name="card" id="card-' in stale.html, "the hand is drawn"
    assert " checked" not in stale.html, "and no card in it is chosen"


@pytest.mark.parametrize("path", ["/rules", "/stats"])
def test_fixed_pages_come_compressed_once_and_read_the_same(client: TestClient, path: str) -> None:
    # Issue 12, the tail: gzip at level 9 on every /rules request set its p99 under load.
    import gzip

    plain = client.get(path, headers={"Accept-Encoding": "identity"})
    packed = [client.get(path, headers={"Accept-Encoding": "gzip"}) for _ in range(2)]
    assert plain.headers.get("content-encoding") is None
    for answer in packed:
        assert answer.headers["content-encoding"] == "gzip"
        assert "Accept-Encoding" in answer.headers["vary"]
        assert answer.content == plain.content  # httpx inflates it
    raw = client.get(path, headers={"Accept-Encoding": "gzip"}).read()
    assert raw == plain.content or gzip.decompress(raw) == plain.content
