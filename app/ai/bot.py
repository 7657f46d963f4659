"""The computer as a stand-alone bot speaking gin-arena/1 (JSON lines on stdin/stdout; see docs/protocol.md).

    python -m app.ai.bot [--level easy|normal|hard|expert]   (default hard)

The bot keeps an engine ``GameState`` of the hand in play in which the cards it cannot see
(the opponent's hidden cards and the stock) are filled in arbitrarily, and moves them around
whenever the referee reveals one (a card it draws, a card the opponent discards). The
computer then decides from ``view(state, me)`` exactly as in the web game: the view never
shows the filled-in cards, so the guesses cannot influence a decision.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Iterable
from typing import IO, Any

from app.ai import Level, choose
from app.engine import DECK, Action, ActionKind, Card, Deal, GameState, Phase, Seat, apply, masks, view

PROTOCOL = "gin-arena/1"
ME, OPP = Seat.FIRST, Seat.SECOND  # the bot's own seat, and the referee's other player
_SUIT_ORDER = {3: 0, 0: 1, 1: 2, 2: 3}  # protocol lists cards by suit s, c, d, h


class BotError(Exception):
    """A message the bot cannot reconcile with the hand it is tracking."""


def sort_cards(cards: Iterable[Card]) -> list[str]:
    return [str(c) for c in sorted(cards, key=lambda c: (_SUIT_ORDER[c.suit], c.rank))]


class Tracker:
    """The hand in play as an engine state, hidden cards filled in consistently with what was revealed."""

    def __init__(self, level: Level) -> None:
        self.level = level
        self.rng = random.Random(0)
        self.state: GameState | None = None
        self.intended_knock = False

    def new_match(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def start_hand(self, msg: dict[str, Any]) -> None:
        hand = [Card.parse(c) for c in msg["hand"]]
        upcard = Card.parse(msg["upcard"])
        hidden = [c for c in DECK if c not in hand and c is not upcard]
        self.rng.shuffle(hidden)  # any arrangement will do: the view never shows these
        scores = msg.get("scores", {"me": 0, "opp": 0})
        starter = ME if msg["is_first"] else OPP
        self.state = GameState(
            hands=(tuple(hand), tuple(hidden[:10])),
            stock=tuple(hidden[10:]),
            discard=(upcard,),
            phase=Phase.UPCARD,
            turn=starter,
            starter=starter,
            scores=(int(scores["me"]), int(scores["opp"])),
            hand_number=int(msg.get("hand_index", 0)) + 1,
            deal=Deal(deck=DECK, salt="bot"),
        )

    def _need(self) -> GameState:
        if self.state is None:
            raise BotError("No hand is in play.")
        return self.state

    def _apply(self, action: Action) -> None:
        self.state = apply(self._need(), action)

    # --- keeping the filled-in cards consistent -------------------------------------------

    def _hidden_opp_cards(self, s: GameState) -> list[Card]:
        known = set(view(s, ME).opponent_known)
        return [c for c in s.hands[OPP] if c not in known]

    def _to_stock_top(self, card: Card) -> None:
        """Make ``card`` (one I am about to draw) the top of the stock."""
        s = self._need()
        stock, opp = list(s.stock), list(s.hands[OPP])
        if not stock:
            raise BotError("The stock is empty.")
        if card in stock:
            i = stock.index(card)
            stock[0], stock[i] = stock[i], stock[0]
        elif card in self._hidden_opp_cards(s):
            opp[opp.index(card)], stock[0] = stock[0], card
        else:
            raise BotError(f"{card} cannot be in the stock.")
        self.state = s.model_copy(update={"stock": tuple(stock), "hands": (s.hands[ME], tuple(opp))})

    def _into_opp_hand(self, card: Card) -> None:
        """Make sure the opponent holds ``card`` (one it is discarding)."""
        s = self._need()
        if card in s.hands[OPP]:
            return
        stock, opp = list(s.stock), list(s.hands[OPP])
        if card not in stock:
            raise BotError(f"The opponent cannot hold {card}.")
        swap = self._hidden_opp_cards(s)
        if not swap:
            raise BotError(f"The opponent has no hidden card to exchange for {card}.")
        j = stock.index(card)
        opp[opp.index(swap[0])], stock[j] = card, swap[0]
        self.state = s.model_copy(update={"stock": tuple(stock), "hands": (s.hands[ME], tuple(opp))})

    # --- notifications -------------------------------------------------------------------

    def on_pass(self) -> None:
        self._apply(Action(ActionKind.PASS))

    def on_draw(self, msg: dict[str, Any]) -> None:
        s = self._need()
        who = ME if msg["player"] == "me" else OPP
        if s.turn != who:
            raise BotError("A draw out of turn.")
        if msg["source"] == "upcard":
            take = ActionKind.TAKE_UPCARD if s.phase is Phase.UPCARD else ActionKind.TAKE_DISCARD
            self._apply(Action(take))
            return
        if who == ME:
            self._to_stock_top(Card.parse(msg["card"]))
        self._apply(Action(ActionKind.DRAW_STOCK))

    def on_discard(self, msg: dict[str, Any]) -> None:
        card = Card.parse(msg["card"])
        if msg.get("knock"):
            return  # the hand is over; hand_end and the next start_hand follow
        if msg["player"] == "opp":
            self._into_opp_hand(card)
        self._apply(Action(ActionKind.DISCARD, card))

    # --- requests ------------------------------------------------------------------------

    def _choose(self) -> Action:
        return choose(view(self._need(), ME), self.level, self.rng)

    def offer_upcard(self) -> bool:
        action = self._choose()
        return action.kind.takes_pile

    def choose_discard(self, hand: list[str]) -> str:
        s = self._need()
        if {Card.parse(c) for c in hand} != set(s.hands[ME]):
            raise BotError("The referee's hand differs from the tracked one.")
        action = self._choose()
        assert action.card is not None
        self.intended_knock = action.kind is ActionKind.KNOCK
        return str(action.card)


def _fallback(msg: dict[str, Any]) -> dict[str, Any]:
    """A legal answer without the tracker, if it ever lost the thread: better than a forfeit."""
    t = msg["type"]
    if t == "offer_upcard":
        return {"take": False}
    if t == "knock_decision":
        return {"knock": True}
    hand = [Card.parse(c) for c in msg["hand"]]
    forbidden = Card.parse(msg["forbidden"]) if msg.get("forbidden") else None
    mask = sum(c.bit for c in hand)
    best = min((c for c in hand if c is not forbidden), key=lambda c: (masks.deadwood_of_mask(mask ^ c.bit), -c.value))
    return {"card": str(best)}


def serve(level: Level, stdin: IO[str], stdout: IO[str], stderr: IO[str]) -> None:
    tracker = Tracker(level)
    for line in stdin:
        if not line.strip():
            continue
        msg = json.loads(line)
        t, rid = msg.get("type"), msg.get("id")
        try:
            reply = _handle(tracker, t, msg, level)
        except (BotError, ValueError, KeyError, AssertionError) as exc:
            print(f"bot: {type(exc).__name__}: {exc} (message {line.strip()})", file=stderr, flush=True)
            if rid is not None and t in ("offer_upcard", "choose_discard", "knock_decision"):
                reply = _fallback(msg)
            elif rid is not None:
                reply = {"error": str(exc)}
            else:
                reply = None
        if t == "bye":
            break
        if rid is None or reply is None:
            continue
        reply["id"] = rid
        stdout.write(json.dumps(reply) + "\n")
        stdout.flush()


def _handle(tracker: Tracker, t: object, msg: dict[str, Any], level: Level) -> dict[str, Any] | None:
    if t == "hello":
        return {"name": f"gin-rummy-{level.value}", "version": "0.1"}
    if t == "new_match":
        tracker.new_match(int(msg.get("seed", 0)))
    elif t == "start_hand":
        tracker.start_hand(msg)
    elif t == "pass":
        tracker.on_pass()
    elif t == "draw":
        tracker.on_draw(msg)
    elif t == "discard":
        tracker.on_discard(msg)
    elif t == "offer_upcard":
        return {"take": tracker.offer_upcard()}
    elif t == "choose_discard":
        return {"card": tracker.choose_discard(list(msg["hand"]))}
    elif t == "knock_decision":
        return {"knock": tracker.intended_knock or int(msg.get("deadwood", 1)) == 0}
    elif "id" in msg:
        return {"error": f"unknown request type {t!r}"}
    return None  # notifications the bot does not need (hand_end, match_end, unknown ones)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.ai.bot", description="Gin Rummy bot speaking gin-arena/1.")
    parser.add_argument("--level", choices=[lv.value for lv in Level], default=Level.HARD.value)
    args = parser.parse_args(argv)
    serve(Level(args.level), sys.stdin, sys.stdout, sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
