"""Read a table response the way the browser and a screen reader would: buttons by accessible name."""

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


@dataclass
class Page:
    status: int
    html: str
    root: dict[str, str] = field(default_factory=dict)
    buttons: list[Button] = field(default_factory=list)
    alerts: list[str] = field(default_factory=list)
    announced: str = ""
    spoken: str = ""  # all text a screen reader could reach (aria-hidden parts left out)

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
        found = [b for b in self.buttons if b.name == name]
        assert len(found) == 1, f"expected one button named {name!r}, found {[b.name for b in self.buttons]}"
        return found[0]

    def starting(self, prefix: str) -> list[Button]:
        return [b for b in self.buttons if b.name.startswith(prefix)]

    def has(self, name: str) -> bool:
        return any(b.name == name for b in self.buttons)

    @property
    def cards(self) -> list[Button]:
        return [b for b in self.buttons if b.id.startswith("card-")]

    @property
    def actions(self) -> set[str]:
        """The moves the page offers (every button that posts to /game/act)."""
        return {b.vals["action"] for b in self.buttons if b.post == "/game/act"}


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
        if tag in VOID:
            return
        self.stack.append((tag, a.get("aria-hidden") == "true", a))
        if tag == "button":
            self.button = (a, [])
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
    """What htmx posts for ``button``: the table's hx-vals, overridden by the button's own."""
    return {**page.root_vals, **button.vals}
