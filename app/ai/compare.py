"""Two players' arena runs on the same decks, compared match by match.

    python -m app.ai.arena hard-pf eaai-gin -n 2000 --seed 2026 --log new.jsonl
    python -m app.ai.arena hard eaai-gin -n 2000 --seed 2026 --log old.jsonl
    python -m app.ai.compare new.jsonl old.jsonl

Match ``i`` of a seed deals the same cards hand after hand whoever plays it (``arena.MatchStart``),
so two players run against the same opponent with the same seed share each match's luck of the
deal. Set side by side, match by match, their difference is far sharper than the difference of two
win rates, each ±2 points wide over 2,000 matches: a change that alters a few decisions a match
alters only the matches it touches. The logs do not record the players or the seed; the comparison
is only meaningful for two runs with the same opponent and seed, which is the caller's to ensure.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from app.ai.arena import Z95, MatchResult, read_log

__all__ = ["Comparison", "compare", "main", "mcnemar_p"]


def _score(result: MatchResult) -> float:
    # A capped match is half a win, as in the arena's summary.
    return 0.5 if result.a_won is None else float(result.a_won)


def mcnemar_p(first_only: int, second_only: int) -> float:
    """Exact two-sided McNemar test: the chance of a split at least this uneven of the matches that
    only one of the two won, were both players equally strong (each such match a fair coin)."""
    m = first_only + second_only
    if m == 0:
        return 1.0
    tail = sum(math.comb(m, k) for k in range(min(first_only, second_only) + 1)) / (1 << m)
    return min(1.0, 2 * tail)


def _mean_and_half_width(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(variance / n)


@dataclass(frozen=True, slots=True)
class Comparison:
    matches: int
    """Matches in both logs whose duplicate twin is in both too (so the decks stay seat-balanced)."""
    first_rate: float
    second_rate: float
    rate_difference: float
    rate_half_width: float
    """Half the width of the 95% interval of ``rate_difference`` (from the paired differences)."""
    first_only: int
    """Matches the first player won and the second lost."""
    second_only: int
    p_value: float
    """``mcnemar_p(first_only, second_only)``."""
    net_difference: float
    """Mean, over the matches, of the first run's net points (its player's less the opponent's) less the second's."""
    net_half_width: float
    identical: int
    """Matches whose every figure is the same in both logs."""


def compare(first: Sequence[MatchResult], second: Sequence[MatchResult]) -> Comparison:
    """The first run against the second, on the matches both played (see the module's note)."""
    one, two = {r.index: r for r in first}, {r.index: r for r in second}
    both = one.keys() & two.keys()
    shared = sorted(i for i in both if i ^ 1 in both)
    if not shared:
        raise ValueError("the two logs have no duplicate pair of matches in common")
    pairs = [(one[i], two[i]) for i in shared]
    n = len(pairs)
    rate_difference, rate_half = _mean_and_half_width([_score(a) - _score(b) for a, b in pairs])
    net_difference, net_half = _mean_and_half_width(
        [(a.a_points - a.b_points) - (b.a_points - b.b_points) for a, b in pairs]
    )
    first_only = sum(a.a_won is True and b.a_won is False for a, b in pairs)
    second_only = sum(a.a_won is False and b.a_won is True for a, b in pairs)
    return Comparison(
        matches=n,
        first_rate=sum(_score(a) for a, _ in pairs) / n,
        second_rate=sum(_score(b) for _, b in pairs) / n,
        rate_difference=rate_difference,
        rate_half_width=rate_half,
        first_only=first_only,
        second_only=second_only,
        p_value=mcnemar_p(first_only, second_only),
        net_difference=net_difference,
        net_half_width=net_half,
        identical=sum(a == b for a, b in pairs),
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.ai.compare", description=__doc__.split("\n\n")[0])
    parser.add_argument("first", type=Path, help="an arena --log")
    parser.add_argument("second", type=Path, help="another player's --log: the same opponent and seed")
    args = parser.parse_args(argv)
    try:
        c = compare(read_log(args.first), read_log(args.second))
    except ValueError as error:
        parser.exit(2, f"python -m app.ai.compare: {error}\n")
    first, second = args.first.name, args.second.name
    print(f"{first} against {second}: {c.matches} matches on the same decks ({c.identical} identical)")
    print(
        f"  win rate       {100 * c.first_rate:.1f}% against {100 * c.second_rate:.1f}%: "
        f"{100 * c.rate_difference:+.1f} points (95% CI {100 * (c.rate_difference - c.rate_half_width):+.1f} "
        f"to {100 * (c.rate_difference + c.rate_half_width):+.1f})"
    )
    print(
        f"  won by one     {first} only {c.first_only}, {second} only {c.second_only} "
        f"(exact McNemar p = {c.p_value:.3g})"
    )
    print(
        f"  net points     {c.net_difference:+.2f} a match (95% CI {c.net_difference - c.net_half_width:+.2f} "
        f"to {c.net_difference + c.net_half_width:+.2f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
