"""Fast playouts on masks: finish a determinized hand with greedy play on both sides.

Used by Hard to value *waiting* instead of knocking: each sampled opponent hand, with the
rest of the unseen cards shuffled into a stock, is played out to the end of the hand.
Both sides play greedily (take the pile card if it lowers deadwood, shed the card that
keeps the least, knock as soon as allowed), which is how the simple baseline plays and
close enough to a typical opponent to rank "knock now" against "wait".
"""

from __future__ import annotations

from app.ai.evaluate import meld_outs
from app.ai.knock import knock_points
from app.engine import KNOCK_LIMIT, VOID_STOCK, masks

BIT_VALUE, LANE, deadwood_of_mask = masks.BIT_VALUE, masks.LANE, masks.deadwood_of_mask

OUTS_CREDIT = 0.6
"""Deadwood points a live out is worth to a careful playout player while the stock is full."""


def _best_discard(hand: int, forbidden: int) -> tuple[int, int]:
    """The discard keeping the least deadwood; ties shed the higher card, then the lower suit (as simple does)."""
    best = (999, 0, 0, 0)
    m = hand & ~forbidden
    while m:
        b = m & -m
        m ^= b
        key = (deadwood_of_mask(hand ^ b), -BIT_VALUE[b], -((b.bit_length() - 1) % LANE), b)
        if key < best:
            best = key
    return best[0], best[3]


def _turn(hand: int, top: int, stock: list[int]) -> tuple[int, int, int]:
    """One greedy turn: (new hand, card discarded, deadwood kept)."""
    if top:
        dw_take, bit_take = _best_discard(hand | top, top)
        if dw_take < deadwood_of_mask(hand):
            return (hand | top) ^ bit_take, bit_take, dw_take
    drawn = stock.pop()
    dw, bit = _best_discard(hand | drawn, 0)
    return (hand | drawn) ^ bit, bit, dw


def play_out(mine: int, theirs: int, top: int, stock: list[int], my_turn: bool) -> int:
    """Points to me (negative: to the opponent) when the hand is played out greedily; 0 for a void hand.

    ``stock`` is consumed from its end. The player to move may take ``top``.
    """
    hands = [mine, theirs]
    who = 0 if my_turn else 1
    while len(stock) > VOID_STOCK:
        hand, top, dw = _turn(hands[who], top, stock)
        hands[who] = hand
        if dw <= KNOCK_LIMIT:
            pts = knock_points(hand, hands[1 - who])
            return pts if who == 0 else -pts
        who = 1 - who
    return 0


def wait_value(kept: int, discard: int, samples: list[tuple[int, list[int]]]) -> float:
    """Mean points to me if I discard without knocking and the hand is played out from each sample."""
    if not samples:
        return 0.0
    total = 0
    for opp, stock in samples:
        total += play_out(kept, opp, discard, list(stock), my_turn=False)
    return total / len(samples)


def careful_discard(hand: int, forbidden: int, dead: int, credit: float) -> tuple[int, int]:
    """The throw keeping the least deadwood less ``credit`` per live out; ties shed the higher card."""
    best_key, best = (1e9, 0, 0), 0
    m = hand & ~forbidden
    while m:
        b = m & -m
        m ^= b
        rest = hand ^ b
        v = deadwood_of_mask(rest) - credit * (meld_outs(rest) & ~dead).bit_count()
        key = (v, -BIT_VALUE[b], b)
        if key < best_key:
            best_key, best = key, b
    return deadwood_of_mask(hand ^ best), best


TAKE, DRAW = 1, 2
"""``play_out_careful``'s ``first``: the first player takes the face-up card, or draws from the stock."""


def play_out_careful(
    mine: int, theirs: int, top: int, stock: list[int], my_turn: bool, dead: int, knock_at: int, first: int = 0
) -> int:
    """Like ``play_out``, with careful players: points to me (negative: to the opponent), 0 if void.

    Each side takes the face-up card only to make a meld with it (and lower its deadwood), keeps
    cards that may still make melds (``OUTS_CREDIT`` points of deadwood per out not yet in the
    pile, fading as the stock runs out), and knocks with ``knock_at`` deadwood or less, or with
    any knock on the last turn before the hand is void (R13). ``dead`` is the pile so far.
    ``first`` (``TAKE`` or ``DRAW``) forces the first draw of the playout instead.
    """
    hands = [mine, theirs]
    who = 0 if my_turn else 1
    while len(stock) > VOID_STOCK:
        hand = hands[who]
        credit = OUTS_CREDIT * min(1.0, len(stock) / 20.0)
        if first == TAKE or (top and not first and top & meld_outs(hand)):
            dw, throw = careful_discard(hand | top, top, dead, credit)
            if first == TAKE or dw < deadwood_of_mask(hand):
                hand |= top
            else:
                top = 0
        else:
            top = 0
        if not top:
            hand |= stock.pop()
            dw, throw = careful_discard(hand, 0, dead, credit)
        hand ^= throw
        hands[who] = hand
        if dw == 0 or (dw <= KNOCK_LIMIT and (dw <= knock_at or len(stock) <= VOID_STOCK)):
            pts = knock_points(hand, hands[1 - who])
            return pts if who == 0 else -pts
        top = throw
        dead |= throw
        who = 1 - who
        first = 0
    return 0
