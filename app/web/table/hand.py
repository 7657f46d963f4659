"""The person's hand and the buttons of their move: each card a small immutable value the template draws."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import NamedTuple

from app.engine import ActionKind, Arrangement, Card, MeldKind, Phase, PlayerView, knock_kind
from app.web.table.faces import CardFace, face
from app.web.table.narration import card_prompt, knock_label
from app.words import Sentence

__all__ = ["Button", "HandCard", "Sort", "buttons", "hand_cards"]

# Alternate colours when sorting by suit (spades, hearts, clubs, diamonds) so neighbouring suits stand apart.
_SUIT_ORDER = {3: 0, 2: 1, 0: 2, 1: 3}


class Sort(StrEnum):
    """The order of the hand on screen (a display choice the browser keeps)."""

    RANK = "rank"
    SUIT = "suit"
    MELDS = "melds"  # the best arrangement's runs (in order), then its sets, then the deadwood by value

    @classmethod
    def read(cls, text: str) -> Sort:
        """The posted preference; anything unknown falls back to rank order (a display choice, not an error)."""
        return cls(text) if text in cls._value2member_map_ else cls.RANK


class Button(NamedTuple):
    """One legal action, as the button that plays it.

    Named tuples (as ``HandCard``, and the log's ``Line``) rather than frozen dataclasses: every
    answer makes one per card and move, and a tuple is made in C, where a frozen dataclass sets
    each field through ``object.__setattr__`` (2.6% of a move's instructions, issue 12).
    """

    label: str
    action: str  # Action text, e.g. "knock 9c"
    tone: str  # CSS hook: "primary", "knock", "gin", "quiet"
    id: str


class HandCard(NamedTuple):
    """One card of the person's hand, with everything its control shows.

    Choosing a card happens in the browser (the hand is a radio group): what discarding this card
    would allow is rendered with it, ``moves`` and ``says``, and the page shows the chosen card's.
    """

    face: CardFace
    selected: bool  # chosen when the page was drawn (a choice that survives a draw, a hint or a sort)
    meld: MeldKind | None
    group: int  # 1, 2, 3 …: which meld, so the page can colour each meld apart; 0 for deadwood
    fresh: bool  # the card just drawn from the stock
    taken: bool  # just taken from the discard pile: can't go back this turn (R10)
    arriving: bool = False  # drawn by the move this response answers: it flies in
    hinted: bool = False  # the hint's discard
    moves: tuple[Button, ...] = ()  # the engine's legal moves with this card: Discard, Knock (n) or Gin
    says: Sentence = ()  # the prompt while it is chosen: "Discarding 7♥ leaves 9 deadwood."

    @property
    def states(self) -> str:
        """The state words after the card's name and its choice ("selected", which the page's CSS adds): "in a run"."""
        words = []
        if self.meld:
            words.append(f"in a {self.meld}")
        if self.fresh:
            words.append("just drawn")
        if self.taken:
            words.append("just taken, can't be discarded this turn")
        return ", ".join(words)

    @property
    def states_after_name(self) -> str:
        """``states`` as it follows the name (and the choice) in the control's accessible name: ", in a run"."""
        states = self.states
        return f", {states}" if states else ""

    @property
    def classes(self) -> str:
        """The card's CSS classes for its suit and state (built here: one look-up in the template's hot loop)."""
        classes = ["card", self.face.suit_name]
        if self.meld:
            classes += ["meld", f"meld-{self.group}"]
        if self.fresh:
            classes.append("fresh")
        if self.taken:
            classes.append("taken")
        return " ".join(classes)


def _sort_key(sort: Sort, arrangement: Arrangement) -> Callable[[Card], tuple[int, ...]]:
    if sort is Sort.SUIT:
        return lambda c: (_SUIT_ORDER[c.suit], c.rank)
    if sort is Sort.MELDS:
        return _melds_first(arrangement)
    return lambda c: (c.rank, _SUIT_ORDER[c.suit])


def _melds_first(arrangement: Arrangement) -> Callable[[Card], tuple[int, ...]]:
    """The current best arrangement's runs, lowest first, each in rank order; then its sets; then the
    deadwood by its value (R4), low to high."""
    runs = sorted((m for m in arrangement.melds if m.kind is MeldKind.RUN), key=lambda m: min(c.rank for c in m))
    sets = sorted((m for m in arrangement.melds if m.kind is MeldKind.SET), key=lambda m: min(c.rank for c in m))
    place: dict[Card, tuple[int, ...]] = {}
    for number, meld in enumerate(runs + sets):
        for c in meld:
            place[c] = (0, number, c.rank, _SUIT_ORDER[c.suit])
    return lambda c: place.get(c, (1, c.value, c.rank, _SUIT_ORDER[c.suit]))


def hand_cards(
    view: PlayerView,
    arrangement: Arrangement,
    *,
    selected: Card | None,
    sort: Sort,
    leaves: dict[Card, int],
    arriving: bool = False,
    hinted: Card | None = None,
) -> tuple[HandCard, ...]:
    """The hand in display order. ``arriving``: the card just drawn (from the stock or the pile) flies in.

    ``leaves``: each discard's remaining deadwood, in the discard phase (empty otherwise).
    """
    moves = _moves_by_card(view, leaves)
    groups: dict[Card, tuple[MeldKind, int]] = {}
    for number, meld in enumerate(arrangement.melds, start=1):
        for c in meld:
            groups[c] = (meld.kind, number)
    fresh = None
    if view.phase is Phase.DISCARD and view.log and view.log[-1].kind is ActionKind.DRAW_STOCK:
        fresh = view.log[-1].card
    cards = []
    for c in sorted(view.hand, key=_sort_key(sort, arrangement)):
        is_fresh, is_taken = c is fresh, c is view.taken_discard
        kind, group = groups.get(c, (None, 0))
        cards.append(
            HandCard(
                face=face(c),
                selected=c is selected,
                meld=kind,
                group=group,
                fresh=is_fresh,
                taken=is_taken,
                arriving=arriving and (is_fresh or is_taken),
                hinted=c is hinted,
                moves=moves.get(c, ()),
                says=card_prompt(view, c, leaves) if leaves else (),
            )
        )
    return tuple(cards)


def buttons(view: PlayerView) -> tuple[Button, ...]:
    """The engine's legal actions that need no card: Take, Pass, Next hand."""
    out = []
    for action in view.legal_actions:
        kind = action.kind
        if kind is ActionKind.TAKE_UPCARD:
            out.append(Button("Take", str(action), "primary", "act-take"))
        elif kind is ActionKind.PASS:
            out.append(Button("Pass", str(action), "quiet", "act-pass"))
        elif kind is ActionKind.NEXT_HAND:
            out.append(Button("Next hand", str(action), "primary", "act-next"))
    return tuple(out)


def _moves_by_card(view: PlayerView, leaves: dict[Card, int]) -> dict[Card, tuple[Button, ...]]:
    """For each card, exactly the engine's legal discards and knocks with it (none for the card just taken, R10)."""
    out: dict[Card, tuple[Button, ...]] = {}
    for action in view.legal_actions:
        card = action.card
        if card is None or action.kind not in (ActionKind.DISCARD, ActionKind.KNOCK):
            continue
        if action.kind is ActionKind.DISCARD:
            button = Button("Discard", str(action), "primary", "act-discard")
        else:
            kept = leaves[card]
            ends = knock_kind(kept)
            button = Button(knock_label(ends, kept), str(action), ends.value, "act-knock")
        out[card] = (*out.get(card, ()), button)
    return out
