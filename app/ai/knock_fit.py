"""Hard's knock rule, fitted from a randomized experiment: ``python -m app.ai.knock_fit``.

    python -m app.ai.knock_fit [-n 2000] [--seed 31] [--against eaai-gin,eaai-knock5] [--jobs 2]

Hard as it was before the fit (``research.PATIENT_HARD``: it knocks when its 40 sampled knocks are
worth more than a margin of 9 points) plays ``-n`` matches against each baseline named (the arena's
duplicate decks). At its first chance to knock in each hand (not Gin), a coin decides, instead of
Hard, whether it knocks at once or throws its usual discard and plays on as Hard. The coin makes the
two groups alike in everything but the choice, so the difference of the hands' points between them
is what knocking at once is worth, and a least-squares fit of the hand's points on the position's
features, with each feature again times the choice, says how that worth changes with the position
(``players.KNOCK_FEATURES``). The fitted effect's weights are ``Style.knock_fit``: Hard knocks when
they make the effect positive (``players.KNOCK_FIT``: the experiment this command runs with its
defaults).

Everything is seeded, so the same command prints the same weights. The fit is seven weights for the
effect and seven for the position: a system of 14 equations, solved here directly.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from app.ai.arena import HAND_CAP, MOVE_CAP, MatchStart
from app.ai.knock import estimate_knock
from app.ai.knowledge import from_view
from app.ai.players import KNOCK_FEATURES, Context, knock_features, knock_samples, knock_throw, should_knock
from app.ai.research import PATIENT_HARD
from app.engine import NEXT_HAND, Action, ActionKind, Phase, PlayerView, apply, masks, view

__all__ = ["KnockChance", "chances", "fit", "main", "solve"]


@dataclass(frozen=True, slots=True)
class KnockChance:
    """Hard's first knock chance of one hand: the position's features, the coin's choice, the hand's points."""

    features: tuple[float, ...]
    knocked: bool
    points: float
    """The hand's points for Hard: positive when it won the hand, negative when it lost it."""


def chances(opponent: str, index: int, seed: int) -> list[KnockChance]:
    """Match ``index`` of Hard against ``opponent``, with the coin at each hand's first knock chance."""
    start = MatchStart.of("hard-outs08", opponent, index, seed)  # PATIENT_HARD
    state, deal_rng, players, rngs, hard = start.state, start.deal_rng, start.players, start.rngs, start.a_seat
    coin = random.Random(index * 7919 + seed)
    out: list[KnockChance] = []
    pending: tuple[tuple[float, ...], bool] | None = None
    tried = False
    hands = moves = 0
    while state.phase is not Phase.MATCH_OVER and hands < HAND_CAP:
        if state.phase is Phase.HAND_OVER:
            state, moves, tried = apply(state, NEXT_HAND, deal_rng), 0, False
            continue
        moves += 1
        if moves > MOVE_CAP:
            break
        me, action = state.turn, None
        seen = view(state, me)
        if me == hard and not tried and state.phase is Phase.DISCARD and len(seen.legal_actions) > 1:
            action, pending = _tossed(seen, coin) or (None, pending)
            tried = action is not None
        if action is None:
            action = players[me](seen, rngs[me])
        before = state.hand_number
        state = apply(state, action, deal_rng)
        if state.phase.over and state.last_hand and state.hand_number == before:
            hands += 1
            record = state.last_hand
            points = 0 if record.winner is None else record.points if record.winner == hard else -record.points
            if pending is not None:
                out.append(KnockChance(pending[0], pending[1], points))
                pending = None
    return out


def _tossed(seen: PlayerView, coin: random.Random) -> tuple[Action, tuple[tuple[float, ...], bool]] | None:
    """At a knock chance (not Gin): the coin's action and the position's features; else None."""
    k = from_view(seen)
    ctx = Context(k, PATIENT_HARD, coin)
    _, card = ctx.best_discard(k.hand, k.taken)
    knock_card, deadwood = knock_throw(ctx, k.hand, k.taken)
    if not knock_card or deadwood == 0:
        return None
    kept = k.hand ^ knock_card
    est = estimate_knock(kept, knock_samples(ctx, coin))
    should_knock(ctx, kept, card if card != knock_card else 0, coin)  # Hard's own choice: drawn, unused, as fitted
    knocked = coin.random() < 0.5
    thrown = knock_card if knocked else card
    action = Action(ActionKind.KNOCK if knocked else ActionKind.DISCARD, masks.CARD_OF_BIT[thrown])
    return action, (knock_features(ctx, kept, est.mean_points, est.undercut_rate), knocked)


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


def fit(data: Sequence[KnockChance]) -> tuple[float, ...]:
    """The weights of knocking's effect: least squares of the points on the features, and on them times the choice."""
    width = len(KNOCK_FEATURES)
    normal = [[0.0] * (2 * width) for _ in range(2 * width)]
    right = [0.0] * (2 * width)
    for chance in data:
        row = [*chance.features, *(x if chance.knocked else 0.0 for x in chance.features)]
        for i, a in enumerate(row):
            right[i] += a * chance.points
            for j, b in enumerate(row):
                normal[i][j] += a * b
    return tuple(round(w, 2) for w in solve(normal, right)[width:])


def _work(job: tuple[str, int, int]) -> list[KnockChance]:
    return chances(*job)


def collect(opponents: Sequence[str], n: int, seed: int, jobs: int) -> Iterator[KnockChance]:
    work = [(opponent, i, seed) for opponent in opponents for i in range(n)]
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
    args = parser.parse_args(argv)
    data = list(collect(args.against.split(","), args.n, args.seed, args.jobs))
    weights = fit(data)
    knocked = sum(c.knocked for c in data)
    print(f"{len(data)} first knock chances ({knocked} knocked at once), {args.n} matches against each:", args.against)
    for name, w in zip(KNOCK_FEATURES, weights, strict=True):
        print(f"  {name:28s} {w:+8.2f}")
    print(f"knock_fit={weights}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
