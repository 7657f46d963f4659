"""The table in a real Chromium, on a phone and on a desktop: play, reload, tamper.

Controls are found by their accessible names, as a screen-reader user would find them.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, expect

from tests.browser.table_page import SAVE_KEY, VIEWPORTS, Table, context_options

ROOT = Path(__file__).resolve().parents[2]


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
        # caret="initial": hiding the caret would inject a <style>, which the page's CSP refuses (a console error).
        page.screenshot(
            path=str(target), full_page=False, scale="device" if name == "table-phone.png" else "css", caret="initial"
        )


def test_play_a_whole_hand_to_the_result_screen(table: Table) -> None:
    table.open()
    expect(table.button("New match")).to_be_visible()
    table.new_match()
    stock = table.to_my_draw()  # the computer may have ended the first hand at once: then it deals again
    expect(table.page.get_by_role("region", name="Your hand")).to_be_visible()
    assert len(table.card_names()) == 10
    # A chosen card rises and the move buttons appear; the phone screenshot shows this moment.
    table.press(stock)
    table.choose(table.hand.last)
    expect(table.hand.last).to_have_accessible_name(re.compile(r", selected"))
    expect(table.button("Discard")).to_be_visible()
    if table.kind == "phone":
        save_screenshot(table.page, "table-phone.png")  # the README's first picture
    table.play_to_hand_end()
    result = table.page.locator(".result")
    expect(result).to_be_visible()
    assert table.page.evaluate("window.scrollY") == 0, "the result is shown from the top"
    expect(result.get_by_role("heading", level=2)).to_have_text(
        re.compile(r"(Gin!|undercut (you|the computer)!|knocked and won the hand\.|went Gin\.|Void hand\.)")
    )
    expect(result).to_contain_text(re.compile(r"(score[s]? [0-9 +−=]+\.|Nobody scores\.)"))
    expect(table.page.get_by_text("Score sheet")).to_be_visible()
    if table.has("Next hand"):
        shown = re.search(r"Hand (\d+)", table.page.locator(".match-info").inner_text())
        assert shown is not None
        table.press(table.button("Next hand"))
        expect(table.page.locator(".match-info")).to_contain_text(f"Hand {int(shown.group(1)) + 1}")


def test_reload_mid_hand_and_continue(table: Table) -> None:
    table.open()
    table.new_match()
    table.press(table.to_my_draw())
    held = sorted(table.card_names())
    assert len(held) == 11
    table.page.reload()
    table.settled()
    assert sorted(table.card_names()) == held, "the reloaded table shows the same hand"
    # ... and play goes on from there.
    for card in reversed(table.hand.all()):
        table.choose(card)
        if table.has("Discard"):
            table.press(table.button("Discard"))
            break
    assert len(table.card_names()) == 10 or table.has("Next hand")


def test_a_tampered_save_shows_a_message_and_is_kept_until_new_match(table: Table) -> None:
    table.open()
    table.new_match()
    good = table.stored()
    assert good and good.startswith("v2.")
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
    stock = table.to_my_draw()
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
    table.press(table.to_my_draw())
    table.choose(table.hand.first)
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
    order = table.page.get_by_role("combobox", name="Sort")
    before = table.token
    order.select_option("suit")
    table.wait_for_new_table(before)
    expect(order).to_have_value("suit")
    by_suit = table.card_names()
    table.page.reload()
    table.settled()
    expect(order).to_have_value("suit")
    assert table.card_names() == by_suit
    before = table.token
    order.select_option("rank")
    table.wait_for_new_table(before)
    expect(order).to_have_value("rank")


def test_a_card_can_be_chosen_from_the_keyboard_and_keeps_focus(table: Table) -> None:
    table.open()
    table.new_match()
    name = table.card_names()[0]
    card = table.page.get_by_role("radio", name=re.compile("^" + name))
    card.focus()
    table.page.keyboard.press("Enter")
    expect(card).to_have_accessible_name(re.compile("^" + name + ", selected"))
    expect(card).to_be_focused()


def test_two_quick_taps_leave_the_second_card_chosen_and_send_nothing(table: Table) -> None:
    table.open()
    table.new_match()
    page = table.page
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    cards = table.hand.all()
    for first, second in [(0, 1), (2, 5), (6, 3), (1, 0), (4, 2)]:
        points = []
        for i in (first, second):
            box = cards[i].bounding_box()
            assert box is not None
            points.append((box["x"] + box["width"] / 2, box["y"] + 20))
        for x, y in points:  # two taps 50 ms apart, as real input (touch on the phone)
            if table.kind == "phone":
                page.touchscreen.tap(x, y)
            else:
                page.mouse.click(x, y)
            page.wait_for_timeout(50)
        expect(cards[second]).to_be_checked()
        expect(cards[first]).not_to_be_checked()
    page.wait_for_timeout(300)  # a request, had one been sent, would be on its way by now
    assert sent == [], "choosing a card is the browser's own: no request"


def test_a_chosen_card_stays_chosen_through_the_draw_and_a_turn_is_two_requests(table: Table) -> None:
    table.open()
    table.new_match()
    stock = table.to_my_draw()
    moves: list[str] = []
    table.page.on("request", lambda r: moves.append(r.url) if r.method == "POST" else None)
    name = table.card_names()[-1]
    card = table.page.get_by_role("radio", name=re.compile("^" + name))
    table.choose(card)  # chosen before the draw: the draw posts it, and the new table keeps it
    table.press(stock)
    expect(card).to_be_checked()
    if not table.has("Discard"):  # the draw may have brought a card to knock with: choose the last card instead
        table.choose(table.hand.last)
    knock = table.button(re.compile(r"^(Knock \(\d+\)|Gin)$"))
    table.press(knock if knock.count() else table.button("Discard"))
    assert len(moves) == 2, f"a turn is a draw and a discard: {moves}"
