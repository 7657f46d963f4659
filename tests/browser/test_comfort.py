"""The table's comfort and trust features in a real Chromium, on a phone and on a desktop.

Card names and states, the live region, keyboard play and visible focus, reduced motion and
the card movement, no misclicks, the Display options, the fair-deal check, statistics, hints.
Each test starts from a chosen position (see ``positions``) stored in the page's localStorage.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Literal

import pytest
from playwright.sync_api import Browser, Page, Playwright, Route, expect

from app.ai import Level
from app.engine import Phase
from tests.browser.positions import (
    KeyedServer,
    computer_goes_gin,
    drawing,
    knockable,
    match_point,
    position,
    upcard_offer,
)
from tests.browser.seat import Seat
from tests.browser.table_page import VIEWPORTS, context_options


def stat(page: Page, name: str) -> Any:
    """The statistics page's figure ``name`` (its ``data-stat``), to expect things of."""
    return expect(page.locator(f'[data-stat="{name}"]'))


def open_seat(browser: Browser, playwright: Playwright, server: KeyedServer, kind: str, **options: Any) -> Seat:
    context = browser.new_context(**{**context_options(playwright, kind), **options})
    return Seat(context.new_page(), server, kind)


@pytest.fixture(params=VIEWPORTS)
def seat(
    request: pytest.FixtureRequest, browser: Browser, playwright: Playwright, keyed_server: KeyedServer
) -> Iterator[Seat]:
    # Most tests don't look at the movement: reduced motion keeps them quick. The motion tests turn it on.
    s = open_seat(browser, playwright, keyed_server, request.param, reduced_motion="reduce")
    yield s
    s.page.context.close()
    assert s.problems == [], s.problems


def test_each_card_is_a_button_named_by_card_and_state(seat: Seat) -> None:
    seat.load(knockable())
    expect(seat.card("seven of hearts")).to_have_accessible_name("seven of hearts, in a run")
    expect(seat.card("five of clubs")).to_have_accessible_name("five of clubs, in a set")
    expect(seat.card("king of clubs")).to_have_accessible_name("king of clubs")
    seat.choose(seat.card("king of clubs"))
    expect(seat.card("king of clubs")).to_have_accessible_name("king of clubs, selected")
    seat.choose(seat.card("seven of hearts"))
    expect(seat.card("seven of hearts")).to_have_accessible_name("seven of hearts, selected, in a run")


def test_the_computers_move_and_the_result_are_announced_in_the_live_region(seat: Seat) -> None:
    seat.load(computer_goes_gin())
    region = seat.page.get_by_role("status").filter(has=seat.page.locator("#announce"))
    expect(seat.page.locator("#announce")).to_have_attribute("aria-live", "polite")
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Discard"))
    announced = seat.page.locator("#announce")
    expect(announced).to_contain_text("The computer drew from the stock and went Gin, discarding king of hearts.")
    expect(announced).to_contain_text("The computer went Gin. The computer scores 25 + 55 = 80.")
    expect(announced).to_contain_text("Deal verified")
    assert region.count() == 0 or region.count() == 1


# ---- Keyboard ----


def test_a_hand_can_be_played_with_the_shortcuts_which_press_the_same_buttons(seat: Seat) -> None:
    page = seat.page
    seat.load(upcard_offer())
    page.locator("body").focus()
    seat.key("d")  # take the upcard from the discard pile
    assert seat.last_post == ("/game/act", {**seat.last_post[1], "action": "take_upcard"})
    assert seat.last_post[1]["token"], "a shortcut posts the saved game like a tap does"
    sent = len(seat.posts)
    page.keyboard.press("ArrowLeft")  # nothing chosen yet: the last card, K♣
    expect(seat.card("king of clubs")).to_have_accessible_name(re.compile("selected"))
    expect(seat.card("king of clubs")).to_be_focused()
    page.keyboard.press("ArrowLeft")  # on a card, the radio group's own arrows
    expect(seat.card("queen of spades")).to_be_checked()
    expect(seat.card("queen of spades")).to_be_focused()
    page.keyboard.press("ArrowRight")
    expect(seat.card("king of clubs")).to_be_checked()
    assert len(seat.posts) == sent, "choosing a card sends nothing"
    seat.key("Enter")  # discard the selection; the computer replies
    assert seat.last_post == ("/game/act", {**seat.last_post[1], "action": "discard Kc"})
    seat.key("s")
    assert seat.last_post[1]["action"] == "draw_stock"
    assert len(seat.card_names()) == 11
    # K knocks with the selected card; N deals the next hand.
    seat.load(knockable())
    page.locator("body").focus()
    page.keyboard.press("ArrowLeft")
    expect(seat.card("king of clubs")).to_be_checked()
    seat.key("k")
    assert seat.last_post[1]["action"] == "knock Kc"
    expect(page.locator(".result h2")).to_have_text("You knocked and won the hand.")
    seat.key("n")
    assert seat.last_post[1]["action"] == "next_hand"
    expect(page.locator(".match-info")).to_contain_text("Hand 2")


def test_p_passes_the_upcard_and_h_asks_for_a_hint(seat: Seat) -> None:
    seat.load(upcard_offer())
    seat.page.locator("body").focus()
    seat.key("h")
    assert seat.last_post[0] == "/game/hint"
    expect(seat.page.locator(".prompt.hint")).to_contain_text(re.compile(r"^Hint (Take|Pass)"))
    seat.key("p")
    assert seat.last_post[1]["action"] == "pass"


def test_a_key_that_can_do_nothing_says_why_and_sends_nothing(seat: Seat) -> None:
    seat.load(knockable())
    seat.page.locator("body").focus()
    sent = len(seat.posts)
    seat.page.keyboard.press("k")
    note = seat.page.locator("#keynote")
    expect(note).to_have_text("Choose the card to knock with first (arrow keys), then press K.")
    seat.page.keyboard.press("s")
    expect(note).to_have_text("You can't draw from the stock now.")
    assert len(seat.posts) == sent


def test_shortcuts_do_not_fire_while_typing_in_a_form_field(seat: Seat) -> None:
    seat.load(drawing())
    seat.page.locator("#display > summary").click()
    field = seat.page.get_by_role("checkbox", name="Large cards")
    field.focus()
    sent = len(seat.posts)
    for key in ("s", "d", "k", "h", "Enter", "ArrowRight"):
        seat.page.keyboard.press(key)
    seat.page.wait_for_timeout(300)  # a request, had one been sent, would be on its way by now
    assert len(seat.posts) == sent
    # Ctrl or Cmd with a letter is the browser's, not the game's.
    seat.page.locator("body").focus()
    seat.page.keyboard.press("Control+s")
    seat.page.wait_for_timeout(300)
    assert len(seat.posts) == sent


FOCUS_RING = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const s = getComputedStyle(e);
  const box = e.getBoundingClientRect();
  return {name: (e.id || e.tagName) + ' ' + e.textContent.trim().slice(0, 20), style: s.outlineStyle,
          width: parseFloat(s.outlineWidth), visible: box.width > 0 && box.height > 0};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_focus_is_always_visible_and_follows_the_play(seat: Seat, scheme: Literal["light", "dark"]) -> None:
    seat.page.emulate_media(color_scheme=scheme)
    seat.load(knockable())
    seen = 0
    for _ in range(40):
        seat.page.keyboard.press("Tab")
        ring = seat.page.evaluate(FOCUS_RING)
        if ring is None:
            continue
        seen += 1
        assert ring["style"] != "none" and ring["width"] >= 2, ring
        assert ring["visible"], ring
    assert seen >= 15
    # Enter on a card selects it (in the page); Enter on Discard plays it, and focus lands on the next thing to press.
    seat.card("king of clubs").focus()
    seat.page.keyboard.press("Enter")
    expect(seat.card("king of clubs")).to_be_checked()
    expect(seat.card("king of clubs")).to_be_focused()
    seat.button("Discard").focus()
    seat.key("Enter")
    expect(seat.page.locator("button#stock")).to_be_focused()


# ---- Motion ----

# Each moving element's animation and delay, read from its computed style (not from running animations,
# which a slow machine may already have finished).
MOVES = """() => Object.fromEntries(
  [...document.querySelectorAll('.from-cpu, .from-you, .flight, .arrive')].map(e => {
    const s = getComputedStyle(e);
    const kind = ['from-cpu', 'from-you', 'you-to-cpu', 'arrive'].find(c => e.classList.contains(c)) || 'flight';
    return [kind, [s.animationName.split(',')[0], Math.round(parseFloat(s.animationDelay) * 100) / 100]];
  }))"""


def test_cards_move_to_their_places_and_the_computers_move_shows_before_the_result(
    browser: Browser, playwright: Playwright, keyed_server: KeyedServer
) -> None:
    for kind in VIEWPORTS:
        seat = open_seat(browser, playwright, keyed_server, kind, reduced_motion="no-preference")
        seat.load(knockable())
        seat.choose(seat.card("four of diamonds"))
        seat.press(seat.button("Discard"))
        # In order: your discard flies to the pile (step 1), the computer draws (2), its discard lands (3).
        moves = seat.page.evaluate(MOVES)
        assert moves["from-cpu"] == ["from-cpu", 0.76], moves
        assert moves.get("from-you") == ["from-you", 0] or moves.get("you-to-cpu") == ["you-to-cpu", 0], moves
        seat.press(seat.button(re.compile("^Stock")))
        assert seat.page.evaluate(MOVES)["arrive"] == ["arrive", 0]
        # The computer ends the hand: its move is shown first, the result settles after it.
        seat.load(computer_goes_gin())
        seat.choose(seat.card("king of clubs"))
        seat.press(seat.button("Discard"))
        expect(seat.page.locator(".last-move")).to_contain_text("The computer drew from the stock and went Gin")
        headline = seat.page.locator(".result .result-head")  # the headline and the score line
        expect(headline).to_have_css("animation-name", "settle-in")
        assert float(headline.evaluate("e => parseFloat(getComputedStyle(e).animationDelay)")) >= 0.5
        seat.page.context.close()
        assert seat.problems == [], seat.problems


def test_no_movement_under_reduced_motion_or_when_turned_off(
    browser: Browser, playwright: Playwright, keyed_server: KeyedServer
) -> None:
    for kind, options in (("phone", {"reduced_motion": "reduce"}), ("desktop", {"reduced_motion": "no-preference"})):
        seat = open_seat(browser, playwright, keyed_server, kind, **options)
        seat.load(knockable())
        if kind == "desktop":
            # The Display menu's own switch, for people whose device does not say.
            seat.page.locator("#display > summary").click()
            seat.page.get_by_role("checkbox", name="No card movement").check()
            seat.page.locator("#display > summary").click()
        seat.choose(seat.card("four of diamonds"))
        seat.press(seat.button("Discard"))
        assert all(name == "none" for name, _ in seat.page.evaluate(MOVES).values())
        assert seat.page.evaluate("document.getAnimations().length") == 0
        # Nothing is left invisible or in mid-air: the pile shows its top card.
        expect(seat.page.locator("#discard-pile .pile-card:not(.under):not(.flight)")).to_have_css("opacity", "1")
        seat.page.context.close()


# ---- The computer thinking ----

# Press a move and, in the same task (no time passes), read the cue: shown or not, and how long its
# appearance waits. The press is what a tap does: htmx sends the move and marks the button.
PRESS_AND_READ_CUE = """button => {
  button.click();
  const cue = document.querySelector('#table .thinking');
  const wait = cue.getAnimations().find(a => a.transitionProperty === 'visibility');
  return {visibility: getComputedStyle(cue).visibility, delay: wait ? wait.effect.getTiming().delay / 1000 : null};
}"""


@pytest.mark.parametrize("level", [Level.EXPERT, Level.NORMAL])
def test_thinking_shows_only_when_the_answer_takes_longer_than_a_blink(seat: Seat, level: Level) -> None:
    # Held on its way (Playwright's route), the move keeps the computer "thinking" as long as the test
    # likes: no race with the server's answer.
    held: list[Route] = []

    def hold(route: Route) -> None:
        held.append(route)

    seat.page.route("**/game/act", hold)
    seat.load(knockable(), level=level.value)
    cue = seat.page.locator("#table .thinking")
    expect(cue).to_be_hidden()
    seat.choose(seat.card("four of diamonds"))
    before = seat.token
    pressed = seat.button("Discard").evaluate(PRESS_AND_READ_CUE)
    # At the press it does not show yet: it waits longer than the quicker levels' whole reply (their
    # floors are above their slowest decisions), so a Normal move is answered before it could show,
    # and less than Expert's floor, so every Expert reply shows it, whatever its cards.
    assert pressed["visibility"] == "hidden"
    delay = pressed["delay"]
    assert delay is not None
    assert (level.reply_seconds > delay) == (level is Level.EXPERT)
    assert all(other.reply_seconds < delay for other in Level if other is not Level.EXPERT)
    expect(cue).to_be_visible()  # still on its way after the delay: the computer is shown thinking
    expect(cue).to_have_text("Thinking…")
    expect(seat.page.locator("#table .count-words")).to_be_hidden()  # in the count's place
    assert len(held) == 1
    held[0].continue_()
    seat.page.unroute("**/game/act")
    seat.wait_for_new_table(before)
    expect(seat.page.locator("#table .count-words")).to_be_visible()
    expect(cue).to_be_hidden()
    # Moves that keep the turn (a draw) never show it, however long they take.
    before = seat.token
    seat.page.route("**/game/act", hold)
    seat.button(re.compile("^Stock")).click()
    seat.page.wait_for_timeout(400)  # well past the cue's delay while the draw is held
    expect(cue).to_be_hidden()
    held[1].continue_()
    seat.page.unroute("**/game/act")
    seat.wait_for_new_table(before)


# ---- No misclicks ----


def test_a_tap_on_the_hand_only_chooses_and_knock_stands_apart_from_discard(seat: Seat) -> None:
    seat.load(knockable())
    card = seat.card("king of clubs")
    seat.posts.clear()
    card.dblclick()  # chosen, then put back: a second tap on the chosen card unchooses it
    expect(card).not_to_be_checked()
    seat.page.wait_for_timeout(300)  # a request, had one been sent, would be on its way by now
    assert seat.posts == [], "choosing a card sends nothing"
    assert len(seat.card_names()) == 11, "no card left the hand"
    seat.choose(card)
    discard = seat.button("Discard").bounding_box()
    knock = seat.button("Knock (4)").bounding_box()
    assert discard and knock
    gap = knock["x"] - (discard["x"] + discard["width"]) if knock["y"] < discard["y"] + discard["height"] else 99
    assert gap >= 40, f"Knock is {gap}px from Discard"
    colours = [seat.button(n).evaluate("e => getComputedStyle(e).backgroundColor") for n in ("Discard", "Knock (4)")]
    assert colours[0] != colours[1]


# ---- Display options ----


def test_display_options_apply_at_once_persist_and_follow_the_device_theme(seat: Seat) -> None:
    page = seat.page
    html = page.locator("html")
    page.emulate_media(color_scheme="dark")
    seat.load(knockable())
    expect(html).to_have_attribute("data-theme", "dark")
    page.emulate_media(color_scheme="light")
    expect(html).to_have_attribute("data-theme", "light")  # "Like this device" follows a change at once
    width = seat.card("king of clubs").bounding_box()
    assert width
    page.locator("#display > summary").click()
    page.get_by_role("radio", name="Dark").check()
    page.get_by_role("checkbox", name="Four-colour deck").check()
    page.get_by_role("checkbox", name="Large cards").check()
    expect(html).to_have_attribute("data-theme", "dark")
    drawn = seat.page.locator("#table .cards label")  # the cards as drawn (each radio's label)
    expect(drawn.filter(has_text="king of clubs")).to_have_css("color", "rgb(18, 119, 58)")  # clubs green
    expect(drawn.filter(has_text="four of diamonds")).to_have_css("color", "rgb(31, 95, 191)")  # diamonds blue
    larger = seat.card("king of clubs").bounding_box()
    assert larger and larger["width"] > width["width"]
    seat.shot("options-dark")
    page.keyboard.press("Escape")
    expect(page.locator("#display")).not_to_have_attribute("open", "")
    # Kept in localStorage, and on <html> before the page is drawn: the script in <head> runs before the body.
    page.reload(wait_until="domcontentloaded")
    assert page.evaluate("[document.documentElement.dataset.theme, document.documentElement.dataset.deck]") == [
        "dark", "four",
    ]  # fmt: skip
    blocking = "[...document.querySelectorAll('head script:not([defer])')].map(s => s.src.split('?')[0])"
    assert [src.rsplit("/", 1)[1] for src in page.evaluate(blocking)] == ["store.js", "prefs.js"]
    seat.settled()
    page.emulate_media(color_scheme="light")
    expect(html).to_have_attribute("data-theme", "dark")  # a chosen theme stays, whatever the device says


# ---- The fair deal ----


def test_the_deal_is_verified_at_the_end_of_the_hand(seat: Seat) -> None:
    seat.load(knockable())
    shown = seat.page.locator(".deal-print code").inner_text()
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Knock (4)"))
    status = seat.page.locator("#deal-status")
    expect(status).to_contain_text(f"Deal verified: the deck and salt revealed now give the fingerprint {shown}")
    expect(status).to_have_attribute("data-verdict", "verified")
    expect(seat.page.locator("#deal-verdict")).to_have_text("Deal verified ✓")
    seat.page.get_by_text("Deal verified ✓").click()
    expect(seat.page.locator(".deal-command")).to_contain_text("| sha256sum")


def test_a_deal_that_differs_from_its_fingerprint_is_reported_plainly(seat: Seat) -> None:
    seat.load(knockable())
    # As if the fingerprint shown at the deal had been another: the one this browser kept is what counts.
    key = seat.page.get_attribute("#table", "data-hand")
    seat.page.evaluate(
        """key => { const d = JSON.parse(localStorage.getItem('gin-rummy.deals'));
                    d.prints[key] = 'f'.repeat(64); localStorage.setItem('gin-rummy.deals', JSON.stringify(d)); }""",
        key,
    )
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Knock (4)"))
    status = seat.page.locator("#deal-status")
    expect(status).to_contain_text("Deal check failed")
    expect(status).to_contain_text("but this hand was dealt under ffffffffffffffff")
    expect(status).to_have_attribute("data-verdict", "failed")
    expect(seat.page.locator("#deal-verdict")).to_have_text("Deal check failed ✗")
    expect(seat.page.locator("#deal-check")).to_have_attribute("open", "")


# ---- Statistics ----


def test_statistics_count_each_hand_once_and_reset_only_when_confirmed(seat: Seat) -> None:
    page = seat.page
    seat.load(match_point())
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Knock (4)"))
    # Reloads and repeated swaps of the same result count nothing more.
    page.reload()
    seat.settled()
    page.reload()
    seat.settled()
    page.goto(seat.base_url + "/stats")

    stat(page, "hands.you").to_have_text("1")
    stat(page, "hands.computer").to_have_text("0")
    stat(page, "knocks.you").to_have_text("1")
    stat(page, "matches.you").to_have_text("1")
    stat(page, "knockAverage").to_have_text("4.0 over 1 knock")
    stat(page, "best").to_have_text("Won 110 to 74")
    expect(page.locator("#stats-empty")).to_be_hidden()
    # Reset asks first, in the page; "No" keeps everything.
    page.get_by_role("button", name="Reset statistics…").click()
    expect(page.locator("#reset-question")).to_be_focused()
    page.get_by_role("button", name="No, keep them").click()
    stat(page, "hands.you").to_have_text("1")
    expect(page.get_by_role("button", name="Reset statistics…")).to_be_focused()
    page.get_by_role("button", name="Reset statistics…").click()
    page.get_by_role("button", name="Yes, reset them").click()
    stat(page, "hands.you").to_have_text("0")
    stat(page, "best").to_have_text("No match finished yet")
    expect(page.get_by_role("status").filter(has_text="Statistics reset to zero.")).to_be_visible()
    # The result screen shown again is not counted again.
    page.goto(seat.base_url + "/")
    seat.settled()
    page.goto(seat.base_url + "/stats")
    stat(page, "hands.you").to_have_text("0")


def test_undercuts_gins_and_the_computers_wins_are_counted(seat: Seat) -> None:
    # Each result is left as soon as it is shown, with htmx's settle (20 ms by default) slowed to a
    # second, as on a slow phone: a hand is counted when its result is swapped in, not after the settle
    # (counted after it, a page left within those milliseconds lost the hand).
    slow_settle = "htmx.config.defaultSettleDelay = 1000"
    seat.load(computer_goes_gin())
    seat.page.evaluate(slow_settle)
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Discard"))
    # An undercut against you: you knock with 8, the computer keeps 2 (R19).
    mine, theirs = "2s 3s 4s 7c 7d 7h 9h 9c 9d 8c Kd", "Ah Ad Ac 5h 5d 5c Th Jh Qh 2d"
    seat.load(position(mine, theirs, "4d 2h", phase=Phase.DISCARD))
    seat.page.evaluate(slow_settle)
    seat.choose(seat.card("king of diamonds"))
    seat.press(seat.button("Knock (8)"))
    seat.page.goto(seat.base_url + "/stats")
    counts = {"gins.computer": "1", "undercuts.computer": "1", "hands.computer": "2", "knocks.you": "1"}
    for name, value in counts.items():
        expect(seat.page.locator(f'[data-stat="{name}"]')).to_have_text(value)


def test_statistics_are_kept_per_level_and_those_kept_before_levels_are_not_lost(seat: Seat) -> None:
    page = seat.page
    # Statistics as the page kept them before levels were (format 1): 2 hands to 1, a match won 104 to 40.
    before = {
        "version": 1, "hands": {"you": 2, "computer": 1, "void": 0}, "matches": {"you": 1, "computer": 0},
        "gins": {"you": 0, "computer": 1}, "knocks": {"you": 2, "computer": 0}, "undercuts": {"you": 0, "computer": 0},
        "knockDeadwood": {"total": 8, "count": 2}, "best": {"you": 104, "computer": 40},
        "counted": ["old:1", "old:2", "old:3", "match:old"],
    }  # fmt: skip
    page.goto(seat.base_url + "/rules")
    page.evaluate("s => localStorage.setItem('gin-rummy.stats', JSON.stringify(s))", before)
    seat.load(match_point(), level=Level.EXPERT.value)  # your knock wins it 110 to 74, against Expert
    seat.choose(seat.card("king of clubs"))
    seat.press(seat.button("Knock (4)"))
    page.goto(seat.base_url + "/stats")

    def row(label: str) -> Any:
        return page.locator(".stats-levels tbody tr").filter(has=page.get_by_role("rowheader", name=label))

    for level in Level:
        matches, hands = ("1 to 0", "1 to 0") if level is Level.EXPERT else ("0 to 0", "0 to 0")
        expect(row(level.label).locator("td")).to_have_text([matches, hands])
    expect(row("Level not recorded").locator("td")).to_have_text(["1 to 0", "2 to 1"])

    # All levels, the older hands included.
    stat(page, "hands.you").to_have_text("3")
    stat(page, "matches.you").to_have_text("2")
    stat(page, "knockAverage").to_have_text("4.0 over 3 knocks")
    stat(page, "best").to_have_text("Won 104 to 40")
    chooser = page.get_by_role("combobox", name="Show")
    chooser.select_option(label="Expert")
    stat(page, "hands.you").to_have_text("1")
    stat(page, "knockAverage").to_have_text("4.0 over 1 knock")
    stat(page, "best").to_have_text("Won 110 to 74")
    chooser.select_option(label="Level not recorded")
    stat(page, "gins.computer").to_have_text("1")
    stat(page, "best").to_have_text("Won 104 to 40")
    chooser.select_option(label="Normal")
    stat(page, "hands.you").to_have_text("0")
    stat(page, "best").to_have_text("No match finished yet")
    # A reset empties every level; with nothing from before, that row and choice are gone.
    page.get_by_role("button", name="Reset statistics…").click()
    page.get_by_role("button", name="Yes, reset them").click()
    expect(row("Level not recorded")).to_be_hidden()
    expect(row("Expert").locator("td")).to_have_text(["0 to 0", "0 to 0"])
    expect(chooser.locator("option[value=unrecorded]")).to_be_disabled()


# ---- Hints ----


def test_a_hint_suggests_the_draw_and_the_discard_with_a_reason(seat: Seat) -> None:
    seat.load(drawing())
    seat.press(seat.button("Hint"))
    hint = seat.page.locator(".prompt.hint")
    # The words a screen reader says (glyphs for the eye are beside them, hidden from it).
    expect(hint).to_contain_text("Take 8♥︎eight of hearts, then discard")
    expect(hint).to_contain_text("eight of hearts makes a run with 6♥︎six of hearts 7♥︎seven of hearts")
    expect(seat.page.locator("#discard-pile")).to_have_class(re.compile("hinted"))
    seat.load(knockable())
    seat.press(seat.button("Hint"))
    expect(hint).to_contain_text("Knock with K♣︎king of clubs.")
    expect(seat.card("king of clubs")).to_have_accessible_name("king of clubs, the hint's discard")
    expect(seat.page.locator("#announce")).to_contain_text("Knock with king of clubs.")
