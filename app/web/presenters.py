"""What the templates show: words and flags derived from a ``PlayerView``; no rules here.

Every fact about the game (which moves are legal, deadwood, melds, scores) comes from the
engine; this module only turns those facts into sentences and display order. It is built
from the person's ``PlayerView``, so it cannot show a card the person may not see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from app.ai import Level
from app.engine import (
    DECK,
    ActionKind,
    Arrangement,
    Card,
    Event,
    HandKind,
    HandRecord,
    HandSummary,
    Phase,
    PlayerView,
    arrange,
    discard_deadwoods,
)
from app.web.flow import COMPUTER, HUMAN

__all__ = [
    "FACES",
    "Button",
    "CardFace",
    "HandCard",
    "ResultView",
    "SheetRow",
    "Sort",
    "Table",
    "face",
    "spoken",
    "table",
]

# U+FE0E asks for the text form of the suit glyph: some phones draw ♥ as a coloured emoji otherwise.
_TEXT_STYLE = "\ufe0e"
# Alternate colours when sorting by suit (spades, hearts, clubs, diamonds) so neighbouring suits stand apart.
_SUIT_ORDER = {3: 0, 2: 1, 0: 2, 1: 3}


class Sort(StrEnum):
    RANK = "rank"
    SUIT = "suit"

    @classmethod
    def read(cls, text: str) -> Sort:
        """The posted preference; anything unknown falls back to rank order (a display choice, not an error)."""
        return cls(text) if text in cls._value2member_map_ else cls.RANK


@dataclass(frozen=True, slots=True)
class CardFace:
    """A card as drawn on screen: glyphs for the eye, the name for screen readers."""

    code: str  # "7h": what the page posts back
    rank: str  # "7", "10", "K"
    suit: str  # "♥" in text style
    name: str  # "seven of hearts"
    suit_name: str  # "hearts": the CSS class that colours it (two or four colours, as the person chose)


def _make_face(card: Card) -> CardFace:
    return CardFace(
        code=str(card),
        rank=card.rank_label,
        suit=card.suit_glyph + _TEXT_STYLE,
        name=card.name,
        suit_name=card.suit_name,
    )


# Made once: a table shows twenty-odd faces per request, and a face never changes.
FACES = tuple(_make_face(card) for card in DECK)


def face(card: Card) -> CardFace:
    return FACES[card.index]


Part = str | CardFace
Sentence = tuple[Part, ...]


def spoken(sentence: Sentence) -> str:
    """A sentence as plain words (cards by name), for the live region."""
    return "".join(p.name if isinstance(p, CardFace) else p for p in sentence)


@dataclass(frozen=True, slots=True)
class HandCard:
    face: CardFace
    selected: bool
    meld: str | None  # "run" or "set"
    group: int  # 1, 2, 3 …: which meld, so the page can colour each meld apart; 0 for deadwood
    fresh: bool  # the card just drawn from the stock
    taken: bool  # just taken from the discard pile: can't go back this turn (R10)

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


@dataclass(frozen=True, slots=True)
class Button:
    """One legal action, as the button that plays it."""

    label: str
    action: str  # Action text, e.g. "knock 9c"
    tone: str  # CSS hook: "primary", "knock", "gin", "quiet"
    id: str


@dataclass(frozen=True, slots=True)
class ShownHand:
    """One player's cards at the end of a hand, arranged by the engine."""

    owner: str
    melds: tuple[tuple[CardFace, ...], ...]
    laid_on: tuple[tuple[CardFace, ...], ...]  # per meld: the opponent's cards laid off onto it
    layoffs: tuple[CardFace, ...]
    deadwood_cards: tuple[CardFace, ...]
    deadwood: int
    note: str


@dataclass(frozen=True, slots=True)
class ResultView:
    headline: str
    score: str
    detail: str
    hands: tuple[ShownHand, ...]
    you_won: bool | None  # None: nobody scored


@dataclass(frozen=True, slots=True)
class SheetRow:
    number: int
    what: str
    you: int | None  # points won this hand
    computer: int | None
    you_total: int
    computer_total: int


@dataclass(frozen=True, slots=True)
class Table:
    """Everything the table template shows for one position."""

    phase: Phase
    level: str
    level_value: str
    hand_number: int
    scores: tuple[int, int]
    target: int
    stock_size: int
    discard_top: CardFace | None
    discard_count: int
    computer_cards: int
    can_draw_stock: bool
    can_take_discard: bool
    hand: tuple[HandCard, ...]
    deadwood: int | None
    selected: CardFace | None
    prompt: Sentence
    buttons: tuple[Button, ...]
    log: tuple[Sentence, ...]  # newest first
    sheet: tuple[SheetRow, ...]
    result: ResultView | None
    match_result: str | None
    fingerprint: str
    sort: Sort
    knock_possible: bool = False
    announce: tuple[Sentence, ...] = field(default=())

    @property
    def in_play(self) -> bool:
        return self.phase.in_play

    @property
    def over(self) -> bool:
        return self.phase is Phase.MATCH_OVER


def _who(player: int) -> str:
    return "You" if player == HUMAN else "The computer"


def _turn_sentences(events: tuple[Event, ...], gin: bool = False) -> list[Sentence]:
    """One sentence per turn: a draw and the discard that followed it, or a pass.

    ``gin``: the hand ended in Gin, so its knock is told as going Gin.
    """
    turns: list[list[Event]] = []
    for e in events:
        if turns and turns[-1][-1].player == e.player and turns[-1][-1].kind.draws:
            turns[-1].append(e)
        else:
            turns.append([e])
    return [_sentence(turn, gin) for turn in turns]


def _sentence(turn: list[Event], gin: bool = False) -> Sentence:
    """ "The computer took 7♥ from the discard pile and discarded K♠." """
    who = _who(turn[0].player)
    if turn[0].kind is ActionKind.PASS:
        upcard = turn[0].card
        return (who, " passed on ", face(upcard) if upcard else "the upcard", ".")
    parts: list[Part] = [who, " "]
    for e in turn:
        card = face(e.card) if e.card is not None else None
        if len(parts) > 2:
            parts.append(" and ")
        if e.kind is ActionKind.TAKE_UPCARD and card:
            parts += ["took the upcard ", card]
        elif e.kind is ActionKind.TAKE_DISCARD and card:
            parts += ["took ", card, " from the discard pile"]
        elif e.kind is ActionKind.DRAW_STOCK:
            # The engine hides the card of the computer's stock draw; the person's own draw is theirs to see.
            parts += ["drew ", card, " from the stock"] if card else ["drew from the stock"]
        elif e.kind is ActionKind.KNOCK and card:
            parts += ["went Gin, discarding " if gin else "knocked, discarding ", card]
        elif e.kind is ActionKind.DISCARD and card:
            parts += ["discarded ", card]
    parts.append(".")
    return tuple(parts)


def _sort_key(sort: Sort) -> Callable[[Card], tuple[int, int]]:
    if sort is Sort.SUIT:
        return lambda c: (_SUIT_ORDER[c.suit], c.rank)
    return lambda c: (c.rank, _SUIT_ORDER[c.suit])


def _hand(table: PlayerView, selected: Card | None, sort: Sort, arrangement: Arrangement) -> tuple[HandCard, ...]:
    groups: dict[Card, tuple[str, int]] = {}
    for number, meld in enumerate(arrangement.melds, start=1):
        for c in meld:
            groups[c] = (meld.kind.value, number)
    fresh = None
    if table.phase is Phase.DISCARD and table.log and table.log[-1].kind is ActionKind.DRAW_STOCK:
        fresh = table.log[-1].card
    key = _sort_key(sort)
    return tuple(
        HandCard(
            face=face(c),
            selected=c is selected,
            meld=groups[c][0] if c in groups else None,
            group=groups[c][1] if c in groups else 0,
            fresh=c is fresh,
            taken=c is table.taken_discard,
        )
        for c in sorted(table.hand, key=key)
    )


def _buttons(table: PlayerView, selected: Card | None, leaves: dict[Card, int]) -> tuple[Button, ...]:
    """Exactly the engine's legal actions that make sense to offer now (for the selected card, if any)."""
    buttons = []
    for action in table.legal_actions:
        kind = action.kind
        if kind is ActionKind.TAKE_UPCARD:
            buttons.append(Button("Take", str(action), "primary", "act-take"))
        elif kind is ActionKind.PASS:
            buttons.append(Button("Pass", str(action), "quiet", "act-pass"))
        elif kind is ActionKind.NEXT_HAND:
            buttons.append(Button("Next hand", str(action), "primary", "act-next"))
        elif action.card is not None and action.card is selected:
            if kind is ActionKind.DISCARD:
                buttons.append(Button("Discard", str(action), "primary", "act-discard"))
            elif leaves[action.card] == 0:
                buttons.append(Button("Gin", str(action), "gin", "act-knock"))
            else:
                buttons.append(Button(f"Knock ({leaves[action.card]})", str(action), "knock", "act-knock"))
    return tuple(buttons)


def _prompt(table: PlayerView, selected: Card | None, leaves: dict[Card, int], knock_possible: bool) -> Sentence:
    kinds = {a.kind for a in table.legal_actions}
    top = face(table.discard_pile[-1]) if table.discard_pile else None
    if table.phase is Phase.UPCARD and top:
        if table.passes == 0:
            return ("You start: take the upcard ", top, " or pass it to the computer.")
        return ("The computer passed on ", top, ". Take it, or pass.")
    if table.phase is Phase.DRAW:
        if ActionKind.TAKE_DISCARD not in kinds:
            return ("You both passed the upcard, so draw from the stock.",)
        if top:
            return ("Your turn: draw from the stock, or take ", top, " from the discard pile.")
        return ("Your turn: draw from the stock.",)
    if table.phase is Phase.DISCARD:
        if selected is not None and selected is table.taken_discard:
            return ("You took ", face(selected), " from the discard pile; it can't go back this turn.")
        if selected is not None:
            left = leaves[selected]
            return ("Discarding ", face(selected), f" leaves {left} deadwood.")
        if knock_possible:
            return ("You can knock! Tap the card to discard, then Knock or Discard.",)
        return ("Tap a card to choose your discard.",)
    return ()


def _arranged(
    owner: str,
    arrangement: Arrangement,
    layoffs: tuple[Card, ...] = (),
    note: str = "",
    received: tuple[tuple[Card, int], ...] = (),
) -> ShownHand:
    return ShownHand(
        owner=owner,
        melds=tuple(tuple(face(c) for c in meld) for meld in arrangement.melds),
        laid_on=tuple(tuple(face(c) for c, target in received if target == i) for i in range(len(arrangement.melds))),
        layoffs=tuple(face(c) for c in layoffs),
        deadwood_cards=tuple(face(c) for c in arrangement.deadwood_cards),
        deadwood=arrangement.deadwood,
        note=note,
    )


_OWNER = {HUMAN: "Your hand", COMPUTER: "The computer's hand"}
_SUBJECT = {HUMAN: "You", COMPUTER: "The computer"}
_OBJECT = {HUMAN: "you", COMPUTER: "the computer"}


def _result(record: HandRecord) -> ResultView:
    result = record.result
    if result is None or record.knocker is None:  # a void hand (R13, R20)
        hands = tuple(_arranged(_OWNER[p], arrange(record.hands[p])) for p in (HUMAN, COMPUTER))
        reason = record.reason or "The hand ended without a knock."
        return ResultView("Void hand.", "Nobody scores.", reason, hands, None)
    knocker, defender = record.knocker, record.knocker.other
    scorer = record.winner if record.winner is not None else knocker
    k_dw, d_dw = result.knocker_deadwood, result.defender_deadwood
    score = f"{_SUBJECT[scorer]} {'score' if scorer == HUMAN else 'scores'} {result.formula}."
    laid = len(result.layoffs)
    after = f" after laying off {laid} card{'s' if laid != 1 else ''}" if laid else ""
    if result.kind is HandKind.GIN:
        headline = "Gin!" if knocker == HUMAN else "The computer went Gin."
        detail = (
            f"{_SUBJECT[knocker]} kept no deadwood; {_OBJECT[defender]} held {d_dw}, "
            "and nothing may be laid off against Gin."
        )
    elif result.kind is HandKind.KNOCK:
        headline = "You knocked and won the hand." if knocker == HUMAN else "The computer knocked and won the hand."
        detail = f"{_SUBJECT[knocker]} knocked with {k_dw} deadwood; {_OBJECT[defender]} held {d_dw}{after}."
    else:
        headline = "Undercut!"
        tie = " the same" if d_dw == k_dw else ""
        detail = (
            f"{_SUBJECT[knocker]} knocked with {k_dw} deadwood, but {_OBJECT[defender]} held{tie} {d_dw}{after}: "
            "an undercut."
        )
    knocker_note = "Gin: no deadwood" if result.kind is HandKind.GIN else f"Knocked with {k_dw} deadwood"
    received = tuple(zip(result.layoffs, result.layoff_targets, strict=True))
    knocker_hand = _arranged(_OWNER[knocker], result.knocker, note=knocker_note, received=received)
    defender_note = (
        f"{d_dw} deadwood after layoffs"
        if laid
        else f"{d_dw} deadwood" + (" (no layoffs against Gin)" if result.kind is HandKind.GIN else "")
    )
    defender_hand = _arranged(_OWNER[defender], result.defender, result.layoffs, note=defender_note)
    hands = (knocker_hand, defender_hand) if knocker == HUMAN else (defender_hand, knocker_hand)
    return ResultView(headline, score, detail, hands, scorer == HUMAN)


def _sheet_row(summary: HandSummary) -> SheetRow:
    if summary.kind is HandKind.VOID or summary.winner is None:
        what = "Void hand"
    elif summary.kind is HandKind.GIN:
        what = f"{_SUBJECT[summary.winner]} went Gin"
    elif summary.kind is HandKind.KNOCK:
        what = f"{_SUBJECT[summary.winner]} knocked"
    else:
        what = f"{_SUBJECT[summary.winner]} undercut {_OBJECT[summary.winner.other]}"
    points = summary.points if summary.winner is not None else None
    return SheetRow(
        number=summary.number,
        what=what,
        you=points if summary.winner == HUMAN else None,
        computer=points if summary.winner == COMPUTER else None,
        you_total=summary.scores_after[HUMAN],
        computer_total=summary.scores_after[COMPUTER],
    )


def _match_result(table: PlayerView) -> str | None:
    if table.phase is not Phase.MATCH_OVER or table.winner is None:
        return None
    you, computer = table.scores[HUMAN], table.scores[COMPUTER]
    if table.winner == HUMAN:
        return f"You won the match, {you} to {computer}!"
    return f"The computer won the match, {computer} to {you}."


def table(
    view: PlayerView,
    level: Level,
    *,
    selected: Card | None = None,
    sort: Sort = Sort.RANK,
    announce_from: int | None = None,
) -> Table:
    """The table for the person (player 0) at ``view``.

    ``announce_from`` is the index in this hand's log of the first event the person has not
    seen yet (the computer's replies); ``None`` announces nothing new.
    """
    if selected is not None and selected not in view.hand:
        selected = None  # a stale selection is dropped silently: choosing a card is not a move
    arrangement = arrange(view.hand)
    leaves = discard_deadwoods(view.hand) if view.phase is Phase.DISCARD else {}
    kinds = {a.kind for a in view.legal_actions}
    knock_possible = ActionKind.KNOCK in kinds
    over = view.phase.over
    result = _result(view.last_hand) if over and view.last_hand is not None else None
    ended_in_gin = over and view.last_hand is not None and view.last_hand.kind is HandKind.GIN
    log = _turn_sentences(view.log, ended_in_gin)
    announce: list[Sentence] = []
    if announce_from is not None:
        announce = [s for s in _turn_sentences(view.log[announce_from:], ended_in_gin) if s[0] == _who(COMPUTER)]
        if result is not None:
            announce += [(result.headline, " ", result.score)]
        match_result = _match_result(view)
        if match_result:
            announce.append((match_result,))
    prompt = _prompt(view, selected, leaves, knock_possible)
    if announce_from is not None and prompt and not over:
        announce.append(prompt)
    return Table(
        phase=view.phase,
        level=level.label,
        level_value=level.value,
        hand_number=view.hand_number,
        scores=view.scores,
        target=view.target,
        stock_size=view.stock_size,
        discard_top=face(view.discard_pile[-1]) if view.discard_pile else None,
        discard_count=len(view.discard_pile),
        computer_cards=view.opponent_hand_size,
        can_draw_stock=ActionKind.DRAW_STOCK in kinds,
        can_take_discard=ActionKind.TAKE_DISCARD in kinds,
        hand=_hand(view, selected, sort, arrangement),
        deadwood=arrangement.deadwood if not over else None,
        selected=face(selected) if selected is not None else None,
        prompt=prompt,
        buttons=_buttons(view, selected, leaves),
        log=tuple(reversed(log)),
        sheet=tuple(_sheet_row(s) for s in view.history),
        result=result,
        match_result=_match_result(view),
        fingerprint=view.fingerprint,
        sort=sort,
        knock_possible=knock_possible,
        announce=tuple(announce),
    )
