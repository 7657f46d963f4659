"""benchmarks.move: the game mix plays through the whole app with either register, read as the page would."""

from __future__ import annotations

from urllib.parse import parse_qsl

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks.move import form_body, measure


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


@given(st.dictionaries(st.text(min_size=1, max_size=8), st.text(max_size=40), max_size=6))
def test_a_form_body_reads_back_as_the_fields_it_was_made_from(fields: dict[str, str]) -> None:
    # The client's own escaping (benchmarks.move.form_body) must post the fields it was given, as the
    # server's parser reads them back.
    body = form_body(fields).decode("ascii")
    assert dict(parse_qsl(body, keep_blank_values=True)) == fields


def test_a_save_goes_into_a_form_as_it_is() -> None:
    token = "v2.0a1b2c3d.AbC-_09"
    assert form_body({"token": token, "action": "discard 7h"}) == f"token={token}&action=discard+7h".encode()
    assert form_body({"token": "x=="}) == b"token=x%3D%3D"
