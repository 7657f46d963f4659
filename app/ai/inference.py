"""Opponent-hand inference: how likely each unseen card is to sit in the opponent's hand.

The clues are the ones strong human players use. A card taken from the pile is kept for a
meld, so its meld partners become likelier; a card discarded or passed was not wanted, so
cards that would have melded with it become less likely. Everything comes from a
``Knowledge``, so only public information and the player's own cards are used.
"""

from __future__ import annotations

import math
import random

from app.ai.evaluate import meld_outs as meld_outs_of
from app.ai.knowledge import OPP_PASSED, OPP_THREW, OPP_TOOK, Knowledge, neighbours
from app.engine import masks

BIT_VALUE, bits_of, deadwood_of_mask = masks.BIT_VALUE, masks.bits_of, masks.deadwood_of_mask

# Multipliers per clue, found by arena runs (docs/ai-experiments.md); they only need to be roughly right.
TAKEN_PARTNER = 2.5
DISCARDED_PARTNER = 0.55
PASSED_PARTNER = 0.75
MAX_PROB = 0.95


def card_weights(
    k: Knowledge,
    taken_partner: float = TAKEN_PARTNER,
    discarded_partner: float = DISCARDED_PARTNER,
    passed_partner: float = PASSED_PARTNER,
) -> dict[int, float]:
    """A relative weight, per unseen card, for being in the opponent's hidden cards.

    ``taken_partner``, ``discarded_partner`` and ``passed_partner`` are the multipliers per clue (a player's ``Style``
    may set its own: issue 15's screening of a sharper reading of passes).
    """
    taken_near = 0
    for b in bits_of(k.opp_known):
        taken_near |= neighbours(b)
    discarded = bits_of(k.opp_discarded)
    passed = bits_of(k.opp_passed & ~k.opp_discarded)
    weights = {}
    for u in bits_of(k.unseen):
        w = 1.0
        if u & taken_near:
            w *= taken_partner
        near = neighbours(u)
        for d in discarded:
            if d & near:
                w *= discarded_partner
        for p in passed:
            if p & near:
                w *= passed_partner
        weights[u] = w
    return weights


def hidden_count(k: Knowledge) -> int:
    """How many of the opponent's cards I have not seen."""
    return k.opp_hand_size - k.opp_known.bit_count()


def opponent_probs(k: Knowledge, weights: dict[int, float] | None = None) -> dict[int, float]:
    """Probability that each card is in the opponent's hand (1 for known ones, absent means 0)."""
    if weights is None:
        weights = card_weights(k)
    total = sum(weights.values())
    n = hidden_count(k)
    probs = {b: 1.0 for b in bits_of(k.opp_known)}
    if total > 0:
        scale = n / total
        for b, w in weights.items():
            probs[b] = min(MAX_PROB, w * scale)
    return probs


def sample_hand(k: Knowledge, weights: dict[int, float], rng: random.Random, extra: int = 0) -> int:
    """One opponent hand consistent with the view: the known cards plus weighted unseen cards.

    ``extra`` more cards are drawn one by one, each time dropping the worst card: a hand that has drawn
    and discarded for a while is better than a random one, and a random sample alone would
    understate the undercut risk late in a hand.
    """
    n = hidden_count(k)
    items = list(weights.items())
    want = min(n + extra, len(items))
    # Weighted sampling without replacement (Efraimidis–Spirakis keys).
    keyed = sorted(items, key=lambda it: rng.random() ** (1.0 / it[1]), reverse=True)
    hand = k.opp_known
    for b, _ in keyed[: min(n, want)]:
        hand |= b
    # Then draw the extra cards one at a time, each time shedding the card that keeps the least
    # deadwood, as the opponent would have (hands stay at 11 cards, so this stays cheap).
    for b, _ in keyed[n:want]:
        hand |= b
        best_dw, best_bit = 999, 0
        for c in bits_of(hand & ~k.opp_known):
            dw = deadwood_of_mask(hand ^ c)
            if dw < best_dw:
                best_dw, best_bit = dw, c
        hand ^= best_bit
    return hand


REGRET_CAP = 10
"""A turn's regret counts up to this many points: one odd move must not rule a hand out entirely."""


def least_after_throw(hand: int, forbidden: int = 0) -> int:
    """The least deadwood ``hand`` can keep by throwing one card (not one of ``forbidden``).

    Throwing a card lowers the deadwood by at most its value (exactly that for a card in no meld),
    so the cards are tried from the highest down and the search stops once no lower card can beat
    the best found: usually after one or two arrangements instead of eleven.
    """
    return _best_throw(hand, hand & ~forbidden)[0]


def _best_throw(hand: int, candidates: int) -> tuple[int, int]:
    """The least deadwood ``hand`` keeps by throwing one of ``candidates``, and the card (the first found)."""
    whole = deadwood_of_mask(hand)
    best, best_bit = 999, 0
    for value, x in _BY_VALUE_DOWN:
        if x & candidates:
            if whole - value >= best:
                break
            dw = deadwood_of_mask(hand ^ x)
            if dw < best:
                best, best_bit = dw, x
    return best, best_bit


# Every card as (value, bit), highest value first (the higher bit first among equals): walking it and
# keeping a hand's cards gives them in the order sorting them would, without sorting each time.
_BY_VALUE_DOWN = sorted(((v, b) for b, v in BIT_VALUE.items()), reverse=True)


def inconsistency(k: Knowledge, hand: int, depth: int) -> int:
    """How badly the opponent's last ``depth`` turns fit ``hand`` as its cards: the deadwood it gave away.

    The turns are replayed backwards from ``hand`` (its cards now, after its last throw). A throw's
    regret is how much less deadwood the best other throw would have kept; a declined face-up card's
    is how much less deadwood taking it to make a meld (and throwing the best card) would have kept.
    Stepping back over a pile take is exact; over a blind draw the drawn card is unknown and stays in
    the hand, so older turns are read more roughly (hence ``depth``).
    """
    total = 0
    cur = hand
    turns = 0
    acts = k.opp_actions
    i = len(acts) - 1
    while i >= 0 and turns < depth:
        kind, bit = acts[i]
        if kind == OPP_THREW:
            # The draw of this turn, if the log has it: a take (R10: the taken card can't go back).
            took = acts[i - 1][1] if i > 0 and acts[i - 1][0] == OPP_TOOK else 0
            passed = acts[i - 1][1] if i > 0 and acts[i - 1][0] == OPP_PASSED else 0
            before = cur | bit
            kept = deadwood_of_mask(cur)
            total += min(REGRET_CAP, kept - least_after_throw(before, took))
            if passed:
                total += _pass_regret(cur, passed, kept)
                i -= 1
            elif took:
                before &= ~took
                i -= 1
            cur = before
            turns += 1
        elif kind == OPP_PASSED:  # the upcard, declined before any draw
            total += _pass_regret(cur, bit, deadwood_of_mask(cur))
            turns += 1
        i -= 1
    return total


def _pass_regret(hand: int, card: int, kept: int) -> int:
    # Only a card that would have made a meld counts: players decline mere low cards as a rule.
    if hand & card or not meld_outs_of(hand) & card:
        return 0
    return max(0, min(REGRET_CAP, kept - least_after_throw(hand | card, card)))


def _grown(k: Knowledge, cards: list[int], exponents: list[float], rng: random.Random, extra: int) -> int:
    """``sample_hand``, with each extra draw's worst card found by ``least_after_throw``'s pruning.

    ``cards`` are the unseen cards and ``exponents`` one over each one's weight, worked out once for all
    the particles; the draws from ``rng`` and the hand are those of ``sample_hand``.
    """
    n = hidden_count(k)
    want = min(n + extra, len(cards))
    r = rng.random
    keys = [r() ** e for e in exponents]
    # Sorting positions by key keeps equal keys in the cards' order, as sorting the cards would.
    order = sorted(range(len(cards)), key=keys.__getitem__, reverse=True)
    hand = k.opp_known
    for i in order[: min(n, want)]:
        hand |= cards[i]
    known = k.opp_known
    for i in order[n:want]:
        hand |= cards[i]
        hand ^= _best_throw(hand, hand & ~known)[1]
    return hand


def particles(
    k: Knowledge, weights: dict[int, float], rng: random.Random, n: int, extra: int, beta: float, depth: int
) -> tuple[list[int], list[float]]:
    """``n`` opponent hands sampled as ``sample_hand`` does, each weighted by how well the opponent's
    recent moves fit it (``exp(-beta * inconsistency)``): a particle filter over its hidden cards."""
    cards = list(weights)
    exponents = [1.0 / w for w in weights.values()]
    hands = [_grown(k, cards, exponents, rng, extra) for _ in range(n)]
    penalties = [inconsistency(k, h, depth) for h in hands]
    low = min(penalties, default=0)
    return hands, [math.exp(-beta * (p - low)) for p in penalties]


def particle_probs(k: Knowledge, hands: list[int], weights: list[float]) -> dict[int, float]:
    """Probability of each card being in the opponent's hand, from weighted particles (as ``opponent_probs``)."""
    total = sum(weights)
    probs = {b: 1.0 for b in bits_of(k.opp_known)}
    if total <= 0:
        return probs
    acc = dict.fromkeys(bits_of(k.unseen), 0.0)
    hidden = ~k.opp_known
    for h, w in zip(hands, weights, strict=True):
        for b in bits_of(h & hidden):
            if b in acc:
                acc[b] += w
    for b, w in acc.items():
        if w > 0:
            probs[b] = min(MAX_PROB, w / total)
    return probs
