"""Browser-test harness: Debian's Chromium for pytest-playwright, and a live game server.

Every test in this folder gets the ``browser`` marker. Without Chromium the tests skip,
except under CI, where they fail: a browser test must never pass by not running.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from devtools.live import serve
from tests.browser.positions import KeyedServer
from tests.browser.positions import keyed_server as serve_keyed
from tests.ci import in_ci

HERE = Path(__file__).resolve().parent
DEFAULT_CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox cannot start
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium_executable() -> Path:
    """Debian's Chromium, or the one ``GIN_CHROMIUM`` names (Playwright's download is unused)."""
    chromium = Path(os.environ.get("GIN_CHROMIUM", DEFAULT_CHROMIUM))
    if chromium.is_file() and os.access(chromium, os.X_OK):
        return chromium
    reason = f"no Chromium at {chromium}: apt-get install chromium, or set GIN_CHROMIUM"
    if in_ci():
        pytest.fail(f"{reason} (CI is set, so browser tests may not skip)", pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict[str, Any], chromium_executable: Path) -> dict[str, Any]:
    return {
        **browser_type_launch_args,
        "executable_path": str(chromium_executable),
        "args": [*browser_type_launch_args.get("args", []), *CHROMIUM_ARGS],
    }


@pytest.fixture(scope="session")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Base URL of the game (``app.main:app``) served with a fresh, empty data directory.

    Started on first use only, and shared by the session's tests.
    """
    with serve("app.main:app", tmp_path_factory.mktemp("data")) as base_url:
        yield base_url


@pytest.fixture(scope="session")
def keyed_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[KeyedServer]:
    """The game served with a key the tests know, so they can store a chosen position in the page."""
    with serve_keyed(tmp_path_factory.mktemp("keyed")) as server:
        yield server
