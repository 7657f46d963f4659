"""The live-play helpers move the game on whatever its phase (the restart test's flake was a helper
that made no request once the computer had ended the hand, so the game looked unchanged)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from fastapi.testclient import TestClient

from app.ai import Level, choose
from app.engine import GameState, Phase, apply, new_match, view
from app.main import create_app
from app.seal import Sealer
from app.settings import Settings
from app.web import SavedGame, seal_save
from tests.hardening.live_play import Save, advance


@pytest.fixture
def key() -> str:
    return Fernet.generate_key().decode()


@pytest.fixture
def client(key: str, tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(Settings(keys=(key,), data_dir=tmp_path))
    # Seeded deals: with the server's own randomness the computer ended the next hand on its first
    # turn about one run in five, and this test asks for a hand in play (run 5 of 20 in a loop).
    rng = random.Random(7)
    app.state.new_rng = lambda: rng
    with TestClient(app) as client:
        yield client


def _played_to(phase: Phase, seed: int) -> GameState:
    rng = random.Random(seed)
    state = new_match(rng, target=30)  # a short match, so that one ends soon
    while state.phase is not phase:
        actions = view(state, state.turn).legal_actions
        action = choose(view(state, state.turn), Level.EASY, rng) if len(actions) > 1 else actions[0]
        state = apply(state, action, rng)
    return state


@pytest.mark.parametrize("phase", [Phase.HAND_OVER, Phase.MATCH_OVER])
def test_advance_moves_on_from_a_finished_hand_or_match(client: TestClient, key: str, phase: Phase) -> None:
    sealer = Sealer([key])
    state = _played_to(phase, seed=4)
    saved = SavedGame.start(state, Level.NORMAL)
    after = advance(client, sealer, Save(seal_save(sealer, saved), saved))
    assert after.state != state
    assert after.state.phase.in_play
    assert after.state.hand_number == (state.hand_number + 1 if phase is Phase.HAND_OVER else 1)


def test_advance_accepts_a_next_hand_the_computer_ends_on_its_first_turn(key: str, tmp_path: Path) -> None:
    # Seen once in a 20-run loop with the server's own randomness: after "Next hand" the computer
    # knocked on its first turn, which also ended this short match; the helper wanted a hand in play.
    app = create_app(Settings(keys=(key,), data_dir=tmp_path))
    rng = random.Random(162398981)  # a deal where that happens, found by trying seeds
    app.state.new_rng = lambda: rng
    sealer = Sealer([key])
    state = _played_to(Phase.HAND_OVER, seed=4)
    saved = SavedGame.start(state, Level.NORMAL)
    with TestClient(app) as client:
        after = advance(client, sealer, Save(seal_save(sealer, saved), saved))
    assert after.state.phase is Phase.MATCH_OVER and after.state.hand_number == state.hand_number + 1
    assert after.state.last_hand is not None and after.state.last_hand.knocker == 1
