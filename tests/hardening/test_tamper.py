"""Tampered saves: every character changed, every truncation, a removed key, another format version.

Each gets a 4xx with a sentence for the person and no token (so the page keeps the stored
save until the person chooses New match), never a 5xx; and the untouched save still plays
afterwards, exactly where it was. The only changes that may pass are those that leave the
sealed bytes identical (base64's unused padding bits).
"""

from __future__ import annotations

import json
import random
import re
import string
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import GameState, Phase
from app.main import create_app
from app.routes.deps import MOVED_ON
from app.seal import Sealer, SealError
from app.settings import Settings
from app.web import HUMAN, SavedGame, open_save, seal_save, stamp
from tests.routes.page import read

HX = {"HX-Request": "true"}
OLD_KEY = Fernet.generate_key().decode()
NEW_KEY = Fernet.generate_key().decode()
TOKEN_ALPHABET = string.ascii_letters + string.digits + "-_=."
_TOKEN = re.compile(r'data-token="([^"]*)"')


def serve(keys: list[str], data_dir: Path) -> FastAPI:
    app = create_app(Settings(keys=tuple(keys), data_dir=data_dir))
    rng = random.Random(5)
    app.state.new_rng = lambda: rng
    return app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(serve([NEW_KEY], tmp_path)) as client:
        yield client


@pytest.fixture
def sealer() -> Sealer:
    return Sealer([NEW_KEY])


def carried_token(response: Any) -> str:
    found = _TOKEN.search(response.text)
    return found.group(1) if found else ""


def a_game_at_the_draw(client: TestClient, sealer: Sealer) -> tuple[str, GameState]:
    """A fresh match played on until the person must draw (a move with one obvious legal answer)."""
    response = client.post("/game/new", data={"level": "easy"}, headers=HX)
    token = carried_token(response)
    state = open_save(sealer, token).state
    while state.phase is Phase.UPCARD:
        response = client.post("/game/act", data={"token": token, "action": "pass"}, headers=HX)
        token = carried_token(response)
        state = open_save(sealer, token).state
    assert state.phase is Phase.DRAW and state.turn == HUMAN
    return token, state


def move(client: TestClient, token: str, at: str) -> Any:
    return client.post("/game/act", data={"token": token, "at": at, "action": "draw_stock"}, headers=HX)


def assert_refused(response: Any, words: str) -> None:
    assert response.status_code == 400, (response.status_code, response.text[:1000])
    message = read(response).message
    assert words in message and "untouched" in message, message
    assert carried_token(response) == "", "a refusal must not hand the page a token to store"


def assert_moved_on(response: Any, latest: str) -> None:
    assert response.status_code == 409, (response.status_code, response.text[:1000])
    assert read(response).message == MOVED_ON
    assert carried_token(response) == latest


def assert_still_plays(client: TestClient, sealer: Sealer, token: str, state: GameState) -> str:
    """The save in ``token`` draws, from exactly where it was; the token the answer carries."""
    response = move(client, token, stamp(state))
    assert response.status_code == 200, response.text[:1000]
    carried = carried_token(response)
    after = open_save(sealer, carried).state
    assert after.log[: len(state.log)] == state.log and after.log[len(state.log)].kind == "draw_stock"
    return carried


def same_sealed_bytes(sealer: Sealer, changed: str, token: str) -> bool:
    try:
        return sealer.unseal(changed) == sealer.unseal(token)
    except SealError:
        return False


def test_every_character_changed_is_refused_unless_the_sealed_bytes_are_identical(
    client: TestClient, sealer: Sealer
) -> None:
    token, state = a_game_at_the_draw(client, sealer)
    at = stamp(state)
    passed = []
    for position, original in enumerate(token):
        # A neighbour in the token's own alphabet (looks plausible), and a one-bit flip of the byte.
        neighbour = TOKEN_ALPHABET[(TOKEN_ALPHABET.index(original) + 1) % len(TOKEN_ALPHABET)]
        for replacement in (neighbour, chr(ord(original) ^ 1)):
            changed = token[:position] + replacement + token[position + 1 :]
            response = move(client, changed, at)
            assert response.status_code < 500
            if response.status_code != 400:
                # It opened: the same sealed bytes under another spelling. Not the save the register
                # holds, so not played either: the latest position comes back, as it is.
                assert same_sealed_bytes(sealer, changed, token), (position, replacement)
                assert_moved_on(response, token)
                passed.append(position)
            else:
                assert_refused(response, "could not be opened")
    # What may pass: the last base64 character before the padding, whose low bits carry no data
    # (the key id is sealed with the save: changing it is tampering).
    assert set(passed) <= {len(token.rstrip("=")) - 1}, sorted(set(passed))
    assert_still_plays(client, sealer, token, state)


def test_every_truncation_and_extension_is_refused(client: TestClient, sealer: Sealer) -> None:
    token, state = a_game_at_the_draw(client, sealer)
    at = stamp(state)
    for length in range(len(token)):
        response = move(client, token[:length], at)
        if length == 0:
            assert response.status_code == 400 and "No saved game" in read(response).message
            assert carried_token(response) == ""
        else:
            assert_refused(response, "could not be opened")
    for suffix in ("=", "==", "A", "AAAA", ".", ".v1", " x", "\x00"):
        response = move(client, token + suffix, at)
        if response.status_code != 400:  # extra base64 padding decodes to the very same bytes
            assert suffix.startswith("=") and same_sealed_bytes(sealer, token + suffix, token), suffix
            assert_moved_on(response, token)
        else:
            assert_refused(response, "could not be opened")
    assert_still_plays(client, sealer, token, state)


def test_a_save_sealed_under_a_removed_key_is_refused_and_says_why(tmp_path: Path) -> None:
    old = Sealer([OLD_KEY])
    with TestClient(serve([OLD_KEY], tmp_path)) as before_rotation:
        token, state = a_game_at_the_draw(before_rotation, old)
    with TestClient(serve([NEW_KEY], tmp_path)) as after_removal:
        for path in ("/game/resume", "/game/act", "/game/show", "/game/choose"):
            response = after_removal.post(
                path, data={"token": token, "action": "draw_stock", "at": stamp(state)}, headers=HX
            )
            assert_refused(response, "whose key this one does not have")
    # Put the old key back (second, as in a rotation) and the same save plays on.
    with TestClient(serve([NEW_KEY, OLD_KEY], tmp_path)) as rotated:
        assert_still_plays(rotated, Sealer([NEW_KEY, OLD_KEY]), token, state)


@pytest.mark.parametrize("version", ["v0", "v3", "v10", "v999999999"])
def test_a_token_of_another_format_version_is_refused_and_says_why(
    client: TestClient, sealer: Sealer, version: str
) -> None:
    token, state = a_game_at_the_draw(client, sealer)
    other = version + token.removeprefix("v2")
    assert_refused(move(client, other, stamp(state)), "different version of the game")
    assert_still_plays(client, sealer, token, state)


def test_a_save_sealed_by_an_earlier_version_plays_on_and_comes_back_sealed_as_today(
    client: TestClient, sealer: Sealer, tmp_path: Path
) -> None:
    # Before stop 40 saves were v1 tokens (a stored zlib stream in a Fernet token): a browser may still hold one.
    token, state = a_game_at_the_draw(client, sealer)
    v1 = f"v1.{token.split('.')[1]}.{Fernet(NEW_KEY).encrypt(zlib.compress(sealer.unseal(token), 0)).decode()}"
    with TestClient(serve([NEW_KEY], tmp_path / "upgraded")) as upgraded:
        assert assert_still_plays(upgraded, sealer, v1, state).startswith("v2.")


def test_a_save_payload_of_another_format_version_is_refused_and_says_why(client: TestClient, sealer: Sealer) -> None:
    token, state = a_game_at_the_draw(client, sealer)
    payload = SavedGame.model_validate({"format": 1, "level": "easy", "state": state}).model_dump(mode="json")
    for changed in ({**payload, "format": 2}, {**payload, "format": "1"}, {**payload, "level": "grandmaster"}):
        forged = sealer.seal(json.dumps(changed).encode())
        assert_refused(move(client, forged, stamp(state)), "different version of the game")
    assert_still_plays(client, sealer, token, state)


def test_a_genuine_save_is_sealed_again_with_a_fresh_token_that_plays_on(client: TestClient, sealer: Sealer) -> None:
    # The control for the tests above: an unchanged token is accepted, so their refusals mean something.
    token, _ = a_game_at_the_draw(client, sealer)
    response = client.post("/game/resume", data={"token": token}, headers=HX)
    assert response.status_code == 200
    again = carried_token(response)
    assert again and again != token  # a new nonce every time
    assert open_save(sealer, again) == open_save(sealer, token)
    assert seal_save(sealer, open_save(sealer, token)) != token
    # The fresh one is the latest now; it plays on.
    assert_still_plays(client, sealer, again, open_save(sealer, again).state)
