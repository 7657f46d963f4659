"""How the computer plays: one decision procedure whose ideas a ``Style`` switches on.

Every player is a function ``(PlayerView, Random) -> Action``. The levels (``levels.py``)
share ``decide``, over a ``Knowledge`` (masks built from the view), and differ in their
``Style``; the ideas and their measured worth are in docs/ai.md.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from app.ai.evaluate import danger, meld_outs, outs_weight
from app.ai.inference import (
    DISCARDED_PARTNER,
    PASSED_PARTNER,
    TAKEN_PARTNER,
    card_weights,
    opponent_probs,
    particle_probs,
    particles,
    sample_hand,
)
from app.ai.knock import estimate_knock
from app.ai.knowledge import Knowledge, from_view
from app.ai.match import win_chance
from app.ai.playout import wait_value
from app.ai.search import Deal, Throw, deals, draw_values, values
from app.engine import (
    DRAW_STOCK,
    KNOCK_LIMIT,
    PASS,
    TAKE_DISCARD,
    TAKE_UPCARD,
    VOID_STOCK,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    masks,
    parse_cards,
)

Player = Callable[[PlayerView, random.Random], Action]

BIT_VALUE, CARD_OF_BIT = masks.BIT_VALUE, masks.CARD_OF_BIT
bits_of, deadwood_of_mask = masks.bits_of, masks.deadwood_of_mask


@dataclass(frozen=True, slots=True)
class Style:
    """Which ideas a level uses, and how strongly."""

    outs: float = 0.0
    """Deadwood points a live meld-making card (an "out") is worth while the stock is full."""
    danger: float = 0.0
    """Deadwood points charged for a discard the opponent surely melds (scaled by the chance it can)."""
    danger_late: float = 0.0
    """More danger charge as the hand goes on: ``danger`` plus this times the share of the stock drawn
    (issue 15, stop 25). Late in a hand the opponent is nearer Gin, and a card it melds may be the last
    one it needs. Screened (``hard-dlate``) and not kept (docs/ai-experiments.md)."""
    infer: bool = False
    """Weigh unseen cards by the opponent's picks, discards and passes (else: all unseen alike)."""
    taken_partner: float = TAKEN_PARTNER
    """With ``infer``: weight multiplier for an unseen card that could meld with a card the opponent took
    from the pile (``inference.py``). This and the next two, read more sharply, were screened
    (``hard-sharp``, issue 15, stop 25) and not kept (docs/ai-experiments.md)."""
    discarded_partner: float = DISCARDED_PARTNER
    """With ``infer``: weight multiplier for an unseen card that could meld with a card the opponent discarded."""
    passed_partner: float = PASSED_PARTNER
    """With ``infer``: the same for a card the opponent passed (left on the pile)."""
    particles: int = 0
    """Particle inference (issue 15, stop 26): sample this many opponent hands on every decision, weigh each
    by how well the opponent's recent moves fit it (``inference.particles``), and draw the knock's samples
    and the search's deals from them, and the card probabilities behind danger and outs (0: as before)."""
    consistency: float = 0.5
    """With ``particles``: a particle's weight falls by ``exp(-consistency)`` for each point of deadwood
    the opponent's moves would have given away had it held that hand."""
    consistency_depth: int = 3
    """With ``particles``: how many of the opponent's last turns are replayed."""
    particle_cards: bool = True
    """With ``particles``: take danger's and outs' card probabilities from the particles too (else only the
    knock's samples and the search's deals)."""
    lookahead: bool = False
    """Take the pile card only if it beats the expected stock draw (else: if it improves the hand)."""
    outs_hazard: float = 0.0
    """Issue 15, stop 35: the outs' credit shrinks by this share of the chance that the opponent could knock
    at once (the share of the knock's sampled opponent hands with 10 deadwood or less): an out is worth
    nothing to a hand the opponent ends first (0: outs count by the stock alone)."""
    take_to_knock: bool = False
    """Issue 15, stop 35: take a face-up card the heuristic would pass when, taken, it allows a knock that
    ``should_knock`` approves (the heuristic weighs hand values, not the knock a card opens)."""
    pile_bias: float = 0.5
    """With ``lookahead``: how much a face-up card that makes no meld must beat the expected stock card by
    (taking it shows the opponent what I collect)."""
    outs_fade: int = 20
    """Outs count in full while the stock holds this many cards or more, then fade in proportion."""
    knock_samples: int = 0
    """Sampled opponent hands to judge a knock (0: knock whenever allowed)."""
    wait_playouts: int = 0
    """Play this many sampled hands out to value waiting, and knock only if knocking is worth more."""
    max_undercut: float = 1.0
    """Wait rather than knock when the sampled undercut rate is above this."""
    particle_undercut: float = 1.0
    """Issue 15, stop 31: wait rather than knock when more than this weighted share of ``PARTICLE_CHECK``
    particles (``inference.particles``: opponent hands weighed by how well its recent moves fit them)
    would undercut the knock (1.0: never looked at)."""
    knock_fade: int = 0
    """Without samples: every this many discards in the hand, knock only with one point less (0: never fade)."""
    mistake: float = 0.0
    """Chance to shed a random unmelded card instead of the chosen one (Easy's slips)."""
    discard_lookahead: int = 0
    """Rank this many best discards again by the expected deadwood after my next stock draw."""
    take_only_melds: bool = False
    """Take from the pile only to make a meld (Easy ignores mere deadwood cuts)."""
    extra_draws: int = 6
    """A sampled opponent hand draws as many extra cards as the opponent drew from the stock, up to this."""
    extra_draws_bonus: int = 0
    """... plus this many (still up to ``extra_draws``), for a knock's samples (issue 15, stop 25): against
    the Gin hunter Hard's knocks were undercut about 2.5 times as often as their samples said, and a
    random hand grown by the opponent's few draws may be weaker than the hand it holds. Screened
    (``hard-bonus3``) and not kept: Hard waited more and the Gin hunter went Gin more (docs/ai-experiments.md)."""
    knock_margin: float = 0.0
    """Knock only when the sampled knock is worth more than this many points (plus ``knock_margin_per_card``
    for each stock card left): waiting has a value the estimate leaves out (a lower hand or Gin next
    turn, the opponent knocking into an undercut)."""
    knock_margin_per_card: float = 0.0
    knock_margin_per_deadwood: float = 0.0
    """Less margin for each point of deadwood the knock keeps (issue 15, stop 25): a low hand loses
    little by waiting (Gin is near, an undercut of the opponent's knock likely), a high one loses
    more (it can't undercut, and an opponent's Gin costs it its deadwood). Screened (``hard-mdw``)
    and not kept (docs/ai-experiments.md)."""
    knock_margin_per_out: float = 0.0
    """More margin for each live card that would improve the kept hand (an out, ``outs_weight``):
    waiting is worth more to a hand that is likely to get better."""
    knock_margin_near: float = 0.0
    """Shrink the margin by this share of it times the share of sampled opponent hands that could
    knock already (deadwood 10 or less): waiting is worth less against a hand about to go out."""
    knock_margin_fade: int = 0
    """Once the stock holds fewer than this many cards, shrink the margin in proportion (0: never):
    with fewer turns left, waiting can win less."""
    gin_wait_deadwood: int = 2
    """Wait for Gin, rather than knock, with this much deadwood or less (and a long stock, live outs)."""
    gin_wait_stock: int = 16
    """... only while the stock holds more than this many cards ..."""
    gin_wait_outs: float = 3.0
    """... and the expected live cards that would make Gin are at least this many."""
    last_chance: bool = False
    """Drop the margin on the last turn before the hand is void (R13): waiting is then worth nothing."""
    close_out: float = 0.0
    """Knock, whatever the margin, when at least this share of the sampled knocks win the match (issue 15,
    stop 27; 0: never). The margin prices what waiting may still gain in this hand, but points past the
    target win nothing more, while each turn waited gives the opponent one more chance to go out first."""
    urgent_score: int = 0
    """Knock at once, whatever the rule, once the opponent has at least this many points and at most
    ``urgent_undercut`` of the sampled knocks are undercut (0: never). Near the target nearly any hand the
    opponent wins ends the match, so winning this hand now counts for more than the points waiting may add."""
    urgent_undercut: float = 0.35
    wary_score: int = 0
    """Never knock (Gin aside) once the opponent has at least this many points and more than
    ``wary_undercut`` of the sampled knocks are undercut (0: never): an undercut then ends the match."""
    wary_undercut: float = 0.1
    near_score: int = 0
    near_outs: float = 0.0
    """Once the opponent has at least ``near_score`` points (0: never), a live out is worth ``near_outs``
    points in place of ``outs``: most hands the opponent wins then end the match, so the deadwood I would pay
    counts for little against the chance of going out first (Expert: 75 and 2, since stop 36)."""
    near_own: int = 0
    """... and once I have at least this many points myself (0: never): most hands I win then end the match,
    however few points they bring, so going out first is again what counts."""
    near_danger: float = 0.0
    """... and a card the opponent may meld costs this charge in place of ``danger`` (0: as ever): feeding it
    a meld then brings the match's end nearer, not just a hand's."""
    near_pile_bias: float | None = None
    """Issue 15, stop 43: ... and a face-up card that makes no meld must beat the expected stock card by this
    in place of ``pile_bias`` (``None``: as ever). The bias is a price for what taking the card shows the
    opponent, a defensive price like the danger charge; near the target going out first is what counts
    (stop 36: outs worth more there gained; stop 37: a heavier danger charge there lost, a lighter one leaned
    ahead), so the draw may take the better card more readily. Measured against Hard (``expert-scoredraw``)."""
    race_stock: int = 0
    race_outs: float = 0.0
    """Issue 15, stop 42: once the stock holds ``race_stock`` cards or fewer (0: never), a live out is worth
    ``race_outs`` points in place of ``outs`` (still faded by ``outs_fade``). Stop 41 counted that Hard and
    Expert then knock on hardly any chance but Gin: the hand is a race to Gin, where the deadwood kept counts
    only if the opponent gins first, and the cards that may still make melds count for more (as ``near_outs``
    does near the opponent's target). Measured against Hard (``expert-race20``); see docs/ai-experiments.md."""
    race_deadwood: float = 1.0
    """Issue 15, stop 43: in the same race (``race_stock``, and not near the opponent's target), the hand's
    deadwood counts at this share of its points in the hand value that ranks the throws and weighs the draw
    (1: as ever). Stop 42's larger ``race_outs`` changed the one price of an out; this weighs the deadwood less
    instead, for the same reason (in a race to Gin the deadwood kept counts only if the opponent gins first),
    and so the outs, the danger charge and the pile's bias all count relatively more, by one scalar. Measured
    against Hard (``expert-race-dw``)."""
    rerank: tuple[float, ...] = ()
    """Issue 15, stop 28: among the ``rerank_width`` best discards by the heuristic, throw the one a learned
    linear value prefers, with these weights (points a hand) for the kept hand's deadwood, its live outs
    (``outs_weight``), the thrown card's danger, whether the kept hand could knock (deadwood 10 or less),
    and the deadwood again times the share of the stock drawn (empty: the heuristic's best)."""
    rerank_width: int = 3
    knock_fit: tuple[float, ...] = ()
    """Issue 15, stop 28: knock (not Gin) only when a fitted effect of knocking now rather than waiting is
    positive, in place of the margin: a weight for each of ``KNOCK_FEATURES`` (the sampled knock's mean
    points and undercut rate, the kept deadwood and live outs, the stock, what the opponent drew blind and
    took from the pile, the scores, and products of these; empty: the margin decides)."""
    score_aware: bool = False
    """Weigh a knock's sampled points by what they do to the chance of winning the match (``match.py``)."""
    search_samples: int = 0
    """Expert: play each candidate throw out on this many sampled deals and throw the best (``search.py``);
    0: decide by the heuristics alone."""
    search_width: int = 3
    """How many of the heuristic's best throws the search weighs (plus the knock, when one is allowed)."""
    search_stock: int = 0
    """Search every throw once the stock holds this many cards or fewer (else only when a knock is allowed)."""
    search_knock_at: int = 5
    """The playouts' players knock with this much deadwood or less (any on the last turn)."""
    search_pile: bool = False
    """Expert: when the face-up card could be worth taking, play out taking it and drawing blind; take the better."""
    search_veto: bool = False
    """Expert: the search may only veto a knock the heuristic (``should_knock``) makes, never add one."""
    search_draws: int = 2
    """A sampled opponent hand of the search draws as many extra cards as the opponent drew blind, up to this."""
    search_margin: float | None = None
    """Expert (with ``search_veto``): put a knock to the search once the sampled knock is worth more than
    this many points (``None``: ``knock_margin``, i.e. only where Hard would knock). Below Hard's margin
    the search may then knock where Hard waits, if the knock beats every throw it plays out.
    Registered for screening (``expert-search-m5``), not measured yet."""
    veto_margin: float = 0.0
    """Expert: veto a knock only when the best searched throw beats it by more than this many points. The
    best of several estimates on 40 deals is biased upward (the winner's curse), so without a margin
    the search vetoes more knocks than its values justify. Screened and not kept (docs/ai-experiments.md)."""
    late_search: int = 0
    """Issue 15, stop 39: once the stock holds this many cards or fewer (0: never), a throw that does not knock
    is chosen among the heuristic's ``search_width`` best by playing each out on ``late_deals`` sampled deals
    (``search.values``): with few turns left the playouts are short and their luck small, while the outs'
    and the danger's fixed prices are at their roughest. The knock is still the rule's alone. Measured on Expert
    against Hard (``expert-late10``): level in matches won, a little ahead in points; with ``late_pile``,
    Expert since stop 44 (docs/ai-experiments.md)."""
    late_deals: int = 60
    late_pile: bool = False
    """Issue 15, stop 44 (with ``late_search``): once the stock holds ``late_search`` cards or fewer, the draw
    too is decided as ``search_pile`` decides it (when the face-up card could be worth taking, taking it and
    drawing blind played out on the same ``late_deals`` sampled deals; the better), whatever
    ``search_samples`` is. Expert since stop 44 (``expert-late10-pile``: docs/ai-experiments.md, "The late draw
    played out too")."""
    even_time: bool = True
    """Do the throw-away work that keeps a knock check's cost the same whether or not a knock is
    possible (issue 12's timing channel). It never changes a decision; the arena, where nobody
    times anything, turns it off to play its matches several times faster."""


EASY = Style(mistake=0.3, take_only_melds=True)
NORMAL = Style(outs=0.6, danger=3.0, knock_fade=3)
# Outs stay at 0.8: 1.2 won more on the screening decks and nothing measurable over four 2,000-match
# runs (docs/ai-experiments.md, "A stronger Hard"); it is ``hard-outs12p`` in the arena.
# Hard until issue 15's stop 28: it knocked when its 40 sampled knocks were worth more than a margin of 9
# points. Kept by name for the research players built on it, and for the knock rule's experiment.
MARGIN_HARD = Style(
    outs=0.8, danger=6.0, infer=True, lookahead=True, knock_samples=40, knock_margin=9.0, last_chance=True
)
KNOCK_FIT = (-35.63, 0.75, 0.24, 3.50, 49.88, 4.99, -10.96, *(0.0,) * 9)
"""The fitted effect of knocking at once (``KNOCK_FEATURES``): the randomized experiment that
``python -m app.ai.knock_fit --features 7`` runs, at MARGIN_HARD's first knock chance of each hand
against the patient baselines (docs/ai-experiments.md, "A fitted knock rule"). Knocking early pays; waiting pays
with live outs and a short stock. That experiment had only the first seven features: the others
weigh nothing here."""
# Hard knocks when the fitted effect says so, in place of the margin (issue 15, stop 28).
HARD = replace(MARGIN_HARD, knock_fit=KNOCK_FIT)
SELF_FIT = (
    *(-32.3, -4.35, -13.94, -24.91, 234.86, 25.22, -41.76, -25.23, -0.51, 0.13),
    *(-188.05, -115.42, 45.48, 41.88, -5.35, 19.45),
)
"""Expert's knock rule (issue 15, stop 29): the fitted effect of knocking at once against Hard itself. The
same experiment as KNOCK_FIT's, with Hard holding the coin and Hard across the table, the coin at any
one of a hand's knock chances, all sixteen features (``python -m app.ai.knock_fit --base hard --against
hard --seed 47 -n 3000 --spread 0.5``; docs/ai-experiments.md, "Expert: a knock rule fitted against Hard"). Against
an opponent that waits and undercuts, waiting pays once it has drawn blind a few times or holds pile
cards."""
# Expert: Hard, knocking by the rule fitted against Hard (stop 29), with a smaller charge for throwing a
# card the opponent may meld (4, not 6) and outs worth more (1.2 points, not 0.8): stop 34, each measured
# against Hard on decks it was not chosen on (the Expert before is research's ``expert-selffit16``, then
# ``expert-danger4``). Until stop 29 it was Hard with a search that could veto its knocks
# (``expert-knockfit``; before stop 28 ``expert-margin``): on the fitted rule that search gained nothing
# (docs/ai-experiments.md, "Expert"). Since stop 36, once the opponent has 75 points, a live out is worth 2 points: most
# hands it wins then end the match, whatever deadwood I pay (research's ``expert-near75-outs``; the Expert
# before is ``expert-d4-outs12``). Since stop 37 it weighs a knock on 120 sampled opponent hands, not 40, so
# that its fitted rule reads a less noisy estimate; it has the time (research's ``expert-near-ks120``; the
# Expert before is ``expert-near75-outs``; docs/ai-experiments.md, "Thinking longer on the knock"). Since stop
# 44, once the stock holds 10 cards or fewer, it plays its draw (when the face-up card could be worth taking)
# and its three best throws out on 60 sampled deals and makes the best: the playouts are short there and their
# luck small, while the fixed prices of outs, danger and the pile's bias are at their roughest (research's
# ``expert-late10-pile``; the Expert before is ``expert-near-ks120``; docs/ai-experiments.md, "The late draw
# played out too").
EXPERT = replace(
    HARD,
    knock_fit=SELF_FIT,
    danger=4.0,
    outs=1.2,
    near_score=75,
    near_outs=2.0,
    knock_samples=120,
    late_search=10,
    late_pile=True,
)
FULL_STOCK = 31
"""The stock after the deal and the upcard (R4): what it lost since is the number of blind draws."""
PILE_TAKE_LIMIT = 16
"""Every level draws blind once this many cards have been taken from the pile in a hand (see ``decide``)."""
# The throw-away work draws from a generator of its own, never re-seeded: the decision's generator
# stays as it was (seeded games play as before), and each call samples fresh hands, as a real
# knock's do (the same hands every time hit the engine's deadwood cache and cost 15% less).
_PADDING_RNG = random.Random(12)
# What a knock is weighed against when none is possible: a typical knocking hand (two melds and
# 10 deadwood the defender may lay off against), so that the thrown-away estimate costs what a
# real one does. Weighed with the hand the computer keeps instead, it cost less (fewer melds, no
# layoffs to search): 6% less, enough to show in the timing experiment of docs/ai.md.
_PADDING_KEPT = masks.cards_mask(parse_cards("As 2s 3s 4s 7d 7c 7h 2d 3c 5h"))


class Context:
    """Per-decision caches: opponent card probabilities and how live each unseen card is for me."""

    def __init__(self, k: Knowledge, style: Style, rng: random.Random) -> None:
        self.k = k
        self.style = style
        unseen = bits_of(k.unseen)
        if style.infer:
            self.weights = card_weights(k, style.taken_partner, style.discarded_partner, style.passed_partner)
        else:
            self.weights = dict.fromkeys(unseen, 1.0)
        self.particles: list[int] = []
        self.particle_weights: list[float] = []
        if style.particles:
            # Done on every decision, knock or not, so its cost tells nothing (issue 12's timing channel).
            extra = min(k.opp_stock_draws, style.extra_draws)
            self.particles, self.particle_weights = particles(
                k, self.weights, rng, style.particles, extra, style.consistency, style.consistency_depth
            )
        if self.particles and style.particle_cards:
            self.probs = particle_probs(k, self.particles, self.particle_weights)
        else:
            self.probs = opponent_probs(k, self.weights)
        # Chance an unseen card is still in the stock (so I may draw it), faded as the stock runs out:
        # an out that can only arrive after the hand is over is worth nothing.
        stage = min(1.0, k.stock_size / style.outs_fade)
        if style.outs_hazard and style.knock_samples:
            stage *= 1.0 - style.outs_hazard * _near_share(_knock_samples(self, rng, _knock_extra_draws(self)))
        probs = self.probs
        self.live = {b: (1.0 - probs.get(b, 0.0)) * stage for b in unseen}
        near = (bool(style.near_score) and k.opp_score >= style.near_score) or (
            bool(style.near_own) and k.score >= style.near_own
        )
        self.deadwood = 1.0  # the share of its points the deadwood counts for in ``value``
        if near:
            self.outs = style.near_outs
        elif style.race_stock and k.stock_size <= style.race_stock:
            self.outs = style.race_outs
            self.deadwood = style.race_deadwood
        else:
            self.outs = style.outs
        self.danger = style.near_danger if near and style.near_danger else style.danger
        self.pile_bias = style.near_pile_bias if near and style.near_pile_bias is not None else style.pile_bias
        self._danger: dict[int, float] = {}
        self.particles_checked = False  # particle_undercut_share was asked

    def value(self, hand: int) -> float:
        """Lower is better: deadwood, less a credit for live cards that would make melds."""
        dw = deadwood_of_mask(hand) * self.deadwood
        if self.outs:
            return dw - self.outs * outs_weight(hand, self.live)
        return dw

    def discard_cost(self, card: int) -> float:
        if not self.danger:  # the charge in force here: ``near_danger`` may stand in for ``danger``
            return 0.0
        # The draw lookahead asks about the same few cards hundreds of times.
        cost = self._danger.get(card)
        if cost is None:
            charge = self.danger + self.style.danger_late * (1.0 - self.k.stock_size / FULL_STOCK)
            cost = self._danger[card] = charge * danger(card, self.probs)
        return cost

    def ranked_throws(self, hand: int, forbidden: int) -> list[int]:
        """The cards ``hand`` may throw, best first by hand value plus danger; ties shed the higher card."""
        return [
            b
            for _, _, b in sorted(
                (self.value(hand ^ b) + self.discard_cost(b), -BIT_VALUE[b], b) for b in bits_of(hand & ~forbidden)
            )
        ]

    def best_discard(self, hand: int, forbidden: int) -> tuple[float, int]:
        """The discard minimising hand value plus danger; ties shed the higher card."""
        best = (1e9, 0.0, 0)
        for b in bits_of(hand & ~forbidden):
            score = self.value(hand ^ b) + self.discard_cost(b)
            key = (score, -BIT_VALUE[b], b)
            if key < best:
                best = key
        return best[0], best[2]


def _take_pile(ctx: Context) -> bool:
    k, style = ctx.k, ctx.style
    top = k.top
    if not top:
        return False
    hand = k.hand
    if style.take_only_melds:
        makes_meld = bool(meld_outs(hand) & top)
        return makes_meld and deadwood_of_mask(hand | top) < deadwood_of_mask(hand) + BIT_VALUE[top]
    return pile_margin(ctx) > 0.0


def pile_margin(ctx: Context) -> float:
    """How much the heuristic prefers the face-up card to a blind draw, in points of hand value (> 0: take it)."""
    k, style = ctx.k, ctx.style
    hand, top = k.hand, k.top
    makes_meld = bool(meld_outs(hand) & top)
    take_score, _ = ctx.best_discard(hand | top, top)
    if not style.lookahead:
        return ctx.value(hand) - (0.0 if makes_meld else 1.0) - take_score
    # Compare with the expected stock card: each unseen card weighted by its chance of being in the stock.
    total = weight = 0.0
    for u, w in ctx.live.items():
        if w <= 0.0:
            continue
        score, _ = ctx.best_discard(hand | u, 0)
        total += w * score
        weight += w
    if weight == 0.0:
        return ctx.value(hand) - take_score
    # Taking from the pile shows the opponent what I collect, so it must win by a little.
    return total / weight - (0.0 if makes_meld else ctx.pile_bias) - take_score


def _lookahead_discard(ctx: Context, hand: int, forbidden: int, width: int) -> int:
    """Among the ``width`` best discards, the one with the least expected deadwood after one more stock draw."""
    ranked = ctx.ranked_throws(hand, forbidden)[:width]
    live = [(u, w) for u, w in ctx.live.items() if w > 0.0]
    weight = sum(w for _, w in live)
    if weight == 0.0:
        return ranked[0]
    best = (1e9, 0)
    for b in ranked:
        kept = hand ^ b
        total = 0.0
        for u, w in live:
            grown = kept | u
            total += w * min(deadwood_of_mask(grown ^ x) for x in bits_of(grown))
        score = total / weight + ctx.discard_cost(b)
        if score < best[0]:
            best = (score, b)
    return best[1]


def _reranked_discard(ctx: Context, hand: int, forbidden: int) -> int:
    """``Style.rerank``: the heuristic's few best discards, ranked again by a learned value (higher is better)."""
    style = ctx.style
    w_dw, w_outs, w_danger, w_knock, w_late = style.rerank
    late = 1.0 - ctx.k.stock_size / FULL_STOCK
    best = (-1e9, 0)
    for b in ctx.ranked_throws(hand, forbidden)[: style.rerank_width]:
        kept = hand ^ b
        dw = deadwood_of_mask(kept)
        worth = (
            (w_dw + w_late * late) * dw
            + w_outs * outs_weight(kept, ctx.live)
            + w_danger * danger(b, ctx.probs)
            + (w_knock if dw <= KNOCK_LIMIT else 0.0)
        )
        if worth > best[0]:
            best = (worth, b)
    return best[1]


def should_knock(ctx: Context, kept: int, wait_card: int, rng: random.Random, margin: float | None = None) -> bool:
    k, style = ctx.k, ctx.style
    dw = deadwood_of_mask(kept)
    if dw == 0:
        return True
    if not style.knock_samples:
        # Opponents' hands improve as the hand goes on, so a late knock needs less deadwood to be safe.
        return not style.knock_fade or dw <= KNOCK_LIMIT - k.discards // style.knock_fade
    extra = _knock_extra_draws(ctx)
    samples = _knock_samples(ctx, rng, extra)
    est = estimate_knock(kept, samples)
    if style.even_time:
        _draw_the_rest(ctx, extra)
    if style.close_out and _match_winning_share(k, est.points) >= style.close_out:
        return True
    if style.urgent_score and k.opp_score >= style.urgent_score and est.undercut_rate <= style.urgent_undercut:
        return True
    if margin is None:
        margin = style.knock_margin
    margin += style.knock_margin_per_card * k.stock_size - style.knock_margin_per_deadwood * dw
    if style.knock_margin_per_out:
        margin += style.knock_margin_per_out * outs_weight(kept, ctx.live)
    if style.knock_margin_near:
        margin *= 1.0 - style.knock_margin_near * _near_share(samples)
    if style.knock_margin_fade and k.stock_size < style.knock_margin_fade:
        margin *= k.stock_size / style.knock_margin_fade
    if style.last_chance and k.stock_size <= VOID_STOCK:
        margin = 0.0  # R13: a turn ending without a knock now voids the hand, so waiting is worth nothing
    if style.score_aware:
        if not _knock_helps_the_match(k, est.points, margin):
            return False
    elif style.knock_fit and k.stock_size > VOID_STOCK:
        if _fitted_knock_effect(ctx, kept, est.mean_points, est.undercut_rate) <= 0.0:
            return False
    elif est.mean_points <= margin:
        return False
    if est.undercut_rate > style.max_undercut:
        return False
    if style.wary_score and k.opp_score >= style.wary_score and est.undercut_rate > style.wary_undercut:
        return False
    if style.particle_undercut < 1.0 and particle_undercut_share(ctx, kept, rng) > style.particle_undercut:
        return False
    if style.wait_playouts and wait_card:
        # Determinized Monte Carlo: the same sampled hands, each with the rest of the unseen cards as a stock.
        wait_kept = k.hand ^ wait_card
        runs = []
        for opp in samples[: style.wait_playouts]:
            stock = bits_of(k.unseen & ~opp)
            rng.shuffle(stock)
            runs.append((opp, stock))
        return est.mean_points >= wait_value(wait_kept, wait_card, runs)
    return not waits_for_gin(ctx, kept, est.undercut_rate)


def waits_for_gin(ctx: Context, kept: int, undercut_rate: float) -> bool:
    """Whether a knock that keeps ``kept`` waits for Gin instead, whatever its rule said: waiting for Gin
    pays only with a long stock ahead and a hand one card away."""
    style = ctx.style
    gin_outs = sum(ctx.live.get(u, 0.0) for u in bits_of(meld_outs(kept)))
    return (
        deadwood_of_mask(kept) <= style.gin_wait_deadwood
        and ctx.k.stock_size > style.gin_wait_stock
        and gin_outs >= style.gin_wait_outs
        and undercut_rate < 0.05
    )


KNOCK_FEATURES = (
    "1",
    "sampled knock's points / 10",
    "sampled undercut rate",
    "deadwood kept / 10",
    "stock / 31",
    "opponent's blind draws / 10",
    "live outs kept / 5",
    "opponent's cards from the pile / 3",
    "my score / target",
    "opponent's score / target",
    "(stock / 31)²",
    "blind draws / 10 × stock / 31",
    "live outs / 5 × stock / 31",
    "deadwood / 10 × stock / 31",
    "(blind draws / 10)²",
    "pile cards / 3 × blind draws / 10",
)
"""What ``Style.knock_fit`` weighs, in this order (``knock_features``)."""


def knock_features(ctx: Context, kept: int, mean_points: float, undercut_rate: float) -> tuple[float, ...]:
    """The position of a knock that keeps ``kept``, as ``KNOCK_FEATURES``."""
    k = ctx.k
    stock, draws, outs = k.stock_size / FULL_STOCK, k.opp_stock_draws / 10, outs_weight(kept, ctx.live) / 5
    deadwood, pile = deadwood_of_mask(kept) / 10, k.opp_known.bit_count() / 3
    return (
        1.0,
        mean_points / 10,
        undercut_rate,
        deadwood,
        stock,
        draws,
        outs,
        pile,
        k.score / k.target,
        k.opp_score / k.target,
        stock * stock,
        draws * stock,
        outs * stock,
        deadwood * stock,
        draws * draws,
        pile * draws,
    )


def _fitted_knock_effect(ctx: Context, kept: int, mean_points: float, undercut_rate: float) -> float:
    """``Style.knock_fit``: the fitted points of knocking now rather than waiting (positive: knock)."""
    features = knock_features(ctx, kept, mean_points, undercut_rate)
    return sum(w * x for w, x in zip(ctx.style.knock_fit, features, strict=True))


def _match_winning_share(k: Knowledge, points: tuple[int, ...]) -> float:
    """The share of sampled knocks whose points (mine: positive) reach the match's target."""
    return sum(p > 0 and k.score + p >= k.target for p in points) / max(1, len(points))


def _near_share(samples: list[int]) -> float:
    """The share of sampled opponent hands that could knock now (deadwood 10 or less)."""
    return sum(deadwood_of_mask(opp) <= KNOCK_LIMIT for opp in samples) / max(1, len(samples))


def _knock_helps_the_match(k: Knowledge, points: tuple[int, ...], margin: float) -> bool:
    """Whether knocking raises my chance of winning the match above what the scores give now.

    Mid-match this is the points rule (the chance is nearly linear in points); near the target it
    knocks for any likely win that ends the match, and avoids undercuts that would end it for the
    opponent.
    """
    now = win_chance(k.score, k.opp_score, k.target)
    after = 0.0
    for pts in points:
        after += (
            win_chance(k.score + pts, k.opp_score, k.target)
            if pts > 0
            else win_chance(k.score, k.opp_score - pts, k.target)
        )
    # The margin is in points: convert it with the chance a point is worth here.
    slope = (win_chance(k.score + 10, k.opp_score, k.target) - now) / 10.0
    return after / max(1, len(points)) > now + margin * slope


def decide(k: Knowledge, style: Style, rng: random.Random) -> Action:
    """The action a level takes, from masks only."""
    ctx = Context(k, style, rng)
    if k.phase is Phase.UPCARD:
        return TAKE_UPCARD if _take_pile(ctx) else PASS
    if k.phase is Phase.DRAW:
        if k.discards - (FULL_STOCK - k.stock_size) > PILE_TAKE_LIMIT:
            # Two players can trade pile cards for ever while the stock stands still (the arena met
            # Expert and Hard swapping aces, neither knocking, and a Hard reading clues more sharply
            # swapping aces with the Gin hunter): past this many pile takes, draw blind.
            return DRAW_STOCK
        if style.search_pile and k.can_take:
            return _search_draw(ctx, rng)
        if style.late_pile and style.late_search and k.can_take and k.stock_size <= style.late_search:
            return _search_draw(ctx, rng, style.late_deals)
        if k.can_take and _take_pile(ctx):
            return TAKE_DISCARD
        if style.take_to_knock and k.can_take and _knocks_after_taking(k, style, rng):
            return TAKE_DISCARD
        return DRAW_STOCK
    # Discard phase (R9-R12).
    if style.discard_lookahead:
        card = _lookahead_discard(ctx, k.hand, k.taken, style.discard_lookahead)
    elif style.rerank:
        card = _reranked_discard(ctx, k.hand, k.taken)
    else:
        _, card = ctx.best_discard(k.hand, k.taken)
    if style.mistake and rng.random() < style.mistake:
        # A slip: any card in no meld (dropping it lowers the deadwood by exactly its own value).
        dw = deadwood_of_mask(k.hand)
        loose = [b for b in bits_of(k.hand & ~k.taken) if deadwood_of_mask(k.hand ^ b) == dw - BIT_VALUE[b]]
        if loose:
            card = rng.choice(loose)
    # Knocking: among the discards that allow it, the one keeping the least deadwood, then the safest.
    knock_card, knock_deadwood = knock_throw(ctx, k.hand, k.taken)
    if style.search_samples and knock_deadwood > 0:
        if style.search_veto and knock_card:
            if not should_knock(ctx, k.hand ^ knock_card, 0, rng, style.search_margin):
                knock_card = 0
        elif style.search_veto and style.even_time:
            _weigh_a_knock_anyway(ctx)  # what the heuristic's knock check costs, when none is possible
        return _search_throw(ctx, card, knock_card, rng)
    knocks = bool(knock_card) and should_knock(ctx, k.hand ^ knock_card, card if card != knock_card else 0, rng)
    if not knock_card and style.knock_samples and style.even_time:
        _weigh_a_knock_anyway(ctx)
    if style.particle_undercut < 1.0 and style.even_time and not ctx.particles_checked:
        # The particle check's work, where no knock came so far as to ask it (the timing channel again).
        particle_undercut_share(ctx, _PADDING_KEPT, _PADDING_RNG)
    if knocks:
        return Action(ActionKind.KNOCK, CARD_OF_BIT[knock_card])
    if style.late_search and k.stock_size <= style.late_search:
        card = _late_throw(ctx, card, rng)
    return Action(ActionKind.DISCARD, CARD_OF_BIT[card])


def _late_throw(ctx: Context, card: int, rng: random.Random) -> int:
    """``Style.late_search``: the heuristic's few best throws played out on the same deals; the best one."""
    k, style = ctx.k, ctx.style
    throws = [Throw(b) for b in ctx.ranked_throws(k.hand, k.taken)[: style.search_width]]
    if len(throws) < 2:
        return card
    sampled = deals(k, ctx.weights, rng, style.late_deals, style.search_draws)
    worth = values(k, throws, sampled, style.search_knock_at)
    return throws[max(range(len(throws)), key=lambda i: (worth[i], -i))].card


PARTICLE_CHECK = 120
"""Particles drawn for ``Style.particle_undercut``."""


def particle_undercut_share(ctx: Context, kept: int, rng: random.Random) -> float:
    """The weighted share of ``PARTICLE_CHECK`` particles that would undercut a knock keeping ``kept``."""
    k, style = ctx.k, ctx.style
    ctx.particles_checked = True
    extra = min(k.opp_stock_draws, style.extra_draws)
    hands, weights = particles(k, ctx.weights, rng, PARTICLE_CHECK, extra, style.consistency, style.consistency_depth)
    points = estimate_knock(kept, hands).points
    return sum(w for w, p in zip(weights, points, strict=True) if p < 0) / sum(weights)


def _knocks_after_taking(k: Knowledge, style: Style, rng: random.Random) -> bool:
    """``Style.take_to_knock``: whether, with the face-up card taken, a knock is allowed and approved."""
    taken = replace(k, hand=k.hand | k.top, pile=k.pile[:-1], taken=k.top, phase=Phase.DISCARD, can_take=False)
    ctx = Context(taken, style, rng)
    knock_card, _ = knock_throw(ctx, taken.hand, taken.taken)
    return bool(knock_card) and should_knock(ctx, taken.hand ^ knock_card, 0, rng)


def knock_throw(ctx: Context, hand: int, forbidden: int) -> tuple[int, int]:
    """The card to knock with and the deadwood it keeps: the least deadwood, then the safest; (0, 99) if none."""
    card, key = 0, (99, 9.0)
    for b in bits_of(hand & ~forbidden):
        dw = deadwood_of_mask(hand ^ b)
        if dw <= KNOCK_LIMIT and (dw, ctx.discard_cost(b)) < key:
            card, key = b, (dw, ctx.discard_cost(b))
    return card, key[0]


def _deals(ctx: Context, rng: random.Random, n: int | None = None) -> list[Deal]:
    """``n`` sampled deals (``None``: ``Style.search_samples``)."""
    n = ctx.style.search_samples if n is None else n
    if ctx.particles:  # the opponent hands drawn from the particles by weight, the rest of the unseen as stock
        out: list[Deal] = []
        for opp in rng.choices(ctx.particles, ctx.particle_weights, k=n):
            stock = bits_of(ctx.k.unseen & ~opp)
            rng.shuffle(stock)
            out.append((opp, tuple(stock)))
        return out
    return deals(ctx.k, ctx.weights, rng, n, ctx.style.search_draws)


def _search_draw(ctx: Context, rng: random.Random, n: int | None = None) -> Action:
    """Expert's draw: when the face-up card makes a meld or the heuristic would take it, both draws are
    played out on the same ``n`` deals (``None``: ``Style.search_samples``; ``even_time``: elsewhere, the
    same work on throw-away deals)."""
    k, style = ctx.k, ctx.style
    take = _take_pile(ctx)
    if not (take or meld_outs(k.hand) & k.top):
        if style.even_time:
            draw_values(k, _deals(ctx, _PADDING_RNG, n), style.search_knock_at)
        return DRAW_STOCK
    taken, drawn = draw_values(k, _deals(ctx, rng, n), style.search_knock_at)
    return TAKE_DISCARD if taken > drawn else DRAW_STOCK


def _search_throw(ctx: Context, card: int, knock_card: int, rng: random.Random) -> Action:
    """Expert's throw: the heuristic's best few throws and the knock, played out on the same deals.

    Searched when a knock is allowed or the stock is short; elsewhere the heuristic's ``card``
    stands, and (``even_time``) the same search is run on throw-away deals, so that how long the
    answer takes does not tell whether a knock was possible.
    """
    k, style = ctx.k, ctx.style
    throws = [Throw(b) for b in ctx.ranked_throws(k.hand, k.taken)[: style.search_width]]
    if knock_card:
        throws.append(Throw(knock_card, knock=True))
    searched = bool(knock_card) or k.stock_size <= style.search_stock
    if not searched and not style.even_time:
        return Action(ActionKind.DISCARD, CARD_OF_BIT[card])
    sampled = _deals(ctx, rng if searched else _PADDING_RNG)
    worth = values(k, throws, sampled, style.search_knock_at)
    if not knock_card and style.even_time:  # what settling the knock candidate costs
        estimate_knock(_PADDING_KEPT, [opp for opp, _ in sampled])
    if not searched:
        return Action(ActionKind.DISCARD, CARD_OF_BIT[card])
    if knock_card:
        worth[-1] += style.veto_margin
    best = max(range(len(throws)), key=lambda i: (worth[i], -i))
    t = throws[best]
    return Action(ActionKind.KNOCK if t.knock else ActionKind.DISCARD, CARD_OF_BIT[t.card])


def _weigh_a_knock_anyway(ctx: Context) -> None:
    """The work of weighing a knock, done when no knock is possible, and its result thrown away.

    A level that samples hands to judge a knock would otherwise take several times longer to
    answer exactly when it could knock, and the person could time it (issue 12 measured 10.6 ms
    against 4.0 ms). So every discard decision does the same work, step for step as
    ``should_knock``: the same sampled hands (``_draw_the_rest`` tops them up to the most extra
    draws), and a knock estimate for a typical knocking hand (``_PADDING_KEPT``), all drawn from
    ``_PADDING_RNG``.
    """
    extra = _knock_extra_draws(ctx)
    samples = _knock_samples(ctx, _PADDING_RNG, extra)
    estimate_knock(_PADDING_KEPT, samples)
    if ctx.style.knock_margin_near:  # a real check scores its samples' deadwood too (the margin's share)
        _near_share(samples)
    _draw_the_rest(ctx, extra)


def _knock_samples(ctx: Context, rng: random.Random, extra: int) -> list[int]:
    """The opponent hands a knock is weighed against: drawn from the particles by weight, when there are any."""
    if ctx.particles:
        return rng.choices(ctx.particles, ctx.particle_weights, k=ctx.style.knock_samples)
    return [sample_hand(ctx.k, ctx.weights, rng, extra) for _ in range(ctx.style.knock_samples)]


def _knock_extra_draws(ctx: Context) -> int:
    """How many draws a knock's sampled opponent hands are grown by: as many as the opponent made, up to a cap."""
    return min(ctx.k.opp_stock_draws + ctx.style.extra_draws_bonus, ctx.style.extra_draws)


def knock_samples(ctx: Context, rng: random.Random) -> list[int]:
    """The opponent hands a knock in ``ctx`` is weighed against, as ``should_knock`` draws them."""
    return _knock_samples(ctx, rng, _knock_extra_draws(ctx))


def _draw_the_rest(ctx: Context, extra: int) -> None:
    # Early in a hand a knock's samples draw fewer extra cards (they cost less): draw the rest
    # on throw-away samples, so that weighing a knock costs about the same whenever it happens.
    # Particles are drawn on every decision alike, so they need no such padding.
    if extra < ctx.style.extra_draws and not ctx.particles:
        for _ in range(ctx.style.knock_samples):
            sample_hand(ctx.k, ctx.weights, _PADDING_RNG, ctx.style.extra_draws - extra)


def level_player(style: Style) -> Player:
    """The player of one ``Style``: forced moves are played at once, the rest decided by ``decide``."""

    def play(v: PlayerView, rng: random.Random) -> Action:
        if not v.legal_actions:
            raise ValueError("It is not this player's turn: the view offers no legal action.")
        if len(v.legal_actions) == 1:  # forced (the draw after both passed, the next hand)
            return v.legal_actions[0]
        return decide(from_view(v), style, rng)

    return play
