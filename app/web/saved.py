"""The saved game the browser keeps: a sealed ``SavedGame`` (state, level, format version)."""

from __future__ import annotations

import re
import secrets
import threading
import weakref
from collections import OrderedDict
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, StringConstraints, ValidationError

from app.ai import Level
from app.engine import GameState, InvalidState, PlayedHand, replay
from app.seal import Sealer, SealError

__all__ = [
    "KEPT_HANDS",
    "REMEMBERED_SAVES",
    "SAVE_FORMAT",
    "SavedGame",
    "UnreadableSave",
    "open_save",
    "seal_save",
    "stamp",
]

SAVE_FORMAT = 1
KEPT_HANDS = 40
"""The most finished hands a save keeps for review (the latest ones): a match of void hands has no end."""
# A kept hand's code (``PlayedHand.code``): checked for shape here, and replayed only when reviewed.
# No real hand's moves come near 1000 characters (31 stock draws and each turn's discard make about 130).
_PLAYED_CODE = r"^[0-9]{1,4}\.[01]\.[A-Za-z]{52}\.[0-9A-Za-z_-]{1,64}\.[A-Za-z!^+.-]{0,1000}$"
_PLAYED = re.compile(_PLAYED_CODE)


class UnreadableSave(ValueError):
    """A posted token that holds no game we can continue; ``str(error)`` is for the person."""


class SavedGame(BaseModel):
    """Everything the server needs to continue a match: it keeps nothing between requests."""

    model_config = ConfigDict(frozen=True)

    format: Literal[1]
    """Bumped when this payload changes shape, so an old save is refused with a clear message."""
    level: Level
    state: GameState
    match_id: Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{0,32}$")] = ""
    """A name for the match, so the browser can count each finished hand once and keep each deal's
    fingerprint under its own key, and the move register can keep the match's latest save. Saves
    from before it existed get one when next opened."""
    played: tuple[Annotated[str, StringConstraints(pattern=_PLAYED_CODE)], ...] = ()
    """The match's finished hands (deal and moves, ``PlayedHand.code``), for "Review this hand".
    A hand joins only once it is over: nothing of the hand being played is kept here."""

    @classmethod
    def start(cls, state: GameState, level: Level) -> SavedGame:
        # 128 random bits, drawn from no game generator (seeded tests deal as before): no two
        # matches share a register entry, and nobody can guess another's.
        started = cls(format=SAVE_FORMAT, level=level, state=state, match_id=secrets.token_hex(16))
        return started.with_state(state)  # the computer may have ended the first hand already

    def with_state(self, state: GameState) -> SavedGame:
        return self.model_copy(update={"state": state, "played": _kept(self.played, state)})

    def played_hand(self, number: int) -> PlayedHand | None:
        """Hand ``number`` of this match, if it is over and kept."""
        prefix = f"{number}."
        code = next((c for c in self.played if c.startswith(prefix)), None)
        return PlayedHand.parse(code) if code is not None else None

    @property
    def reviewable(self) -> frozenset[int]:
        """The numbers of the hands that can be reviewed."""
        return frozenset(int(c.partition(".")[0]) for c in self.played)


def _kept(played: tuple[str, ...], state: GameState) -> tuple[str, ...]:
    """``played`` with the hand ``state`` has just finished, if it has (once, and the latest ``KEPT_HANDS``)."""
    if not state.phase.over or any(c.startswith(f"{state.hand_number}.") for c in played):
        return played
    code = PlayedHand.of(state).code
    if not _PLAYED.fullmatch(code) or not _replays(code, state):
        # A hand of endless pile-taking, or a position set up by hand (a test's) whose deal and moves
        # do not lead to it: not kept, so that the save always opens and every kept hand replays.
        return played
    return (*played, code)[-KEPT_HANDS:]


def match_id_for(state: GameState) -> str:
    """The id of a match saved before ids existed: the start of its current deal's fingerprint (random,
    from the shuffle's salt). Kept for the rest of the match."""
    return state.deal.fingerprint[:16]


PAD_TO = 128
"""A sealed game's JSON is padded with spaces to a multiple of this many bytes (JSON ignores them)."""


REMEMBERED_SAVES = 1024
"""Saves each sealer remembers having sealed, the latest ones (about 18 KB each once opened)."""


class _Remembered:
    """The saves a sealer sealed lately, by token: the next move posts the token the last answer carried.

    Opening a save is decrypting it, checking its signature and validating every field of the
    game against the rules, which was a tenth of a move's time. A token that is, character for
    character, one this process sealed from a ``SavedGame`` needs none of that: it can only
    hold that save (the sealer signs what it seals), which is immutable, so it is taken as it
    is. Anything else (another worker's token, an older one, a forged one) is opened in full.
    """

    def __init__(self) -> None:
        self._saves: OrderedDict[str, SavedGame] = OrderedDict()
        self._lock = threading.Lock()  # a review's thread may read while the event loop seals

    def keep(self, token: str, saved: SavedGame) -> None:
        with self._lock:
            self._saves[token] = saved
            if len(self._saves) > REMEMBERED_SAVES:
                self._saves.popitem(last=False)

    def get(self, token: str) -> SavedGame | None:
        with self._lock:
            saved = self._saves.get(token)
            if saved is not None:
                self._saves.move_to_end(token)
            return saved


# Per sealer: a token one server's keys sealed is not a save to another server, whose keys can't open it.
_remembered: weakref.WeakKeyDictionary[Sealer, _Remembered] = weakref.WeakKeyDictionary()


def _remembered_by(sealer: Sealer) -> _Remembered:
    remembered = _remembered.get(sealer)
    if remembered is None:
        remembered = _remembered.setdefault(sealer, _Remembered())
    return remembered


def seal_save(sealer: Sealer, saved: SavedGame) -> str:
    """The sealed save; its length is a function of public facts only.

    Every card is written as two characters wherever it sits, and the sealer does not compress,
    so which cards the computer holds or the stock hides does not change the length; padding
    also rounds away the few characters that public facts (scores, counts) add at a time.
    """
    # exclude_defaults keeps the token short: most of the state's fields sit at their defaults early on.
    payload = saved.model_dump_json(exclude_defaults=True).encode()
    token = sealer.seal(payload + b" " * (-len(payload) % PAD_TO))
    if saved.match_id:  # as open_save would give it back (an id is added to a save without one)
        _remembered_by(sealer).keep(token, saved)
    return token


def open_save(sealer: Sealer, token: str) -> SavedGame:
    """The game in ``token``; ``UnreadableSave`` (with a sentence for the person) for anything else."""
    remembered = _remembered_by(sealer).get(token)
    if remembered is not None:
        return remembered
    try:
        payload = sealer.unseal(token)
    except SealError as error:
        raise UnreadableSave(str(error)) from None
    try:
        saved = SavedGame.model_validate_json(payload)
    except ValidationError:
        # Authentic but not a game this version understands (or breaks the rules): say so, never guess.
        raise UnreadableSave(
            "This saved game could not be opened: it was saved by a different version of the game."
        ) from None
    return saved if saved.match_id else saved.model_copy(update={"match_id": match_id_for(saved.state)})


def stamp(state: GameState) -> str:
    """A short name for the position a page shows, posted back with each move to catch stale pages.

    Built from public facts only (the person's ``PlayerView`` shows each of them): the deal's
    published fingerprint, how many moves were made this hand, and the phase. Within a match no
    two positions share it. It reads the state directly because every request computes it, and a
    whole view costs more than the three facts.
    """
    return f"{state.deal.fingerprint[:16]}.{len(state.log)}.{state.phase.value}"


def _replays(code: str, state: GameState) -> bool:
    # Once per hand, when it ends: a few milliseconds, against a review that could not be shown.
    try:
        last = replay(PlayedHand.parse(code))[-1]
    except InvalidState:
        return False
    return last.last_hand is not None and last.last_hand.model_dump(exclude={"scores_after"}) == (
        state.last_hand.model_dump(exclude={"scores_after"}) if state.last_hand is not None else None
    )
