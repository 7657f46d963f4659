"""The coach: judges one of the person's decisions from the view they had, in points given away.

For a decision (take or pass the upcard, stock or pile, which card to throw, knock or play on)
the coach values each candidate as the points it is expected to bring, with the search's
evaluation (``search.py``, shared, not copied): opponent hands are sampled from the person's
``PlayerView`` with the computer's inference (``sample_hand``), the rest of the unseen cards
shuffled into a stock, and each sample played out to the end of the hand by the search's
careful players (``search.outcome``; knocks are settled by the engine's R14–R19 scoring).
Every candidate meets the same samples, so the differences between candidates are far
steadier than the values themselves.

The better choice is Expert's, the strongest player there is (issue 15: the coach judges with
the best evaluation; the hint shows the same choice during play, so the review never
contradicts it). Expert is Hard with its knocks timed by a rule fitted against Hard itself
(``players.SELF_FIT``), so the two differ on when to knock. The person's choice costs
Expert's expected points minus its own, never less than 0: a choice the playouts rate as
good as Expert's, or better, is good. The verdict follows ``THRESHOLDS``. (Searching wider, the
best of all throws by greedy playouts, was tried and rejected: their opponent knocks at its
first chance, and by them the Hard player's own throws came out as mistakes in 7 of 242
decisions.)

Nothing here reads more than the ``PlayerView``: the coach is as blind to hidden cards as the
computer opponent. The samples are seeded by the position's public facts, so the same review
twice gives the same verdicts.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from enum import StrEnum

from app.ai.hint import ADVISER, why
from app.ai.inference import card_weights
from app.ai.knowledge import Knowledge, from_view
from app.ai.players import decide
from app.ai.search import DRAW_BLIND, PASS_TOP, TAKE_TOP, Deal, Move, Throw, deals, outcome
from app.engine import Action, ActionKind, PlayerView
from app.words import Sentence, join_clauses

__all__ = ["SAMPLES", "THRESHOLDS", "Judgement", "Verdict", "judge"]

SAMPLES = 96
"""Sampled deals (opponent hand and stock) per decision; both choices are played out on each."""
EXTRA_DRAWS = 2
"""A sampled opponent hand draws (and sheds its worst card) as many extra times as the opponent drew
blind, up to this. The Hard player allows 6 for its knocks; for the coach's playouts 2 was the best
calibrated of 0, 1, 2, 3 and 6 (docs/ai.md, "The coach"): more made opponents too strong."""


class Verdict(StrEnum):
    """How much a decision gave away against the best the coach found."""

    GOOD = "good"
    """Less than ``THRESHOLDS[INACCURACY]`` points: the best choice, or as good as makes no difference."""
    INACCURACY = "inaccuracy"
    """A small loss: a close call that went the worse way."""
    MISTAKE = "mistake"
    """A clear loss, like keeping a loose high card over a card that pairs."""
    BLUNDER = "blunder"
    """A large loss, like breaking up a made meld, or knocking into a likely undercut."""

    @property
    def article(self) -> str:
        return "an" if self is Verdict.INACCURACY else "a"


THRESHOLDS: dict[Verdict, float] = {Verdict.INACCURACY: 1.5, Verdict.MISTAKE: 3.5, Verdict.BLUNDER: 8.0}
"""The least expected cost, in points, of each verdict worse than good (docs/ai.md, "The coach")."""


def verdict_of(cost: float) -> Verdict:
    worst = Verdict.GOOD
    for verdict, least in THRESHOLDS.items():
        if cost >= least:
            worst = verdict
    return worst


@dataclass(frozen=True, slots=True)
class Judgement:
    """The coach's view of one decision."""

    chosen: Action
    best: Action
    """Expert's choice, when the chosen one gave away enough to be more than good; else the chosen one."""
    cost: float
    """Expected points given away against ``best`` (0 when the choice was the best)."""
    verdict: Verdict
    values: tuple[tuple[Action, float], ...]
    """Expert's choice and the chosen one, each with its expected points for the person (negative: for
    the opponent); empty when the choice was Expert's own and not ``valued``."""
    reason: Sentence
    """One line in the hint's words: "Better: discard 9♣; 9♣ is loose; keeps 7♥ 8♥ for a run."."""
    expert: Action | None = None
    """Expert's choice, whatever the verdict (``best`` is the chosen one when it was good)."""

    @property
    def value(self) -> float | None:
        """The expected points of the position for the person, played as Expert would
        (``None`` when nothing was played out: the choice was Expert's own)."""
        return self.values[0][1] if self.values else None


def judge(view: PlayerView, chosen: Action, samples: int = SAMPLES, *, valued: bool = False) -> Judgement:
    """The coach's judgement of ``chosen`` (one of ``view.legal_actions``), from ``view`` alone.

    A choice that is Expert's own is good without playing anything out, unless
    ``valued`` asks for the position's value all the same (the calibration does).
    """
    if chosen not in view.legal_actions or not view.phase.in_play:
        raise ValueError(f"{chosen} is not a move the person could make in this position.")
    rng = random.Random(f"coach.{view.fingerprint}.{len(view.log)}")  # public facts only
    k = from_view(view)
    expert = decide(k, ADVISER, random.Random(rng.random())) if len(view.legal_actions) > 1 else view.legal_actions[0]
    if chosen == expert and not valued:
        return Judgement(chosen, chosen, 0.0, Verdict.GOOD, (), (), expert)
    sampled = deals(k, card_weights(k), rng, samples, EXTRA_DRAWS)  # the search's own determinizations
    values = tuple((a, _value(k, a, sampled)) for a in dict.fromkeys((expert, chosen)))
    worth = dict(values)
    cost = max(0.0, worth[expert] - worth[chosen])
    verdict = verdict_of(cost)
    best = chosen if verdict is Verdict.GOOD else expert
    reason: Sentence = ()
    if verdict is not Verdict.GOOD:
        reason = join_clauses(("better: ", *_move_words(expert)), *why(view, expert))
    return Judgement(chosen, best, cost, verdict, values, reason, expert)


def _move_words(action: Action) -> Sentence:
    if action.kind is ActionKind.KNOCK:
        assert action.card is not None
        return ("knock with ", action.card)
    if action.kind is ActionKind.DISCARD:
        assert action.card is not None
        return ("discard ", action.card)
    return (_DRAW_WORDS[action.kind],)


_DRAW_WORDS = {
    ActionKind.TAKE_UPCARD: "take the upcard",
    ActionKind.PASS: "pass the upcard",
    ActionKind.DRAW_STOCK: "draw from the stock",
    ActionKind.TAKE_DISCARD: "take the discard",
}


def _move(action: Action) -> Move:
    """The search's name for ``action``: a throw (a knock settled, a discard played on) or a draw."""
    if action.kind.throws:
        assert action.card is not None
        return Throw(action.card.bit, knock=action.kind is ActionKind.KNOCK)
    if action.kind.takes_pile:
        return TAKE_TOP
    return DRAW_BLIND if action.kind is ActionKind.DRAW_STOCK else PASS_TOP


def _value(k: Knowledge, action: Action, sampled: list[Deal]) -> float:
    """Mean points to the person over ``sampled`` deals if they make ``action`` and the hand is played on
    as Expert's search plays it (``search.outcome``, with Expert's knock limit for the careful players)."""
    move = _move(action)
    total = 0
    for opp, stock in sampled:
        total += outcome(k, move, opp, list(stock), ADVISER.search_knock_at)
    return total / len(sampled)
