"""The rules book is written twice, as the /rules page and as docs/rules.md: they must say the same."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from fastapi.testclient import TestClient

BOOK = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


_BLOCKS = {"h1", "h2", "h3", "p", "li", "dt", "dd", "summary", "tr", "td", "th"}


class _ArticleText(HTMLParser):
    """The words of the page's <article>, less its table of contents and hidden captions."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text = ""
        self.inside = False
        self.hidden: list[str] = []  # the open elements whose words are left out

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCKS:
            self.text += " "
        if tag == "article":
            self.inside = True
        elif tag in ("nav", "caption") or (tag == "a" and ("class", "btn primary") in attrs):
            self.hidden.append(tag)  # the contents, a caption for screen readers, the way back to the table

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self.inside = False
        elif self.hidden and self.hidden[-1] == tag:
            self.hidden.pop()

    def handle_data(self, data: str) -> None:
        if self.inside and not self.hidden:
            self.text += data


def _words(text: str) -> list[str]:
    return text.replace("\ufe0e", "").split()


def _book_words(markdown: str) -> list[str]:
    text = re.sub(r"<!--.*?-->", " ", markdown, flags=re.DOTALL)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)  # a link's words
    text = re.sub(r"^(#+|-|:) ", " ", text, flags=re.MULTILINE)  # headings, list items, definitions
    text = re.sub(r"^\|(-+\|)+$", " ", text, flags=re.MULTILINE)  # a table's rule
    text = re.sub(r"^\|.*$", lambda row: row.group(0).replace("|", " "), text, flags=re.MULTILINE)  # a table's cells
    text = text.replace("**", "").replace("`", "")
    text = re.sub(r"(?<![\w*])\*([^*\n]+)\*", r"\1", text)  # emphasis
    return _words(text)


def _page_words(client: TestClient) -> list[str]:
    reader = _ArticleText()
    reader.feed(client.get("/rules").text)
    return _words(reader.text)


def test_the_rules_page_and_docs_rules_md_say_the_same_word_for_word(client: TestClient) -> None:
    page, book = _page_words(client), _book_words(BOOK.read_text(encoding="utf-8"))
    assert len(page) > 1500  # the whole book, not an empty article
    first_difference = next((i for i, (a, b) in enumerate(zip(page, book, strict=False)) if a != b), None)
    where = first_difference if first_difference is not None else min(len(page), len(book))
    assert page == book, f"they part at word {where}: page {page[where : where + 12]} · book {book[where : where + 12]}"


def test_every_house_rule_and_example_is_in_the_book() -> None:
    book = BOOK.read_text(encoding="utf-8")
    assert all(f"- **R{n}** " in book for n in range(1, 21))
    assert all(f"**E{n}. " in book for n in range(1, 7))
