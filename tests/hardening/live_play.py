"""Play against a real server over loopback, as the page does, and check each answer with the engine."""

from __future__ import annotations

import re
from dataclasses import dataclass

import httpx2 as httpx

from app.engine import NEXT_HAND, Action, ActionKind, GameState, Phase, apply, legal_actions
from app.seal import Sealer
from app.web import COMPUTER, HUMAN, SavedGame, open_save, stamp

HX = {"HX-Request": "true"}
_TOKEN = re.compile(r'data-token="([^"]*)"')


@dataclass(frozen=True)
class Save:
    token: str
    saved: SavedGame

    @property
    def state(self) -> GameState:
        return self.saved.state

    @property
    def at(self) -> str:
        return stamp(self.state)

    @property
    def key_id(self) -> str:
        return self.token.split(".")[1]


def token_of(response: httpx.Response) -> str:
    found = _TOKEN.search(response.text)
    assert found, f"no token in a {response.status_code} answer:\n{response.text[:2000]}"
    return found.group(1)


def new_match(client: httpx.Client, sealer: Sealer, level: str = "easy") -> Save:
    response = client.post("/game/new", data={"level": level}, headers=HX)
    assert response.status_code == 200, response.text[:2000]
    token = token_of(response)
    return Save(token, open_save(sealer, token))


def move(client: httpx.Client, sealer: Sealer, save: Save, action: Action) -> Save:
    """Post ``action``; the answer must be the engine's result of it followed by legal computer moves."""
    response = client.post("/game/act", data={"token": save.token, "at": save.at, "action": str(action)}, headers=HX)
    assert response.status_code == 200, response.text[:2000]
    token = token_of(response)
    after = Save(token, open_save(sealer, token))
    check_successor(save.state, action, after.state)
    return after


def check_successor(before: GameState, action: Action, after: GameState) -> None:
    """Within a hand: ``after`` is ``apply(before, action)`` then computer moves, each legal when made."""
    check_replies(apply(before, action), after)


def check_replies(expected: GameState, after: GameState) -> None:
    """``after`` is ``expected`` followed by computer moves only, each legal when made, up to the person's turn."""
    assert after.deal == expected.deal
    assert after.log[: len(expected.log)] == expected.log
    for event in after.log[len(expected.log) :]:
        assert event.player == COMPUTER and expected.turn == COMPUTER and expected.phase.in_play
        reply = Action(event.kind, event.card if event.kind.throws else None)
        assert reply in legal_actions(expected), f"the computer played an illegal {reply}"
        expected = apply(expected, reply)
    assert after == expected
    # The server answers only once the computer has finished replying.
    assert not after.phase.in_play or after.turn == HUMAN, (after.phase, after.turn)


def a_move(save: Save) -> Action | None:
    """A plain legal move within the hand (never the next deal, which needs the server's shuffle)."""
    actions = [a for a in legal_actions(save.state) if a.kind is not ActionKind.NEXT_HAND]
    if not save.state.phase.in_play or not actions:
        return None
    # Prefer the stock and plain discards: hands then last long enough for many requests.
    for kind in (ActionKind.PASS, ActionKind.DRAW_STOCK, ActionKind.DISCARD):
        for action in actions:
            if action.kind is kind:
                return action
    return actions[0]


def advance(client: httpx.Client, sealer: Sealer, save: Save) -> Save:
    """One request that moves the game on, whatever its phase: a move within the hand; else the next
    hand, or a new match once this one is over. Never a no-op, whenever the computer ended the hand."""
    action = a_move(save)
    if action is not None:
        return move(client, sealer, save, action)
    before = save.state
    if before.phase is Phase.HAND_OVER:
        fields = {"token": save.token, "at": save.at, "action": str(NEXT_HAND)}
        response = client.post("/game/act", data=fields, headers=HX)
    else:
        fields = {"token": save.token, "level": save.saved.level.value}
        response = client.post("/game/new", data=fields, headers=HX)
    assert response.status_code == 200, response.text[:2000]
    token = token_of(response)
    after = Save(token, open_save(sealer, token))
    assert after.state.deal != before.deal and after.state.starter == before.next_starter  # R3
    if before.phase is Phase.HAND_OVER:
        assert after.state.hand_number == before.hand_number + 1
        if after.state.phase.in_play:
            assert after.state.scores == before.scores
        else:
            # The computer may end the new hand on its first turn (a knock or Gin straight after
            # the deal): then the scores are that new hand's.
            ended = after.state.last_hand
            assert ended is not None and ended.number == after.state.hand_number
            assert after.state.scores == ended.scores_after
    return after
