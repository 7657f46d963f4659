"""A table page on the keyed server: load a chosen position, watch the requests, take the README's screenshots."""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

from playwright.sync_api import Page, Request, expect

from app.engine import GameState
from tests.browser.positions import KeyedServer
from tests.browser.table_page import SAVE_KEY, Table

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "screenshots"


class Seat(Table):
    """A ``Table`` whose game can be set to any position, and which records the game requests it sends."""

    def __init__(self, page: Page, server: KeyedServer, kind: str) -> None:
        super().__init__(page, server.base_url, kind)
        self.server = server
        self.posts: list[tuple[str, dict[str, str]]] = []
        page.on("request", self._record)

    def _record(self, request: Request) -> None:
        if request.method == "POST" and "/game/" in request.url:
            fields = {k: v[0] for k, v in parse_qs(request.post_data or "").items()}
            self.posts.append((request.url.removeprefix(self.base_url), fields))

    def load(self, state: GameState, level: str = "normal", earlier: Sequence[GameState] = ()) -> None:
        """Store ``state`` as this browser's saved game and open the table on it (``earlier``: the
        match's positions before it, see ``KeyedServer.seal``)."""
        # From a page without the table's script, which would store the token of its own response.
        self.page.goto(self.base_url + "/rules")
        token = self.server.seal(state, level, earlier=earlier)
        self.page.evaluate("([key, token]) => localStorage.setItem(key, token)", [SAVE_KEY, token])
        self.open()

    def key(self, key: str) -> None:
        """Press ``key`` and wait for the table it brings (the shortcut must send one request)."""
        before = self.token
        sent = len(self.posts)
        self.page.keyboard.press(key)
        self.wait_for_new_table(before)
        assert len(self.posts) == sent + 1, f"{key} sent {len(self.posts) - sent} requests"

    @property
    def last_post(self) -> tuple[str, dict[str, str]]:
        return self.posts[-1]

    def announced(self) -> str:
        return self.page.locator("#announce").inner_text()

    def card(self, name: str) -> Any:
        return self.page.get_by_role("region", name="Your hand").get_by_role("radio", name=re.compile("^" + name))

    def wait_for_motion(self) -> None:
        """Let every finite animation finish (the endless glow of a pile to draw from excepted)."""
        self.page.evaluate(
            """() => Promise.all(document.getAnimations()
                 .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
                 .map(a => a.finished.catch(() => null)))"""
        )

    def shot(self, name: str, *, full_page: bool = False) -> None:
        """``docs/screenshots/<name>-<phone|desktop>.png``, only when GIN_SCREENSHOTS=1 (a test run leaves no file)."""
        if not os.environ.get("GIN_SCREENSHOTS"):
            return
        SHOTS.mkdir(parents=True, exist_ok=True)
        self.wait_for_motion()
        self.page.evaluate("window.scrollTo(0, 0)")
        # CSS pixels, not the phone's 3x: the pictures stay small enough to keep in the repository.
        target = SHOTS / f"{name}-{self.kind}.png"
        self.page.screenshot(path=str(target), full_page=full_page, animations="disabled", scale="css", caret="initial")


def expect_alert(page: Page, text: str) -> None:
    expect(page.get_by_role("alert").filter(has_text=text)).to_be_visible()
