"""A hint for the person: the draw and the discard Expert would choose, and why, in one line.

Built from the person's ``PlayerView`` only, like every decision of the computer, so a hint
cannot reveal a hidden card. Its sentences are ``app.words`` sentences, like the table's
narration: tuples of words and cards, drawn as glyphs and read out by name; ``Hint.text``
gives plain text.

>>> import random
>>> from app.engine import new_match, view
>>> state = new_match(random.Random(3), starter=0)
>>> h = hint(view(state, 0))
>>> h.draw is not None and str(h.draw) in ("take_upcard", "pass")
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from app.ai.knowledge import from_view
from app.ai.players import EXPERT, Style, decide
from app.engine import (
    KNOCK_LIMIT,
    Action,
    ActionKind,
    Card,
    Event,
    MeldKind,
    Phase,
    PlayerView,
    arrange,
    deadwood,
    discard_deadwoods,
)
from app.words import Sentence, capital, card_list, join_clauses, plain

__all__ = ["ADVISER", "Hint", "NoHint", "hint", "why"]


ADVISER: Style = replace(EXPERT, even_time=False)
"""Expert as it decides for the hint and the coach: the same choices (``tests/ai/test_players.py``)
without the work that evens out its time to answer. That work hides the computer's cards from the
clock; a hint is worked out from the person's own view, and padding it made each hint four times slower."""


class NoHint(ValueError):
    """There is nothing to suggest: it is not this player's turn to draw or discard."""


@dataclass(frozen=True, slots=True)
class Hint:
    """What Expert would do in the person's place, and a one-line reason."""

    draw: Action | None
    """take_upcard, pass, draw_stock or take_discard; ``None`` once the person has drawn."""
    discard: Action | None
    """The discard (or knock) to make; after a stock draw it assumes the new card doesn't fit."""
    advice: Sentence
    """What to do: "Take 7♥, then discard K♠."."""
    reason: Sentence
    """Why, in one line: "7♥ makes a run with 5♥ 6♥; the computer just passed 9♣."."""

    @property
    def card(self) -> Card | None:
        """The card the hint suggests throwing, for the table to mark."""
        return self.discard.card if self.discard is not None else None

    @property
    def text(self) -> str:
        return plain(self.advice) + " " + plain(self.reason)


def hint(view: PlayerView, rng: random.Random | None = None) -> Hint:
    """Expert's choice for ``view``'s player; ``NoHint`` when there is no draw or discard to make.

    Without ``rng`` the choice is seeded by the public position (fingerprint and move count), so
    asking twice gives the same hint.
    """
    kinds = {a.kind for a in view.legal_actions}
    if not view.phase.in_play or not view.my_turn:
        raise NoHint("There is no move of yours to hint at right now.")
    rng = rng or random.Random(f"{view.fingerprint}.{len(view.log)}")
    knowledge = from_view(view)
    action = decide(knowledge, ADVISER, rng) if len(view.legal_actions) > 1 else view.legal_actions[0]
    hand = view.hand
    top = view.discard_pile[-1] if view.discard_pile else None
    if view.phase is Phase.DISCARD:
        return _discard_hint(view, action, hand)
    if action.kind.takes_pile and top is not None:
        # Then the discard after taking it: the same decision on the hand as it would be.
        after = replace(
            knowledge, hand=knowledge.hand | top.bit, pile=knowledge.pile[:-1], phase=Phase.DISCARD, taken=top.bit
        )
        then = decide(after, ADVISER, rng)
        held = (*hand, top)
        assert then.card is not None
        advice: Sentence = ("Take ", top, ", then ", *_throw_words(then), ".")
        reason = join_clauses(
            _take_reason(top, hand, then.card), *_discard_clauses(view, then, held, with_knock=False)[:2]
        )
        return Hint(action, then, advice, reason)
    if action.kind is ActionKind.PASS:
        assert top is not None
        return Hint(action, None, ("Pass ", top, "."), join_clauses(_why_not_take(top, hand)))
    # Draw from the stock: the pile card isn't worth it, or both passed the upcard (R8).
    why_not: Sentence = ("the stock is the only draw now",)
    if ActionKind.TAKE_DISCARD in kinds and top is not None:
        why_not = _why_not_take(top, hand)
    # The discard to plan for if the new card doesn't fit: the same choice over the ten held now.
    planned = decide(replace(knowledge, phase=Phase.DISCARD, taken=0), ADVISER, rng)
    assert planned.card is not None
    then = Action(ActionKind.DISCARD, planned.card)
    advice = ("Draw from the stock; if the new card doesn't fit, discard ", planned.card, ".")
    reason = join_clauses(why_not, _loose_words(planned.card, hand))
    return Hint(action, then, advice, reason)


def why(view: PlayerView, action: Action) -> list[Sentence]:
    """Why ``action`` suits ``view``'s position, most telling first, in the hint's own clauses (for the coach).

    A pile card is explained with the throw that keeps the least deadwood after taking it.
    """
    hand = view.hand
    top = view.discard_pile[-1] if view.discard_pile else None
    if action.kind.throws:
        return _discard_clauses(view, action, hand, with_knock=True)[:3]
    if top is None:
        return []
    if action.kind.takes_pile:
        left = discard_deadwoods((*hand, top))
        then = min((c for c in left if c is not top), key=lambda c: (left[c], -c.value, c.index))
        return [_take_reason(top, hand, then)]
    if ActionKind.TAKE_DISCARD in {a.kind for a in view.legal_actions} or action.kind is ActionKind.PASS:
        return [_why_not_take(top, hand)]
    return [("the stock is the only draw now",)]


def _discard_hint(view: PlayerView, action: Action, hand: tuple[Card, ...]) -> Hint:
    assert action.card is not None
    advice: Sentence = (*capital(_throw_words(action)), ".")
    return Hint(None, action, advice, join_clauses(*_discard_clauses(view, action, hand, with_knock=True)[:3]))


def _throw_words(action: Action) -> Sentence:
    assert action.card is not None
    if action.kind is ActionKind.KNOCK:
        return ("knock with ", action.card)
    return ("discard ", action.card)


def _meld_with(card: Card, cards: tuple[Card, ...]) -> tuple[MeldKind, tuple[Card, ...]] | None:
    """The meld ``card`` sits in when ``cards`` are arranged for least deadwood, with its other cards."""
    for meld in arrange(cards).melds:
        if card in meld:
            return meld.kind, tuple(c for c in meld if c is not card)
    return None


def _partner(card: Card, cards: tuple[Card, ...]) -> tuple[MeldKind, Card] | None:
    """A loose card that ``card`` would pair with towards a meld: same rank, or same suit a rank or two away."""
    loose = arrange(cards).deadwood_cards
    for other in loose:
        if other.suit == card.suit and 1 <= abs(other.rank - card.rank) <= 2:
            return MeldKind.RUN, other
    for other in loose:
        if other.rank == card.rank and other is not card:
            return MeldKind.SET, other
    return None


def _take_reason(top: Card, hand: tuple[Card, ...], then: Card) -> Sentence:
    kept = tuple(c for c in (*hand, top) if c is not then)
    meld = _meld_with(top, kept)
    if meld is not None:
        kind, others = meld
        verb = "adds to your " if len(others) >= 3 else "makes a "
        return (top, f" {verb}{kind} with ", *card_list(others))
    partner = _partner(top, kept)
    if partner is not None:
        kind, other = partner
        return (top, " pairs with ", other, f" towards a {kind}")
    return (top, f" cuts your deadwood from {deadwood(hand)} to {deadwood(kept)}")


def _why_not_take(top: Card, hand: tuple[Card, ...]) -> Sentence:
    if _meld_with(top, (*hand, top)) is None and _partner(top, (*hand, top)) is None:
        return (top, " doesn't fit your hand")
    # It fits, but Expert reckons an unseen card is likely to do more, and taking it shows the computer.
    return (top, " helps too little to show the computer you want it")


def _discard_clauses(view: PlayerView, action: Action, hand: tuple[Card, ...], *, with_knock: bool) -> list[Sentence]:
    """Why this discard, most telling first: a knock, how loose the card is, the pair it spares, the computer's play."""
    card = action.card
    assert card is not None
    kept = tuple(c for c in hand if c is not card)
    left = deadwood(kept)
    if action.kind is ActionKind.KNOCK:
        if left == 0:
            return [("Gin: all ten cards you keep are in melds",)]
        return [(f"you keep {left} deadwood, low enough to win the hand",)]
    clauses: list[Sentence] = []
    if with_knock and left <= KNOCK_LIMIT:
        clauses.append((f"you could knock with {left}, but waiting is worth more: the computer may undercut you",))
    clauses.append(_loose_words(card, hand))
    keeps = _kept_partial(card, hand, kept)
    if keeps:
        clauses.append(keeps)
    evidence = _evidence(view, card)
    if evidence:
        clauses.append(evidence)
    return clauses


def _loose_words(card: Card, hand: tuple[Card, ...]) -> Sentence:
    arrangement = arrange(hand)
    if card not in arrangement.deadwood_cards:
        return (card, " can go: your melds stand without it")
    highest = max(c.value for c in arrangement.deadwood_cards)
    if card.value == highest and _partner(card, hand) is None:
        return (card, " is your highest loose card")
    if _partner(card, hand) is None:
        return (card, " is loose")
    return (card, " is the least useful card")


def _kept_partial(card: Card, hand: tuple[Card, ...], kept: tuple[Card, ...]) -> Sentence:
    """A pair the discard spares ("keeps 7♥ 8♥ for a run"), preferring one with a card worth more than the discard."""
    loose = arrange(kept).deadwood_cards
    pairs: list[tuple[int, MeldKind, Card, Card]] = []
    for i, a in enumerate(loose):
        for b in loose[i + 1 :]:
            if a.suit == b.suit and 1 <= abs(a.rank - b.rank) <= 2:
                pairs.append((max(a.value, b.value), MeldKind.RUN, a, b))
            elif a.rank == b.rank:
                pairs.append((max(a.value, b.value), MeldKind.SET, a, b))
    if not pairs:
        return ()
    # A pair holding a card worth at least the discard is the one that explains the choice.
    pairs.sort(key=lambda p: (p[0] >= card.value, p[1] is MeldKind.RUN, p[0]), reverse=True)
    _, kind, a, b = pairs[0]
    return ("keeps ", *card_list((a, b)), f" for a {kind}")


def _evidence(view: PlayerView, card: Card) -> Sentence:
    """The computer's latest pass or discard that makes ``card`` a safer throw (same rank, or a suit-mate nearby)."""
    opponent = view.opponent
    events = list(view.log)
    last_turn = _last_turn_start(events, opponent)
    top: Card | None = None
    found: tuple[int, str, Card] | None = None
    for i, e in enumerate(events):
        declined: Card | None = None
        verb = ""
        if e.player == opponent:
            if e.kind is ActionKind.PASS:
                declined, verb = e.card, "passed"
            elif e.kind is ActionKind.DRAW_STOCK and top is not None:
                declined, verb = top, "passed"
            elif e.kind.throws:
                declined, verb = e.card, "threw"
        if declined is not None and declined is not card and _related(declined, card):
            found = (i, verb, declined)
        if e.kind.throws or e.kind is ActionKind.PASS:
            top = e.card
        elif e.kind.takes_pile:
            top = None
    if found is None:
        return ()
    i, verb, declined = found
    when = "just " if i >= last_turn else ""
    tail = "" if when else " earlier"
    return (f"the computer {when}{verb} ", declined, tail)


def _related(a: Card, b: Card) -> bool:
    return a.rank == b.rank or (a.suit == b.suit and abs(a.rank - b.rank) <= 2)


def _last_turn_start(events: list[Event], player: int) -> int:
    """Index of the first event of ``player``'s latest turn (len(events) if it has not moved)."""
    start = len(events)
    for i in range(len(events) - 1, -1, -1):
        if events[i].player == player:
            start = i
        elif start < len(events):
            break
    return start
