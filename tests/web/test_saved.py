"""app.web.saved: a sealed save's length tells nothing about the cards it hides.

Issue 12 measured tokens of 560, 580 or 600 characters depending on whether the computer had
thrown the card it had just drawn: compression made the length depend on hidden cards. Here,
positions from many random games are each relabelled many times: the hidden cards (the stock,
and the computer's hand but for the cards the person saw it take) are permuted consistently
everywhere they appear (the deck, the hands, the log), which leaves everything the person can see
alone. Every relabelling must seal to a token of exactly the same length.
"""

from __future__ import annotations

import random
import re

from cryptography.fernet import Fernet

from app.ai import Level
from app.engine import ActionKind, GameState, Phase, legal_actions
from app.seal import Sealer
from app.web import COMPUTER, SavedGame, seal_save
from app.web.flow import play, start_match

SEALER = Sealer([Fernet.generate_key()])
GAMES = 30
RELABELLINGS = 12


def hidden_cards(state: GameState) -> list[str]:
    """The cards the person cannot know the place of: the stock and the computer's unseen cards."""
    seen_taken = {str(e.card) for e in state.log if e.player == COMPUTER and e.kind is ActionKind.TAKE_DISCARD}
    seen_taken |= {str(e.card) for e in state.log if e.kind is ActionKind.TAKE_UPCARD and e.player == COMPUTER}
    return sorted({str(c) for c in state.stock} | {str(c) for c in state.hands[COMPUTER]} - seen_taken)


def relabelled(saved: SavedGame, rng: random.Random) -> SavedGame:
    hidden = hidden_cards(saved.state)
    shuffled = hidden[:]
    rng.shuffle(shuffled)
    mapping = dict(zip(hidden, shuffled, strict=True))
    text = saved.model_dump_json()
    swapped = re.sub(r'"([2-9TJQKA][cdhs])"', lambda m: f'"{mapping.get(m.group(1), m.group(1))}"', text)
    return SavedGame.model_validate_json(swapped)


def positions(seed: int) -> list[SavedGame]:
    rng = random.Random(seed)
    saved = start_match(Level.EASY, rng)  # the level changes nothing here; Easy is quickest
    found = [saved]
    while saved.state.phase is not Phase.MATCH_OVER and len(found) < 60:
        saved = play(saved, rng.choice(legal_actions(saved.state)), rng)
        found.append(saved)
    return found


def test_positions_differing_only_in_hidden_cards_seal_to_tokens_of_one_length() -> None:
    rng = random.Random(12)
    checked = 0
    for seed in range(GAMES):
        for saved in positions(seed):
            if saved.state.phase not in (Phase.UPCARD, Phase.DRAW, Phase.DISCARD):
                continue  # at a hand's end everything is revealed: nothing is hidden
            lengths = {len(seal_save(SEALER, relabelled(saved, rng))) for _ in range(RELABELLINGS)}
            lengths.add(len(seal_save(SEALER, saved)))
            assert len(lengths) == 1, (seed, saved.state.phase, sorted(lengths))
            checked += 1
    assert checked > GAMES * 10


def test_relabelling_changes_hidden_cards_and_nothing_the_person_sees() -> None:
    # The control: the relabelled positions really differ, in hidden cards only.
    from app.engine import view
    from app.web import HUMAN

    saved = positions(3)[8]
    other = relabelled(saved, random.Random(1))
    assert other.state.stock != saved.state.stock or other.state.hands[COMPUTER] != saved.state.hands[COMPUTER]
    assert view(other.state, HUMAN).model_dump(exclude={"fingerprint"}) == view(saved.state, HUMAN).model_dump(
        exclude={"fingerprint"}
    )
