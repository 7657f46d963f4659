"""Review this hand, in a real browser: open it from the result, step with the buttons and the arrow
keys, hear each step in the live region, find no axe violation, and go back to the game."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.browser.positions import before_my_knock
from tests.browser.seat import Seat
from tests.browser.test_table_a11y import axe_source, seat, violations

# The fixtures, shared with the table's accessibility tests: a seat at each viewport whose page axe
# can be injected into (bypass_csp), with reduced motion for steady colours.
__all__ = ["axe_source", "seat"]

KNOCK = re.compile(r"^(Knock \(\d+\)|Gin)$")


def open_review(seat: Seat) -> tuple[int, str]:
    """Knock to end a real hand, then press Review this hand; the number of moves in the hand, and
    the save the browser kept when the hand ended."""
    state, card = before_my_knock()
    seat.load(state)
    seat.choose(seat.card(card.name))
    seat.press(seat.button(KNOCK))
    kept: str = seat.page.evaluate("localStorage.getItem('gin-rummy.save')")
    seat.button("Review this hand").click()
    seat.page.wait_for_selector("#table.review")
    # The verdicts fill in with a second request; the summary replaces the waiting line.
    expect(seat.page.locator("#review-summary")).to_contain_text("You gave", timeout=20_000)
    seat.settled()
    return len(state.log) + 1, kept


def test_a_review_steps_with_buttons_and_arrow_keys_reads_each_step_and_has_no_axe_violation(
    seat: Seat, axe_source: str
) -> None:
    moves, kept = open_review(seat)
    announce = seat.page.locator("#announce")
    expect(announce).to_contain_text(f"Step 0 of {moves}: the cards as dealt.")
    assert violations(seat.page, axe_source) == []
    seat.button("Next").click()
    expect(announce).to_contain_text(f"Step 1 of {moves}: ")
    seat.settled()
    seat.page.locator("h1").first.click()  # the page, not a control: the arrows are the review's
    seat.page.keyboard.press("ArrowRight")
    expect(announce).to_contain_text(f"Step 2 of {moves}: ")
    seat.settled()
    seat.page.keyboard.press("ArrowLeft")
    expect(announce).to_contain_text(f"Step 1 of {moves}: ")
    seat.settled()
    # Jump to the end with the list of moves: the hand's result shows, and Next is off.
    seat.page.get_by_text("Every move of the hand").click()
    seat.page.locator(f"#review-step-{moves}").click()
    expect(announce).to_contain_text(f"Step {moves} of {moves}: you knocked")
    seat.settled()
    expect(seat.button("Next")).to_be_disabled()
    assert violations(seat.page, axe_source) == []
    # Reviewing is not a move: the browser's save is the one it had before the review.
    assert seat.page.evaluate("localStorage.getItem('gin-rummy.save')") == kept
    seat.button("Back to the game").click()
    seat.page.wait_for_selector("#table[data-token]")
    seat.settled()
    expect(seat.button("Review this hand")).to_be_visible()
