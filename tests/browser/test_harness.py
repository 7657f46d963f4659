"""The browser harness works: Debian's Chromium drives a page, and serve() runs an app."""

from __future__ import annotations

import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from devtools.live import serve

CLICKABLE = "<button onclick=\"this.textContent='Clicked'\">Hi</button>"


def test_chromium_loads_a_page_and_clicks(page: Page) -> None:
    page.goto("data:text/html," + urllib.parse.quote(CLICKABLE))
    button = page.get_by_role("button", name="Hi")
    button.click()
    expect(page.get_by_role("button")).to_have_text("Clicked")


def test_serve_runs_an_app_until_it_is_healthy_and_stops_it(tmp_path: Path) -> None:
    with serve("tests.browser.stub_app:app", tmp_path) as base_url:
        with urllib.request.urlopen(f"{base_url}/healthz", timeout=5) as response:
            assert response.read() == b"ok"
        with urllib.request.urlopen(f"{base_url}/data-dir", timeout=5) as response:
            assert response.read().decode() == str(tmp_path)
    with pytest.raises(OSError):
        urllib.request.urlopen(f"{base_url}/healthz", timeout=2)


def test_serve_reports_an_app_that_cannot_start(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="exited"), serve("tests.browser.missing:app", tmp_path):
        pass
