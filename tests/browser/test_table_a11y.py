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

from tests.browser.positions import KeyedServer, computer_goes_gin, drawing, knockable, match_point, upcard_offer
from tests.browser.seat import Seat
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
    # Colours are measured as painted: a panel still fading in (the result after the computer's move)
    # would blend with what is behind it. Let every finite animation finish first.
    page.evaluate(
        """() => Promise.all(document.getAnimations()
             .filter(a => a.effect && a.effect.getComputedTiming().iterations !== Infinity)
             .map(a => a.finished.catch(() => null)))"""
    )
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
    # Reduced motion: axe measures colours as they are once the cards have landed, not mid-flight (a
    # result screen checked while its hands faded in failed colour contrast on a loaded machine).
    options = {**context_options(playwright, request.param), "reduced_motion": "reduce"}
    context = browser.new_context(bypass_csp=True, **options)
    t = Table(context.new_page(), live_server, request.param)
    yield t
    context.close()


def test_every_screen_of_a_hand_has_no_axe_violation(table: Table, axe_source: str) -> None:
    seen: dict[str, list[str]] = {}
    table.open()
    seen["new match"] = violations(table.page, axe_source)
    table.new_match()
    seen["first turn"] = violations(table.page, axe_source)
    table.press(table.to_my_draw())
    table.choose(table.hand.last)
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


# ---- Every screen of the game, in the light and the dark theme (the table's aids included) ----


@pytest.fixture(params=VIEWPORTS)
def seat(
    request: pytest.FixtureRequest, browser: Browser, playwright: Playwright, keyed_server: KeyedServer
) -> Iterator[Seat]:
    # Reduced motion: axe measures colours as they are once the cards have landed, not mid-flight.
    options = {**context_options(playwright, request.param), "reduced_motion": "reduce"}
    context = browser.new_context(bypass_csp=True, **options)
    s = Seat(context.new_page(), keyed_server, request.param)
    yield s
    context.close()


def in_both_themes(page: Page, axe_source: str) -> list[str]:
    """axe's findings with the dark theme, then the light one (the page is left light, for the screenshots)."""
    found: list[str] = []
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        expect(page.locator("html")).to_have_attribute("data-theme", scheme)
        if not page.evaluate("typeof axe !== 'undefined'"):
            page.add_script_tag(content=axe_source)
        result: dict[str, Any] = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        found += [
            f"{scheme}: {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
            for v in result["violations"]
        ]
    return found


def test_every_screen_in_both_themes_has_no_axe_violation(seat: Seat, axe_source: str) -> None:
    page = seat.page
    seen: dict[str, list[str]] = {}

    def screen(name: str, shot: bool = True) -> None:
        seen[name] = in_both_themes(page, axe_source)
        if shot:  # the README's pictures: one of each kind of screen
            seat.shot(name)

    seat.load(upcard_offer())
    expect(seat.button("Take")).to_be_visible()
    screen("upcard")
    seat.load(drawing())
    expect(seat.button(re.compile(r"^Stock"))).to_be_visible()
    screen("draw")
    seat.press(seat.button("Hint"))
    expect(page.locator(".prompt.hint")).to_contain_text("Take")
    screen("hint")
    seat.load(knockable())
    seat.choose(seat.card("king of clubs"))
    expect(seat.button("Knock (4)")).to_be_visible()
    screen("discard")
    seat.load(computer_goes_gin())
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Discard"))
    expect(page.locator("#deal-status")).to_contain_text("Deal verified")
    screen("hand-result")
    seat.load(match_point())
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Knock (4)"))
    expect(page.locator(".match-result")).to_contain_text("You won the match")
    screen("match-end")
    page.locator("#display > summary").click()  # the Display menu is on every page: open, it is a screen too
    expect(page.get_by_role("checkbox", name="Large cards")).to_be_visible()
    screen("display-menu", shot=False)
    page.goto(seat.base_url + "/stats")
    expect(page.locator('[data-stat="hands.you"]')).to_have_text("1")
    screen("stats")
    page.get_by_role("button", name="Reset statistics…").click()
    expect(page.get_by_role("button", name="Yes, reset them")).to_be_visible()
    screen("stats-reset", shot=False)
    page.goto(seat.base_url + "/rules")
    screen("rules")
    # (Stored from the rules page: on the table, a response in flight would store its own token over it.)
    page.evaluate(f"localStorage.setItem('{SAVE_KEY}', 'v1.damaged')")
    seat.open()
    expect(page.get_by_role("alert")).to_contain_text("could not be opened")
    screen("error")
    # A move from a page that is out of date (another tab played on): refused, with the table as it stands.
    seat.load(knockable())
    page.evaluate(f"t => localStorage.setItem('{SAVE_KEY}', t)", seat.server.seal(drawing()))
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Discard"))
    expect(page.get_by_role("alert")).to_contain_text("out of date")
    screen("error-stale", shot=False)
    page.goto(seat.base_url + "/nowhere")
    expect(page.get_by_role("heading", name="Page not found")).to_be_visible()
    screen("not-found", shot=False)
    assert {name: found for name, found in seen.items() if found} == {}
