"""The table's first load, as the browser measures it: under 100 KB transferred, and nothing from elsewhere.

A fresh browser context (empty cache) opens the table, once with no saved game (the new-match
screen) and once with a game in progress (the table itself). Every request is counted, with its
headers and its body as transferred (compressed), until the table has settled.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Playwright, Request

from tests.browser.positions import KeyedServer, knockable
from tests.browser.table_page import SAVE_KEY, VIEWPORTS, Table, context_options

BUDGET = 100 * 1024  # bytes transferred


@pytest.mark.parametrize("kind", VIEWPORTS)
@pytest.mark.parametrize("saved", [False, True], ids=["no saved game", "game in progress"])
def test_the_first_load_is_under_100_kb_and_makes_no_third_party_request(
    browser: Browser, playwright: Playwright, keyed_server: KeyedServer, kind: str, saved: bool
) -> None:
    base = keyed_server.base_url
    options: dict[str, Any] = dict(context_options(playwright, kind))
    if saved:
        stored = [{"name": SAVE_KEY, "value": keyed_server.seal(knockable())}]
        options["storage_state"] = {"cookies": [], "origins": [{"origin": base, "localStorage": stored}]}
    context = browser.new_context(**options)
    page = context.new_page()
    requested: list[str] = []
    finished: list[Request] = []
    page.on("request", lambda r: requested.append(r.url))
    page.on("requestfinished", lambda r: finished.append(r))
    table = Table(page, base, kind)
    table.open()
    if saved:
        table.hand.first.wait_for()
    page.wait_for_load_state("networkidle")
    sizes = {r.url.removeprefix(base): r.sizes() for r in finished}
    total = sum(s["responseBodySize"] + s["responseHeadersSize"] for s in sizes.values())
    context.close()
    assert table.problems == [], table.problems
    assert requested and all(url.startswith(base + "/") for url in requested), requested
    assert any("/game/resume" in url for url in sizes), "the saved game (or the new-match screen) was fetched"
    what = "game in progress" if saved else "no saved game"
    print(f"first load ({kind}, {what}): {total} bytes in {len(sizes)} requests")
    assert 0 < total < BUDGET, sizes
