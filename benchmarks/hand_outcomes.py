"""Where a player wins and loses its points, hand by hand, on the arena's duplicate decks.

    python -m benchmarks.hand_outcomes hard eaai-gin -n 400 --seed 101

Plays the same matches as ``python -m app.ai.arena A B -n N --seed S --jobs 1`` (same decks, same
seeds, so the same moves and figures), and prints how the hands ended and what each kind of ending
was worth to A (docs/ai-experiments.md, "Hard against eaai-gin, analysed"): who knocked or went Gin, with how
much deadwood, at which stock, how often A's knocks were undercut, what A held when the opponent
went Gin, and what became of the hands where A turned a knock down.

With ``--estimates`` it also records, for a player that weighs its knocks on sampled hands (Hard),
what the samples said each knock was worth, to set against what the knock then scored. That is a
measurement hook only: it wraps ``players.estimate_knock`` for the run, and changes no decision.
"""

from __future__ import annotations

import argparse
import contextlib
import json
from collections import Counter, defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from app.ai import players as ai_players
from app.ai.arena import MatchStart, Turn, play_out
from app.ai.knock import KnockEstimate, estimate_knock
from app.ai.research import ARENA_PLAYERS as PLAYERS
from app.engine import ActionKind, HandKind, deadwood


@dataclass(slots=True)
class HandOutcome:
    match: int
    kind: str
    """gin, knock, undercut or void."""
    knocker: str | None
    """"A", "B" or None (void)."""
    winner: str | None
    points: int
    stock: int
    """Cards left in the stock when the hand ended."""
    knocker_deadwood: int | None
    defender_deadwood: int | None
    """After layoffs."""
    a_deadwood: int
    """A's deadwood in the hand it ended with."""
    declined: list[tuple[int, int, float | None]] = field(default_factory=list)
    """A's knocks turned down: stock, least deadwood a knock would have kept, the samples' estimate."""
    knock_estimate: float | None = None
    """What A's samples said its knock (if it knocked, not Gin) was worth."""
    knock_undercut_estimate: float | None = None
    """... and the share of them that undercut it."""

    @property
    def net(self) -> int:
        """Points for A (negative: B's)."""
        return 0 if self.winner is None else self.points if self.winner == "A" else -self.points

    @property
    def label(self) -> str:
        return "void" if self.knocker is None else f"{self.knocker} {self.kind}"


@contextlib.contextmanager
def recording_estimates(record: list[KnockEstimate | None]) -> Iterator[None]:
    namespace = vars(ai_players)  # the name ``decide`` calls

    def wrapped(kept: int, samples: list[int]) -> KnockEstimate:
        est = estimate_knock(kept, samples)
        record[0] = est
        return est

    namespace["estimate_knock"] = wrapped
    try:
        yield
    finally:
        namespace["estimate_knock"] = estimate_knock


def play(a: str, b: str, index: int, seed: int, last: list[KnockEstimate | None]) -> Iterator[HandOutcome]:
    """Match ``index`` as the arena plays it (``arena.play_match``), one record per finished hand."""
    start = MatchStart.of(a, b, index, seed)
    a_seat = start.a_seat
    declined: list[tuple[int, int, float | None]] = []
    knock_estimate: KnockEstimate | None = None
    for event in play_out(start):
        if isinstance(event, Turn):
            me, v = event.state.turn, event.seen
            last[0] = None
            # Chosen here rather than by play_out, to read the knock estimate it made on the way.
            action = event.action = start.players[me](v, start.rngs[me])
            est = None if last[0] is None else last[0].mean_points
            if me == a_seat and action.kind is ActionKind.KNOCK:
                knock_estimate = last[0]
            elif me == a_seat and action.kind is ActionKind.DISCARD:
                knocks = [x.card for x in v.legal_actions if x.kind is ActionKind.KNOCK and x.card is not None]
                if knocks:
                    least = min(deadwood([c for c in v.hand if c != card]) for card in knocks)
                    declined.append((v.stock_size, least, est))
            continue
        state, rec = event.state, event.state.last_hand
        assert rec is not None
        r = rec.result
        gin = rec.kind is HandKind.GIN
        yield HandOutcome(
            match=index, kind=rec.kind.value,
            knocker=None if rec.knocker is None else "A" if rec.knocker == a_seat else "B",
            winner=None if rec.winner is None else "A" if rec.winner == a_seat else "B",
            points=rec.points, stock=len(state.stock),
            knocker_deadwood=None if r is None else r.knocker_deadwood,
            defender_deadwood=None if r is None else r.defender_deadwood,
            a_deadwood=deadwood(list(rec.hands[a_seat])), declined=declined,
            knock_estimate=None if knock_estimate is None or gin else knock_estimate.mean_points,
            knock_undercut_estimate=None if knock_estimate is None or gin else knock_estimate.undercut_rate,
        )  # fmt: skip
        declined, knock_estimate = [], None


def _bucket(stock: int) -> str:
    return "stock 20+" if stock >= 20 else "stock 11-19" if stock > 10 else "stock 0-10"


def _dw_bucket(dw: int) -> str:
    return "dw 1-3" if dw <= 3 else "dw 4-7" if dw <= 7 else "dw 8-10"


def report(rows: Sequence[HandOutcome]) -> list[str]:
    """The figures docs/ai-experiments.md quotes, as printed lines."""
    n = max(1, len(rows))
    out = [f"hands {len(rows)}, matches {len({r.match for r in rows})}"]
    a_pts = sum(r.net for r in rows if r.net > 0) / n
    b_pts = -sum(r.net for r in rows if r.net < 0) / n
    out.append(f"points/hand A {a_pts:.2f} B {b_pts:.2f} (net {a_pts - b_pts:+.2f})")
    out.append("how hands ended: count, share, net for A per such hand, net for A per hand overall")
    by_label: dict[str, list[HandOutcome]] = defaultdict(list)
    for r in rows:
        by_label[r.label].append(r)
    for label, group in sorted(by_label.items()):
        total = sum(r.net for r in group)
        out.append(
            f"  {label:12s} {len(group):6d} {100 * len(group) / n:5.1f}% {total / len(group):+7.1f} {total / n:+6.2f}"
        )
    knocks = [r for r in rows if r.knocker == "A" and r.kind != "gin"]
    if knocks:
        out.append(f"A's knocks (not Gin): {len(knocks)}, undercut {sum(r.kind == 'undercut' for r in knocks)}")
        out.append(
            "  by stock: " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(_bucket(r.stock) for r in knocks).items()))
        )
        groups: dict[str, list[HandOutcome]] = defaultdict(list)
        for r in knocks:
            groups[_dw_bucket(r.knocker_deadwood or 0)].append(r)
        for key, group in sorted(groups.items()):
            estimated = [r.knock_estimate for r in group if r.knock_estimate is not None]
            rates = [r.knock_undercut_estimate for r in group if r.knock_undercut_estimate is not None]
            est = f", samples said {sum(estimated) / len(estimated):+.1f}" if estimated else ""
            est += f" and undercut {100 * sum(rates) / len(rates):.1f}%" if rates else ""
            out.append(
                f"  {key}: {len(group)}, undercut {sum(r.kind == 'undercut' for r in group)}"
                f" ({100 * sum(r.kind == 'undercut' for r in group) / len(group):.1f}%),"
                f" scored {sum(r.net for r in group) / len(group):+.1f} a knock{est}"
            )
    gins = [r for r in rows if r.knocker == "B" and r.kind == "gin"]
    if gins:
        out.append(
            f"B's Gins: {len(gins)}; by stock: "
            + ", ".join(f"{k} {v}" for k, v in sorted(Counter(_bucket(r.stock) for r in gins).items()))
            + f"; A's deadwood then: mean {sum(r.a_deadwood for r in gins) / len(gins):.1f},"
            f" 10 or less in {sum(r.a_deadwood <= 10 for r in gins)}"
        )
    b_knocks = [r for r in rows if r.knocker == "B" and r.kind != "gin"]
    if b_knocks:
        out.append(
            f"B's knocks (not Gin): {len(b_knocks)}, undercut by A {sum(r.kind == 'undercut' for r in b_knocks)};"
            " by stock: "
            + ", ".join(f"{k} {v}" for k, v in sorted(Counter(_bucket(r.stock) for r in b_knocks).items()))
        )
    turned = [r for r in rows if r.declined]
    if turned:
        later = sum(r.knocker == "A" and r.kind != "gin" for r in turned)
        out.append(f"hands where A turned down a knock: {len(turned)} (A knocked later in {later}); how they ended:")
        out.append("  " + ", ".join(f"{k} {v}" for k, v in sorted(Counter(r.label for r in turned).items())))
        groups = defaultdict(list)
        for r in turned:
            stock, dw, _ = r.declined[0]
            groups[f"{_dw_bucket(dw)}, {_bucket(stock)}"].append(r)
        out.append("  by the first knock turned down: hands, net for A per hand")
        for key, group in sorted(groups.items()):
            out.append(f"    {key}: {len(group)}, {sum(r.net for r in group) / len(group):+.2f}")
        said: dict[str, list[HandOutcome]] = defaultdict(list)
        for r in turned:
            first = r.declined[0][2]
            if first is not None:
                said[
                    "below 0" if first < 0 else "0 to 5" if first < 5 else "5 to 9" if first <= 9 else "above 9"
                ].append(r)
        if said:
            out.append("  by what the samples said the first knock turned down was worth: hands, net for A per hand")
            for key in ("below 0", "0 to 5", "5 to 9", "above 9"):
                group = said.get(key, [])
                if group:
                    mean = sum(r.declined[0][2] or 0.0 for r in group) / len(group)
                    out.append(
                        f"    {key} (mean {mean:+.1f}): {len(group)}, {sum(r.net for r in group) / len(group):+.2f}"
                    )
    return out


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.hand_outcomes", description=__doc__.split("\n\n")[0])
    parser.add_argument("a", choices=sorted(PLAYERS))
    parser.add_argument("b", choices=sorted(PLAYERS))
    parser.add_argument("-n", type=int, default=200, help="matches (rounded up to an even number)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--estimates", action="store_true", help="record A's sampled knock estimates too")
    parser.add_argument("--log", type=Path, help="write each hand's record to this file (JSON lines)")
    parser.add_argument("--from-log", type=Path, help="play nothing: report on the hands a --log holds")
    args = parser.parse_args(argv)
    rows: list[HandOutcome] = []
    if args.from_log:
        for line in args.from_log.read_text().splitlines():
            if line.strip():
                data = json.loads(line)
                data["declined"] = [tuple(d) for d in data["declined"]]
                rows.append(HandOutcome(**data))
    else:
        last: list[KnockEstimate | None] = [None]
        with contextlib.ExitStack() as stack:
            if args.estimates:
                stack.enter_context(recording_estimates(last))
            log = stack.enter_context(args.log.open("w")) if args.log else None
            for index in range(args.n + args.n % 2):
                for row in play(args.a, args.b, index, args.seed, last):
                    rows.append(row)
                    if log:
                        print(json.dumps(asdict(row)), file=log, flush=True)
    print(f"{args.a} vs {args.b}, seed {args.seed}:")
    print("\n".join(report(rows)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
