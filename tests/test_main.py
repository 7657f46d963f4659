"""The app as uvicorn runs it: what happens once at startup."""

from __future__ import annotations

import gc
from pathlib import Path

from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.main import YOUNG_COLLECTION_ALLOCATIONS, create_app
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
