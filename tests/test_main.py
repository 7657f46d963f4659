"""The app as uvicorn runs it: what happens once at startup."""

from __future__ import annotations

import gc
import random
import re
from pathlib import Path

from cryptography.fernet import Fernet
from fastapi.testclient import TestClient
from starlette.routing import Route

from app.main import YOUNG_COLLECTION_ALLOCATIONS, create_app
from app.routes import table
from app.routes.deps import fresh_rng
from app.settings import Settings


def test_startup_freezes_the_long_lived_objects_so_full_collections_stay_short(tmp_path: Path) -> None:
    app = create_app(Settings(keys=(Fernet.generate_key().decode(),), data_dir=tmp_path))
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        # The modules, templates and tables of a built app: tens of thousands of objects.
        assert gc.get_freeze_count() > 10_000


def test_startup_collects_the_young_generation_rarely_so_waiting_requests_are_not_promoted(tmp_path: Path) -> None:
    app = create_app(Settings(keys=(Fernet.generate_key().decode(),), data_dir=tmp_path))
    with TestClient(app) as client:
        assert client.get("/healthz").status_code == 200
        assert gc.get_threshold()[0] == YOUNG_COLLECTION_ALLOCATIONS > 700


def test_a_move_is_routed_once_the_table_routes_being_the_apps_own_and_tried_first(tmp_path: Path) -> None:
    # An included router is a route of its own that matches every request, then matches it again
    # among its routes: about 4% of a move's instructions (docs/load-experiments.md).
    app = create_app(Settings(keys=(Fernet.generate_key().decode(),), data_dir=tmp_path))
    paths = [route.path for route in app.router.routes if isinstance(route, Route)]
    assert len(paths) == len(app.router.routes) - 1  # and the static files' mount
    assert paths[: len(table.routes)] == [route.path for route in table.routes]
    assert "/game/act" in paths


def test_every_table_request_draws_from_the_apps_generator_so_tests_can_seed_a_server(tmp_path: Path) -> None:
    app = create_app(Settings(keys=(Fernet.generate_key().decode(),), data_dir=tmp_path))
    deals = []
    for _ in range(2):
        app.state.new_rng = lambda: random.Random(7)
        with TestClient(app) as client:
            page = client.post("/game/new", data={"level": "easy"}, headers={"HX-Request": "true"})
            deals.append(re.search(r'data-fingerprint="(\w+)"', page.text))
    assert deals[0] is not None and deals[1] is not None
    assert deals[0].group(1) == deals[1].group(1)
    app.state.new_rng = fresh_rng
    with TestClient(app) as client:
        page = client.post("/game/new", data={"level": "easy"}, headers={"HX-Request": "true"})
    fresh = re.search(r'data-fingerprint="(\w+)"', page.text)
    assert fresh is not None and fresh.group(1) != deals[0].group(1)
