"""Drive the table through its visible controls, found by accessible name, as a person would."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, Page, Playwright, expect

SAVE_KEY = "gin-rummy.save"
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
        """The cards of the hand: a radio group, each card a radio named by the card."""
        return self.page.get_by_role("region", name="Your hand").get_by_role("radio", name=re.compile(r" of "))

    def card_names(self) -> list[str]:
        # The words a screen reader says first: the card's name (the glyphs are aria-hidden).
        words = self.hand.evaluate_all("els => els.map(e => e.labels[0].querySelector('.sr-only').textContent)")
        return [w.split(",")[0] for w in words]

    def choose(self, card: Locator) -> None:
        """Tap a card of the hand (unless it is chosen already: a second tap puts it back): it is chosen at
        once, and nothing is sent."""
        if not card.is_checked():
            card.click()
        expect(card).to_be_checked()

    def stored(self) -> str | None:
        value: str | None = self.page.evaluate(f"localStorage.getItem('{SAVE_KEY}')")
        return value

    def new_match(self) -> None:
        """Start a match and stop at a hand in play. When the computer starts, it may take the upcard
        and knock at once (6 of 4,000 Normal deals): then the next hand is dealt."""
        self.press(self.button("New match"))
        for _ in range(10):
            if self.hand.count():
                return
            self.press(self.button("Next hand") if self.has("Next hand") else self.button("New match"))
        raise AssertionError("no hand in play after ten deals")

    def to_my_draw(self, limit: int = 12) -> Locator:
        """Play on to the person's draw and return the Stock button: pass an offered upcard, and deal
        again whenever the computer ended the hand first (it may take the upcard and knock at once, so
        a fresh deal alone does not make a draw certain)."""
        for _ in range(limit):
            stock = self.button(re.compile(r"^Stock"))
            if stock.count():
                return stock
            if self.has("Pass"):
                self.press(self.button("Pass"))
            elif self.has("Next hand"):
                self.press(self.button("Next hand"))
            elif self.has("New match"):
                self.new_match()
            else:
                raise AssertionError("neither a draw, an upcard to pass nor a new deal is offered")
        raise AssertionError("no draw of the person's came up")

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
            self.choose(card)
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
