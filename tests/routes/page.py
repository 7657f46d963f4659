"""Read a table response the way the browser and a screen reader would: buttons by accessible name.

The hand's cards are radios (choosing one is the browser's business): they are read as controls too,
with no request of their own, and ``Page.selected`` plays the browser's part. A card's moves and its
prompt line are in the page for every card; only the chosen card's count as shown.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import httpx2 as httpx

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}


def _squash(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Button:
    id: str
    post: str
    vals: dict[str, str]
    name: str
    attrs: dict[str, str]

    @property
    def card(self) -> str:
        """The card whose moves this button belongs to ("" for a move without a card)."""
        return self.attrs.get("data-card", "")


@dataclass
class Page:
    status: int
    html: str
    root: dict[str, str] = field(default_factory=dict)
    buttons: list[Button] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    announced: str = ""
    spoken: str = ""  # all text a screen reader could reach (aria-hidden parts left out)
    says: dict[str, str] = field(default_factory=dict)  # each card's prompt line while it is chosen
    default_prompt: str = ""
    selected: str = ""  # the chosen card, as the browser keeps it (checked when the page was drawn)

    @property
    def shown(self) -> list[Button]:
        """The controls on screen: the moves without a card, and the chosen card's."""
        return [b for b in self.buttons if not b.card or b.card == self.selected]

    @property
    def prompt(self) -> str:
        """The prompt line on screen: the chosen card's, if it has one."""
        return self.says.get(self.selected) or self.default_prompt

    @property
    def token(self) -> str:
        return self.root.get("data-token", "")

    @property
    def root_vals(self) -> dict[str, str]:
        return json.loads(self.root["hx-vals"]) if "hx-vals" in self.root else {}

    @property
    def message(self) -> str:
        return " ".join(self.alerts)

    def named(self, name: str) -> Button:
        found = [b for b in self.shown if b.name == name]
        assert len(found) == 1, f"expected one button named {name!r}, found {[b.name for b in self.shown]}"
        return found[0]

    def starting(self, prefix: str) -> list[Button]:
        return [b for b in self.shown if b.name.startswith(prefix)]

    def has(self, name: str) -> bool:
        return any(b.name == name for b in self.shown)

    @property
    def cards(self) -> list[Button]:
        return [b for b in self.buttons if b.id.startswith("card-")]

    @property
    def actions(self) -> set[str]:
        """The moves the page shows (every shown button that posts to /game/act)."""
        return {b.vals["action"] for b in self.shown if b.post == "/game/act"}

    @property
    def all_card_moves(self) -> dict[str, set[str]]:
        """Every card's moves as rendered (shown or not): card code → actions."""
        moves: dict[str, set[str]] = {}
        for b in self.buttons:
            if b.card:
                moves.setdefault(b.card, set()).add(b.vals["action"])
        return moves


class _Reader(HTMLParser):
    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[tuple[str, bool, dict[str, str]]] = []
        self.button: tuple[dict[str, str], list[str]] | None = None
        self.alert: list[str] | None = None
        self.alert_depth = 0
        self.announce_depth = 0
        self.spoken: list[str] = []
        self.form: tuple[str, dict[str, str]] | None = None  # a form's hx-post and its checked values so far
        self.radios: dict[str, dict[str, str]] = {}  # the hand's radios by id, until their label is read
        self.label: tuple[dict[str, str], list[str]] | None = None
        self.says: tuple[str, int, list[str]] | None = None  # a card's prompt line (code, depth, words)

    @property
    def hidden(self) -> bool:
        return any(h for _, h, _ in self.stack)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if a.get("id") == "table" and not self.page.root:
            self.page.root = a
        if tag == "form":
            self.form = (a.get("hx-post", ""), {})
        if tag == "input" and self.form is not None and "checked" in a:
            self.form[1][a.get("name", "")] = a.get("value", "")
        if tag == "input" and a.get("name") == "card":
            self.radios[a.get("id", "")] = a
            if "checked" in a:
                self.page.selected = a.get("value", "")
        if tag in VOID:
            return
        self.stack.append((tag, a.get("aria-hidden") == "true", a))
        if tag == "button":
            self.button = (a, [])
        if tag == "label" and a.get("for") in self.radios:
            # The card as one control: its radio's attributes, and the classes of the card drawn (the label).
            self.label = ({**self.radios[a["for"]], "class": a.get("class", "")}, [])
        if a.get("class") == "says":
            self.says = (a.get("id", "").removeprefix("says-"), len(self.stack), [])
        if a.get("class") == "says-none":
            self.says = ("", len(self.stack), [])
        if a.get("role") == "alert" and "hidden" not in a:
            self.alert, self.alert_depth = [], len(self.stack)
        if a.get("id") == "announce":
            self.announce_depth = len(self.stack)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        while self.stack:
            open_tag, _, _ = self.stack.pop()
            if open_tag == "button" and self.button is not None:
                attrs, text = self.button
                vals = json.loads(attrs["hx-vals"]) if "hx-vals" in attrs else {}
                post = attrs.get("hx-post", "")
                if not post and attrs.get("type") == "submit" and self.form is not None:
                    # htmx submits the enclosing form: its hx-post, with the values checked in it.
                    post, vals = self.form[0], {**self.form[1], **vals}
                self.page.buttons.append(Button(attrs.get("id", ""), post, vals, _squash("".join(text)), attrs))
                self.button = None
            if open_tag == "label" and self.label is not None:
                attrs, text = self.label
                name = _squash("".join(text))
                if "checked" in attrs:  # the page's CSS adds the word while the card is chosen
                    first, _, rest = name.partition(",")
                    name = f"{first}, selected" + (f",{rest}" if rest else "")
                self.page.buttons.append(Button(attrs.get("id", ""), "", {}, name, attrs))
                self.label = None
            if self.says is not None and len(self.stack) < self.says[1]:
                code, _, words = self.says
                if code:
                    self.page.says[code] = _squash("".join(words))
                else:
                    self.page.default_prompt = _squash("".join(words))
                self.says = None
            if self.alert is not None and len(self.stack) < self.alert_depth:
                self.page.alerts.append(_squash("".join(self.alert)))
                self.alert = None
            if self.announce_depth and len(self.stack) < self.announce_depth:
                self.announce_depth = 0
            if open_tag == "form":
                self.form = None
            if open_tag == tag:
                break

    def handle_data(self, data: str) -> None:
        if self.announce_depth:
            self.page.announced += data + " "
        if self.hidden:
            return
        self.spoken.append(data)
        if self.button is not None:
            self.button[1].append(data)
        if self.label is not None:
            self.label[1].append(data)
        if self.says is not None:
            self.says[2].append(data)
        if self.alert is not None:
            self.alert.append(data)


def read(response: httpx.Response) -> Page:
    page = Page(status=response.status_code, html=response.text)
    reader = _Reader(page)
    reader.feed(response.text)
    reader.close()
    page.spoken = _squash(" ".join(reader.spoken))
    page.announced = _squash(page.announced)
    return page


def fields(page: Page, button: Button) -> dict[str, Any]:
    """What htmx posts for ``button``: the table's hx-vals, overridden by the button's own, and the
    chosen card (which the page's script adds, so that a draw or a hint keeps it chosen)."""
    return {**page.root_vals, "selected": page.selected, **button.vals}
