"""app.web.saved: a sealed save's length tells nothing about the cards it hides.

Issue 12 measured tokens of 560, 580 or 600 characters depending on whether the computer had
thrown the card it had just drawn: compression made the length depend on hidden cards. Here,
positions from many random games are each relabelled many times: the hidden cards (the stock,
and the computer's hand but for the cards the person saw it take) are permuted consistently
everywhere they appear (the deck, the hands, the log), which leaves everything the person can see
alone. Every relabelling must seal to a token of exactly the same length.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from cryptography.fernet import Fernet

from app.ai import Level
from app.engine import ActionKind, GameState, Phase, legal_actions, replay
from app.seal import Sealer
from app.web import COMPUTER, SavedGame, UnreadableSave, open_save, seal_save, stamp
from app.web.flow import play, start_match
from app.web.saved import KEPT_HANDS, REMEMBERED_SAVES

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


def finished_match(seed: int) -> list[SavedGame]:
    """Every save of a whole match of quick play (knocking whenever offered), through ``play``."""
    rng = random.Random(seed)
    saved = start_match(Level.EASY, rng)
    found = [saved]
    while saved.state.phase is not Phase.MATCH_OVER:
        actions = legal_actions(saved.state)
        knocks = [a for a in actions if a.kind is ActionKind.KNOCK]
        saved = play(saved, knocks[0] if knocks else rng.choice(actions), rng)
        found.append(saved)
    return found


def test_a_save_keeps_each_finished_hand_once_and_never_the_hand_in_play() -> None:
    for saved in finished_match(4):
        state = saved.state
        over = {h.number for h in state.history}
        assert saved.reviewable == over  # the hand in play is not among them until it is over
        assert len(saved.played) == len(over)
        for summary in state.history:
            kept = saved.played_hand(summary.number)
            assert kept is not None
            record = replay(kept)[-1].last_hand
            assert record is not None
            assert (record.kind, record.winner, record.points) == (summary.kind, summary.winner, summary.points)
        assert saved.played_hand(state.hand_number + 1) is None


def test_kept_hands_travel_in_the_sealed_save() -> None:
    last = finished_match(5)[-1]
    assert len(last.played) >= 3
    assert open_save(SEALER, seal_save(SEALER, last)).played == last.played


def test_an_authentic_save_whose_kept_hand_is_garbled_gets_the_usual_clear_message() -> None:
    saved = finished_match(5)[-1]
    payload = saved.model_dump(mode="json")
    payload["played"] = [saved.played[0].replace(".", ":", 1)]
    with pytest.raises(UnreadableSave, match="different version"):
        open_save(SEALER, SEALER.seal(json.dumps(payload).encode()))


def test_only_the_latest_hands_are_kept() -> None:
    saved = finished_match(5)[-1]
    # Many earlier hands (renumbered copies), then the match's last hand ends once more.
    renumbered = (f"{1000 + n}{code[code.index('.') :]}" for n, code in enumerate(saved.played * 30))
    many = saved.model_copy(update={"played": tuple(renumbered)})
    assert len(many.played) > KEPT_HANDS
    kept = many.with_state(saved.state).played
    assert len(kept) == KEPT_HANDS
    assert kept[-1].startswith(f"{saved.state.hand_number}.") and kept[:-1] == many.played[-KEPT_HANDS + 1 :]


def test_a_hand_whose_code_would_not_open_again_is_not_kept() -> None:
    # A deal made elsewhere (a test's, an old save's) may carry a salt that a code cannot hold.
    last = finished_match(5)[-1]
    odd = last.state.model_copy(
        update={"deal": last.state.deal.model_copy(update={"salt": "a.b c"}), "hand_number": 77}
    )
    kept = last.with_state(odd)
    assert kept.played == last.played
    assert open_save(SEALER, seal_save(SEALER, kept)).played == last.played


def test_a_token_this_process_sealed_opens_to_the_save_it_sealed_as_a_full_opening_reads_it() -> None:
    key = Fernet.generate_key()
    sealer = Sealer([key])
    elsewhere = Sealer([key])  # the same key in another process: remembers nothing
    for seed in range(6):
        for saved in positions(seed):
            token = seal_save(sealer, saved)
            assert open_save(sealer, token) is saved  # remembered: not decrypted, not validated again
            assert open_save(elsewhere, token) == saved  # the full opening gives the very same game


def test_a_remembered_token_changed_by_one_character_or_posted_to_another_server_is_refused() -> None:
    sealer = Sealer([Fernet.generate_key()])
    saved = positions(1)[-1]
    token = seal_save(sealer, saved)
    changed = token[:-6] + ("A" if token[-6] != "A" else "B") + token[-5:]
    with pytest.raises(UnreadableSave, match="changed or damaged"):
        open_save(sealer, changed)
    with pytest.raises(UnreadableSave, match="key this one does not have"):
        open_save(Sealer([Fernet.generate_key()]), token)


def test_only_the_latest_sealed_saves_are_remembered_and_the_older_still_open() -> None:
    sealer = Sealer([Fernet.generate_key()])
    saved = positions(2)[-1]
    first = seal_save(sealer, saved)
    for _ in range(REMEMBERED_SAVES):
        latest = seal_save(sealer, saved)
    assert open_save(sealer, latest) is saved
    opened = open_save(sealer, first)
    assert opened == saved
    assert opened is not saved  # forgotten, so opened in full


def test_a_stamp_is_written_into_the_page_as_it_stands_so_it_holds_no_character_json_or_html_escapes() -> None:
    # table.html writes hx-vals='{"at": "<stamp>"}' without the tojson filter.
    rng = random.Random(5)
    saved = start_match(Level.NORMAL, rng, None)
    phases = set()
    for _ in range(400):
        at = stamp(saved.state)
        assert re.fullmatch(r"[0-9a-z._]+", at), at
        assert json.loads(f'{{"at": "{at}"}}') == {"at": at}
        phases.add(saved.state.phase)
        actions = legal_actions(saved.state)
        if not actions:
            break
        saved = play(saved, rng.choice(actions), rng)
    assert {Phase.DRAW, Phase.DISCARD} <= phases
