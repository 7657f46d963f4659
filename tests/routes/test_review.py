"""/game/review: "Review this hand" replays a finished hand step by step with the coach's word,
changes nothing, never shows the hand in play, and refuses a bad save with the usual message."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from app.ai import Level, choose
from app.engine import Action, ActionKind, Phase, arrange, view
from app.web import HUMAN, stamp
from tests.routes.conftest import Player
from tests.routes.page import Page


def play_hand(player: Player, *, break_melds: bool = False) -> Page:
    """Play the person's side of the current hand to its end, as the Hard player would (or breaking
    made melds whenever the person holds one), pressing the page's own buttons' actions."""
    rng = random.Random(3)
    page = player.page
    assert page is not None
    while player.state.phase.in_play:
        state = player.state
        action = choose(view(state, HUMAN), Level.HARD, rng)
        if break_melds and state.phase is Phase.DISCARD:
            melded = [c for m in arrange(state.hands[HUMAN]).melds for c in m if c is not state.taken_discard]
            if melded:
                action = Action(ActionKind.DISCARD, max(melded, key=lambda c: (c.value, c.index)))
        page = player.post("/game/act", action=str(action), at=stamp(state))
        assert page.status == 200
    return page


def open_review(player: Player, page: Page) -> Page:
    review = player.press(page.named("Review this hand"))
    assert review.status == 200
    if "The coach is looking at your choices" in review.spoken:  # the verdicts come in a second request
        review = player.post("/game/review", hand=str(player.state.hand_number), step="0", coach="1")
    return review


def test_a_finished_hand_can_be_reviewed_step_by_step_and_back_to_the_game(player: Player) -> None:
    player.new_match("hard")
    result = play_hand(player)
    before, token = player.state, player.token
    review = open_review(player, result)
    assert "Review of hand 1" in review.spoken and "Step 0 of" in review.spoken
    assert "You gave" in review.spoken  # the summary line
    assert review.token == "" and player.token == token  # not a move: no new save
    steps = int(review.spoken.split("Step 0 of ")[1].split()[0])
    assert steps == len(before.log)
    page = player.press(review.named("Next"))
    assert "Step 1 of" in page.spoken and "Step 1 of" in page.announced
    page = player.press(page.named("Previous"))
    assert "Step 0 of" in page.announced
    last = player.post("/game/review", hand="1", step=str(steps))
    assert f"Step {steps} of {steps}" in last.announced
    assert last.named("Next").attrs.get("disabled") is not None
    back = player.press(last.named("Back to the game"))
    assert back.token and player.state == before


def test_breaking_made_melds_shows_mistakes_with_the_better_card(player: Player) -> None:
    player.new_match("hard")
    play_hand(player, break_melds=True)
    review = player.post("/game/review", hand="1", step="0", coach="1")
    every_step = [b for b in review.buttons if b.id.startswith("review-step-")]
    assert len(every_step) == len(player.state.log) + 1
    assert "mistake" in review.html or "blunder" in review.html
    spoken_steps = []
    for button in every_step:
        number = button.id.removeprefix("review-step-")
        page = player.post("/game/review", hand="1", step=number)
        if "better:" in page.announced:
            spoken_steps.append(page.announced)
    assert spoken_steps, "no step named a better choice"
    assert any(" a mistake, about " in s or " a blunder, about " in s for s in spoken_steps), spoken_steps


def test_the_hand_in_play_is_never_reviewable(player: Player) -> None:
    player.new_match("hard")
    play_hand(player)
    player.post("/game/act", action="next_hand", at=stamp(player.state))
    assert player.state.phase.in_play and player.state.hand_number == 2
    before = player.state
    for hand in ("2", "3", "0", "x", "99999"):
        page = player.post("/game/review", hand=hand)
        assert page.status == 409
        assert "can't be reviewed" in page.message or "not a hand" in page.message
        assert player.state == before
    assert player.post("/game/review", hand="1").status == 200


def test_a_tampered_save_gets_the_usual_message(player: Player) -> None:
    player.new_match("hard")
    play_hand(player)
    good = player.token
    player.token = good[:-8] + ("A" if good[-8] != "A" else "B") + good[-7:]
    page = player.post("/game/review", hand="1")
    assert "changed or damaged" in page.message
    assert "Review of hand" not in page.spoken


def test_a_request_from_another_site_is_refused(player: Player, client: TestClient) -> None:
    player.new_match("hard")
    play_hand(player)
    response = client.post("/game/review", data={"token": player.token, "hand": "1"})
    assert response.status_code == 403
