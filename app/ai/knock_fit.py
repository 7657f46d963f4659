"""A knock rule, fitted from a randomized experiment: ``python -m app.ai.knock_fit``.

    python -m app.ai.knock_fit [-n 2000] [--seed 31] [--against eaai-gin,eaai-knock5] [--jobs 2]
                               [--base hard-outs08] [--spread 1.0] [--features 16] [--save FILE]
                               [--decision knock|draw|discard] [--judge FILE]

A player (``--base``, by its arena name; by default Hard as it was before the fit, ``MARGIN_HARD``:
it knocks when its 40 sampled knocks are worth more than a margin of 9 points) plays ``-n`` matches
against each opponent named (the arena's duplicate decks). At one chance to knock in each hand (not
Gin), a coin decides, instead of the player, whether it knocks at once or throws its usual discard and
plays on as itself. The chance is the hand's first; with ``--spread p`` below 1, each chance is taken
with probability ``p`` until one is, so that later chances are in the data too. The coin makes the two
groups alike in everything but the choice, so the difference of the hands' points between them is
what knocking at once is worth, and a least-squares fit of the hand's points on the position's
features, with each feature again times the choice, says how that worth changes with the position
(``players.KNOCK_FEATURES``; ``--features k``: the first ``k`` only). The fitted effect's weights are
``Style.knock_fit``: a player knocks when they make the effect positive. ``players.KNOCK_FIT`` (Hard's)
is what this command prints with ``--features 7`` and the other defaults; ``players.SELF_FIT``
(Expert's) is what it prints with ``--base hard --against hard --seed 47 -n 3000 --spread 0.5``.

``--decision draw`` asks the same of the draw (issue 15, stop 30): where the player's heuristic margin
between the face-up card and a blind draw (``players.pile_margin``) is within ``DRAW_BAND`` points,
the coin takes the card or draws blind, and the fit weighs ``DRAW_FEATURES``. Against Hard the fitted
draw rule did not beat the heuristic's on held-out chances, so no player uses one (docs/ai-experiments.md, "The
draw, asked the same way"). ``--decision discard`` asks it of the throw: where no knock is allowed and the
heuristic's two best throws are within ``DISCARD_BAND`` points, the coin throws the best or the second,
and the fit weighs ``DISCARD_FEATURES`` (the differences between the two).

``--judge FILE`` also prints what the fitted knock rule gains per chance over Hard's rule on the
held-out chances of ``python -m app.ai.knock_check --save FILE``, each played both ways (issue 15's
check that a small training run still beats Hard's rule: ``tests/ai/test_knock_check.py``).

Everything is seeded, so the same command prints the same weights. The fit is ``k`` weights for the
effect and ``k`` for the position: a system of ``2k`` equations, solved here directly.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from app.ai.arena import HandOver, MatchStart, play_out
from app.ai.evaluate import danger, meld_outs, outs_weight
from app.ai.knock_check import gain, knock_chance, load
from app.ai.knowledge import from_view
from app.ai.players import (
    FULL_STOCK,
    KNOCK_FEATURES,
    KNOCK_FIT,
    PILE_TAKE_LIMIT,
    Context,
    Style,
    knock_features,
    knock_throw,
    pile_margin,
    should_knock,
)
from app.ai.research import STYLES
from app.engine import (
    DRAW_STOCK,
    KNOCK_LIMIT,
    PASS,
    TAKE_DISCARD,
    TAKE_UPCARD,
    Action,
    ActionKind,
    Phase,
    PlayerView,
    Seat,
    masks,
)

__all__ = ["DECISIONS", "Decision", "KnockChance", "chances", "fit", "main", "solve"]


@dataclass(frozen=True, slots=True)
class KnockChance:
    """The chance of one hand the coin decided: the position's features, the coin's choice, the hand's points.

    A knock chance, or another of the ``DECISIONS``: ``knocked`` is then whether the coin made its first
    choice (took the face-up card, threw the second-best card).
    """

    features: tuple[float, ...]
    knocked: bool
    points: float
    """The hand's points for the player: positive when it won the hand, negative when it lost it."""
    nth: int = 1
    """Which of the hand's chances the coin took (1: the first)."""


Tossed = tuple[Action, tuple[tuple[float, ...], bool]]
DRAW_BAND = 4.0
"""The draw experiment tosses where the heuristic's margin for the face-up card (``pile_margin``) is within
this many points either way: the choices a fitted rule could change."""


def chances(
    opponent: str, index: int, seed: int, base: str = "hard-outs08", spread: float = 1.0, decision: str = "knock"
) -> list[KnockChance]:
    """Match ``index`` of ``base`` against ``opponent``, with the coin at one chance of each hand."""
    style, toss = STYLES[base], DECISIONS[decision].toss
    start = MatchStart.of(base, opponent, index, seed)
    mine = start.a_seat
    coin = random.Random(index * 7919 + seed)
    out: list[KnockChance] = []
    pending: tuple[tuple[float, ...], bool, int] | None = None
    tried, seen_chances = False, 0  # in the hand being played
    for event in play_out(start):
        if isinstance(event, HandOver):
            record = event.state.last_hand
            if pending is not None and record is not None:
                out.append(KnockChance(pending[0], pending[1], record.points_for(Seat(mine)), pending[2]))
            pending, tried, seen_chances = None, False, 0
        elif event.state.turn == mine and not tried and len(event.seen.legal_actions) > 1:
            tossed = toss(event.seen, style, coin)
            if tossed is not None:
                seen_chances += 1
                if spread >= 1.0 or coin.random() < spread:
                    event.action, pending = tossed[0], (*tossed[1], seen_chances)
                    tried = True
    return out


def _tossed_knock(seen: PlayerView, style: Style, coin: random.Random) -> Tossed | None:
    """At a knock chance (not Gin): the coin's action and the position's features; else None."""
    found = knock_chance(seen, style, coin)
    if found is None:
        return None
    ctx, card, knock_card, kept, est = found.ctx, found.throw, found.knock_card, found.kept, found.estimate
    should_knock(ctx, kept, card if card != knock_card else 0, coin)  # Hard's own choice: drawn, unused, as fitted
    knocked = coin.random() < 0.5
    thrown = knock_card if knocked else card
    action = Action(ActionKind.KNOCK if knocked else ActionKind.DISCARD, masks.CARD_OF_BIT[thrown])
    return action, (knock_features(ctx, kept, est.mean_points, est.undercut_rate), knocked)


def _tossed_draw(seen: PlayerView, style: Style, coin: random.Random) -> Tossed | None:
    """Where the heuristic's choice between the face-up card and a blind draw is close (``DRAW_BAND``):
    the coin's choice and the position's features; else None."""
    if seen.phase not in (Phase.UPCARD, Phase.DRAW):
        return None
    k = from_view(seen)
    if not k.top or (seen.phase is Phase.DRAW and not k.can_take) or style.take_only_melds:
        return None
    if k.discards - (FULL_STOCK - k.stock_size) > PILE_TAKE_LIMIT:  # the player draws blind anyway
        return None
    ctx = Context(k, style, coin)
    margin = pile_margin(ctx)
    if abs(margin) > DRAW_BAND:
        return None
    took = coin.random() < 0.5
    choices = (TAKE_UPCARD, PASS) if seen.phase is Phase.UPCARD else (TAKE_DISCARD, DRAW_STOCK)
    return choices[0 if took else 1], (draw_features(ctx, margin), took)


DRAW_FEATURES = (
    "1 (taking, whatever the position)",
    "the heuristic's margin / 5",
    "makes a meld",
    "stock / 31",
    "blind draws / 10",
    "pile cards / 3",
    "deadwood before the draw / 10",
    "the first upcard",
    "the card's points / 10",
    "could knock after taking",
    "margin / 5 × stock / 31",
    "deadwood before / 10 × stock / 31",
)
"""What the draw experiment's fit weighs, in this order (``draw_features``)."""


def draw_features(ctx: Context, margin: float) -> tuple[float, ...]:
    """The position of a choice between the face-up card and a blind draw, as ``DRAW_FEATURES``."""
    k = ctx.k
    hand, top = k.hand, k.top
    stock, before = k.stock_size / FULL_STOCK, masks.deadwood_of_mask(hand) / 10
    after = min(masks.deadwood_of_mask((hand | top) ^ b) for b in masks.bits_of(hand))
    return (
        1.0,
        margin / 5,
        float(bool(meld_outs(hand) & top)),
        stock,
        k.opp_stock_draws / 10,
        k.opp_known.bit_count() / 3,
        before,
        float(k.phase is Phase.UPCARD),
        masks.BIT_VALUE[top] / 10,
        float(after <= KNOCK_LIMIT),
        margin / 5 * stock,
        before * stock,
    )


DISCARD_BAND = 3.0
"""The discard experiment tosses where the heuristic's two best throws (hand value plus danger) are within
this many points: the choices a fitted rule could change."""
DISCARD_FEATURES = (
    "1 (the second-best throw, whatever the position)",
    "deadwood kept, second minus best / 10",
    "live outs kept, second minus best / 5",
    "danger thrown, second minus best",
    "share of the stock drawn",
    "deadwood difference / 10 × share drawn",
    "outs difference / 5 × share drawn",
    "danger difference × share drawn",
    "pile cards / 3",
    "the thrown card's points, second minus best / 10",
)
"""What the discard experiment's fit weighs, in this order (``discard_features``). The heuristic's gap between
the two throws is no feature of its own: it is the first three differences weighed by the style."""


def _throw_facts(ctx: Context, card: int) -> tuple[float, float, float, float]:
    # No knock is allowed where the coin tosses, so neither kept hand is knockable: that is no feature.
    kept = ctx.k.hand ^ card
    outs, threat = outs_weight(kept, ctx.live) / 5, danger(card, ctx.probs)
    return masks.deadwood_of_mask(kept) / 10, outs, threat, masks.BIT_VALUE[card] / 10


def discard_features(ctx: Context, best: int, second: int) -> tuple[float, ...]:
    """The position of a choice between the heuristic's best throw and its second, as ``DISCARD_FEATURES``."""
    late = 1.0 - ctx.k.stock_size / FULL_STOCK
    d = [b - a for a, b in zip(_throw_facts(ctx, best), _throw_facts(ctx, second), strict=True)]
    pile = ctx.k.opp_known.bit_count() / 3
    return (1.0, d[0], d[1], d[2], late, d[0] * late, d[1] * late, d[2] * late, pile, d[3])


def _tossed_discard(seen: PlayerView, style: Style, coin: random.Random) -> Tossed | None:
    """Where no knock is allowed and the heuristic's two best throws are close (``DISCARD_BAND``): the coin's
    choice between them and the position's features; else None."""
    if seen.phase is not Phase.DISCARD or style.discard_lookahead or style.rerank or style.mistake:
        return None
    k = from_view(seen)
    ctx = Context(k, style, coin)
    if knock_throw(ctx, k.hand, k.taken)[0]:
        return None
    ranked = ctx.ranked_throws(k.hand, k.taken)
    if len(ranked) < 2:
        return None
    best, second = ranked[0], ranked[1]
    gap = (ctx.value(k.hand ^ second) + ctx.discard_cost(second)) - (ctx.value(k.hand ^ best) + ctx.discard_cost(best))
    if gap > DISCARD_BAND:
        return None
    took = coin.random() < 0.5
    action = Action(ActionKind.DISCARD, masks.CARD_OF_BIT[second if took else best])
    return action, (discard_features(ctx, best, second), took)


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision the coin can take: where it tosses, what the fit weighs, and how the command reports it."""

    toss: Callable[[PlayerView, Style, random.Random], Tossed | None]
    features: tuple[str, ...]
    chose: str
    """What the coin's first choice is, in the command's summary line."""


DECISIONS = {
    "knock": Decision(_tossed_knock, KNOCK_FEATURES, "knocked at once"),
    "draw": Decision(_tossed_draw, DRAW_FEATURES, "took the face-up card"),
    "discard": Decision(_tossed_discard, DISCARD_FEATURES, "threw the second-best card"),
}
"""Knocking at once or playing on; the face-up card or a blind draw; the heuristic's second-best throw or its best."""


def solve(matrix: list[list[float]], right: list[float]) -> list[float]:
    """``x`` with ``matrix @ x == right`` (Gaussian elimination with partial pivoting)."""
    n = len(right)
    rows = [[*row, r] for row, r in zip(matrix, right, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            raise ValueError("the features do not vary enough to fit")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, n):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    x = [0.0] * n
    for col in reversed(range(n)):
        x[col] = (rows[col][n] - sum(rows[col][c] * x[c] for c in range(col + 1, n))) / rows[col][col]
    return x


def fit(data: Sequence[KnockChance], width: int | None = None) -> tuple[float, ...]:
    """The weights of the choice's effect on the first ``width`` features (default: all the chances have):
    least squares of the points on the features, and on them times the choice."""
    if width is None:
        width = len(data[0].features) if data else 0
    normal = [[0.0] * (2 * width) for _ in range(2 * width)]
    right = [0.0] * (2 * width)
    for chance in data:
        features = chance.features[:width]
        row = [*features, *(x if chance.knocked else 0.0 for x in features)]
        for i, a in enumerate(row):
            right[i] += a * chance.points
            for j, b in enumerate(row):
                normal[i][j] += a * b
    return tuple(round(w, 2) for w in solve(normal, right)[width:])


def _work(job: tuple[str, int, int, str, float, str]) -> list[KnockChance]:
    return chances(*job)


def collect(
    opponents: Sequence[str],
    n: int,
    seed: int,
    jobs: int,
    base: str = "hard-outs08",
    spread: float = 1.0,
    decision: str = "knock",
) -> Iterator[KnockChance]:
    work = [(opponent, i, seed, base, spread, decision) for opponent in opponents for i in range(n)]
    if jobs <= 1:
        for found in map(_work, work):
            yield from found
        return
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for found in pool.imap(_work, work, chunksize=8):  # in order: the same command, the same fit
            yield from found


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.ai.knock_fit", description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=2000, help="matches against each opponent")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--against", default="eaai-gin,eaai-knock5", help="the opponents, comma-separated")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--base", default="hard-outs08", choices=sorted(STYLES), help="the player with the coin")
    parser.add_argument("--decision", default="knock", choices=sorted(DECISIONS), help="what the coin decides")
    parser.add_argument("--spread", type=float, default=1.0, help="the chance of tossing at each chance")
    parser.add_argument("--features", type=int, help="fit the first k features (default: all)")
    parser.add_argument("--save", help="also write every chance to this file, one JSON object a line")
    parser.add_argument(
        "--judge", type=Path, help="held-out knock chances (python -m app.ai.knock_check --save): print the fit's gain"
    )
    args = parser.parse_args(argv)
    decision = DECISIONS[args.decision]
    names = decision.features
    width = len(names) if args.features is None else args.features
    if not 0.0 < args.spread <= 1.0 or not 2 <= width <= len(names):
        parser.error(f"--spread must be in (0, 1] and --features from 2 to {len(names)}")
    data = list(collect(args.against.split(","), args.n, args.seed, args.jobs, args.base, args.spread, args.decision))
    if args.save:
        with open(args.save, "w", encoding="utf-8") as out:
            out.writelines(json.dumps(dataclasses.asdict(chance)) + "\n" for chance in data)
    weights = fit(data, width)
    chose = sum(c.knocked for c in data)
    print(f"{len(data)} {args.decision} chances ({chose} {decision.chose}), {args.base},", end=" ")
    print(f"{args.n} matches against each: {args.against}")
    for name, w in zip(names, weights, strict=False):
        print(f"  {name:36s} {w:+8.2f}")
    full = (*weights, *(0.0 for _ in names[len(weights) :]))
    print(f"{args.decision}_fit={full}")
    if args.judge:
        if args.decision != "knock":
            parser.error("--judge weighs knock rules only")
        mean, error = gain(full, KNOCK_FIT, load(args.judge))
        print(f"held out ({args.judge}), rather than Hard's rule: {mean:+.3f} points a chance (SE {error:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
