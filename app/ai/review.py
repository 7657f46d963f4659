"""A finished hand, looked back on: its positions move by move, and the coach's word on each decision.

``replay`` (the engine) rebuilds the positions from the deal and the moves; the coach judges
each of the reviewed player's decisions from the ``PlayerView`` that player had just before it
(``view(position, seat)``: the hand was still being played, so nothing hidden shows). Forced
moves (the stock draw after both passed the upcard) are not judged.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from app.ai.coach import Judgement, Verdict, judge
from app.engine import Action, ActionKind, GameState, PlayedHand, Seat, legal_actions, replay, view

__all__ = ["HandReview", "Step", "Summary", "decisions", "review"]


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the hand: the position before it, the move, and the position after."""

    number: int
    """1 for the first move."""
    before: GameState
    move: Action
    after: GameState

    @property
    def mover(self) -> Seat:
        return self.before.turn


@dataclass(frozen=True, slots=True)
class Summary:
    """Where the reviewed player's points went, in expected points given away."""

    draws: float = 0.0
    discards: float = 0.0
    late_knock: float = 0.0
    """Played on when knocking was worth more."""
    early_knock: float = 0.0
    """Knocked when playing on was worth more."""

    @property
    def total(self) -> float:
        return self.draws + self.discards + self.late_knock + self.early_knock


@dataclass(frozen=True, slots=True)
class HandReview:
    """A finished hand as the reviewed ``seat`` looks back on it."""

    played: PlayedHand
    seat: Seat
    dealt: GameState
    steps: tuple[Step, ...]
    judgements: dict[int, Judgement] | None
    """The coach's judgement per step number of the seat's decisions; ``None`` when not coached (yet)."""

    @property
    def summary(self) -> Summary | None:
        if self.judgements is None:
            return None
        parts = {"draws": 0.0, "discards": 0.0, "late_knock": 0.0, "early_knock": 0.0}
        for judgement in self.judgements.values():
            parts[_part(judgement)] += judgement.cost
        return Summary(**parts)


def _part(judgement: Judgement) -> str:
    # By Expert's choice: a small cost (a good verdict) still says what it was lost on.
    chosen, best = judgement.chosen.kind, (judgement.expert or judgement.best).kind
    if not chosen.throws:
        return "draws"
    if chosen is ActionKind.DISCARD and best is ActionKind.KNOCK:
        return "late_knock"
    if chosen is ActionKind.KNOCK and best is ActionKind.DISCARD:
        return "early_knock"
    return "discards"


def decisions(steps: tuple[Step, ...], seat: Seat) -> list[Step]:
    """The steps where ``seat`` had a choice to make."""
    return [s for s in steps if s.mover == seat and len(legal_actions(s.before)) > 1]


Judge = Callable[..., Judgement]


def review(
    played: PlayedHand,
    seat: Seat,
    *,
    scores: tuple[int, int] = (0, 0),
    target: int = 100,
    coached: bool = True,
    coach: Judge = judge,
) -> HandReview:
    """``played`` move by move for ``seat``; with the coach's judgements when ``coached``.

    ``InvalidState`` (from ``replay``) if the hand does not replay by the rules.
    """
    states = replay(played, scores=scores, target=target)
    steps = tuple(
        Step(i + 1, before, move, after)
        for i, (before, move, after) in enumerate(zip(states[:-1], played.moves, states[1:], strict=True))
    )
    judgements = None
    if coached:
        judgements = {s.number: coach(view(s.before, seat), s.move) for s in decisions(steps, seat)}
    return HandReview(played, seat, states[0], steps, judgements)


def worst(review: HandReview) -> Verdict:
    """The worst verdict of the review (``GOOD`` when it was not coached)."""
    order = list(Verdict)
    verdicts = [j.verdict for j in (review.judgements or {}).values()]
    return max(verdicts, key=order.index, default=Verdict.GOOD)
