"""Expert's search: a few candidate throws, each played out on the same sampled deals.

Hard ranks its throws by a one-card heuristic and weighs a knock against sampled hands with a
fixed margin for what waiting is worth. Expert asks the question directly: for Hard's best few
throws (and the knock, when one is allowed), what does each bring when the hand is played to
its end? Opponent hands are sampled with Hard's inference (``sample_hand``), the other unseen
cards are shuffled into a stock, and every candidate meets the same deals, so their differences
are much steadier than their values. A knock is settled exactly (``knock_points``); a throw is
played out by ``playout.play_out_careful``, whose players keep cards that may still make melds
and knock only with little deadwood, as careful players do (the greedy playout's first-chance
knocks were what made ``hard-mc`` flat: docs/ai-experiments.md).

How many throws are weighed is ``Style.search_width``; Expert weighs one, Hard's own: the best of
several values on 40 deals is biased upward, and one throw did as well for a third of the work
(docs/ai-experiments.md, "Round 2"). The coach values a person's moves with the same ``outcome``.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from app.ai.inference import sample_hand
from app.ai.knock import knock_points
from app.ai.knowledge import Knowledge
from app.ai.playout import DRAW, TAKE, play_out_careful
from app.engine import masks

bits_of, min_arrangements = masks.bits_of, masks.min_arrangements

Deal = tuple[int, tuple[int, ...]]
"""A sampled opponent hand and a stock (drawn from its end), as card bits."""


@dataclass(frozen=True, slots=True)
class Throw:
    """One candidate: discard ``card`` (knocking when ``knock``)."""

    card: int
    knock: bool = False


def deals(k: Knowledge, weights: dict[int, float], rng: random.Random, n: int, extra: int) -> list[Deal]:
    """``n`` determinizations of what I can't see: an opponent hand (grown by ``extra`` draws) and a stock."""
    out: list[Deal] = []
    draws = min(k.opp_stock_draws, extra)
    for _ in range(n):
        opp = sample_hand(k, weights, rng, draws)
        stock = bits_of(k.unseen & ~opp)
        rng.shuffle(stock)
        out.append((opp, tuple(stock)))
    return out


TAKE_TOP, DRAW_BLIND, PASS_TOP = "take", "draw", "pass"
"""The draws a ``Move`` can be besides a throw: take the face-up card, draw from the stock, pass the upcard."""
Move = Throw | str


def outcome(k: Knowledge, move: Move, opp: int, stock: list[int], knock_at: int) -> int:
    """Points to me (negative: the opponent's) on one deal if I make ``move`` and the hand is played on.

    A knock is settled exactly (R14-R19); everything else is played to the hand's end by the careful
    players (``play_out_careful``), my own next throw included after a draw. ``stock`` is consumed.
    Expert's search and the coach both value moves with this.
    """
    dead = k.pile_mask
    if isinstance(move, Throw):
        kept = k.hand ^ move.card
        if move.knock:
            return knock_points(kept, opp)
        return play_out_careful(kept, opp, move.card, stock, False, dead | move.card, knock_at)
    if move == TAKE_TOP:
        return play_out_careful(k.hand, opp, k.top, stock, True, dead, knock_at, first=TAKE)
    if move == DRAW_BLIND:
        return play_out_careful(k.hand, opp, k.top, stock, True, dead, knock_at, first=DRAW)
    # A pass: the opponent is offered the upcard, unless it passed it already; then it draws blind (R8).
    offered = 0 if k.opp_passed & k.top else k.top
    return play_out_careful(k.hand, opp, offered, stock, False, dead, knock_at)


def values(k: Knowledge, throws: list[Throw], sampled: list[Deal], knock_at: int) -> list[float]:
    """Mean points to me of each throw over the same deals (negative: the opponent's)."""
    out = []
    for t in throws:
        total = 0
        if t.knock:  # settled on every deal with the same arrangements: worked out once
            kept = k.hand ^ t.card
            arrangements = [melds for melds, _ in min_arrangements(kept)]
            for opp, _ in sampled:
                total += knock_points(kept, opp, arrangements)
        else:
            for opp, stock in sampled:
                total += outcome(k, t, opp, list(stock), knock_at)
        out.append(total / max(1, len(sampled)))
    return out


def draw_values(k: Knowledge, sampled: list[Deal], knock_at: int) -> tuple[float, float]:
    """Mean points to me of taking the face-up card and of drawing from the stock, over the same deals.

    Both are played by the playout's careful players from here on, my own next throw included, so
    that the comparison is between the two draws and not between two ways of playing on.
    """
    take = draw = 0
    for opp, stock in sampled:
        take += outcome(k, TAKE_TOP, opp, list(stock), knock_at)
        draw += outcome(k, DRAW_BLIND, opp, list(stock), knock_at)
    n = max(1, len(sampled))
    return take / n, draw / n
