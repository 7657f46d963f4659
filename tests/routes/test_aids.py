"""The table's aids over HTTP: hints, the fair-deal data, the statistics record, motion, the Stats page."""

from __future__ import annotations

import hashlib
import json
import re

import pytest
from fastapi.testclient import TestClient

import app.ai.hint as advice
from app.ai import Level
from app.engine import Card, Phase, PlayerView
from app.seal import Sealer
from app.web import SavedGame, seal_save
from app.web.table import aids
from tests.engine.states import make_state
from tests.routes.conftest import Player
from tests.routes.page import Page
from tests.routes.test_table import assert_nothing_hidden_shows, on_an_event_loop, play_one_turn

# You: runs A-2-3♠ and 7-8-9♥, the set of fives, and K♣ 4♦ loose: discarding K♣ leaves 4 (Knock (4)).
KNOCKABLE = "7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d"
# The computer: nothing that melds or lays off on those melds (a 4-card set needs the fourth five).
JUNK = "Kd Qc Jc 9c 7c 6d 2h Qh Ks Js"
# Before the draw, with 6♥ 7♥ waiting for the 8♥ on the discard pile.
DRAWING = "6h 7h 2c 2d 5s 9c Jd Qs Ks 4d"


def attr(page: Page, name: str, within: str = "") -> str:
    html = page.html
    if within:
        html = html[html.index(within) :]
    found = re.search(rf'{name}="([^"]*)"', html)
    assert found, f"no {name} in the page"
    return found.group(1)


def hint(player: Player) -> Page:
    assert player.page is not None
    return player.press(player.page.named("Hint"))


def test_a_hint_names_the_discard_the_hard_player_would_make_and_why(player: Player) -> None:
    player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD))
    before = player.state
    page = hint(player)
    assert page.status == 200
    assert "Hint Knock with king of clubs" in page.spoken
    # Read out too: the person asked for it.
    assert "Knock with king of clubs. You keep 4 deadwood, low enough to win the hand." in page.announced
    assert "king of clubs, the hint's discard" in page.starting("king of clubs")[0].name
    assert player.state == before, "a hint is not a move"


def test_a_hint_before_the_draw_names_the_pile_and_the_discard_to_plan(player: Player) -> None:
    # 8♥ makes a run with 6♥ 7♥: the Hard player takes it, then sheds a high loose card.
    player.load(make_state(DRAWING, "Kd Qc Jc 8c 7c 6d 2h Ah Kh Js", "3c 8h"))
    page = hint(player)
    assert "Take eight of hearts, then discard" in page.announced
    assert "eight of hearts makes a run with six of hearts seven of hearts" in page.announced
    assert 'class="pile discard live hinted"' in page.html


def test_a_hint_is_worked_out_off_the_event_loop(player: Player, monkeypatch: pytest.MonkeyPatch) -> None:
    # Late in a hand Expert, the hint's adviser, plays its choices out on sampled deals (issue 15, stop 44):
    # tens of milliseconds that on the event loop would hold up every other request of the worker.
    on_loop: list[bool] = []
    work_out = advice.hint

    def watched(view: PlayerView) -> advice.Hint:
        on_loop.append(on_an_event_loop())
        return work_out(view)

    monkeypatch.setattr(aids, "hint", watched)
    player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD))
    page = hint(player)
    assert page.status == 200 and "Hint" in page.spoken
    assert on_loop == [False]


def test_the_hint_button_is_offered_only_on_your_move(player: Player) -> None:
    page = player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD))
    assert page.has("Hint")
    page = player.press(page.starting("king of clubs")[0])
    page = player.press(page.starting("Knock")[0])
    assert player.state.phase is Phase.HAND_OVER
    assert not page.has("Hint")
    # Asked for anyway (an old page): the result again, with no hint and nothing changed.
    after = player.state
    page = player.post("/game/hint")
    assert page.status == 200 and "Hint" not in page.spoken
    assert player.state == after


def test_a_hint_depends_only_on_what_the_person_can_see(player: Player, sealer: Sealer) -> None:
    """Two games that differ only in hidden cards (the computer's hand and the stock) get the same hint."""
    one = make_state(DRAWING, "Kd Qc Jc 8c 7c 6d 2h Ah Kh Js", "3c 8h")
    # The same cards hidden, dealt differently: the computer holds ten of the stock's, the stock the rest.
    hidden = (*one.stock, *one.hands[1])
    two = one.model_copy(update={"hands": (one.hands[0], hidden[:10]), "stock": hidden[10:]})
    assert set(two.hands[1]).isdisjoint(one.hands[1])
    hints = []
    for state in (one, two):
        player.load(state)
        hints.append(hint(player).announced)
    assert hints[0] == hints[1] and "Take eight of hearts" in hints[0]


def test_no_hidden_card_shows_in_any_response_of_a_played_hand_with_hints(player: Player) -> None:
    page = player.new_match("hard")
    for _ in range(60):
        if page.has("Next hand") or page.has("New match"):
            break
        assert_nothing_hidden_shows(page, player.state)
        assert "data-deal" not in page.html, "the deck order stays sealed until the hand ends"
        if page.has("Hint"):
            page = hint(player)
            assert_nothing_hidden_shows(page, player.state)
        page = play_one_turn(player)


def test_the_deal_shown_at_the_start_is_revealed_at_the_end_and_hashes_to_the_same_fingerprint(player: Player) -> None:
    page = player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD))
    dealt = attr(page, "data-fingerprint")
    assert dealt == player.state.deal.fingerprint
    assert dealt[:8] in page.spoken  # the short fingerprint is on the table
    page = player.press(page.starting("king of clubs")[0])
    page = player.press(page.starting("Knock")[0])
    revealed = attr(page, "data-deal", within='id="deal-check"')
    assert hashlib.sha256(revealed.encode()).hexdigest() == dealt
    assert revealed == player.state.deal.commitment_text
    assert "printf '%s'" in page.html and "sha256sum" in page.html


def test_each_finished_hand_carries_one_record_for_the_statistics(player: Player) -> None:
    page = player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD))
    match = attr(page, "data-match")
    assert re.fullmatch(r"[0-9a-f]{16}", match)
    page = player.press(page.starting("king of clubs")[0])
    page = player.press(page.starting("Knock")[0])
    assert attr(page, "data-match") == match, "the match keeps its id from move to move"
    record = json.loads(re.search(r"data-record='([^']*)'", page.html).group(1))  # type: ignore[union-attr]
    assert record == {
        "key": f"{match}:1", "level": "normal", "kind": "knock", "knocker": "you", "winner": "you",
        "points": record["points"], "knockerDeadwood": 4, "match": None,
    }  # fmt: skip
    assert record["points"] > 0


@pytest.mark.parametrize("level", list(Level))
def test_the_statistics_record_names_the_level_played(player: Player, level: Level) -> None:
    # Issue 15: the statistics keep results per level, so each hand's record says which it was.
    page = player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD), level=level.value)
    page = player.press(page.starting("king of clubs")[0])
    page = player.press(page.starting("Knock")[0])
    record = json.loads(re.search(r"data-record='([^']*)'", page.html).group(1))  # type: ignore[union-attr]
    assert record["level"] == level.value == player.saved.level


def test_the_match_end_record_names_the_winner_and_the_final_score(player: Player) -> None:
    page = player.load(make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD, scores=(95, 40)))
    page = player.press(page.starting("king of clubs")[0])
    page = player.press(page.starting("Knock")[0])
    assert player.state.phase is Phase.MATCH_OVER
    record = json.loads(re.search(r"data-record='([^']*)'", page.html).group(1))  # type: ignore[union-attr]
    you, computer = player.state.scores
    assert record["match"] == {"key": attr(page, "data-match"), "winner": "you", "you": you, "computer": computer}


def test_every_new_match_gets_its_own_id_and_an_old_save_gets_one_when_opened(player: Player, sealer: Sealer) -> None:
    first = attr(player.new_match(), "data-match")
    second = attr(player.new_match(), "data-match")
    assert first != second
    state = make_state(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD)
    old = SavedGame.model_validate({"format": 1, "level": "normal", "state": state})
    assert old.match_id == ""
    player.token = seal_save(sealer, old)
    page = player.post("/game/resume")
    given = attr(page, "data-match")
    assert given and player.saved.match_id == given, "the new id is sealed into the stored game"


def test_motion_is_marked_only_on_the_response_to_a_move(player: Player) -> None:
    # 4♥ tops the stock, for your next draw; the computer moves in between (it takes your 2♦ or draws).
    state = make_state("7h 8h 9h 5c 5d 5s As 2s 3s Kc 2d", JUNK, "Tc", phase=Phase.DISCARD, stock="6c 4h 8c 9d Td Jh")
    page = player.load(state)
    assert "from-cpu" not in page.html and "from-you" not in page.html
    page = player.press(page.starting("two of diamonds")[0])
    assert "from-you" not in page.html, "choosing a card moves nothing"
    page = player.press(page.named("Discard"))
    computer = [e for e in player.state.log if e.player == 1]
    if computer[0].card == Card.parse("2d"):
        assert "you-to-cpu" in page.html  # your discard went straight to the computer
    else:
        assert "from-you step-1" in page.html and "from-stock step-2" in page.html
    assert re.search(r"from-cpu step-3", page.html)
    page = player.press(page.starting("Stock")[0])
    drawn = player.state.log[-1].card
    assert drawn is not None and "arrive" in page.starting(drawn.name)[0].attrs["class"]
    drawn_page = page
    page = player.press(page.starting(drawn.name)[0])
    assert page is drawn_page and page.selected == str(drawn), "choosing a card sends nothing, so nothing moves"
    page = player.post("/game/hint", **page.root_vals, selected=page.selected)  # the same table drawn again
    assert "arrive" not in page.html and page.selected == str(drawn), "a redrawn table moves nothing, keeps the choice"


def test_the_statistics_page_asks_before_resetting(client: TestClient) -> None:
    response = client.get("/stats")
    assert response.status_code == 200
    html = response.text
    for label in ("Matches won", "Hands won", "Gins", "Knocks", "Undercuts scored", "average deadwood", "best match"):
        assert label in html
    assert 'id="reset-confirm" role="group" aria-labelledby="reset-question" hidden' in html
    assert "Yes, reset them" in html and "No, keep them" in html
    assert "window.confirm" not in html
    # The same strict policy as every page: its script is a file, and nothing is inline.
    assert "script-src 'self'" in response.headers["content-security-policy"]
    assert re.search(r'<script src="/static/js/stats\.js\?v=[0-9a-f]+" defer>', html)
    assert not re.search(r"<script(?![^>]*\bsrc=)", html) and " style=" not in html and "<style" not in html


def test_the_rules_page_lists_the_shortcuts_and_how_to_check_a_deal(client: TestClient) -> None:
    html = client.get("/rules").text
    for key in ("<kbd>S</kbd>", "<kbd>D</kbd>", "<kbd>K</kbd>", "<kbd>Enter</kbd>", "<kbd>←</kbd>", "<kbd>H</kbd>"):
        assert key in html
    assert 'id="fair-deal"' in html and "sha256sum" in html and "Deal verified" in html
