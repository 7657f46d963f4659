"""Held-out knock chances, to judge a knock rule by: ``python -m app.ai.knock_check``.

    python -m app.ai.knock_check [-n 100] [--seed 2027] [--futures 4] [--jobs 2] [--save FILE]

``knock_fit`` learns a knock rule from a coin: at one chance a hand the coin knocks or plays on, and the
points of the two groups of hands are compared. Judging a rule that way needs many hands, since two
different hands differ by much more than a knock's choice is worth. Here each chance is played both
ways instead: Hard plays Hard (the seed-``--seed`` arena decks), and at every chance either Hard may
knock (not Gin, not on the turn before a void, not where it would wait for Gin whatever its rule says:
there every rule does the same) the hand is settled as if the player knocked, exactly, against the
opponent's real cards, and played on from the player's usual throw to its end, ``--futures`` times
(the stock, which neither player has seen, shuffled again for each after the first). A rule's choice
at each chance is then worth the knock's points or the waiting's mean, and two rules compare on the
chances where they differ.

This is the check behind issue 15's "a fresh training run on a small budget reproduces a model that
beats Hard's evaluation" (``tests/ai/test_knock_check.py``, on the chances this command saves with
its defaults). It prints what Expert's rule (``SELF_FIT``) gains over Hard's (``KNOCK_FIT``) per
chance on the chances it made; ``python -m app.ai.knock_fit ... --judge FILE`` prints the same for
the rule it fits.
"""

from __future__ import annotations

import argparse
import gzip
import json
import math
import multiprocessing
import random
import statistics
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.ai.arena import MOVE_CAP, MatchStart, Turn, mix_seed, play_out
from app.ai.knock import KnockEstimate, estimate_knock
from app.ai.knowledge import from_view
from app.ai.players import (
    HARD,
    KNOCK_FIT,
    SELF_FIT,
    Context,
    Style,
    knock_features,
    knock_samples,
    knock_throw,
    waits_for_gin,
)
from app.engine import VOID_STOCK, Action, ActionKind, GameState, Phase, PlayerView, Seat, apply, masks, view

__all__ = ["HeldOutChance", "KnockPosition", "gain", "held_out", "knock_chance", "knocks", "load", "main", "save"]

DIGITS = 4
"""The features are saved to this many decimals (a rule's choice changes only on a knife's edge)."""


@dataclass(frozen=True, slots=True)
class HeldOutChance:
    """One chance to knock, played both ways: the position's ``KNOCK_FEATURES``, the points of knocking
    now, and the mean points of playing on (positive: the player's)."""

    features: tuple[float, ...]
    knock: float
    wait: float
    match: int = 0
    """The arena match it came from (the chances of one match are not independent of each other)."""


@dataclass(frozen=True, slots=True)
class KnockPosition:
    """A position where the player to move may knock (not Gin): what a knock rule is asked about there."""

    ctx: Context
    throw: int
    """The card the player would throw if it played on (its best discard), as a mask bit."""
    knock_card: int
    """The card it would knock with (the one that leaves the least deadwood)."""
    kept: int
    """The hand it would knock with."""
    estimate: KnockEstimate
    """The knock settled against the opponent hands the player's style samples."""


def knock_chance(seen: PlayerView, style: Style, rng: random.Random) -> KnockPosition | None:
    """The knock chance in ``seen``, sampled with ``rng``; None where the player may not knock, or only
    with Gin. The coin of ``knock_fit`` and the held-out chances here read a position the same way."""
    if seen.phase is not Phase.DISCARD:
        return None
    k = from_view(seen)
    ctx = Context(k, style, rng)
    _, throw = ctx.best_discard(k.hand, k.taken)
    knock_card, deadwood = knock_throw(ctx, k.hand, k.taken)
    if not knock_card or deadwood == 0:
        return None
    kept = k.hand ^ knock_card
    return KnockPosition(ctx, throw, knock_card, kept, estimate_knock(kept, knock_samples(ctx, rng)))


def knocks(weights: Sequence[float], chance: HeldOutChance) -> bool:
    """Whether a knock rule (``Style.knock_fit``'s weights) knocks at ``chance``."""
    return sum(w * x for w, x in zip(weights, chance.features, strict=True)) > 0.0


def gain(weights: Sequence[float], than: Sequence[float], chances: Sequence[HeldOutChance]) -> tuple[float, float]:
    """The points per chance that knocking by ``weights`` brings rather than by ``than``, and its standard
    error (from the matches' totals, since a match's chances share its hands)."""
    by_match: dict[int, float] = {}
    for c in chances:
        diff = (c.knock - c.wait) * (knocks(weights, c) - knocks(than, c))
        by_match[c.match] = by_match.get(c.match, 0.0) + diff
    totals = list(by_match.values())
    mean = sum(totals) / len(chances)
    error = statistics.pstdev(totals) * math.sqrt(len(totals)) / len(chances) if len(totals) > 1 else math.inf
    return mean, error


def _points(state: GameState, seat: Seat) -> int:
    return 0 if state.last_hand is None else state.last_hand.points_for(seat)


def _copy(rng: random.Random) -> random.Random:
    twin = random.Random()
    twin.setstate(rng.getstate())
    return twin


def _play_on(start: MatchStart, state: GameState, seat: Seat) -> int:
    """The hand in ``state`` played to its end by the match's players, on copies of their generators as
    they are now: its points for ``seat``."""
    rngs, deal_rng = [_copy(rng) for rng in start.rngs], _copy(start.deal_rng)
    hand, moves = state.hand_number, 0
    while not (state.phase.over and state.hand_number == hand) and moves < MOVE_CAP:
        moves += 1
        turn = state.turn
        state = apply(state, start.players[turn](view(state, turn), rngs[turn]), deal_rng)
    return _points(state, seat) if state.phase.over else 0


def held_out(index: int, seed: int, futures: int = 4) -> list[HeldOutChance]:
    """Every knock chance of Hard against Hard in arena match ``index``, played both ways."""
    start = MatchStart.of("hard", "hard", index, seed)
    mine = random.Random(mix_seed(seed, index, 2))  # the chances' samples and shuffles, apart from the match's
    out: list[HeldOutChance] = []
    for turn in play_out(start):
        if isinstance(turn, Turn) and turn.seen.phase is Phase.DISCARD and len(turn.seen.legal_actions) > 1:
            chance = _both_ways(start, turn.state, turn.seen, mine, futures, index)
            if chance is not None:
                out.append(chance)
    return out


def _both_ways(
    start: MatchStart, state: GameState, seen: PlayerView, mine: random.Random, futures: int, index: int
) -> HeldOutChance | None:
    seat = state.turn
    if seen.stock_size <= VOID_STOCK:  # the turn before a void (R13): every rule decides alike there
        return None
    found = knock_chance(seen, HARD, mine)
    if found is None:
        return None
    ctx, kept, est = found.ctx, found.kept, found.estimate
    if waits_for_gin(ctx, kept, est.undercut_rate):
        return None
    knocked = apply(state, Action(ActionKind.KNOCK, masks.CARD_OF_BIT[found.knock_card]), _copy(start.deal_rng))
    throw = Action(ActionKind.DISCARD, masks.CARD_OF_BIT[found.throw])
    waits = []
    for future in range(futures):
        played = state
        if future:
            stock = list(state.stock)
            mine.shuffle(stock)
            played = state.model_copy(update={"stock": tuple(stock)})
        played = apply(played, throw, _copy(start.deal_rng))
        waits.append(_points(played, seat) if played.phase.over else _play_on(start, played, seat))
    features = tuple(round(x, DIGITS) for x in knock_features(ctx, kept, est.mean_points, est.undercut_rate))
    return HeldOutChance(features, _points(knocked, seat), sum(waits) / futures, index)


def _work(job: tuple[int, int, int]) -> list[HeldOutChance]:
    return held_out(*job)


def collect(n: int, seed: int, futures: int, jobs: int) -> list[HeldOutChance]:
    work = [(index, seed, futures) for index in range(n)]
    if jobs <= 1:
        return [c for job in work for c in _work(job)]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return [c for found in pool.imap(_work, work) for c in found]  # in order: the same command, the same file


def save(chances: Iterable[HeldOutChance], path: Path) -> None:
    """Write ``chances`` to ``path``, gzipped JSON lines."""
    with gzip.open(path, "wt", encoding="utf-8") as out:
        for c in chances:
            out.write(json.dumps([c.match, c.knock, c.wait, *c.features]) + "\n")


def load(path: Path) -> list[HeldOutChance]:
    """The chances ``save`` wrote."""
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        rows = [json.loads(line) for line in lines]
    return [HeldOutChance(tuple(row[3:]), row[1], row[2], row[0]) for row in rows]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.ai.knock_check", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=100, help="arena matches of Hard against Hard")
    parser.add_argument("--seed", type=int, default=2027)
    parser.add_argument("--futures", type=int, default=4, help="how many times each wait is played out")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", type=Path, help="write the chances to this file (gzipped JSON lines)")
    args = parser.parse_args(argv)
    chances = collect(args.n, args.seed, args.futures, args.jobs)
    if args.save:
        save(chances, args.save)
    differ = sum(knocks(SELF_FIT, c) != knocks(KNOCK_FIT, c) for c in chances)
    mean, error = gain(SELF_FIT, KNOCK_FIT, chances)
    print(f"{len(chances)} knock chances in {args.n} matches of Hard against Hard, seed {args.seed}")
    print(f"Expert's rule rather than Hard's: {mean:+.3f} points a chance (SE {error:.3f}; they differ at {differ})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
