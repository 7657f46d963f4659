"""An app with a known key and a seeded shuffle, and a player that posts what the page would post."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.engine import GameState
from app.main import create_app
from app.seal import Sealer
from app.settings import Settings
from app.web import SavedGame, open_save, seal_save
from tests.routes.page import Button, Page, fields, read

HX = {"HX-Request": "true"}


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(keys=(Fernet.generate_key().decode(),), data_dir=tmp_path)


@pytest.fixture
def seed() -> int:
    return 7


@pytest.fixture
def app(settings: Settings, seed: int) -> FastAPI:
    app = create_app(settings)
    rng = random.Random(seed)
    app.state.new_rng = lambda: rng
    return app


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@pytest.fixture
def sealer(settings: Settings) -> Sealer:
    return Sealer.from_settings(settings)


class Player:
    """Plays through HTTP like the page does: the stored token, plus the table's and the button's values."""

    def __init__(self, client: TestClient, sealer: Sealer) -> None:
        self.client = client
        self.sealer = sealer
        self.token = ""
        self.sort = "rank"
        self.page: Page | None = None

    def post(self, path: str, **data: Any) -> Page:
        body = {"token": self.token, "sort": self.sort, **data}
        page = read(self.client.post(path, data=body, headers=HX))
        if page.token:  # the script stores only tokens the response carries
            self.token = page.token
        self.page = page
        return page

    def press(self, button: Button) -> Page:
        """Press a button (one request), or tap a card: that only chooses it, or puts it back, in the page."""
        assert self.page is not None
        if not button.post and button.id.startswith("card-"):
            code = button.id.removeprefix("card-")
            self.page.selected = "" if self.page.selected == code else code
            return self.page
        return self.post(button.post, **fields(self.page, button))

    def new_match(self, level: str = "normal") -> Page:
        return self.post("/game/new", level=level)

    @property
    def saved(self) -> SavedGame:
        return open_save(self.sealer, self.token)

    @property
    def state(self) -> GameState:
        return self.saved.state

    def load(self, state: GameState, level: str = "normal") -> Page:
        """Continue from ``state`` as if it had been saved in this browser."""
        self.token = seal_save(self.sealer, SavedGame.model_validate({"format": 1, "level": level, "state": state}))
        return self.post("/game/resume")


@pytest.fixture
def player(client: TestClient, sealer: Sealer) -> Player:
    return Player(client, sealer)
