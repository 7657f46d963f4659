"""The one immutable view per screen that the table template reads, assembled from the engine's facts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.ai import Level
from app.engine import ActionKind, Card, HandKind, Phase, PlayerView, arrange, discard_deadwoods
from app.web.flow import COMPUTER
from app.web.table import aids, narration
from app.web.table.aids import DealCheck, HintView, Motion
from app.web.table.faces import CardFace, face
from app.web.table.hand import Button, HandCard, Sort, buttons, hand_cards
from app.web.table.narration import Line
from app.web.table.result import ResultView, SheetRow, result, sheet_row
from app.words import Sentence, spoken

__all__ = ["ChooserView", "TableView", "table_view"]


@dataclass(frozen=True, slots=True)
class ChooserView:
    """The new-match screen: the levels to choose from, and a message when something went wrong.

    With ``screen="loading"``, the first page's empty table, which fetches the saved game.
    """

    level: Level = Level.NORMAL
    message: str | None = None
    can_resume: bool = False
    screen: str = "chooser"

    @property
    def announce(self) -> tuple[str, ...]:
        return (self.message,) if self.message else ()


@dataclass(frozen=True, slots=True)
class TableView:
    """Everything the table template shows for one position, and nothing it must work out itself."""

    phase: Phase
    level: Level
    hand_number: int
    scores: tuple[int, int]
    target: int
    stock_size: int
    discard_top: CardFace | None
    discard_count: int
    computer_cards: int
    computer_took: tuple[CardFace, ...]  # taken from the discard pile this hand and still held (public)
    can_draw_stock: bool
    can_take_discard: bool
    hand: tuple[HandCard, ...]
    deadwood: int | None
    sort: Sort
    prompt: Sentence
    buttons: tuple[Button, ...]
    log: tuple[Line, ...]  # newest first
    sheet: tuple[SheetRow, ...]
    result: ResultView | None
    reviewable: bool  # the hand on the result screen can be reviewed
    match_result: str | None
    hint: HintView | None
    can_hint: bool  # the person has a draw or a discard to make
    motion: Motion
    deal: DealCheck
    record: dict[str, Any] | None  # the finished hand (and match) for the browser's statistics
    token: str  # the sealed save, which the page stores
    at: str  # the position's stamp, posted back with each move
    message: str | None
    announce: tuple[str, ...]  # for the live region: the computer's moves, the result, the prompt

    screen = "table"

    @property
    def in_play(self) -> bool:
        return self.phase.in_play

    @property
    def choosing(self) -> bool:
        """The person has a card to choose for their discard: each card carries what choosing it allows."""
        return self.phase is Phase.DISCARD

    @property
    def has_chosen(self) -> bool:
        """A card is chosen for the discard: its own prompt line and moves show."""
        return self.choosing and any(c.selected for c in self.hand)

    @property
    def over(self) -> bool:
        return self.phase is Phase.MATCH_OVER


def table_view(
    view: PlayerView,
    level: Level,
    *,
    match_id: str,
    token: str,
    at: str,
    selected: Card | None = None,
    sort: Sort = Sort.RANK,
    announce_from: int | None = None,
    with_hint: bool = False,
    message: str | None = None,
    reviewable: frozenset[int] = frozenset(),
) -> TableView:
    """The table for the person (player 0) at ``view``.

    ``announce_from`` is the index in this hand's log of the first event the person has not
    seen yet (the computer's replies); ``None`` announces nothing new. ``with_hint`` adds the
    suggestion of Expert (the person asked for one). ``reviewable`` are the numbers of the
    finished hands the save keeps for "Review this hand".
    """
    if selected is not None and selected not in view.hand:
        selected = None  # a stale selection is dropped silently: choosing a card is not a move
    over = view.phase.over
    arrangement = arrange(view.hand)
    leaves = discard_deadwoods(view.hand) if view.phase is Phase.DISCARD else {}
    kinds = {a.kind for a in view.legal_actions}
    knock_possible = ActionKind.KNOCK in kinds
    shown_result = result(view.last_hand) if over and view.last_hand is not None else None
    ended_in_gin = over and view.last_hand is not None and view.last_hand.kind is HandKind.GIN
    log = narration.turn_lines(view.log, ended_in_gin)
    prompt = narration.prompt(view, knock_possible)
    match_result = narration.match_result(view)
    hint = aids.hint_view(view) if with_hint and not over else None
    # On a result screen reached by the computer's move, that move is shown first (motion), then the result.
    last_move = log[-1].words if log and log[-1].who == COMPUTER else ()
    motion = aids.motion(view, announce_from, last_move if over else ())
    announce: list[Sentence] = []
    if announce_from is not None:
        announce = [
            line.words for line in narration.turn_lines(view.log[announce_from:], ended_in_gin) if line.who == COMPUTER
        ]
        if shown_result is not None:
            announce.append((shown_result.headline, " ", shown_result.score))
        if match_result:
            announce.append((match_result,))
        if prompt and not over:
            announce.append(prompt)
    spoken_lines = [spoken(s) for s in announce]
    if hint is not None:
        spoken_lines.append(spoken(hint.advice) + " " + spoken(hint.reason))
    if message:
        spoken_lines.insert(0, message)
    return TableView(
        phase=view.phase,
        level=level,
        hand_number=view.hand_number,
        scores=view.scores,
        target=view.target,
        stock_size=view.stock_size,
        discard_top=face(view.discard_pile[-1]) if view.discard_pile else None,
        discard_count=len(view.discard_pile),
        computer_cards=view.opponent_hand_size,
        computer_took=aids.computer_took(view),
        can_draw_stock=ActionKind.DRAW_STOCK in kinds,
        can_take_discard=ActionKind.TAKE_DISCARD in kinds,
        hand=hand_cards(
            view,
            arrangement,
            selected=selected,
            sort=sort,
            leaves=leaves,
            arriving=motion.you_drew is not None,
            hinted=Card.parse(hint.card) if hint is not None and hint.card else None,
        ),
        deadwood=arrangement.deadwood if not over else None,
        sort=sort,
        prompt=prompt,
        buttons=buttons(view),
        log=tuple(reversed(log)),
        sheet=tuple(sheet_row(s, reviewable) for s in view.history),
        result=shown_result,
        reviewable=over and view.last_hand is not None and view.last_hand.number in reviewable,
        match_result=match_result,
        hint=hint,
        can_hint=view.my_turn and view.phase.in_play,
        motion=motion,
        deal=aids.deal_check(view, match_id),
        record=aids.record(view, match_id, level.value),
        token=token,
        at=at,
        message=message,
        announce=tuple(spoken_lines),
    )
