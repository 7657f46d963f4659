"""Arena: play full matches between two players with the engine's own rules, on both cores.

    python -m app.ai.arena hard simple -n 2000 --seed 1 --jobs 2

Matches come in pairs on duplicate decks: both matches of a pair deal the same cards to the
same seats hand after hand, and the players swap seats between them, so each player holds
each set of cards once. That cancels much of the luck of the deal. The first starter
alternates from pair to pair (and, by R3, from hand to hand within a match). Everything is
seeded: the same command prints the same figures.

The engine itself (``new_match``/``apply``/``view``) runs the games, so the arena can't
drift from the house rules, and each player sees only its ``PlayerView``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import math
import multiprocessing
import random
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.ai.players import Player
from app.ai.research import ARENA_PLAYERS as PLAYERS
from app.engine import NEXT_HAND, Action, GameState, HandKind, Phase, PlayerView, apply, new_match, view

HAND_CAP = 300  # a match that has not ended by then is a draw (only random-vs-random gets near it)
MOVE_CAP = 1_000
"""Moves in one hand past which the match is a draw. Two players can trade pile cards for ever while
the stock stands still, and no rule ends that (Expert and Hard once swapped aces until a 2,000-match
run was stopped after an hour). A hand that draws its whole stock takes about 60 moves, and two more
for each card taken from the pile."""


Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""


@dataclass(frozen=True, slots=True)
class MatchResult:
    index: int
    a_won: bool | None
    """True if A won, False if B won, None for a capped match."""
    a_points: int
    b_points: int
    hands: int
    a_gins: int
    b_gins: int
    a_undercuts: int
    """Hands A won by undercutting B's knock."""
    b_undercuts: int
    voids: int


def mix_seed(*parts: int) -> int:
    # Deterministic across processes (unlike hash()): mix the parts into one 64-bit seed.
    x = 0x9E3779B97F4A7C15
    for p in parts:
        x = (x ^ (p & 0xFFFFFFFFFFFFFFFF)) * 0xBF58476D1CE4E5B9 & 0xFFFFFFFFFFFFFFFF
        x ^= x >> 31
    return x


@dataclass(frozen=True, slots=True)
class MatchStart:
    """Match ``index`` before its first move: pair ``index // 2``'s deck sequence; A sits in seat 0
    in even matches, seat 1 in odd. The generators are the match's own (the arena's runs replay)."""

    state: GameState
    deal_rng: random.Random
    players: tuple[Player, Player]
    """By seat."""
    rngs: tuple[random.Random, random.Random]
    """Each seat's generator for its decisions."""
    a_seat: int

    @classmethod
    def of(cls, a: str, b: str, index: int, seed: int) -> MatchStart:
        pair, swapped = divmod(index, 2)
        deal_rng = random.Random(mix_seed(seed, pair, 0))
        a_seat = 1 if swapped else 0
        players = (PLAYERS[a], PLAYERS[b]) if a_seat == 0 else (PLAYERS[b], PLAYERS[a])
        rngs = (random.Random(mix_seed(seed, index, 1, 0)), random.Random(mix_seed(seed, index, 1, 1)))
        return cls(new_match(deal_rng, starter=pair % 2), deal_rng, players, rngs, a_seat)


@dataclass(slots=True)
class Turn:
    """A decision of a match being played, before it is made: ``play_out``'s caller may set ``action``
    to play that instead of what the seat's player would choose (a coin's move, an experiment's)."""

    state: GameState
    seen: PlayerView
    """What the player to move sees (``state.turn``'s ``PlayerView``)."""
    action: Action | None = None


@dataclass(frozen=True, slots=True)
class HandOver:
    """A hand of the match has just ended: ``state.last_hand`` is its record."""

    state: GameState


def play_out(start: MatchStart) -> Iterator[Turn | HandOver]:
    """Match ``start`` played to its end, or to a cap (``HAND_CAP``, ``MOVE_CAP``), as the arena plays
    it: each decision before it is made, and each hand as it ends. Every tool that plays matches the
    arena's way (the arena, the knock fits and checks, the hand outcomes) plays them here, so their
    matches are the arena's, move for move."""
    state, deal_rng, players, rngs = start.state, start.deal_rng, start.players, start.rngs
    hands = moves = 0  # moves: in the hand being played
    while state.phase is not Phase.MATCH_OVER and hands < HAND_CAP:
        if state.phase is Phase.HAND_OVER:
            state, moves = apply(state, NEXT_HAND, deal_rng), 0
            continue
        moves += 1
        if moves > MOVE_CAP:
            return  # an endless hand: the match counts as capped (a draw), not as won by whoever leads
        me = state.turn
        turn = Turn(state, view(state, me))
        yield turn
        action = turn.action if turn.action is not None else players[me](turn.seen, rngs[me])
        before = state.hand_number
        state = apply(state, action, deal_rng)
        if state.phase.over and state.last_hand and state.hand_number == before:
            hands += 1
            yield HandOver(state)


def play_match(a: str, b: str, index: int, seed: int) -> MatchResult:
    """Match ``index`` (``MatchStart``) played to its end, or to a cap."""
    start = MatchStart.of(a, b, index, seed)
    a_seat, b_seat = start.a_seat, 1 - start.a_seat
    # Scores change only as hands end, and only a hand's end ends the match: the state after the
    # last hand played has the match's final scores and winner (None for a capped match).
    last = start.state
    hands = voids = 0
    gins = [0, 0]
    undercuts = [0, 0]
    for event in play_out(start):
        if isinstance(event, Turn):
            continue
        last, hands = event.state, hands + 1
        rec = event.state.last_hand
        assert rec is not None
        if rec.kind is HandKind.GIN and rec.winner is not None:
            gins[rec.winner] += 1
        elif rec.kind is HandKind.UNDERCUT and rec.winner is not None:
            undercuts[rec.winner] += 1
        elif rec.kind is HandKind.VOID:
            voids += 1
    won = None if last.winner is None else last.winner == a_seat
    return MatchResult(
        index=index, a_won=won, a_points=last.scores[a_seat], b_points=last.scores[b_seat], hands=hands,
        a_gins=gins[a_seat], b_gins=gins[b_seat], a_undercuts=undercuts[a_seat], b_undercuts=undercuts[b_seat],
        voids=voids,
    )  # fmt: skip


def read_log(path: Path) -> list[MatchResult]:
    """The matches a ``--log`` holds, in the order they ended."""
    return [MatchResult(**json.loads(line)) for line in path.read_text().splitlines() if line.strip()]


def _work(job: tuple[str, str, int, int]) -> MatchResult:
    return play_match(*job)


def run(a: str, b: str, n: int, seed: int, jobs: int) -> Iterator[MatchResult]:
    work = [(a, b, i, seed) for i in range(n)]
    if jobs <= 1:
        yield from map(_work, work)
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap_unordered(_work, work, chunksize=4)


@dataclass(frozen=True, slots=True)
class Summary:
    matches: int
    a_wins: int
    b_wins: int
    draws: int
    win_rate: float
    ci_low: float
    ci_high: float
    hands: int
    a_points_per_hand: float
    b_points_per_hand: float


def summarise(results: Sequence[MatchResult]) -> Summary:
    n = len(results)
    wins = sum(r.a_won is True for r in results)
    losses = sum(r.a_won is False for r in results)
    draws = n - wins - losses
    # A capped match counts as half a win, so that the rate stays an honest share of matches.
    rate = (wins + 0.5 * draws) / n if n else 0.0
    # Wilson score interval, 95%: sound near 0 and 1, where the normal approximation is not.
    z = Z95
    denom = 1 + z * z / n
    centre = (rate + z * z / (2 * n)) / denom
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / denom
    hands = sum(r.hands for r in results)
    return Summary(
        matches=n, a_wins=wins, b_wins=losses, draws=draws, win_rate=rate,
        ci_low=max(0.0, centre - half), ci_high=min(1.0, centre + half), hands=hands,
        a_points_per_hand=sum(r.a_points for r in results) / max(1, hands),
        b_points_per_hand=sum(r.b_points for r in results) / max(1, hands),
    )  # fmt: skip


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.ai.arena", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", choices=sorted(PLAYERS), help="player A")
    parser.add_argument("b", choices=sorted(PLAYERS), help="player B")
    parser.add_argument("-n", type=int, default=200, help="matches to play (rounded up to an even number)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2: both cores)")
    parser.add_argument("--log", type=Path, help="write each match's result to this file as it ends")
    parser.add_argument("--from-log", type=Path, help="play nothing: the figures of the duplicate pairs a --log holds")
    args = parser.parse_args(argv)
    n = args.n + args.n % 2
    start = time.perf_counter()
    results = []
    if args.from_log:  # a run stopped early: only pairs both of whose matches ended, so the decks stay fair
        logged = read_log(args.from_log)
        ended = {r.index for r in logged}
        results = [r for r in logged if r.index ^ 1 in ended]
        n = len(results)
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(args.log.open("w")) if args.log else None
        for result in run(args.a, args.b, n, args.seed, args.jobs) if not args.from_log else ():
            results.append(result)
            if log:  # a long run that has to be stopped still leaves the matches it played
                print(json.dumps(dataclasses.asdict(result)), file=log, flush=True)
    results.sort(key=lambda r: r.index)
    elapsed = time.perf_counter() - start
    s = summarise(results)
    g = sum(r.a_gins for r in results), sum(r.b_gins for r in results)
    u = sum(r.a_undercuts for r in results), sum(r.b_undercuts for r in results)
    voids = sum(r.voids for r in results)
    how = f"from {args.from_log}" if args.from_log else f"{args.jobs} jobs"
    print(f"{args.a} vs {args.b}: {n} matches (seed {args.seed}, {how}, duplicate decks)")
    print(f"  match wins     {args.a} {s.a_wins}  {args.b} {s.b_wins}  unfinished {s.draws}")
    print(f"  win rate       {args.a} {100 * s.win_rate:.1f}%  (95% CI {100 * s.ci_low:.1f}–{100 * s.ci_high:.1f}%)")
    print(
        f"  points/hand    {args.a} {s.a_points_per_hand:.2f}  {args.b} {s.b_points_per_hand:.2f}"
        f"  (net {s.a_points_per_hand - s.b_points_per_hand:+.2f})"
    )
    print(f"  gins           {args.a} {g[0]}  {args.b} {g[1]};  undercuts won {args.a} {u[0]}  {args.b} {u[1]}")
    speed = "" if args.from_log else f", {s.hands / elapsed:.1f} hands/s, {elapsed:.1f} s"
    print(f"  hands          {s.hands} ({voids} void){speed}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
