"""benchmarks.move: the game mix plays through the whole app with either register, read as the page would."""

from __future__ import annotations

import pytest

from benchmarks.move import measure


@pytest.mark.parametrize("register", ["sqlite", "redis"])
def test_the_game_mix_plays_through_the_app_with_each_register(register: str) -> None:
    # play_round raises on any answer that is not a 200 the page could read; every kind of request is timed.
    figures = measure(requests=60, rounds=1, register=register)
    assert {"new", "draw", "discard", "all"} <= set(figures)
    assert all(seconds > 0 for seconds in figures.values())
