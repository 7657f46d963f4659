"""Restarts and key rotation with the real ``gin-rummy`` command: no saved game is orphaned.

The server keeps nothing but its key, so a game survives any restart that keeps the key
(the data directory, or ``GIN_KEYS``), and a rotated key list (new first, old second)
still opens old saves and seals them again under the new key.
"""

from __future__ import annotations

import stat
from pathlib import Path

import httpx2 as httpx
import pytest
from cryptography.fernet import Fernet

from app.engine import Phase
from app.register import SQLITE_FILE_NAME
from app.seal import KEY_FILE_NAME, Sealer, load_or_create_key_file
from app.web import open_save
from devtools.live import running_server
from tests.hardening.live_play import HX, Save, advance, new_match, token_of

pytestmark = pytest.mark.slow


def play(client: httpx.Client, sealer: Sealer, save: Save, moves: int) -> Save:
    """``moves`` requests that each move the game on, checked against the engine (the computer may end
    a hand within the first moves: then the next request deals the next hand)."""
    for _ in range(moves):
        save = advance(client, sealer, save)
    return save


def test_a_restarted_server_with_the_same_data_directory_continues_the_game(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with running_server(data) as first, httpx.Client(base_url=first.base_url, timeout=30) as client:
        started = client.post("/game/new", data={"level": "normal"}, headers=HX)
        assert started.status_code == 200
        # The server made its key on first use; the test reads it only to check the answers.
        sealer = Sealer(load_or_create_key_file(data / KEY_FILE_NAME))
        token = token_of(started)
        save = play(client, sealer, Save(token, open_save(sealer, token)), 4)
    assert sorted(p.name for p in data.iterdir()) == sorted([KEY_FILE_NAME, SQLITE_FILE_NAME]), "its key and register"
    assert stat.S_IMODE((data / KEY_FILE_NAME).stat().st_mode) == 0o600

    with running_server(data) as second, httpx.Client(base_url=second.base_url, timeout=30) as client:
        resumed = client.post("/game/resume", data={"token": save.token, "at": save.at}, headers=HX)
        assert resumed.status_code == 200
        assert sealer.unseal(token_of(resumed)) == sealer.unseal(save.token)  # the same game, nothing lost
        # The page stores the answer's save (the move register now holds it) and plays on from it.
        after = play(client, sealer, Save(token_of(resumed), save.saved), 4)
        assert after.state != save.state

    # The control: a server with another data directory (so another key) cannot open it.
    with running_server(tmp_path / "other") as stranger, httpx.Client(base_url=stranger.base_url) as client:
        refused = client.post("/game/resume", data={"token": save.token}, headers=HX)
        assert refused.status_code == 400
        assert "whose key this one does not have" in refused.text


def test_a_rotated_key_list_opens_old_saves_and_seals_them_under_the_new_key(tmp_path: Path) -> None:
    old_key, new_key = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    old, new, rotated = Sealer([old_key]), Sealer([new_key]), Sealer([new_key, old_key])

    with running_server(tmp_path, keys=old_key) as before, httpx.Client(base_url=before.base_url) as client:
        save = play(client, old, new_match(client, old), 3)
    old_id = save.key_id

    with (
        running_server(tmp_path, keys=f"{new_key},{old_key}") as during,
        httpx.Client(base_url=during.base_url) as client,
    ):
        resumed = client.post("/game/resume", data={"token": save.token, "at": save.at}, headers=HX)
        assert resumed.status_code == 200
        token = token_of(resumed)
        # Sealed again under the new key: the new key alone opens it, the old one alone does not.
        assert token.split(".")[1] != old_id
        assert new.unseal(token) == old.unseal(save.token)
        with pytest.raises(ValueError, match="key"):
            old.unseal(token)
        resealed = Save(token, save.saved)
        moved = play(client, rotated, resealed, 2)
        assert new.unseal(moved.token)

    # Once the old key is retired, a save the browser refreshed during the rotation still plays;
    # one that was never opened during it is refused with a clear message (and nothing crashes).
    with running_server(tmp_path, keys=new_key) as after, httpx.Client(base_url=after.base_url) as client:
        # Each answer is checked against the engine (live_play.advance). The first continues the
        # match (not the deal: the computer may have ended the hand, and the next request deals again).
        played = advance(client, new, moved)
        assert played.saved.match_id == moved.saved.match_id or moved.state.phase is Phase.MATCH_OVER
        assert play(client, new, played, 1).state != played.state
        stale = client.post("/game/resume", data={"token": save.token}, headers=HX)
        assert stale.status_code == 400
        assert "whose key this one does not have" in stale.text


def test_the_key_file_rotates_the_same_way(tmp_path: Path) -> None:
    old_key, new_key = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    key_file = tmp_path / KEY_FILE_NAME
    key_file.write_text(old_key + "\n")
    with running_server(tmp_path) as before, httpx.Client(base_url=before.base_url) as client:
        save = play(client, Sealer([old_key]), new_match(client, Sealer([old_key])), 2)
    key_file.write_text(f"{new_key}\n{old_key}\n")  # new first: it seals; old second: it still opens
    with running_server(tmp_path) as after, httpx.Client(base_url=after.base_url) as client:
        resumed = client.post("/game/resume", data={"token": save.token, "at": save.at}, headers=HX)
        assert resumed.status_code == 200
        assert Sealer([new_key]).unseal(token_of(resumed)) == Sealer([old_key]).unseal(save.token)
