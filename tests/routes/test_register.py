"""The move register through HTTP: every save is played once (issue 12, reproduction 1).

Before the register, an old save could be posted again and again: about 30 blind requests played
a hand out, its result revealed the deck and salt, and posting the first save again then let a
script draw the card it now knew was on the stock. Each test here runs against a real SQLite file
and a real ``redis-server``.
"""

from __future__ import annotations

import random
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import ActionKind, Phase, legal_actions
from app.main import create_app
from app.routes.deps import CANNOT_SAVE, MOVED_ON
from app.seal import Sealer
from app.settings import Settings
from app.web import HUMAN, open_save, stamp
from devtools.live import running_server
from tests.redis_server import running_redis
from tests.routes.page import Page, read

HX = {"HX-Request": "true"}
KEY = Fernet.generate_key().decode()
SEALER = Sealer([KEY])


@pytest.fixture(params=["sqlite", "redis"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    url = "" if request.param == "sqlite" else request.getfixturevalue("redis_url")
    return Settings(keys=(KEY,), data_dir=tmp_path / "data", register_url=url)


def serve(settings: Settings, seed: int = 12) -> FastAPI:
    """The app with a seeded shuffle, so that each test plays the same deals every run."""
    app = create_app(settings)
    rng = random.Random(seed)
    app.state.new_rng = lambda: rng
    return app


@pytest.fixture
def client(settings: Settings) -> Iterator[TestClient]:
    with TestClient(serve(settings)) as client:
        yield client


def post(client: TestClient | httpx.Client, path: str, token: str, **fields: str) -> Page:
    return read(client.post(path, data={"token": token, "sort": "rank", **fields}, headers=HX))


def at_the_draw(client: TestClient | httpx.Client) -> str:
    """A new match played on until the person must draw; its save.

    The computer may take the upcard and knock at once, ending the hand before the person ever
    draws (CI met such a deal on a live server, whose shuffle no test can seed): then a new match.
    """
    for _ in range(50):
        page = post(client, "/game/new", "", level="easy")
        while open_save(SEALER, page.token).state.phase is Phase.UPCARD:
            page = post(client, "/game/act", page.token, action="pass")
        if open_save(SEALER, page.token).state.phase is Phase.DRAW:
            return page.token
    raise AssertionError("50 new matches and none reached the person's draw")


def test_an_older_save_is_shown_the_latest_position_and_nothing_is_played(client: TestClient) -> None:
    first = at_the_draw(client)
    drawn = post(client, "/game/act", first, action="draw_stock")
    assert drawn.status == 200
    latest = drawn.token
    # The old save again, with another move (the take-back the review used): not played.
    again = post(client, "/game/act", first, action="take_discard")
    assert again.status == 409
    assert again.message == MOVED_ON
    assert again.token == latest, "the latest save, exactly as the register holds it"
    # And the latest save still plays on.
    state = open_save(SEALER, latest).state
    card = next(c for c in state.hands[HUMAN] if c != state.taken_discard)
    assert post(client, "/game/act", latest, action=f"discard {card}", at=stamp(state)).status == 200


def test_a_finished_hand_cannot_be_played_again_from_its_first_save(client: TestClient) -> None:
    # The review's script: play the hand out (the result reveals the deck), then go back.
    first = at_the_draw(client)
    token = first
    for _ in range(200):
        state = open_save(SEALER, token).state
        if state.phase not in (Phase.DRAW, Phase.DISCARD, Phase.UPCARD):
            break
        legal = legal_actions(state)
        action = next((a for a in legal if a.kind is ActionKind.DRAW_STOCK), None) or next(
            a for a in legal if a.kind is ActionKind.DISCARD
        )
        token = post(client, "/game/act", token, action=str(action)).token
    assert open_save(SEALER, token).state.deal.deck  # the hand is over: its deck was revealed
    back = post(client, "/game/act", first, action="draw_stock")
    assert back.status == 409 and back.message == MOVED_ON
    assert back.token == token


def test_a_move_whose_answer_never_arrived_is_not_lost(client: TestClient) -> None:
    first = at_the_draw(client)
    lost = post(client, "/game/act", first, action="draw_stock")  # the connection dropped: never stored
    # The page still holds the first save; the next request gets the position the server played.
    resumed = post(client, "/game/resume", first)
    assert resumed.status == 409 and resumed.message == MOVED_ON
    assert resumed.token == lost.token
    assert open_save(SEALER, resumed.token).state.phase is Phase.DISCARD


def test_a_request_that_changes_nothing_plays_nothing_and_its_answer_is_the_latest(client: TestClient) -> None:
    first = at_the_draw(client)
    token = first
    for path in ("/game/resume", "/game/show", "/game/hint"):
        page = post(client, path, token)
        assert page.status == 200, path
        assert open_save(SEALER, page.token) == open_save(SEALER, first), "the same game"
        token = page.token
    # Each answer's save is the latest: the first one is now an older save.
    assert post(client, "/game/act", first, action="draw_stock").message == MOVED_ON
    assert post(client, "/game/act", token, action="draw_stock").status == 200


def test_a_match_the_register_does_not_know_is_taken_as_posted(settings: Settings, tmp_path: Path) -> None:
    with TestClient(serve(settings)) as before:
        first = at_the_draw(before)
        second = post(before, "/game/act", first, action="draw_stock").token
    # Another server with the same key and an empty register (wiped, or the match expired there).
    elsewhere = settings.model_copy(update={"data_dir": tmp_path / "elsewhere", "register_url": ""})
    with TestClient(serve(elsewhere)) as after:
        taken = post(after, "/game/resume", second)
        assert taken.status == 200 and open_save(SEALER, taken.token) == open_save(SEALER, second)
        # From then on it is registered there too: the older save is refused.
        assert post(after, "/game/act", first, action="draw_stock").message == MOVED_ON


def test_with_redis_down_a_move_is_refused_and_the_save_kept(tmp_path: Path) -> None:
    with running_redis() as redis:
        settings = Settings(keys=(KEY,), data_dir=tmp_path, register_url=redis.url)
        with TestClient(serve(settings)) as client:
            token = at_the_draw(client)
            assert client.get("/healthz").status_code == 200
            redis.stop()
            refused = post(client, "/game/act", token, action="draw_stock")
            assert refused.status == 503
            assert refused.message.startswith(CANNOT_SAVE)
            assert refused.token == "", "no save in the answer: the browser keeps its own"
            health = client.get("/healthz")
            assert health.status_code == 503
            assert health.json() == {"status": "unavailable", "problem": "the move register does not answer"}


def test_with_the_sqlite_file_locked_a_move_is_refused_and_the_save_kept(tmp_path: Path) -> None:
    settings = Settings(keys=(KEY,), data_dir=tmp_path)
    with TestClient(serve(settings)) as client:
        token = at_the_draw(client)
        other = sqlite3.connect(tmp_path / "register.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            refused = post(client, "/game/act", token, action="draw_stock")
            assert refused.status == 503 and refused.message.startswith(CANNOT_SAVE) and refused.token == ""
            assert client.get("/healthz").status_code == 503
        finally:
            other.execute("ROLLBACK")
            other.close()
        assert post(client, "/game/act", token, action="draw_stock").status == 200  # nothing was lost


@pytest.mark.slow
@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_of_racing_requests_with_one_save_exactly_one_is_played(store: str, tmp_path: Path) -> None:
    """A double tap (or two tabs) sending the same save at once, to a server with two workers."""
    racers = 8
    env = {} if store == "sqlite" else {"GIN_REGISTER_URL": ""}
    with running_redis() if store == "redis" else _nothing() as redis:
        if redis is not None:
            env["GIN_REGISTER_URL"] = redis.url
        with running_server(tmp_path / "data", workers=2, keys=KEY, env=env) as server:
            with httpx.Client(base_url=server.base_url, timeout=30) as setup:
                token = at_the_draw(setup)
            before = open_save(SEALER, token).state
            start = threading.Barrier(racers)
            answers: list[Page | BaseException] = [RuntimeError("no answer")] * racers

            draws = [
                str(a) for a in legal_actions(before) if a.kind in (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD)
            ]

            def race(index: int) -> None:
                action = draws[index % len(draws)]  # legal, and different where two draws are
                try:
                    # A connection each, so that the kernel spreads them over both workers.
                    with httpx.Client(base_url=server.base_url, timeout=30) as client:
                        start.wait(timeout=30)
                        answers[index] = post(client, "/game/act", token, action=action)
                except BaseException as error:  # reported below
                    answers[index] = error

            threads = [threading.Thread(target=race, args=(i,)) for i in range(racers)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=60)
    pages = [a for a in answers if isinstance(a, Page)]
    assert len(pages) == racers, answers
    played = [p for p in pages if p.status == 200]
    assert len(played) == 1, [(p.status, p.message) for p in pages]
    # The others were shown its result, as it is.
    losers = [(p.status, p.message, p.token == played[0].token) for p in pages if p is not played[0]]
    assert all(loser == (409, MOVED_ON, True) for loser in losers), losers
    after = open_save(SEALER, played[0].token).state
    assert len(after.log) == len(before.log) + 1 and after.log[-1].player == HUMAN
    assert after.log[-1].kind in (ActionKind.DRAW_STOCK, ActionKind.TAKE_DISCARD)


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *_: object) -> None:
        return None
