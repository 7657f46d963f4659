"""Ending a hand: the knocker's arrangement, the defender's layoffs and the score (R14–R19)."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from itertools import product

from pydantic import BaseModel, ConfigDict

from app.engine.cards import LANE, Card, cards_mask, check_distinct, mask_cards
from app.engine.errors import IllegalAction, InvalidCards
from app.engine.melds import (
    SUIT_MASK,
    Arrangement,
    Meld,
    MeldKind,
    arrange_mask,
    arrangement_from_masks,
    deadwood_of_mask,
    min_arrangements,
)

GIN_BONUS = 25  # R17
UNDERCUT_BONUS = 25  # R19
KNOCK_LIMIT = 10  # R11


class HandKind(StrEnum):
    """How a hand ended."""

    GIN = "gin"
    """The knocker kept 0 deadwood (R11, R17)."""
    KNOCK = "knock"
    """The knocker had strictly less deadwood than the defender after layoffs (R18)."""
    UNDERCUT = "undercut"
    """The defender had as little deadwood as the knocker, or less (R19)."""
    VOID = "void"
    """The stock ran down to two cards without a knock (R13, R20)."""


class Side(StrEnum):
    """Who scored a settled hand."""

    KNOCKER = "knocker"
    DEFENDER = "defender"


class HandResult(BaseModel):
    """The outcome of a knock: data, not a bool (like python-chess's ``Outcome``)."""

    model_config = ConfigDict(frozen=True)

    kind: HandKind
    winner: Side
    points: int
    knocker: Arrangement
    defender: Arrangement
    """The defender's own melds and remaining deadwood, after the layoffs below."""
    layoffs: tuple[Card, ...]
    layoff_targets: tuple[int, ...] = ()
    """For each card in ``layoffs``, the index in ``knocker.melds`` of the meld it extends."""
    knocker_deadwood: int
    defender_deadwood: int

    @property
    def formula(self) -> str:
        """The score as arithmetic, e.g. ``25 + 8 − 5 = 28``."""
        k, d = self.knocker_deadwood, self.defender_deadwood
        if self.kind is HandKind.GIN:
            return f"{GIN_BONUS} + {d} = {self.points}"
        if self.kind is HandKind.KNOCK:
            return f"{d} − {k} = {self.points}"
        return f"{UNDERCUT_BONUS} + {k} − {d} = {self.points}"


def layoff_options(meld: int, defender: int) -> list[int]:
    """Sets of defender cards that can be laid off on one knocker meld (R15), as lane masks.

    A 3-card set takes its fourth card; a run takes a chain of cards at either end, each
    laid-off card extending the run for the next.
    """
    cards = Meld(mask_cards(meld))
    if cards.kind is MeldKind.SET:
        if len(cards) == 4:
            return [0]
        rank = cards[0].rank
        fourth = next(1 << (LANE * s + rank) for s in range(4) if not meld >> (LANE * s + rank) & 1)
        return [0, fourth] if defender & fourth else [0]
    suit = cards[0].suit
    lane = (defender >> (LANE * suit)) & SUIT_MASK
    low, high = min(c.rank for c in cards), max(c.rank for c in cards)
    below = [0]
    r = low - 1
    while r >= 0 and lane >> r & 1:
        below.append(below[-1] | 1 << r)
        r -= 1
    above = [0]
    r = high + 1
    while r < 13 and lane >> r & 1:
        above.append(above[-1] | 1 << r)
        r += 1
    return [(b | a) << (LANE * suit) for b in below for a in above]


def layoff_targets(knocker_melds: Sequence[Meld], layoffs: Sequence[Card]) -> tuple[int, ...]:
    """Which knocker meld each laid-off card went onto (for showing it there).

    Runs take their chains first, outward from each end; a set takes its fourth card.
    Any valid assignment will do: the deadwood is the same whichever meld a card joins.
    """
    left = set(layoffs)
    target: dict[Card, int] = {}
    for i, meld in enumerate(knocker_melds):
        if meld.kind is MeldKind.SET:
            continue
        suit, ranks = meld[0].suit, [c.rank for c in meld]
        for step, start in ((-1, min(ranks) - 1), (1, max(ranks) + 1)):
            r = start
            while 0 <= r < 13 and Card(r, suit) in left:
                target[Card(r, suit)] = i
                left.discard(Card(r, suit))
                r += step
    for i, meld in enumerate(knocker_melds):
        if meld.kind is MeldKind.SET:
            for card in [c for c in left if c.rank == meld[0].rank]:
                target[card] = i
                left.discard(card)
    return tuple(target[c] for c in layoffs)


def best_defence(knocker_melds: Sequence[int], defender: int) -> tuple[int, int]:
    """The layoffs leaving the defender the least deadwood: (deadwood, layoff mask).

    Layoffs and the defender's own melds are searched together: every combination of
    layoffs is tried and the rest is arranged exactly. Among equal results, fewer layoffs.
    """
    best = (deadwood_of_mask(defender), 0)
    options = [layoff_options(m, defender) for m in knocker_melds]
    for choice in product(*options):
        laid = 0
        for part in choice:
            laid |= part
        if not laid:
            continue
        dw = deadwood_of_mask(defender & ~laid)
        if (dw, laid.bit_count()) < (best[0], best[1].bit_count()):
            best = (dw, laid)
    return best


def knock_kind(kept_deadwood: int) -> HandKind:
    """What a knock keeping this much deadwood is, before the defender shows: Gin at 0 (R11), else a knock.

    >>> knock_kind(0), knock_kind(7)
    (<HandKind.GIN: 'gin'>, <HandKind.KNOCK: 'knock'>)
    """
    return HandKind.GIN if kept_deadwood == 0 else HandKind.KNOCK


def score(knocker_dw: int, defender_dw: int) -> tuple[HandKind, Side, int]:
    """How a knock ends, who scores and how much, from both deadwoods after layoffs (R16–R19).

    >>> [(str(kind), str(side), points) for kind, side, points in (score(0, 12), score(4, 9), score(6, 6))]
    [('gin', 'knocker', 37), ('knock', 'knocker', 5), ('undercut', 'defender', 25)]
    """
    if knock_kind(knocker_dw) is HandKind.GIN:
        return HandKind.GIN, Side.KNOCKER, GIN_BONUS + defender_dw  # R17
    if knocker_dw < defender_dw:
        return HandKind.KNOCK, Side.KNOCKER, defender_dw - knocker_dw  # R18
    return HandKind.UNDERCUT, Side.DEFENDER, UNDERCUT_BONUS + knocker_dw - defender_dw  # R19


def settle(knocker: Sequence[Card], defender: Sequence[Card]) -> HandResult:
    """Score a knock: the knocker's 10 kept cards against the defender's 10 cards.

    >>> from app.engine.cards import parse_cards
    >>> r = settle(parse_cards("6s 7s 8s 2c 2d 2h 4c 4d 4h 9c"),
    ...            parse_cards("9s Ts 5c 5d Kh Qh Qd Ac Ad 3h"))
    >>> str(r.kind), str(r.winner), r.points, [str(c) for c in r.layoffs], r.formula
    ('knock', 'knocker', 36, ['9s', 'Ts'], '45 − 9 = 36')
    """
    try:
        k_mask, d_mask = cards_mask(knocker), cards_mask(defender)
    except (AttributeError, TypeError):
        raise InvalidCards("Settling needs two sequences of cards.") from None
    if len(knocker) != 10 or len(defender) != 10:
        raise InvalidCards(
            f"Settling needs 10 cards each; got {len(knocker)} for the knocker and {len(defender)} for the defender."
        )
    check_distinct((*knocker, *defender))
    knocker_dw = deadwood_of_mask(k_mask)
    if knocker_dw > KNOCK_LIMIT:
        raise IllegalAction(f"Those cards keep {knocker_dw} deadwood; a knock needs {KNOCK_LIMIT} or less (R11).")
    if knocker_dw == 0:  # R16: no layoffs against Gin
        k_arr, d_arr = arrange_mask(k_mask), arrange_mask(d_mask)
        kind, side, points = score(0, d_arr.deadwood)
        return HandResult(
            kind=kind, winner=side, points=points, knocker=k_arr, defender=d_arr,
            layoffs=(), knocker_deadwood=0, defender_deadwood=d_arr.deadwood,
        )  # fmt: skip
    # R14: among the knocker's minimum arrangements, the one leaving the defender most.
    chosen: tuple[tuple[int, ...], int, int, int] | None = None
    for melds, dead in min_arrangements(k_mask):
        dw, laid = best_defence(melds, d_mask)
        if chosen is None or dw > chosen[2]:
            chosen = (melds, dead, dw, laid)
    assert chosen is not None
    melds, dead, defender_dw, laid = chosen
    kind, side, points = score(knocker_dw, defender_dw)
    d_arr = arrange_mask(d_mask & ~laid)
    k_arr = arrangement_from_masks(melds, dead)
    layoffs = mask_cards(laid)
    return HandResult(
        kind=kind, winner=side, points=points, knocker=k_arr, defender=d_arr,
        layoffs=layoffs, layoff_targets=layoff_targets(k_arr.melds, layoffs),
        knocker_deadwood=knocker_dw, defender_deadwood=defender_dw,
    )  # fmt: skip
