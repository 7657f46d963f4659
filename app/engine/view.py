"""What one player may know (the only thing the computer opponent and the templates see)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from app.engine.cards import Card
from app.engine.errors import InvalidState
from app.engine.rules import legal_actions
from app.engine.state import (
    Action,
    ActionKind,
    Deal,
    Event,
    GameState,
    HandRecord,
    HandSummary,
    Phase,
    Seat,
)


class PlayerView(BaseModel):
    """One player's knowledge: their own hand and everything that happened in the open.

    Never the opponent's other cards, never the stock's order. The deal (deck and salt) is
    revealed only once the hand is over, when it can no longer help anyone.
    """

    model_config = ConfigDict(frozen=True)

    player: Seat
    hand: tuple[Card, ...]
    discard_pile: tuple[Card, ...]  # top last
    stock_size: int
    opponent_hand_size: int
    opponent_known: tuple[Card, ...]
    """Cards the opponent took from the discard pile and still holds."""
    opponent_discarded: tuple[Card, ...]
    opponent_passed: tuple[Card, ...]
    """Face-up cards the opponent declined: a passed upcard, or the top discard when it drew from the stock."""
    phase: Phase
    turn: Seat
    passes: int
    taken_discard: Card | None
    scores: tuple[int, int]
    target: int
    hand_number: int
    starter: Seat
    log: tuple[Event, ...]
    fingerprint: str
    legal_actions: tuple[Action, ...]
    last_hand: HandRecord | None
    history: tuple[HandSummary, ...]
    winner: Seat | None
    revealed_deal: Deal | None

    @property
    def opponent(self) -> Seat:
        return self.player.other

    @property
    def my_turn(self) -> bool:
        return self.turn == self.player and bool(self.legal_actions)


# What the other player sees of a stock draw: who drew, not the card (one immutable value each).
_HIDDEN_DRAWS = tuple(Event(player=seat, kind=ActionKind.DRAW_STOCK) for seat in Seat)


def _public_log(state: GameState, player: int) -> tuple[Event, ...]:
    # The card of a stock draw is seen only by the drawer.
    return tuple(
        _HIDDEN_DRAWS[e.player] if e.kind is ActionKind.DRAW_STOCK and e.player != player else e for e in state.log
    )


def view(state: GameState, player: int) -> PlayerView:
    """What ``player`` (a ``Seat``, or 0 or 1) may see of ``state``."""
    if not isinstance(state, GameState):
        raise InvalidState(f"{type(state).__name__} is not a game state.")
    if type(player) not in (int, Seat) or player not in (0, 1):
        raise InvalidState(f"There is no player {player!r}; players are 0 and 1.")
    me = Seat(player)
    opp = me.other
    known: list[Card] = []
    discarded: list[Card] = []
    passed: list[Card] = []
    top: Card | None = state.deal.deck[20]  # the upcard (R7); then the face-up card before each event
    for e in state.log:
        if e.player == opp:
            if e.kind.takes_pile and e.card is not None:
                known.append(e.card)
            elif e.kind.throws and e.card is not None:
                discarded.append(e.card)
                if e.card in known:
                    known.remove(e.card)
            elif e.kind is ActionKind.PASS and e.card is not None:
                passed.append(e.card)
            elif e.kind is ActionKind.DRAW_STOCK and top is not None:
                passed.append(top)
        if e.kind.throws or e.kind is ActionKind.PASS:
            top = e.card
        elif e.kind.takes_pile:
            top = None
    over = state.phase.over
    mine = state.turn == me
    # Built without validation: every field comes from a validated GameState, already of its type,
    # and validating them again (the log's events one by one) was about 2% of a move.
    return PlayerView.model_construct(
        player=me,
        hand=state.hands[me],
        discard_pile=state.discard,
        stock_size=len(state.stock),
        opponent_hand_size=len(state.hands[opp]),
        opponent_known=tuple(known),
        opponent_discarded=tuple(discarded),
        opponent_passed=tuple(passed),
        phase=state.phase,
        turn=state.turn,
        passes=state.passes,
        taken_discard=state.taken_discard if mine else None,
        scores=state.scores,
        target=state.target,
        hand_number=state.hand_number,
        starter=state.starter,
        log=_public_log(state, me),
        fingerprint=state.deal.fingerprint,
        legal_actions=tuple(legal_actions(state)) if mine or over else (),
        last_hand=state.last_hand,
        history=state.history,
        winner=state.winner,
        revealed_deal=state.deal if over else None,
    )
