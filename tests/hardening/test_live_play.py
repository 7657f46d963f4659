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
    with TestClient(create_app(Settings(keys=(key,), data_dir=tmp_path))) as client:
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
