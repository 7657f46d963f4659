"""Knock-or-wait: score a knock against sampled opponent hands, with the engine's own settlement rules.

The knocker's arrangement and the defender's layoffs use the engine's mask functions
(``min_arrangements``, ``best_defence``), so the estimate follows R14–R19 exactly for
each sampled hand; only the hand itself is a guess.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine import Side, masks, score

deadwood_of_mask, min_arrangements, best_defence = masks.deadwood_of_mask, masks.min_arrangements, masks.best_defence


@dataclass(frozen=True, slots=True)
class KnockEstimate:
    mean_points: float
    """Expected points for me (negative when the undercuts outweigh the wins)."""
    undercut_rate: float
    points: tuple[int, ...] = ()
    """Points for me against each sampled hand (negative: the defender's)."""


def knock_points(kept: int, defender: int, arrangements: list[tuple[int, ...]] | None = None) -> int:
    """Points for the knocker (negative: the defender's undercut) if ``kept`` knocks against ``defender``."""
    k_dw = deadwood_of_mask(kept)
    if k_dw == 0:  # R16: no layoffs against Gin
        return score(0, deadwood_of_mask(defender))[2]
    if arrangements is None:
        arrangements = [melds for melds, _ in min_arrangements(kept)]
    d_dw = -1
    for melds in arrangements:  # R14: the arrangement leaving the defender the most
        dw, _ = best_defence(melds, defender)
        if dw > d_dw:
            d_dw = dw
    _, side, points = score(k_dw, d_dw)
    return points if side is Side.KNOCKER else -points


def estimate_knock(kept: int, samples: list[int]) -> KnockEstimate:
    arrangements = [melds for melds, _ in min_arrangements(kept)]
    points = tuple(knock_points(kept, opp, arrangements) for opp in samples)
    n = max(1, len(samples))
    return KnockEstimate(sum(points) / n, sum(p < 0 for p in points) / n, points)
