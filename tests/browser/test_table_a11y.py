"""axe-core finds no accessibility violation on any screen of the table, on a phone and a desktop.

axe is injected into the page, which the page's own CSP would refuse (it allows no inline
script); these contexts bypass the CSP for that reason only. The other browser tests keep it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright, expect

from tests.browser.table_page import SAVE_KEY, VIEWPORTS, Table, context_options

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_source() -> str:
    if AXE.is_file():
        return AXE.read_text()
    reason = f"axe-core is not installed at {AXE} (scripts/install runs npm ci)"
    if os.environ.get("CI", "").lower() not in {"", "0", "false", "no"}:
        pytest.fail(f"{reason}; CI is set, so accessibility checks may not skip", pytrace=False)
    pytest.skip(reason)


def violations(page: Page, axe_source: str) -> list[str]:
    page.add_script_tag(content=axe_source)
    result: dict[str, Any] = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in result["violations"]
    ]


@pytest.fixture(params=VIEWPORTS)
def table(
    request: pytest.FixtureRequest, browser: Browser, playwright: Playwright, live_server: str
) -> Iterator[Table]:
    context = browser.new_context(bypass_csp=True, **context_options(playwright, request.param))
    t = Table(context.new_page(), live_server, request.param)
    yield t
    context.close()


def test_every_screen_of_a_hand_has_no_axe_violation(table: Table, axe_source: str) -> None:
    seen: dict[str, list[str]] = {}
    table.open()
    seen["new match"] = violations(table.page, axe_source)
    table.new_match()
    seen["first turn"] = violations(table.page, axe_source)
    if table.has("Pass"):
        table.press(table.button("Pass"))
    table.press(table.button(re.compile(r"^Stock")))
    table.press(table.hand.last)
    seen["discard with a card chosen"] = violations(table.page, axe_source)
    table.play_to_hand_end()
    seen["hand result"] = violations(table.page, axe_source)
    table.page.goto(table.base_url + "/rules")
    seen["rules"] = violations(table.page, axe_source)
    assert {screen: found for screen, found in seen.items() if found} == {}


def test_the_damaged_save_message_has_no_axe_violation(table: Table, axe_source: str) -> None:
    table.open()
    table.page.evaluate(f"localStorage.setItem('{SAVE_KEY}', 'v1.damaged')")
    table.page.reload()
    table.settled()
    expect(table.page.get_by_role("alert")).to_contain_text("could not be opened")
    assert violations(table.page, axe_source) == []
