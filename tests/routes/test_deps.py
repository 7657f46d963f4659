"""How a table request is read: the posted form, by any encoding a browser uses, and a fresh generator."""

from __future__ import annotations

import urllib.parse

from fastapi.testclient import TestClient

from app.main import create_app
from app.seal import Sealer
from app.settings import Settings
from app.web import open_save
from tests.routes.conftest import HX, Player
from tests.routes.page import fields, read


def test_a_move_posted_as_multipart_is_refused_and_nothing_played(player: Player) -> None:
    # The page only ever sends URL-encoded forms; nothing else is parsed (python-multipart is gone).
    page = player.new_match()
    button = (page.starting("Stock") or page.starting("Pass"))[0]
    values = {"token": player.token, "sort": "rank", **fields(page, button)}
    response = player.client.post(button.post, files={k: (None, v) for k, v in values.items()}, headers=HX)
    assert response.status_code == 415
    assert "nothing was played" in read(response).message
    assert read(response).token == ""


def test_a_form_with_far_too_many_fields_is_refused_with_a_message(client: TestClient) -> None:
    body = urllib.parse.urlencode([(f"f{i}", "x") for i in range(500)])
    response = client.post(
        "/game/act", content=body, headers={**HX, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 400
    page = read(response)
    assert "too many fields" in page.message
    assert page.has("Back to my game")


def test_bytes_that_are_not_utf8_in_a_form_are_not_a_500(client: TestClient) -> None:
    response = client.post(
        "/game/act",
        content=b"token=\xff\xfe&action=\x80",
        headers={**HX, "Content-Type": "application/x-www-form-urlencoded"},
    )
    assert response.status_code == 400
    assert "could not be opened" in read(response).message


def test_the_last_of_repeated_fields_wins_as_in_the_general_parser(player: Player) -> None:
    page = player.new_match()
    body = urllib.parse.urlencode([("token", "garbage"), ("token", player.token), ("at", page.root_vals["at"])])
    response = player.client.post(
        "/game/show", content=body, headers={**HX, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 200


def test_each_request_gets_its_own_unpredictable_generator(settings: Settings) -> None:
    # The app as served, without the tests' seeded generator: every deal is a fresh shuffle.
    with TestClient(create_app(settings)) as client:
        decks = []
        for _ in range(3):
            page = read(client.post("/game/new", data={"level": "easy"}, headers=HX))
            decks.append(open_save(Sealer.from_settings(settings), page.token).state.deal.deck)
    assert len(set(decks)) == 3
