"""Stateful fuzzing of the HTTP interface: random sequences of legal and illegal actions.

A hypothesis state machine plays through ``/game/*`` as the page would, and in between
does what a broken browser, an old tab or a hostile client would: illegal and stale moves,
old tokens, random bytes as tokens, tokens with a character changed, garbage form fields,
raw bodies of any content type, and bodies over the size limit.

After every request:

- the response is never a 5xx; it is a table (200) or a 4xx page with a message;
- after a legal move, the sealed state equals the engine's own ``apply`` of the person's
  move followed by the computer's moves, each of which was legal when made, and it is
  the person's turn again (or the hand is over);
- after anything else, the game the response carries (if any) is the one posted, unchanged.

The number of examples is printed; ``GIN_FUZZ_EXAMPLES`` raises it for a longer local run.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
    run_state_machine_as_test,
)

from app.ai import Level
from app.engine import DECK, Action, ActionKind, GameState, Phase, apply, legal_actions, new_match
from app.main import create_app
from app.routes.deps import MOVED_ON
from app.seal import Sealer
from app.settings import Settings
from app.web import COMPUTER, HUMAN, SavedGame, open_save, seal_save
from tests.hardening.live_play import Save, check_replies
from tests.routes.page import read

EXAMPLES = int(os.environ.get("GIN_FUZZ_EXAMPLES", "80"))
STEPS = 25
MAX_BODY = 16 * 1024
HX = {"HX-Request": "true"}
PATHS = ["/game/resume", "/game/new", "/game/choose", "/game/show", "/game/act"]
ALL_ACTIONS = [str(Action(kind)) for kind in ActionKind if not kind.throws] + [
    f"{kind.value} {card}" for kind in ActionKind if kind.throws for card in DECK
]
_MESSAGE_PAGE = re.compile(r'<h1 id="message-h">[^<]+</h1>\s*<p>[^<]+</p>')
# Cheaper than parsing the whole page (tests.routes.page.read), which the checks do only for refusals.
_TABLE = re.compile(r'<div id="table"')
_TOKEN = re.compile(r'data-token="([^"]*)"')

# Text a hostile client might post: anything printable, control characters, long runs, near-tokens.
garbage_text = st.one_of(
    st.text(max_size=300),
    st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
    st.from_regex(r"v[0-9]{1,3}\.[0-9a-f]{0,10}\.[A-Za-z0-9_=-]{0,200}", fullmatch=True),
)


@dataclass
class Counts:
    examples: int = 0
    steps: int = 0
    requests: int = 0
    legal_moves: int = 0


COUNTS = Counts()


# A game the server handed back, opened with the server's key.
Table = Save


class Server:
    """One app for the whole run; each example brings its own seeded generator."""

    def __init__(self, data_dir: Path) -> None:
        self.settings = Settings(keys=(Fernet.generate_key().decode(),), data_dir=data_dir, max_body_bytes=MAX_BODY)
        self.app = create_app(self.settings)
        self.sealer = Sealer.from_settings(self.settings)
        self.rng = random.Random(0)
        self.app.state.new_rng = lambda: self.rng


SERVER: Server | None = None


def is_legal(state: GameState, text: str) -> bool:
    try:
        return Action.parse(text) in legal_actions(state)
    except ValueError:
        return False


def has_message(response: Any) -> bool:
    return bool(read(response).message) or bool(_MESSAGE_PAGE.search(response.text))


class HttpGame(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        assert SERVER is not None
        self.server = SERVER
        self.client: TestClient = self.client_for(SERVER)
        self.table: Table | None = None  # what the browser's localStorage holds
        self.history: list[Table] = []  # older saves, as an old tab or a kept token would hold them
        self.latest: dict[str, Table] = {}  # what the move register holds, by match
        COUNTS.examples += 1

    @staticmethod
    def client_for(server: Server) -> TestClient:
        return CLIENTS[id(server)]

    # ----- talking to the server

    def send(self, path: str, *, htmx: bool = True, **kwargs: Any) -> Any:
        COUNTS.requests += 1
        headers = {**(HX if htmx else {}), **kwargs.pop("headers", {})}
        response = self.client.post(path, headers=headers, **kwargs)
        assert response.status_code < 500, (path, response.status_code, response.text[:2000])
        assert response.headers["content-type"].startswith("text/html"), response.headers["content-type"]
        if response.status_code >= 400:
            assert has_message(response), (response.status_code, response.text[:2000])
        elif htmx:
            assert _TABLE.search(response.text), "a 200 answer to the table is a table"
        return response

    def opened(self, response: Any) -> Table | None:
        found = _TOKEN.search(response.text)
        token = found.group(1) if found else ""
        if not token:
            return None
        return Table(token, open_save(self.server.sealer, token))

    def post_form(self, path: str, fields: dict[str, str], *, htmx: bool = True) -> Any:
        return self.send(path, data=fields, htmx=htmx)

    def fields(self, table: Table | None, **extra: str) -> dict[str, str]:
        base = {"token": table.token, "at": table.at} if table else {}
        return {**base, "sort": "rank", **extra}

    def adopt(self, table: Table) -> None:
        if self.table is not None:
            self.history.append(self.table)
        self.table = table
        self.latest[table.saved.match_id] = table

    def unchanged(self, response: Any, posted: Table | None) -> Table | None:
        """A refusal: no new game; if the page carries a game, it is the one posted (sealed afresh:
        the page stores it, and the move register now holds it as the match's latest)."""
        carried = self.opened(response)
        if carried is not None:
            assert posted is not None, "a request without a game got one"
            assert carried.state == posted.state and carried.saved.level == posted.saved.level
            if posted is self.table:
                self.adopt(carried)
        return carried

    # ----- the person's legal play

    @initialize(seed=st.integers(0, 2**32 - 1), level=st.sampled_from(["easy", "normal"]))
    def start(self, seed: int, level: str) -> None:
        self.server.rng.seed(seed)
        generator_state = self.server.rng.getstate()
        response = self.post_form("/game/new", {"level": level, "token": ""})
        assert response.status_code == 200
        table = self.opened(response)
        assert table is not None
        self.check_fresh_match(table, Level(level), None, generator_state)
        self.adopt(table)

    def check_fresh_match(self, table: Table, level: Level, previous: GameState | None, generator_state: Any) -> None:
        """A new deal from the server's generator (the starter alternating after ``previous``, R3),
        then the computer's legal replies: it may start, and may even end the first hand at once."""
        assert table.saved.level is level
        replay = random.Random()
        replay.setstate(generator_state)
        expected = new_match(replay, starter=previous.next_starter if previous is not None else None)
        check_replies(expected, table.state)

    @staticmethod
    def check_persons_turn(state: GameState) -> None:
        # The server answers only once the computer has finished replying.
        assert not state.phase.in_play or state.turn == HUMAN, (state.phase, state.turn)

    @rule(level=st.sampled_from(["easy", "normal", "hard"]), keep_token=st.booleans())
    def start_a_new_match(self, level: str, keep_token: bool) -> None:
        posted = self.table if keep_token else None
        generator_state = self.server.rng.getstate()
        response = self.post_form("/game/new", {"level": level, "token": posted.token if posted else ""})
        assert response.status_code == 200
        table = self.opened(response)
        assert table is not None
        self.check_fresh_match(table, Level(level), posted.state if posted else None, generator_state)
        self.adopt(table)

    @precondition(lambda self: self.table is not None and bool(legal_actions(self.table.state)))
    @rule(data=st.data(), selected=st.sampled_from(["", *map(str, DECK[:8])]))
    def make_a_legal_move(self, data: st.DataObject, selected: str) -> None:
        assert self.table is not None
        self.legal_move(data, selected)

    @precondition(lambda self: self.table is not None and bool(legal_actions(self.table.state)))
    @rule(data=st.data(), moves=st.integers(2, 30))
    def play_on(self, data: st.DataObject, moves: int) -> None:
        # Runs of legal moves reach the ends of hands (knocks, gin, void hands) and the match.
        for _ in range(moves):
            assert self.table is not None
            if not legal_actions(self.table.state):
                break
            self.legal_move(data, "")

    def legal_move(self, data: st.DataObject, selected: str) -> None:
        assert self.table is not None
        before = self.table
        action = data.draw(st.sampled_from(legal_actions(before.state)), label="action")
        generator_state = self.server.rng.getstate()
        response = self.post_form("/game/act", self.fields(before, action=str(action), selected=selected))
        assert response.status_code == 200, response.text[:2000]
        after = self.opened(response)
        assert after is not None
        self.check_successor(before.state, action, after.state, generator_state)
        assert after.saved.level == before.saved.level
        COUNTS.legal_moves += 1
        self.adopt(after)

    @staticmethod
    def check_successor(before: GameState, action: Action, after: GameState, generator_state: Any) -> None:
        """``after`` is the engine's result of ``action`` followed by legal computer moves only."""
        replay = random.Random()
        replay.setstate(generator_state)  # the server's generator as the move found it: the same next deal
        check_replies(apply(before, action, replay), after)

    @precondition(lambda self: self.table is not None)
    @rule(path=st.sampled_from(["/game/resume", "/game/show", "/game/choose"]), selected=garbage_text)
    def look_without_moving(self, path: str, selected: str) -> None:
        posted = self.table
        response = self.post_form(path, self.fields(posted, selected=selected))
        assert response.status_code == 200
        self.unchanged(response, posted)

    # ----- what an old tab, a double tap or a kept token sends

    @precondition(lambda self: self.table is not None)
    @rule(data=st.data())
    def make_an_illegal_move(self, data: st.DataObject) -> None:
        posted = self.table
        assert posted is not None
        state = posted.state
        legal = {str(a) for a in legal_actions(state)}
        illegal = [a for a in ALL_ACTIONS if a not in legal]
        # The near misses a real page could send: the card just taken (R10), a knock over 10 (R11),
        # a card the person does not hold, a draw when it is time to discard.
        near = [
            str(Action(k, state.taken_discard)) for k in (ActionKind.DISCARD, ActionKind.KNOCK) if state.taken_discard
        ]
        near += [a for a in illegal if a.split()[-1] in {str(c) for c in state.hands[HUMAN]}]
        choices = [st.sampled_from(illegal), garbage_text] + ([st.sampled_from(near)] if near else [])
        action = data.draw(st.one_of(*choices).filter(lambda text: not is_legal(state, text)), label="action")
        response = self.post_form("/game/act", self.fields(posted, action=action))
        assert response.status_code in (400, 409), response.status_code
        self.unchanged(response, posted)

    @precondition(lambda self: self.table is not None and any(t.at != self.table.at for t in self.history))
    @rule(data=st.data())
    def move_from_a_stale_page(self, data: st.DataObject) -> None:
        # The stored token is current but the page showed an older position: a second tab, a late tap.
        posted = self.table
        assert posted is not None
        old = data.draw(st.sampled_from([t for t in self.history if t.at != posted.at]), label="old page")
        action = data.draw(st.sampled_from(ALL_ACTIONS), label="action")
        response = self.post_form("/game/act", {**self.fields(posted, action=action), "at": old.at})
        assert response.status_code == 409
        self.unchanged(response, posted)

    @precondition(lambda self: bool(self.history))
    @rule(data=st.data())
    def replay_a_kept_token(self, data: st.DataObject) -> None:
        # The move register keeps each match's latest save: an older one is answered with the
        # latest position and a sentence, and nothing is played (the reproduction of issue 12:
        # replaying old saves revealed the stock). The latest save of an earlier match still plays.
        old = data.draw(st.sampled_from(self.history), label="old save")
        latest = self.latest[old.saved.match_id]
        actions = legal_actions(old.state)
        if not actions or old.state.phase is Phase.MATCH_OVER:
            return
        action = data.draw(st.sampled_from(actions), label="action")
        generator_state = self.server.rng.getstate()
        response = self.post_form("/game/act", self.fields(old, action=str(action)))
        after = self.opened(response)
        assert after is not None
        if old.token == latest.token:
            assert response.status_code == 200
            self.check_successor(old.state, action, after.state, generator_state)
            self.latest[old.saved.match_id] = after
            return
        assert response.status_code == 409
        assert read(response).message == MOVED_ON
        assert after.token == latest.token, "the answer carries the match's latest save, as it is"

    # ----- what a broken or hostile client sends

    @rule(path=st.sampled_from(PATHS), token=garbage_text, htmx=st.booleans())
    def post_garbage_as_the_token(self, path: str, token: str, htmx: bool) -> None:
        response = self.post_form(path, {"token": token, "action": "draw_stock", "level": "easy"}, htmx=htmx)
        if not htmx:
            assert response.status_code == 403  # not from the page's own htmx: refused before anything
            self.unchanged(response, None)
            return
        if path == "/game/new":
            assert response.status_code == 200  # a new match never needs the old one
            return
        if path == "/game/resume" and not token.strip():
            assert response.status_code == 200  # no save yet: the new-match screen
            self.unchanged(response, None)
            return
        assert 400 <= response.status_code < 500
        self.unchanged(response, None)

    @precondition(lambda self: self.table is not None)
    @rule(data=st.data(), path=st.sampled_from(["/game/resume", "/game/act", "/game/show"]))
    def change_one_character_of_the_token(self, data: st.DataObject, path: str) -> None:
        posted = self.table
        assert posted is not None
        token = posted.token
        at = data.draw(st.integers(0, len(token) - 1), label="position")
        # A shift, not a character: the seal's random nonce makes each run's token differ, and what is
        # drawn must not depend on it (hypothesis replays examples).
        shift = data.draw(st.integers(1, 94), label="shift")
        replacement = chr((ord(token[at]) - 32 + shift) % 95 + 32)  # another printable ASCII character
        changed = token[:at] + replacement + token[at + 1 :]
        response = self.post_form(path, {**self.fields(posted, action="pass"), "token": changed})
        if response.status_code < 400 or response.status_code == 409:
            # Only a change that leaves the sealed content identical may pass (an untrusted key id,
            # base64 padding bits): the server must have read exactly the game that was sealed.
            assert self.server.sealer.unseal(changed) == self.server.sealer.unseal(token), (at, replacement)
            return
        assert response.status_code == 400
        assert "could not be opened" in read(response).message
        self.unchanged(response, None)

    @rule(
        path=st.sampled_from([*PATHS, "/", "/rules", "/healthz", "/static/css/table.css", "/nowhere"]),
        fields=st.dictionaries(
            st.sampled_from(["token", "at", "action", "selected", "sort", "level"]) | st.text(),
            garbage_text,
            max_size=6,
        ),
        htmx=st.booleans(),
    )
    def post_garbage_fields(self, path: str, fields: dict[str, str], htmx: bool) -> None:
        response = self.client.post(path, data=fields, headers=HX if htmx else {})
        COUNTS.requests += 1
        assert response.status_code < 500, (response.status_code, response.text[:2000])
        if response.status_code >= 400:
            assert has_message(response) or path == "/healthz", response.text[:2000]

    @rule(
        path=st.sampled_from(PATHS),
        body=st.binary(max_size=3000),
        content_type=st.sampled_from(
            [
                "application/x-www-form-urlencoded",
                "multipart/form-data",
                "multipart/form-data; boundary=x",
                "application/json",
                "text/plain",
                "",
            ]
        ),
    )
    def post_a_raw_body(self, path: str, body: bytes, content_type: str) -> None:
        headers = {"Content-Type": content_type} if content_type else {}
        response = self.send(path, content=body, headers=headers)
        if path != "/game/new":  # a new match needs nothing posted, so it may well start one
            self.unchanged(response, None)

    @rule(extra=st.integers(1, 4 * MAX_BODY), path=st.sampled_from(PATHS), chunked=st.booleans())
    def post_an_oversized_body(self, extra: int, path: str, chunked: bool) -> None:
        posted = self.table
        filler = "x" * (MAX_BODY + extra)
        body = f"token={posted.token if posted else ''}&action=pass&selected={filler}".encode()
        # Without a length up front the server must count as the body streams in.
        content: bytes | Iterator[bytes] = (
            iter([body[i : i + 4096] for i in range(0, len(body), 4096)]) if chunked else body
        )
        headers = {"Content-Type": "application/x-www-form-urlencoded"}
        response = self.send(path, content=content, headers=headers)
        assert response.status_code == 413
        self.unchanged(response, None)

    # ----- the browser kept playing (offline play is impossible, but saves from later in a match are not)

    @rule(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 400), goal=st.sampled_from([100, 25, 10]))
    def continue_a_later_save(self, seed: int, moves: int, goal: int) -> None:
        rng = random.Random(seed)
        state = new_match(rng, target=goal)
        for _ in range(moves):
            if state.phase is Phase.MATCH_OVER:
                break
            state = apply(state, rng.choice(legal_actions(state)), rng)
        # A save always reaches the browser on the person's turn: finish the computer's part first.
        while state.phase.in_play and state.turn == COMPUTER:
            state = apply(state, rng.choice(legal_actions(state)), rng)
        # Hard thinks for up to ~100 ms a move; new matches cover it, later saves keep the run short.
        saved = SavedGame.start(state, rng.choice([Level.EASY, Level.NORMAL]))
        table = Table(seal_save(self.server.sealer, saved), saved)
        response = self.post_form("/game/resume", self.fields(table))
        assert response.status_code == 200
        carried = self.unchanged(response, table)
        assert carried is not None
        self.adopt(carried)

    @invariant()
    def the_stored_game_obeys_the_rules(self) -> None:
        COUNTS.steps += 1
        if self.table is None:
            return
        state = self.table.state
        GameState.model_validate(state.model_dump())  # 52 distinct cards, hand sizes, scores (the engine's checks)
        self.check_persons_turn(state)
        assert sum(s.points for s in state.history if s.winner is not None) == sum(state.scores)


CLIENTS: dict[int, TestClient] = {}


@pytest.fixture
def server(tmp_path: Path) -> Iterator[Server]:
    global SERVER
    SERVER = Server(tmp_path)
    with TestClient(SERVER.app) as client:
        CLIENTS[id(SERVER)] = client
        yield SERVER
    CLIENTS.clear()
    SERVER = None


def test_random_play_and_abuse_over_http(server: Server, capsys: pytest.CaptureFixture[str]) -> None:
    before = Counts(**vars(COUNTS))
    run_state_machine_as_test(
        HttpGame,
        settings=settings(
            max_examples=EXAMPLES,
            stateful_step_count=STEPS,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
        ),
    )
    ran = Counts(*(getattr(COUNTS, f) - getattr(before, f) for f in vars(COUNTS)))
    with capsys.disabled():
        print(
            f"\nHTTP fuzz: {ran.examples} examples, {ran.steps} steps, {ran.requests} requests, "
            f"{ran.legal_moves} legal moves checked against the engine"
        )
    assert ran.examples >= min(EXAMPLES, 50)
    assert ran.legal_moves > ran.examples  # the machine really played, not only abused
