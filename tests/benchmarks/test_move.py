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


@pytest.mark.parametrize("register", ["sqlite", "redis"])
def test_tables_playing_at_once_all_play_through(register: str) -> None:
    # play_together raises on any answer that is not a 200 the page could read, a refused move included:
    # tables at once must not step on each other's matches (each posts only its own latest save).
    figures = measure(requests=120, rounds=1, register=register, tables=8)
    assert set(figures) == {"all"}
    assert figures["all"] > 0
