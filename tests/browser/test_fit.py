"""Every screen fits: at six viewports, in every phase, the hand and the phase's controls need no scroll.

Measured by bounding boxes in a real Chromium, with the page scrolled to the top as it is shown:
the whole hand and the phase's primary controls inside the viewport, no sideways scroll, and
every control at least 44×44 px (cards may overlap, each keeping a 44 px wide strip to tap).
The same with the Large cards option.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, expect

from app.ai import Level
from app.engine import Phase
from tests.browser.positions import (
    KeyedServer,
    computer_goes_gin,
    computer_knocks_on_a_poor_hand,
    computer_took_many,
    drawing,
    knockable,
    match_point,
    played_match,
    upcard_offer,
)
from tests.browser.seat import Seat
from tests.browser.test_review import open_review

# width, height, a phone or tablet (touch) or not
VIEWPORTS = {
    "320x568": (320, 568, True),
    "360x640": (360, 640, True),
    "390x844": (390, 844, True),
    "844x390": (844, 390, True),
    "768x1024": (768, 1024, True),
    "1280x900": (1280, 900, False),
}
TARGET = 44
# The README's screens table shows these two as well (GIN_SCREENSHOTS=1): name → the pictures' suffix.
SHOTS = {"844x390": "landscape", "320x568": "320"}

# One evaluation per screen: the viewport, the page's width, and the box of every control a finger
# may need (hand cards apart: they may overlap, so each one's uncovered strip is what counts).
MEASURE = """() => {
  const visible = e => {
    const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 1 && r.height > 1 && s.visibility !== 'hidden' && !e.closest('.sr-only, [hidden]');
  };
  const box = e => { const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  const name = e => (e.id ? '#' + e.id + ' ' : '') + e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 24);
  const cards = [...document.querySelectorAll('#table .cards > li')].filter(visible);
  const strips = cards.map((li, i) => {
    const r = box(li), next = cards[i + 1] && box(cards[i + 1]);
    // A later card in the same row covers this one from its left edge on.
    const covered = next && Math.abs(next.y - r.y) < r.h / 2 && next.x > r.x ? next.x - r.x : r.w;
    return {name: name(li), w: Math.min(r.w, covered), h: r.h};
  });
  const controls = [...document.querySelectorAll(
      'header a, header summary, #table button, #table summary, #table a, #table label')]
    .filter(e => visible(e) && !e.closest('#table .cards') && !e.closest('.display-panel'))
    .map(e => ({name: name(e), ...box(e)}));
  return {width: innerWidth, height: innerHeight, scrollWidth: document.documentElement.scrollWidth,
          scrollY: scrollY, strips, controls};
}"""


@dataclass
class Screen:
    seat: Seat
    label: str
    width: int
    height: int

    def check(self, phase: str, primary: list[Locator], whole: list[Locator], shot: str = "") -> None:
        """``primary`` controls and every element of ``whole`` lie inside the viewport; 44 px targets.

        ``shot``: the README's picture of this screen, for the viewports it shows (``SHOTS``).
        """
        page = self.seat.page
        self.seat.wait_for_motion()
        if shot and self.label in SHOTS:
            self.seat.shot(shot)
        page.evaluate("window.scrollTo(0, 0)")
        m: dict[str, Any] = page.evaluate(MEASURE)
        where = f"{self.label} {phase}"
        # A phone widens its layout viewport to a page that is too wide: that is a sideways scroll too.
        assert m["scrollWidth"] <= self.width and m["width"] == self.width, (
            f"{where}: the page is {m['scrollWidth']} px wide"
        )
        assert m["height"] == self.height
        small = [c for c in m["controls"] if c["w"] < TARGET - 0.5 or c["h"] < TARGET - 0.5]
        assert small == [], f"{where}: controls under {TARGET} px: {small}"
        thin = [s for s in m["strips"] if s["w"] < TARGET - 0.5 or s["h"] < TARGET - 0.5]
        assert thin == [], f"{where}: cards with less than a {TARGET} px strip to tap: {thin}"
        cards = page.locator("#table .cards > li")
        for element in [*primary, *whole, *(cards.nth(i) for i in range(cards.count()))]:
            assert element.count() >= 1, f"{where}: missing {element}"
            for i in range(element.count()):
                b = element.nth(i).bounding_box()
                assert b is not None, f"{where}: {element} is not shown"
                inside = b["x"] >= -0.5 and b["y"] >= -0.5 and b["x"] + b["width"] <= m["width"] + 0.5
                inside = inside and b["y"] + b["height"] <= m["height"] + 0.5
                assert inside, f"{where}: {element} at {b} is outside the {m['width']}x{m['height']} viewport"


@pytest.fixture(params=list(VIEWPORTS))
def screen(request: pytest.FixtureRequest, browser: Browser, keyed_server: KeyedServer) -> Iterator[Screen]:
    width, height, touch = VIEWPORTS[request.param]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        is_mobile=touch,
        has_touch=touch,
        device_scale_factor=2 if touch else 1,
        reduced_motion="reduce",
    )
    seat = Seat(context.new_page(), keyed_server, SHOTS.get(request.param, request.param))
    yield Screen(seat, request.param, width, height)
    context.close()
    assert seat.problems == [], seat.problems


def choose(seat: Seat, name: str) -> None:
    """Select a card of the hand, as a tap does."""
    seat.choose(seat.card(name))
    expect(seat.card(name)).to_have_accessible_name(re.compile(r"^[^,]+, selected"))


def large_cards(seat: Seat) -> None:
    seat.page.goto(seat.base_url + "/rules")
    seat.page.evaluate("localStorage.setItem('gin-rummy.prefs', JSON.stringify({cards: 'large'}))")


def play_every_phase(screen: Screen, options: str = "") -> None:
    seat = screen.seat
    page = seat.page
    hand = page.get_by_role("region", name="Your hand")

    seat.load(upcard_offer())
    shots = not options  # the README's pictures are of the default cards
    screen.check(f"first upcard{options}", [seat.button("Take"), seat.button("Pass")], [hand], "upcard" * shots)

    seat.load(drawing())
    stock = page.get_by_role("button", name=re.compile("^Stock"))
    pile = page.get_by_role("button", name=re.compile("^Discard pile"))
    screen.check(f"draw{options}", [stock, pile], [hand], "draw" * shots)

    # Beside the computer's hand, the cards it took from the pile: eight of them here.
    seat.load(computer_took_many())
    took = page.locator(".took .mini")
    expect(took).to_have_count(8)
    screen.check(f"draw after the computer took 8 discards{options}", [stock, pile], [hand, took])

    seat.load(knockable())
    choose(seat, "king of clubs")
    screen.check(f"discard{options}", [seat.button("Discard"), seat.button("Knock (4)")], [hand], "discard" * shots)

    seat.press(seat.button("Knock (4)"))
    result = page.locator(".result")
    whole = [result.get_by_role("heading", level=2), result.locator(".score-line"), result.locator(".shown")]
    screen.check(f"hand result{options}", [seat.button("Next hand")], whole, "hand-result" * shots)

    # The computer's move that ended the hand is told above the result: one line more to fit.
    seat.load(computer_goes_gin())
    choose(seat, "king of clubs")
    seat.press(seat.button("Discard"))
    expect(result.locator(".last-move")).to_be_visible()
    screen.check(f"hand result after the computer's Gin{options}", [seat.button("Next hand")], whole)

    # The most a hand's result holds: a three-line move above it, eight deadwood cards and layoffs.
    seat.load(computer_knocks_on_a_poor_hand())
    choose(seat, "queen of hearts")
    seat.press(seat.button("Discard"))
    expect(result.locator(".last-move")).to_be_visible()
    screen.check(f"hand result after the computer's knock{options}", [seat.button("Next hand")], whole)

    seat.load(match_point())
    choose(seat, "king of clubs")
    seat.press(seat.button("Knock (4)"))
    screen.check(
        f"match end{options}", [seat.button("New match")], [result.locator(".match-result")], "match-end" * shots
    )


def test_every_phase_fits_the_viewport(screen: Screen) -> None:
    play_every_phase(screen)


def test_every_phase_fits_the_viewport_with_large_cards(screen: Screen) -> None:
    large_cards(screen.seat)
    play_every_phase(screen, " (large cards)")


def test_the_new_match_chooser_fits_the_viewport(screen: Screen) -> None:
    # Each level is a choice to tap, New match under them: on the first visit, and with a game to go back to.
    seat = screen.seat
    page = seat.page
    levels = page.locator("#table .levels .level")
    page.goto(seat.base_url + "/rules")
    page.evaluate("localStorage.clear()")
    seat.open()
    expect(levels).to_have_count(len(Level))
    screen.check("new-match chooser", [seat.button("New match"), levels], [page.get_by_role("heading", level=1)])
    seat.load(drawing())
    seat.press(seat.button("Start over…"))
    primary = [seat.button("New match"), levels, seat.button("Back to my game")]
    screen.check("new-match chooser with a game to go back to", primary, [])


PLAYED = 3
"""The seed of a whole match played by the Hard player on both seats: fifteen hands with undercuts,
knocks and Gins on either side, so its result screens carry long words and a full score sheet."""


def test_every_result_of_a_played_match_fits_the_viewport(screen: Screen) -> None:
    seat = screen.seat
    result = seat.page.locator(".result")
    states = played_match(PLAYED)
    ends = [i for i, state in enumerate(states) if state.phase.over]
    # The first hand of each way a hand can end (kind, knocker, winner), the last hand and the match's end.
    kinds = {(r.kind, r.knocker, r.winner): i for i in reversed(ends) for r in [states[i].history[-1]]}
    assert len(kinds) >= 6 and states[-1].phase is Phase.MATCH_OVER
    for i in sorted({*kinds.values(), *ends[-2:]}):
        state = states[i]
        seat.load(state, earlier=states[:i])
        expect(seat.button("Review this hand")).to_be_visible()
        whole = [result.get_by_role("heading", level=2), result.locator(".score-line"), result.locator(".shown")]
        if state.phase is Phase.MATCH_OVER:
            screen.check(f"hand {state.hand_number}, the match's end", [seat.button("New match")], whole)
        else:
            screen.check(f"hand {state.hand_number}'s result", [seat.button("Next hand")], whole)


def test_the_review_of_a_hand_fits_the_viewport(screen: Screen) -> None:
    seat = screen.seat
    open_review(seat)
    review = seat.page.locator("#table.review")
    primary = [seat.button("Previous"), seat.button("Next"), seat.button("Back to the game")]
    screen.check("review", primary, [review.locator(".review-counter"), review.locator(".review-move")])
    seat.button("Next").click()
    expect(seat.page.locator(".review-counter")).to_contain_text("Step 1 of")
    seat.settled()
    screen.check("review step", primary, [review.locator(".review-counter"), review.locator(".review-move")])
