"""Score-aware play: the chance of winning the match from a score, so that a hand's points can be
weighed by what they do for the match (R2: first to 100) rather than counted alike.

A knock worth 10 points is worth far more at 92 to 40 (it ends the match) than at 20 to 40; an
undercut conceded when the opponent is at 90 loses the match. ``win_chance`` is a simple model:
each hand is won by either player alike (a void replays it), and the winner's points follow
``HAND_POINTS``, the deciles of the points of 408 decided hands of Hard against Hard and the EAAI
baselines (knocks, gins and undercuts together; docs/ai-experiments.md).
"""

from __future__ import annotations

from functools import cache

HAND_POINTS = (2, 4, 7, 10, 16, 23, 26, 29, 33, 44)
"""The points a decided hand gives its winner, as ten equally likely values."""


@cache
def _table(target: int) -> tuple[tuple[float, ...], ...]:
    # win[a][b]: my chance of winning the match at scores a (mine) and b (the opponent's), both
    # below target. Each depends only on higher scores, so fill from the top down.
    n = len(HAND_POINTS)
    win = [[0.0] * target for _ in range(target)]
    for a in range(target - 1, -1, -1):
        row = win[a]
        for b in range(target - 1, -1, -1):
            total = 0.0
            for x in HAND_POINTS:
                total += 1.0 if a + x >= target else win[a + x][b]
                total += 0.0 if b + x >= target else row[b + x]
            row[b] = total / (2 * n)
    return tuple(tuple(r) for r in win)


def win_chance(mine: int, theirs: int, target: int) -> float:
    """My chance of winning the match from these scores (1 once I reach ``target``, 0 once they do)."""
    if mine >= target:
        return 1.0
    if theirs >= target:
        return 0.0
    return _table(target)[mine][theirs]
