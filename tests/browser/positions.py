"""Games in a chosen position, sealed for a live server whose key the test knows.

The browser tests reach screens a random deal may never show in a few moves (a knock that
ends the match, a hand the computer ends) by storing such a game in the page's
localStorage, exactly as if it had been played there.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cryptography.fernet import Fernet

from app.ai import Level, choose
from app.ai.players import MARGIN_HARD, level_player
from app.engine import (
    DRAW_STOCK,
    NEXT_HAND,
    TAKE_DISCARD,
    Action,
    ActionKind,
    Card,
    GameState,
    Phase,
    apply,
    new_match,
    parse_cards,
    view,
)
from app.seal import KEY_FILE_NAME, Sealer
from app.web import SavedGame, seal_save
from devtools.live import serve
from tests.engine.states import make_state

__all__ = ["KeyedServer", "before_my_knock", "keyed_server", "position", "sealed"]


@dataclass(frozen=True)
class KeyedServer:
    base_url: str
    sealer: Sealer

    def seal(
        self, state: GameState, level: str = "normal", match_id: str = "", earlier: Sequence[GameState] = ()
    ) -> str:
        return sealed(self.sealer, state, level, match_id, earlier)


@contextmanager
def keyed_server(data_dir: Path) -> Iterator[KeyedServer]:
    """The game served with a key written in advance, so tests can seal positions for it."""
    key = Fernet.generate_key().decode()
    data_dir.mkdir(parents=True, exist_ok=True)
    (data_dir / KEY_FILE_NAME).write_text(key + "\n", encoding="ascii")
    with serve("app.main:app", data_dir) as base_url:
        yield KeyedServer(base_url, Sealer([key]))


def sealed(
    sealer: Sealer, state: GameState, level: str = "normal", match_id: str = "", earlier: Sequence[GameState] = ()
) -> str:
    """``state`` sealed as a save; ``earlier``: the match's positions before it, whose finished hands
    the save keeps for review as play would have kept them."""
    # A match of its own unless told otherwise: positions dealt alike would otherwise share one
    # in the server's move register, and each test's save would be another's older one.
    match_id = match_id or secrets.token_hex(16)
    saved = SavedGame.model_validate({"format": 1, "level": level, "state": state, "match_id": match_id})
    for before in earlier:
        if before.phase.over:
            saved = saved.with_state(before)
    return seal_save(sealer, saved.with_state(state))


def position(mine: str, theirs: str, discard: str, **options: Any) -> GameState:
    """You (player 0) hold ``mine``, the computer ``theirs``; see ``tests.engine.states.make_state``."""
    return make_state(mine, theirs, discard, **{"salt": "5eed", **options})


# The positions the browser tests visit. You are player 0.
KNOCKABLE = "7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d"
"""Runs A-2-3♠ and 7-8-9♥, the fives: discarding K♣ leaves 4 (Knock (4)), K♣ is the last card by rank."""
JUNK = "Kd Qc Jc 9c 7c 6d 2h Qh Ks Js"
"""The computer's hand: nothing melds, nothing lays off on KNOCKABLE's melds."""


def upcard_offer() -> GameState:
    """The first upcard (4♦) is offered to you; you start."""
    return position("7h 8h 2d 5c 5d Qs Ad Jd 3s Kc", JUNK, "4d", phase=Phase.UPCARD)


def drawing() -> GameState:
    """Your draw, with 8♥ on the pile making a run with 6♥ 7♥ (the hint says take it)."""
    return position("6h 7h 2c 2d 5s 9c Jd Qs Ks 4d", "Kd Qc Jc 8c 7c 6d 2h Ah Kh Js", "3c 8h", scores=(12, 31))


def knockable(scores: tuple[int, int] = (0, 0)) -> GameState:
    """Your discard, and a knock with 4 for K♣ (worth 80: the computer keeps 84 deadwood)."""
    return position(KNOCKABLE, JUNK, "Tc", phase=Phase.DISCARD, scores=scores)


def match_point() -> GameState:
    """``knockable`` at 30 to 74: the knock wins the match, 110 to 74."""
    return knockable((30, 74))


def computer_took_many(count: int = 8) -> GameState:
    """Your draw, after the computer took each of your last ``count`` discards from the pile and
    kept them: the list of the cards it took, shown beside its hand, is as long as play makes it."""
    state = position("2c 3d 4h 5s 6c 7d 8h 9s Tc Jd", JUNK, "Ac")
    for thrown in parse_cards(JUNK)[:count]:
        state = apply(state, DRAW_STOCK)
        state = apply(state, Action(ActionKind.DISCARD, state.hands[0][0]))
        state = apply(state, TAKE_DISCARD)
        state = apply(state, Action(ActionKind.DISCARD, thrown))
    return state


def computer_goes_gin() -> GameState:
    """Your discard; the computer then draws Q♠ from the stock, completing 9-10-J-Q♠, and goes Gin."""
    return position(
        "7h 8h 2d 5c 5d Qd Ad Jd 3s Kc 4d", "2c 3c 4c 6d 6h 6s 9s Ts Js Kh", "Tc",
        phase=Phase.DISCARD, stock="Qs 4h 5h 6c 7d 8d 9d", scores=(10, 5),
    )  # fmt: skip


def computer_knocks_on_a_poor_hand() -> GameState:
    """Your discard (Q♥); the computer then draws 7♣, throws it and knocks with 8 against your 37 after
    two layoffs: the longest result play leaves, eight deadwood cards of yours and three of its own."""
    return position(
        "Ad 6d 2c 5c 8c Ah 4h 4s 6s 7s Qh", "Kc Kh Ks 2d 3d 4d 5d Ac 6h As", "Tc",
        phase=Phase.DISCARD, stock="7c 9h 9d 3h Jh Jd", scores=(58, 51),
    )  # fmt: skip


# The Hard player of before issue 15's stop 28 (its knock margin of 9): its matches run long, with
# every way a hand ends (seed 3: fifteen hands). Today's Hard knocks by a fitted rule and ends a
# match against itself in fewer hands, with fewer kinds of endings (at most 5 in seeds 0 to 29).
_LONG_MATCH_PLAYER = level_player(MARGIN_HARD)


def played_match(seed: int) -> list[GameState]:
    """Every position of a whole match, in order, as the margin Hard plays it on both seats (you are
    player 0): long logs, a full score sheet and real deals, as a person's match leaves them."""
    rng = random.Random(seed)
    state = new_match(rng, starter=0)
    states = [state]
    while state.phase is not Phase.MATCH_OVER:
        action = NEXT_HAND if state.phase is Phase.HAND_OVER else _LONG_MATCH_PLAYER(view(state, state.turn), rng)
        state = apply(state, action, rng)
        states.append(state)
    return states


def before_my_knock() -> tuple[GameState, Card]:
    """A real hand (dealt and played by the Hard player on both sides, so it replays and can be
    reviewed) just before you (player 0) end it by knocking, and the card you knock with."""
    for seed in range(100):
        rng = random.Random(seed)
        state = new_match(rng, starter=0)
        before = state
        while state.phase.in_play:
            before = state
            state = apply(state, choose(view(state, state.turn), Level.HARD, rng))
        last = state.log[-1]
        if last.player == 0 and last.kind is ActionKind.KNOCK and last.card is not None and len(state.log) > 12:
            return before, last.card
    raise AssertionError("no seeded hand ends with your knock")
