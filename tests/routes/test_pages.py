"""The pages around the table: first load, rules, health, headers and size."""

from __future__ import annotations

import html
import json
import re

import pytest
from fastapi.testclient import TestClient

from app.ai import Level
from app.web.table.shortcuts import KEY_OF, SHORTCUTS
from tests.routes.conftest import HX, Player

FIRST_LOAD_BUDGET = 100 * 1024  # bytes transferred, compressed


def test_healthz(client: TestClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_first_page_asks_for_the_saved_game_once_loaded(client: TestClient) -> None:
    response = client.get("/")
    assert response.status_code == 200
    assert 'hx-post="/game/resume"' in response.text and 'hx-trigger="load"' in response.text
    assert response.headers["cache-control"] == "no-store"


def test_the_rules_page_covers_every_rule_example_and_question(client: TestClient) -> None:
    text = client.get("/rules").text
    for n in range(1, 21):
        assert f'id="r{n}"' in text and f">R{n}<" in text
    for n in range(1, 7):
        assert f'id="e{n}"' in text
    for question in (
        "What is the aim?",
        "How do I select, draw, discard and knock?",
        "Which kind of Gin Rummy is this?",
        "What should I check before a move?",
        "When may I knock?",
        "What is an Ace worth?",
        "What happens if our deadwood ties?",
        "Are layoffs automatic?",
        "Can a hand end without a winner?",
    ):
        assert question in text
    for control in ("Stock", "Discard pile", "Take", "Pass", "Discard", "Knock (6)", "Gin", "Next hand", "New match"):
        assert control in text
    assert "25 + 8 − 5 = 28" in text  # E1


def test_every_page_sends_a_strict_policy_and_holds_no_inline_code_or_third_party_address(
    client: TestClient, player: Player
) -> None:
    pages = [client.get("/"), client.get("/rules"), client.get("/nowhere")]
    player.new_match()
    pages.append(client.post("/game/resume", data={"token": player.token}, headers=HX))
    pages.append(client.post("/game/resume", data={"token": player.token}))  # the whole page, without htmx
    for response in pages:
        policy = response.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert response.headers["x-content-type-options"] == "nosniff"
        html = response.text
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), "inline script"
        assert "<style" not in html and " style=" not in html, "inline style"
        assert not re.search(r" on[a-z]+=", html), "inline event handler"
        assert not re.search(r"(src|href)=\"(https?:)?//", html), "third-party address"


def test_fragments_vary_on_hx_request_and_are_not_cached(player: Player) -> None:
    player.new_match()
    response = player.client.post("/game/resume", data={"token": player.token}, headers=HX)
    assert "HX-Request" in response.headers["vary"]
    assert response.headers["cache-control"] == "no-store"
    assert "<html" not in response.text  # just the blocks htmx swaps
    assert 'hx-swap-oob="innerHTML"' in response.text


def test_the_first_load_transfers_under_100_kb_compressed(client: TestClient) -> None:
    gzip = {"Accept-Encoding": "gzip"}
    page = client.get("/", headers=gzip)
    total = page.num_bytes_downloaded
    assets = re.findall(r'(?:src|href)="(/static/[^"]+)"', page.text)
    assert any("htmx" in a for a in assets) and any(a.endswith(".css") or ".css?" in a for a in assets)
    for asset in assets:
        response = client.get(asset, headers=gzip)
        assert response.status_code == 200, asset
        assert response.headers["cache-control"] == "public, max-age=31536000, immutable"
        total += response.num_bytes_downloaded
    assert total < FIRST_LOAD_BUDGET, total


def test_one_shortcut_table_labels_the_buttons_feeds_keys_js_and_lists_the_keys(client: TestClient) -> None:
    page = client.get("/").text
    found = re.search(r'data-shortcuts="([^"]*)"', page)
    assert found is not None
    given = json.loads(html.unescape(found.group(1)))
    assert given == {s.key: {"controls": list(s.controls), "note": s.unavailable} for s in SHORTCUTS if s.controls}
    # Every key says why it can't act now; keys.js words Enter's and K's, which depend on the selected card.
    assert all(entry["note"] for key, entry in given.items() if key not in ("Enter", "K"))
    rules = client.get("/rules").text
    for shortcut in SHORTCUTS:
        assert f"<td>{shortcut.keys}</td><td>{shortcut.does}</td>" in rules


def test_the_buttons_announce_the_shortcut_that_presses_them(player: Player) -> None:
    page = player.new_match()
    labelled = {b.id: b.attrs.get("aria-keyshortcuts") for b in page.buttons if b.attrs.get("aria-keyshortcuts")}
    assert labelled and all(KEY_OF[control] == key for control, key in labelled.items())


@pytest.mark.parametrize("path", ["/rules", "/stats"])
@pytest.mark.parametrize("encoding", ["gzip", "identity"])
def test_a_fixed_page_says_once_that_it_varies_with_accept_encoding(
    client: TestClient, path: str, encoding: str
) -> None:
    response = client.get(path, headers={"Accept-Encoding": encoding})
    assert response.status_code == 200
    assert response.headers.get_list("vary") == ["Accept-Encoding"]
    assert (response.headers.get("content-encoding") == "gzip") == (encoding == "gzip")


def test_the_statistics_page_has_a_row_and_a_choice_for_each_level(client: TestClient) -> None:
    # Issue 15: results per level; its script fills the cells from what this browser kept.
    page = client.get("/stats").text
    for level in Level:
        assert f'<tr><th scope="row">{level.label}</th><td data-level="{level.value}" data-stat="matches.both">' in page
        assert f'<option value="{level.value}">{level.label}</option>' in page
    # Hands counted before levels were kept: a row and a choice of their own, hidden until there are some.
    assert '<tr data-unrecorded hidden><th scope="row">Level not recorded</th>' in page
    assert '<option value="unrecorded" data-unrecorded hidden disabled>Level not recorded</option>' in page
