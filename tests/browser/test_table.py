"""The table in a real Chromium, on a phone and on a desktop: play, reload, tamper.

Controls are found by their accessible names, as a screen-reader user would find them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Playwright, expect

SAVE_KEY = "gin-rummy.save"
ROOT = Path(__file__).resolve().parents[2]
VIEWPORTS = ["phone", "desktop"]
REFUSED = "Failed to load resource: the server responded with a status of 4"


def context_options(playwright: Playwright, kind: str) -> dict[str, Any]:
    if kind == "phone":
        return dict(playwright.devices["iPhone 13"])
    return {"viewport": {"width": 1280, "height": 900}}


class Table:
    """A page at the table, with the problems a person would notice collected as it goes."""

    def __init__(self, page: Page, base_url: str, kind: str = "") -> None:
        self.page = page
        self.base_url = base_url
        self.kind = kind
        self.problems: list[str] = []
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.problems.append(str(e)))
        page.on(
            "request",
            lambda r: None if r.url.startswith(base_url) else self.problems.append(f"third-party request {r.url}"),
        )
        page.set_default_timeout(10_000)

    def _console(self, message: Any) -> None:
        # A refused request (4xx) is part of the design: its message screen is what the tests look at.
        if message.type == "error" and not message.text.startswith(REFUSED):
            self.problems.append(message.text)

    def open(self) -> None:
        self.page.goto(self.base_url + "/")
        self.settled()

    # Waits poll from Python (expect, wait_for_selector): the page's CSP forbids the eval that
    # Playwright's wait_for_function would need, and the test must not loosen that policy.
    def settled(self) -> None:
        """Wait until the table has been swapped in and no request is in flight."""
        self.page.wait_for_selector("#table:not(.loading)")
        expect(self.page.locator(".htmx-request")).to_have_count(0)

    @property
    def token(self) -> str:
        return self.page.get_attribute("#table", "data-token") or ""

    def press(self, control: Locator) -> None:
        """Tap a control and wait for the table it brings (every table response carries a new token)."""
        before = self.token
        control.click()
        self.wait_for_new_table(before)

    def wait_for_new_table(self, before: str) -> None:
        if before:
            expect(self.page.locator("#table")).not_to_have_attribute("data-token", before)
        else:
            self.page.wait_for_selector("#table[data-token]")
        self.settled()

    def button(self, name: str | re.Pattern[str], exact: bool = True) -> Locator:
        return self.page.get_by_role("button", name=name, exact=exact)

    def has(self, name: str | re.Pattern[str]) -> bool:
        return self.button(name).count() > 0

    @property
    def hand(self) -> Locator:
        return self.page.get_by_role("region", name="Your hand").get_by_role("button", name=re.compile(r" of "))

    def card_names(self) -> list[str]:
        # The words a screen reader says first: the card's name (the glyphs are aria-hidden).
        words = self.hand.evaluate_all("els => els.map(e => e.querySelector('.sr-only').textContent)")
        return [w.split(",")[0] for w in words]

    def stored(self) -> str | None:
        value: str | None = self.page.evaluate(f"localStorage.getItem('{SAVE_KEY}')")
        return value

    def new_match(self) -> None:
        self.press(self.button("New match"))

    def play_turn(self) -> None:
        """One decision, taken through the visible controls only."""
        if self.has("Pass"):
            self.press(self.button("Pass"))
            return
        stock = self.button(re.compile(r"^Stock"))
        if stock.count():
            self.press(stock)
            return
        # Discard: try the highest cards first; the card just taken can't go back, so it offers no Discard.
        for card in reversed(self.hand.all()):
            self.press(card)
            knock = self.button(re.compile(r"^(Knock \(\d+\)|Gin)$"))
            if knock.count():
                self.press(knock)
                return
            if self.has("Discard"):
                self.press(self.button("Discard"))
                return
        raise AssertionError("no card could be discarded")

    def play_to_hand_end(self, limit: int = 120) -> None:
        for _ in range(limit):
            if self.has("Next hand") or self.has("New match"):
                return
            self.play_turn()
        raise AssertionError("the hand did not end")


@pytest.fixture(params=VIEWPORTS)
def table(
    request: pytest.FixtureRequest, browser: Browser, playwright: Playwright, live_server: str
) -> Iterator[Table]:
    context: BrowserContext = browser.new_context(**context_options(playwright, request.param))
    page = context.new_page()
    t = Table(page, live_server, request.param)
    yield t
    context.close()
    assert t.problems == [], t.problems


def save_screenshot(page: Page, name: str) -> None:
    """Screenshots for the README, written only when asked (GIN_SCREENSHOTS=1), so test runs leave the tree clean."""
    if os.environ.get("GIN_SCREENSHOTS"):
        target = ROOT / "docs" / "screenshots" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        # The phone table is the README's picture: kept sharp. The others at CSS pixels keep the repo small.
        page.screenshot(path=str(target), full_page=False, scale="device" if name == "table-phone.png" else "css")


def test_play_a_whole_hand_to_the_result_screen(table: Table) -> None:
    table.open()
    expect(table.button("New match")).to_be_visible()
    table.new_match()
    expect(table.page.get_by_role("region", name="Your hand")).to_be_visible()
    assert len(table.card_names()) in (10, 11)
    # A chosen card rises and the move buttons appear; the phone screenshot shows this moment.
    if table.has("Pass"):
        table.press(table.button("Pass"))
    stock = table.button(re.compile(r"^Stock"))
    if stock.count():
        table.press(stock)
        last = table.hand.last
        table.press(last)
        expect(table.hand.last).to_have_accessible_name(re.compile(r", selected"))
        expect(table.button("Discard")).to_be_visible()
        if table.kind == "phone":
            save_screenshot(table.page, "table-phone.png")
        else:
            save_screenshot(table.page, "table-desktop.png")
    table.play_to_hand_end()
    result = table.page.locator(".result")
    expect(result).to_be_visible()
    assert table.page.evaluate("window.scrollY") == 0, "the result is shown from the top"
    expect(result.get_by_role("heading", level=2)).to_have_text(
        re.compile(r"(Gin!|Undercut!|knocked and won the hand\.|went Gin\.|Void hand\.)")
    )
    expect(result).to_contain_text(re.compile(r"(score[s]? [0-9 +−=]+\.|Nobody scores\.)"))
    expect(table.page.get_by_text("Score sheet")).to_be_visible()
    if table.kind == "phone":
        save_screenshot(table.page, "result-phone.png")
    if table.has("Next hand"):
        table.press(table.button("Next hand"))
        expect(table.page.locator(".match-info")).to_contain_text("Hand 2")


def test_reload_mid_hand_and_continue(table: Table) -> None:
    table.open()
    table.new_match()
    if table.has("Pass"):
        table.press(table.button("Pass"))
    table.press(table.button(re.compile(r"^Stock")))
    held = sorted(table.card_names())
    assert len(held) == 11
    table.page.reload()
    table.settled()
    assert sorted(table.card_names()) == held, "the reloaded table shows the same hand"
    # ... and play goes on from there.
    for card in reversed(table.hand.all()):
        table.press(card)
        if table.has("Discard"):
            table.press(table.button("Discard"))
            break
    assert len(table.card_names()) == 10 or table.has("Next hand")


def test_a_tampered_save_shows_a_message_and_is_kept_until_new_match(table: Table) -> None:
    table.open()
    table.new_match()
    good = table.stored()
    assert good and good.startswith("v1.")
    tampered = good[:40] + ("A" if good[40] != "A" else "B") + good[41:]
    table.page.evaluate(f"localStorage.setItem('{SAVE_KEY}', {tampered!r})")
    table.page.reload()
    table.settled()
    alert = table.page.get_by_role("alert").filter(has_text="could not be opened")
    expect(alert).to_be_visible()
    expect(table.button("New match")).to_be_visible()
    assert table.stored() == tampered, "the stored save is left alone until the person chooses"
    table.new_match()
    assert table.stored() not in (tampered, None)
    expect(table.page.get_by_role("region", name="Your hand")).to_be_visible()


def test_a_double_tap_on_the_stock_draws_once(table: Table) -> None:
    table.open()
    table.new_match()
    if table.has("Pass"):
        table.press(table.button("Pass"))
    stock = table.button(re.compile(r"^Stock"))
    before = table.token
    moves: list[str] = []
    table.page.on("request", lambda r: moves.append(r.url) if r.url.endswith("/game/act") else None)
    stock.dblclick()
    table.wait_for_new_table(before)
    table.page.wait_for_timeout(300)  # a second request, had one been sent, would land by now
    table.settled()
    assert len(table.card_names()) == 11
    expect(table.page.locator("#table .message")).to_have_count(0)
    assert len(moves) == 1, "the second tap is dropped while the first is on its way (hx-sync)"


def test_the_phone_table_fits_360_px_with_44_px_targets(browser: Browser, live_server: str) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    page = context.new_page()
    table = Table(page, live_server)
    table.open()
    table.new_match()
    if table.has("Pass"):
        table.press(table.button("Pass"))
    table.press(table.button(re.compile(r"^Stock")))
    table.press(table.hand.first)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360, "no sideways scrolling"
    small = page.evaluate(
        """() => [...document.querySelectorAll('button, a, summary, .level')]
              .filter(e => e.offsetParent !== null && e.getBoundingClientRect().right > 0)
              .map(e => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect()])
              .filter(([_, r]) => r.width < 44 || r.height < 44)
              .map(([t, r]) => `${t} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
    )
    assert small == [], small
    # Eleven cards wrap onto two rows.
    tops = {round(box["y"]) for box in (c.bounding_box() for c in table.hand.all()) if box}
    assert len(tops) >= 2
    context.close()
    assert table.problems == [], table.problems


def test_sorting_is_remembered_across_a_reload(table: Table) -> None:
    table.open()
    table.new_match()
    table.press(table.button("Sort by suit"))
    expect(table.button("Sort by suit")).to_have_attribute("aria-pressed", "true")
    by_suit = table.card_names()
    table.page.reload()
    table.settled()
    expect(table.button("Sort by suit")).to_have_attribute("aria-pressed", "true")
    assert table.card_names() == by_suit
    table.press(table.button("Sort by rank"))
    expect(table.button("Sort by rank")).to_have_attribute("aria-pressed", "true")


def test_a_card_can_be_chosen_from_the_keyboard_and_keeps_focus(table: Table) -> None:
    table.open()
    table.new_match()
    name = table.card_names()[0]
    card = table.page.get_by_role("button", name=re.compile("^" + name))
    card.focus()
    before = table.token
    table.page.keyboard.press("Enter")
    table.wait_for_new_table(before)
    expect(card).to_have_accessible_name(re.compile("^" + name + ", selected"))
    expect(card).to_be_focused()  # the swap keeps focus on the same card (same id)
