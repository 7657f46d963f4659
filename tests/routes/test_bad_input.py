"""Bad input gets a clear message and loses nothing: never a 500, never a changed game."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.ai import Level
from app.engine import Phase
from app.seal import Sealer
from tests.engine.states import make_state
from tests.routes.conftest import HX, Player
from tests.routes.page import read

UNTOUCHED = "Your stored game is untouched"


def flip(token: str, at: int) -> str:
    """The token with one character changed."""
    c = token[at]
    return token[:at] + ("A" if c != "A" else "B") + token[at + 1 :]


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: flip(t, len(t) // 2),
        lambda t: flip(t, len(t) - 3),
        lambda t: t[:-10],
        lambda t: t + "xyz",
        lambda t: flip(t, 30),
        lambda t: "v7." + t.split(".", 1)[1],
        lambda t: "not a token at all",
        lambda t: "🃏" * 40,
    ],
    ids=["middle", "end", "truncated", "suffix", "start", "version", "garbage", "emoji"],
)
@pytest.mark.parametrize("path", ["/game/resume", "/game/act", "/game/show", "/game/choose"])
def test_a_tampered_token_gets_a_message_and_new_match_never_a_500(player: Player, mangle, path: str) -> None:
    page = player.new_match()
    good = player.token
    at = page.root_vals["at"]
    player.token = mangle(good)
    page = player.post(path, at=at, action="draw_stock")
    assert page.status == 400
    assert "could not be opened" in page.message
    assert UNTOUCHED in page.message
    assert page.has("New match")
    assert page.token == "", "an error screen must not carry a token: the stored save stays until New match"
    assert "could not be opened" in page.announced


def test_a_token_sealed_under_a_key_this_server_lacks_says_so(player: Player) -> None:
    player.new_match()
    foreign = Sealer([Fernet.generate_key()]).seal(player.saved.model_dump_json().encode())
    player.token = foreign
    page = player.post("/game/resume")
    assert page.status == 400
    assert "whose key this one does not have" in page.message


def test_an_authentic_token_that_holds_no_game_is_refused_politely(player: Player, sealer: Sealer) -> None:
    for payload in (b"{}", b'{"format": 2, "level": "normal", "state": {}}', b"\xff\xfe", b"[1, 2, 3]"):
        player.token = sealer.seal(payload)
        page = player.post("/game/act", action="pass")
        assert page.status == 400, payload
        assert "different version" in page.message


def test_a_token_whose_state_breaks_the_rules_is_refused(player: Player, sealer: Sealer) -> None:
    player.new_match()
    text = player.saved.model_dump_json()
    first_card = str(player.state.hands[0][0])
    second_card = str(player.state.hands[0][1])
    broken = text.replace(f'"{second_card}"', f'"{first_card}"', 1)  # the same card twice
    player.token = sealer.seal(broken.encode())
    page = player.post("/game/resume")
    assert page.status == 400
    assert "could not be opened" in page.message


def test_a_request_without_a_token_asks_to_start_a_match(player: Player) -> None:
    page = player.post("/game/act", action="draw_stock")
    assert page.status == 400
    assert "No saved game" in page.message
    assert page.has("New match")


@pytest.mark.parametrize(
    ("action", "reason"),
    [
        ("discard Kh", "Draw a card first"),
        ("knock 2s", "can't knock before drawing"),
        ("take_upcard", "already been taken or passed"),
        ("next_hand", "still being played"),
        ("fly away", "is not an action"),
        ("discard Zz", "is not a card"),
        ("", "is not an action"),
    ],
)
def test_an_illegal_or_garbled_move_is_refused_and_the_table_is_unchanged(
    player: Player, action: str, reason: str
) -> None:
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state)
    at = page.root_vals["at"]
    page = player.post("/game/act", at=at, action=action)
    assert page.status == 409
    assert reason in page.message
    assert player.state == state
    assert page.root_vals["at"] == at
    assert page.starting("Stock"), "the same table is shown again, ready for a legal move"


def test_a_move_from_a_stale_page_is_not_played(player: Player) -> None:
    """A second tab, or a tap on an old screen: the page's position no longer matches the saved game."""
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state)
    old_at = page.root_vals["at"]
    page = player.press(page.starting("Stock")[0])
    moved = player.state
    assert moved.phase is Phase.DISCARD
    # The old page asks to take the discard: legal back then, stale now.
    page = player.post("/game/act", at=old_at, action="take_discard")
    assert page.status == 409
    assert "out of date" in page.message
    assert player.state == moved
    assert page.root_vals["at"] != old_at


def test_choosing_a_card_from_a_stale_page_shows_the_current_table(player: Player) -> None:
    state = make_state("2s 3s 4s 7c 7d 9h Th Kd 5c Ac", "Qs Js 9c 8c 8d 6h 5h 5d Kh Qd", "4d 7h")
    page = player.load(state)
    old_at = page.root_vals["at"]
    player.press(page.starting("Stock")[0])
    page = player.post("/game/show", at=old_at, selected="2s")
    assert page.status == 409
    assert player.state.phase is Phase.DISCARD


def test_an_unknown_level_is_refused_with_the_choices(player: Player) -> None:
    page = player.post("/game/new", level="impossible")
    assert page.status == 400
    assert all(level.value in page.message for level in Level)
    assert player.token == ""


def test_a_garbled_selection_or_sort_is_ignored(player: Player) -> None:
    page = player.new_match()
    before = player.state
    page = player.post("/game/show", at=page.root_vals["at"], selected="<script>", sort="sideways")
    assert page.status == 200
    assert page.selected == ""
    assert player.state == before
    assert "<script>" not in page.html


def test_an_oversized_body_is_refused_before_it_is_read(client: TestClient) -> None:
    big = {"token": "x" * 70_000, "action": "pass"}
    response = client.post("/game/act", data=big, headers=HX)
    assert response.status_code == 413
    page = read(response)
    assert "too large" in page.message
    assert page.has("Back to my game")


def test_an_oversized_streamed_body_is_refused_too(client: TestClient) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b"token=" + b"x" * 1000

    response = client.post(
        "/game/act", content=chunks(), headers={**HX, "Content-Type": "application/x-www-form-urlencoded"}
    )
    assert response.status_code == 413


def test_a_lying_content_length_is_refused(client: TestClient) -> None:
    response = client.post("/game/act", content=b"token=", headers={**HX, "Content-Length": "nonsense"})
    assert response.status_code in (400, 413)


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("get", "/nowhere", 404), ("get", "/game/act", 405), ("post", "/rules", 405), ("get", "/static/nope.css", 404)],
)
def test_wrong_addresses_get_a_page_not_a_500(client: TestClient, method: str, path: str, status: int) -> None:
    response = client.request(method, path)
    assert response.status_code == status
    assert "Back to the table" in response.text


def test_a_malformed_form_body_is_not_a_500(client: TestClient) -> None:
    response = client.post(
        "/game/act",
        content=b"--x\r\nbroken",
        headers={**HX, "Content-Type": "multipart/form-data; boundary=x"},
    )
    assert 400 <= response.status_code < 500
