"""The person's hand and the buttons of their move: each card a small frozen value the template draws."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from app.engine import ActionKind, Arrangement, Card, MeldKind, Phase, PlayerView, knock_kind
from app.web.table.faces import CardFace, face
from app.web.table.narration import knock_label

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


@dataclass(frozen=True, slots=True)
class HandCard:
    """One card of the person's hand, with everything its button shows."""

    face: CardFace
    selected: bool
    meld: MeldKind | None
    group: int  # 1, 2, 3 …: which meld, so the page can colour each meld apart; 0 for deadwood
    fresh: bool  # the card just drawn from the stock
    taken: bool  # just taken from the discard pile: can't go back this turn (R10)
    arriving: bool = False  # drawn by the move this response answers: it flies in
    hinted: bool = False  # the hint's discard

    @property
    def states(self) -> str:
        """The state words after the card's name: "selected, in a run"."""
        words = []
        if self.selected:
            words.append("selected")
        if self.meld:
            words.append(f"in a {self.meld}")
        if self.fresh:
            words.append("just drawn")
        if self.taken:
            words.append("just taken, can't be discarded this turn")
        return ", ".join(words)

    @property
    def states_after_name(self) -> str:
        """``states`` as it follows the name in the button's accessible name: ", selected, in a run"."""
        states = self.states
        return f", {states}" if states else ""

    @property
    def classes(self) -> str:
        """The button's CSS classes for its suit and state (built here: one look-up in the template's hot loop)."""
        classes = ["card", self.face.suit_name]
        if self.selected:
            classes.append("selected")
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
    arriving: bool = False,
    hinted: Card | None = None,
) -> tuple[HandCard, ...]:
    """The hand in display order. ``arriving``: the card just drawn (from the stock or the pile) flies in."""
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
            )
        )
    return tuple(cards)


@dataclass(frozen=True, slots=True)
class Button:
    """One legal action, as the button that plays it."""

    label: str
    action: str  # Action text, e.g. "knock 9c"
    tone: str  # CSS hook: "primary", "knock", "gin", "quiet"
    id: str


def buttons(view: PlayerView, selected: Card | None, leaves: dict[Card, int]) -> tuple[Button, ...]:
    """Exactly the engine's legal actions that make sense to offer now (for the selected card, if any)."""
    out = []
    for action in view.legal_actions:
        kind = action.kind
        if kind is ActionKind.TAKE_UPCARD:
            out.append(Button("Take", str(action), "primary", "act-take"))
        elif kind is ActionKind.PASS:
            out.append(Button("Pass", str(action), "quiet", "act-pass"))
        elif kind is ActionKind.NEXT_HAND:
            out.append(Button("Next hand", str(action), "primary", "act-next"))
        elif action.card is not None and action.card is selected:
            if kind is ActionKind.DISCARD:
                out.append(Button("Discard", str(action), "primary", "act-discard"))
            else:
                kept = leaves[action.card]
                ends = knock_kind(kept)
                out.append(Button(knock_label(ends, kept), str(action), ends.value, "act-knock"))
    return tuple(out)
