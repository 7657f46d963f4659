"""A small gin-arena/1 referee: the engine runs the game, one seat is a bot process, the other an in-process player."""

from __future__ import annotations

import json
import random
import subprocess
from dataclasses import dataclass, field
from typing import Any

from app.ai.bot import sort_cards
from app.ai.players import Player
from app.engine import Action, ActionKind, Card, GameState, Phase, apply, legal_actions, masks, new_match, view

BOT, HOST = 0, 1


class Forfeit(Exception):
    """The bot gave an invalid reply."""


@dataclass
class Referee:
    proc: subprocess.Popen[str]
    host: Player
    rng: random.Random
    next_id: int = 1
    requests: dict[str, int] = field(default_factory=dict)

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(msg) + "\n")
        self.proc.stdin.flush()

    def ask(self, msg: dict[str, Any]) -> dict[str, Any]:
        msg["id"] = self.next_id
        self.next_id += 1
        self.requests[msg["type"]] = self.requests.get(msg["type"], 0) + 1
        self.send(msg)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise Forfeit("the bot exited")
        reply: dict[str, Any] = json.loads(line)
        if reply.get("id") != msg["id"]:
            raise Forfeit(f"wrong id in {line!r}")
        return reply

    def tell_both(self, msg: dict[str, Any], who: int) -> None:
        # Only the bot needs the message; the host reads the engine's view directly.
        self.send({**msg, "player": "me" if who == BOT else "opp"} if "player" in msg else msg)

    def start_hand(self, state: GameState) -> None:
        self.send({
            "type": "start_hand", "hand_index": state.hand_number - 1, "hand": sort_cards(state.hands[BOT]),
            "upcard": str(state.discard[-1]), "is_first": state.starter == BOT, "stock_size": len(state.stock),
            "scores": {"me": state.scores[BOT], "opp": state.scores[HOST]},
        })  # fmt: skip

    def bot_action(self, state: GameState) -> Action:
        legal = legal_actions(state)
        hand = state.hands[BOT]
        if state.phase is Phase.UPCARD or ActionKind.TAKE_DISCARD in {a.kind for a in legal}:
            first = state.phase is Phase.UPCARD
            reply = self.ask({"type": "offer_upcard", "card": str(state.discard[-1]), "first_turn": first,
                              "stock_size": len(state.stock)})  # fmt: skip
            if not isinstance(reply.get("take"), bool):
                raise Forfeit(f"bad offer reply {reply}")
            if reply["take"]:
                return Action(ActionKind.TAKE_UPCARD if first else ActionKind.TAKE_DISCARD)
            return Action(ActionKind.PASS if first else ActionKind.DRAW_STOCK)
        if state.phase is Phase.DRAW:
            return Action(ActionKind.DRAW_STOCK)  # both passed: no offer (PROTOCOL rule 2)
        forbidden = state.taken_discard
        reply = self.ask({
            "type": "choose_discard", "hand": sort_cards(hand),
            "forbidden": str(forbidden) if forbidden else None, "stock_size": len(state.stock),
        })  # fmt: skip
        try:
            card = Card.parse(reply["card"])
        except (KeyError, ValueError) as exc:
            raise Forfeit(f"bad discard reply {reply}") from exc
        if card not in hand or card is forbidden:
            raise Forfeit(f"illegal discard {card}")
        dw = masks.deadwood_of_mask(masks.cards_mask(hand) ^ card.bit)
        if dw <= 10:
            knock = self.ask({"type": "knock_decision", "deadwood": dw})
            if not isinstance(knock.get("knock"), bool):
                raise Forfeit(f"bad knock reply {knock}")
            if knock["knock"]:
                return Action(ActionKind.KNOCK, card)
        return Action(ActionKind.DISCARD, card)

    def notify(self, before: GameState, action: Action, who: int) -> None:
        p = "me" if who == BOT else "opp"
        kind = action.kind
        if kind is ActionKind.PASS:
            self.send({"type": "pass", "player": p, "card": str(before.discard[-1])})
        elif kind.takes_pile:
            self.send({"type": "draw", "player": p, "source": "upcard", "card": str(before.discard[-1])})
        elif kind is ActionKind.DRAW_STOCK:
            card = str(before.stock[0]) if who == BOT else None
            self.send({"type": "draw", "player": p, "source": "stock", "card": card})
        elif kind.throws:
            assert action.card is not None
            self.send({"type": "discard", "player": p, "card": str(action.card), "knock": kind is ActionKind.KNOCK})

    def play_match(self, seed: int, hands: int | None = None) -> GameState:
        """A whole match, or its first ``hands`` hands (the state at the last one's end)."""
        state = new_match(self.rng)
        self.send({"type": "new_match", "match": 0, "seed": seed, "target": 100})
        self.start_hand(state)
        while state.phase is not Phase.MATCH_OVER:
            if state.phase is Phase.HAND_OVER and hands is not None and state.hand_number >= hands:
                return state
            if state.phase is Phase.HAND_OVER:
                self.send({"type": "hand_end", "kind": state.last_hand.kind.value if state.last_hand else "void",
                           "scores": {"me": state.scores[BOT], "opp": state.scores[HOST]}})  # fmt: skip
                state = apply(state, Action(ActionKind.NEXT_HAND), self.rng)
                self.start_hand(state)
                continue
            who = state.turn
            action = self.bot_action(state) if who == BOT else self.host(view(state, HOST), self.rng)
            self.notify(state, action, who)
            state = apply(state, action, self.rng)
        winner = "me" if state.winner == BOT else "opp"
        self.send({"type": "match_end", "scores": {"me": state.scores[BOT], "opp": state.scores[HOST]},
                   "winner": winner})  # fmt: skip
        return state
