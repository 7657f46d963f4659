"""How the table feels on a phone: ``python -m benchmarks.taps``.

Starts the game on a free loopback port and drives Debian's Chromium through Playwright in
the iPhone 13 profile, with the network slowed through the Chrome DevTools Protocol
(``Network.emulateNetworkConditions``, 150 ms latency) and the CPU slowed 4×
(``Emulation.setCPUThrottlingRate``). It plays whole turns through the visible controls
and prints:

- requests per turn: the game requests a turn sends (draw, choose a card, discard);
- tap-to-paint of a selection (p50/p95, target under 50 ms);
- tap-to-paint of a move (draw, discard, knock, pass, next hand) (p50/p95);
- taps lost when two cards are tapped 50 ms apart (target 0).

How a tap and its paint are timed. Every tap is a touch dispatched through CDP
(``Input.dispatchTouchEvent``: touchStart, touchEnd at the control's centre), as a finger
would make it. A script added to the page before its own (``addScriptToEvaluateOnNewDocument``,
so the page's Content-Security-Policy is untouched) notes the ``pointerdown`` event's
timestamp, then checks on every animation frame whether the screen's state shows the tap's
result (the tapped card selected; or a new table for a move). The frame in which it first
does is the one that paints it: a message posted from that frame's callback runs after the
frame's rendering, and its time minus the ``pointerdown`` time is the tap-to-paint figure.
"Of which click-to-paint" starts at the ``click`` the browser makes of the touch once the finger
lifts instead: the part after the browser's own tap gesture, which is all the page can change.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import CDPSession, Locator, Page, sync_playwright

from devtools.live import ROOT, running_server

LATENCY_MS = 150
CPU_SLOWDOWN = 4
TAP_GAP_S = 0.050
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]

# Installed before the page's scripts. ``arm`` waits for the next pointerdown, then watches each
# frame for the expected state; ``window.tapPainted`` (a Playwright binding) gets the figure.
PROBE = """
(() => {
  let armed = null;
  // A card of the hand is the element with id "card-<code>": selected by a class, or checked.
  function isSelected(code) {
    const card = document.getElementById('card-' + code);
    return !!card && card.matches('.selected, :checked');
  }
  function tableToken() {
    const t = document.getElementById('table');
    return t ? t.getAttribute('data-token') : null;
  }
  function reached() {
    if (armed.kind === 'select') return isSelected(armed.code);
    return tableToken() !== armed.token && !document.querySelector('.htmx-request');
  }
  function watch() {
    if (!armed) return;
    if (reached()) {
      const start = armed.start, click = armed.click;
      armed = null;
      // Runs after this frame's rendering: the state just found is on screen.
      const channel = new MessageChannel();
      const clicked = click === null ? -1 : click - start;
      channel.port1.onmessage = () => window.tapPainted([performance.now() - start, clicked]);
      channel.port2.postMessage(0);
      return;
    }
    requestAnimationFrame(watch);
  }
  document.addEventListener('pointerdown', (event) => {
    if (armed && armed.start === null) {
      armed.start = event.timeStamp;
      requestAnimationFrame(watch);
    }
  }, true);
  // When the browser turned the touch into a click (after the finger lifted): the part of the
  // figure that is the browser's tap gesture, before the page can do anything.
  document.addEventListener('click', (event) => {
    if (armed && armed.start !== null && armed.click === null) armed.click = event.timeStamp;
  }, true);
  window.tapProbe = {
    arm(kind, code) { armed = {kind, code, token: tableToken(), start: null, click: null}; },
    selected() {
      const card = document.querySelector('#table .cards [id^=card-]:is(.selected, :checked)');
      return card ? card.id.slice(5) : null;
    },
  };
})();
"""


@dataclass
class Figures:
    select_ms: list[float] = field(default_factory=list)
    move_ms: list[float] = field(default_factory=list)
    turn_requests: list[int] = field(default_factory=list)
    click_select_ms: list[float] = field(default_factory=list)
    click_move_ms: list[float] = field(default_factory=list)
    pairs: int = 0
    lost: int = 0


class Phone:
    def __init__(self, page: Page, cdp: CDPSession) -> None:
        self.page = page
        self.cdp = cdp
        self.painted: list[list[float]] = []  # [touch start to paint, touch start to click] per tap
        self.from_click: dict[str, list[float]] = {"select": [], "move": []}
        self.last_from_click: float | None = None
        self.requests = 0
        page.expose_function("tapPainted", lambda ms: self.painted.append(ms))
        page.on("request", self._count)

    def _count(self, request: Any) -> None:
        if request.method == "POST" and "/game/" in request.url:
            self.requests += 1

    def point(self, target: Locator) -> tuple[float, int]:
        """Where a finger touches ``target`` (scrolled into view first, as a person would)."""
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        if box is None:
            raise RuntimeError("tapped a control that is not on screen")
        return box["x"] + box["width"] / 2, round(box["y"] + min(box["height"] / 2, 30))

    def touch(self, target: Locator | tuple[float, int]) -> None:
        x, y = self.point(target) if isinstance(target, Locator) else target
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        self.cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    def timed_tap(self, target: Locator, kind: str, code: str = "") -> float:
        self.painted.clear()
        self.page.evaluate("([kind, code]) => window.tapProbe.arm(kind, code)", [kind, code])
        self.touch(target)
        deadline = time.monotonic() + 20
        while not self.painted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"the {kind} tap never showed its result")
            self.page.wait_for_timeout(10)
        self.settle()
        total, click = self.painted[0]
        self.last_from_click = total - click if click >= 0 else None
        return total

    def settle(self) -> None:
        """No request in flight, and a moment for a late one (the page's own) to start."""
        self.page.wait_for_timeout(50)
        deadline = time.monotonic() + 20
        while self.page.locator(".htmx-request").count() or self.page.locator("#table.loading").count():
            if time.monotonic() > deadline:
                raise RuntimeError("the table never settled")
            self.page.wait_for_timeout(20)

    def button(self, name: str) -> Locator:
        return self.page.get_by_role("button", name=name, exact=True)

    def hand(self) -> list[tuple[str, str, Locator]]:
        """Each card of the hand as (code, its words, the element a finger touches)."""
        items = self.page.locator("#table .cards > li")
        cards = []
        for i in range(items.count()):
            li = items.nth(i)
            code = (li.locator("[id^=card-]").first.get_attribute("id") or "").removeprefix("card-")
            cards.append((code, li.text_content() or "", li.locator("label, button").first))
        return cards

    def selected(self) -> str | None:
        code: str | None = self.page.evaluate("() => window.tapProbe.selected()")
        return code

    def step(self, target: Locator, kind: str, code: str = "") -> tuple[float, int]:
        """A timed tap, and the game requests it sent."""
        before = self.requests
        painted = self.timed_tap(target, kind, code)
        if self.last_from_click is not None:
            self.from_click[kind].append(self.last_from_click)
        return painted, self.requests - before


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def play(phone: Phone, figures: Figures, turns: int) -> None:
    played = 0
    hands = 0
    while played < turns:
        if phone.button("Next hand").count():
            hands += 1
            figures.move_ms.append(phone.step(phone.button("Next hand"), "move")[0])
            continue
        if phone.button("New match").count() and not phone.page.locator("#table .cards").count():
            break
        if phone.button("Pass").count():
            figures.move_ms.append(phone.step(phone.button("Pass"), "move")[0])
            continue
        stock = phone.page.locator("button#stock")
        if not stock.count():
            raise RuntimeError("neither a draw nor an upcard to decide on")
        drew, sent = phone.step(stock, "move")
        figures.move_ms.append(drew)
        if not phone.page.locator("#table.phase-discard").count():
            continue  # the draw ended the hand (the stock ran out)
        # Choose the discard: the last card that may go back to the pile.
        candidates = [(code, lo) for code, words, lo in phone.hand() if "can't be discarded" not in words]
        code, card = candidates[-1]
        chose, requests = phone.step(card, "select", code)
        figures.select_ms.append(chose)
        sent += requests
        # Two quick taps: another card, then the chosen one 50 ms later; the chosen one must end up selected.
        other_code, other = candidates[0]
        if other_code != code:
            first, second = phone.point(other), phone.point(card)
            phone.touch(first)
            time.sleep(TAP_GAP_S)
            phone.touch(second)
            phone.settle()
            phone.page.wait_for_timeout(LATENCY_MS * 3)  # a request still to come would have started
            phone.settle()
            figures.pairs += 1
            if phone.selected() != code:
                figures.lost += 1
                phone.timed_tap(card, "select", code)  # choose it again to go on
        knock = phone.page.get_by_role("button", name=re.compile(r"^(Knock \(\d+\)|Gin)$"))
        target = knock if knock.count() else phone.button("Discard")
        moved, requests = phone.step(target, "move")
        figures.move_ms.append(moved)
        figures.turn_requests.append(sent + requests)
        played += 1
    print(f"  played {played} turns over {hands + 1} hand(s)")


def commit() -> str:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
        )
        return out.stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", default=os.environ.get("GIN_CHROMIUM", "/usr/bin/chromium"))
    parser.add_argument("--turns", type=int, default=12, help="your turns to play (default 12)")
    parser.add_argument("--cpu", type=float, default=CPU_SLOWDOWN, help=f"CPU slowdown (default {CPU_SLOWDOWN})")
    args = parser.parse_args(argv)
    figures = Figures()
    print(f"benchmarks.taps at {commit()}: iPhone 13, {LATENCY_MS} ms latency, CPU {args.cpu:g}x slower")
    with tempfile.TemporaryDirectory() as data_dir, running_server(Path(data_dir)) as server, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(**pw.devices["iPhone 13"])
            context.add_init_script(PROBE)
            page = context.new_page()
            cdp = context.new_cdp_session(page)
            phone = Phone(page, cdp)
            page.goto(server.base_url + "/")
            page.wait_for_selector("#table:not(.loading)")
            cdp.send("Network.enable")
            cdp.send(
                "Network.emulateNetworkConditions",
                {"offline": False, "latency": LATENCY_MS, "downloadThroughput": -1, "uploadThroughput": -1},
            )
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": args.cpu})
            phone.timed_tap(phone.button("New match"), "move")
            play(phone, figures, args.turns)
            figures.click_select_ms, figures.click_move_ms = phone.from_click["select"], phone.from_click["move"]
        finally:
            browser.close()
    report(figures)
    return 0


def report(f: Figures) -> None:
    def line(name: str, values: list[float], target: str = "") -> None:
        if not values:
            return
        p50, p95 = statistics.median(values), percentile(values, 95)
        print(f"{name:34s} p50 {p50:6.0f} ms   p95 {p95:6.0f} ms   (n={len(values)}){target}")

    per_turn = statistics.mean(f.turn_requests)
    print(f"{'requests per turn':34s} {per_turn:.1f}  (draw, choose a card, discard; n={len(f.turn_requests)})")
    line("tap-to-paint, selection", f.select_ms, "   target < 50 ms")
    line("  of which click-to-paint", f.click_select_ms)
    line("tap-to-paint, move", f.move_ms)
    line("  of which click-to-paint", f.click_move_ms)
    print(f"{'taps lost, two cards 50 ms apart':34s} {f.lost} of {f.pairs}   target 0")


if __name__ == "__main__":
    sys.exit(main())
