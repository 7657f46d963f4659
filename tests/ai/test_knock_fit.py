"""The knock rule's fit (``app.ai.knock_fit``): the experiment's data, and the least squares behind the weights."""

from __future__ import annotations

import ast
import random

import pytest

from app.ai.knock_fit import (
    DISCARD_BAND,
    DISCARD_FEATURES,
    DRAW_BAND,
    DRAW_FEATURES,
    KnockChance,
    chances,
    fit,
    main,
    solve,
)
from app.ai.players import KNOCK_FEATURES
from app.ai.research import D4_OUTS12_EXPERT


def test_solve_finds_the_exact_solution_of_a_small_system() -> None:
    # 2x + y - z = 8, -3x - y + 2z = -11, -2x + y + 2z = -3: x = 2, y = 3, z = -1 (a pivot is needed).
    x = solve([[2.0, 1.0, -1.0], [-3.0, -1.0, 2.0], [-2.0, 1.0, 2.0]], [8.0, -11.0, -3.0])
    assert x == pytest.approx([2.0, 3.0, -1.0])


def test_solve_refuses_features_that_do_not_vary() -> None:
    with pytest.raises(ValueError, match="do not vary"):
        solve([[1.0, 2.0], [2.0, 4.0]], [1.0, 2.0])


def test_the_fit_recovers_the_effect_of_knocking_from_data_made_with_it() -> None:
    rng = random.Random(1)
    effect = (-3.0, 1.5, 0.0, 2.0, 8.0, -1.0, -4.0, 0.5, 2.5, -3.0, 1.0, 0.0, -2.0, 0.5, 3.0, -1.5)
    position = (5.0, 2.0, -1.0, -6.0, 3.0, 0.5, 1.0, -2.0, 1.0, 0.0, 0.0, 1.5, -1.0, 2.0, 0.0, 0.5)
    data = []
    for _ in range(600):
        x = (1.0, *(rng.uniform(-1, 1) for _ in range(len(KNOCK_FEATURES) - 1)))
        knocked = rng.random() < 0.5
        points = sum(p * f for p, f in zip(position, x, strict=True)) + (
            sum(e * f for e, f in zip(effect, x, strict=True)) if knocked else 0.0
        )
        data.append(KnockChance(x, knocked, points))
    assert fit(data) == pytest.approx(effect, abs=0.01)


def test_a_match_gives_at_most_one_chance_a_hand_seeded_and_split_by_the_coin() -> None:
    found = [c for index in range(6) for c in chances("eaai-gin", index, seed=9)]
    assert found == [c for index in range(6) for c in chances("eaai-gin", index, seed=9)]
    assert 12 <= len(found) <= 60  # six matches of a few hands each, most with a knock chance
    assert {c.knocked for c in found} == {True, False}
    for chance in found:
        assert len(chance.features) == len(KNOCK_FEATURES) and chance.features[0] == 1.0
        assert 0.0 < chance.features[3] <= 1.0  # deadwood kept / 10: a knock, not Gin
        assert -200 < chance.points < 200


def test_the_command_prints_the_weights_as_a_style_takes_them(capsys: pytest.CaptureFixture[str]) -> None:
    # --features 7: Hard's rule (KNOCK_FIT) was fitted on the first seven; the rest print as zeros.
    assert main(["-n", "6", "--against", "eaai-gin", "--seed", "9", "--jobs", "1", "--features", "7"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("35 knock chances")
    weights = ast.literal_eval(out.splitlines()[-1].removeprefix("knock_fit="))  # as Style.knock_fit takes it
    assert len(weights) == len(KNOCK_FEATURES) and weights[7:] == (0.0,) * (len(KNOCK_FEATURES) - 7)


def test_a_spread_coin_also_decides_later_chances_of_any_player() -> None:
    # Expert's rule (SELF_FIT) comes from the fitted Hard against itself, the coin spread over each hand's chances.
    found = [c for index in range(6) for c in chances("hard", index, seed=9, base="hard", spread=0.5)]
    assert found == [c for index in range(6) for c in chances("hard", index, seed=9, base="hard", spread=0.5)]
    assert {c.nth for c in found} > {1}  # the coin passed over some first chances
    assert {c.knocked for c in found} == {True, False}
    first = [c for index in range(6) for c in chances("hard", index, seed=9, base="hard")]
    assert {c.nth for c in first} == {1}


def test_the_fit_can_take_the_first_features_only() -> None:
    rng = random.Random(2)
    effect = (-2.0, 4.0, 1.0)
    data = []
    for _ in range(300):
        x = (1.0, *(rng.uniform(-1, 1) for _ in range(len(KNOCK_FEATURES) - 1)))
        knocked = rng.random() < 0.5
        points = 3.0 * x[1] + (sum(e * f for e, f in zip(effect, x[:3], strict=True)) if knocked else 0.0)
        data.append(KnockChance(x, knocked, points))
    assert fit(data, 3) == pytest.approx(effect, abs=0.01)


def test_the_draw_experiment_tosses_only_close_choices_between_the_face_up_card_and_the_stock() -> None:
    found = [c for index in range(4) for c in chances("hard", index, seed=9, base="expert", decision="draw")]
    assert found == [c for index in range(4) for c in chances("hard", index, seed=9, base="expert", decision="draw")]
    assert {c.knocked for c in found} == {True, False}  # took the card, drew blind
    assert len(found) >= 8
    for chance in found:
        assert len(chance.features) == len(DRAW_FEATURES) and chance.features[0] == 1.0
        assert abs(chance.features[1]) * 5 <= DRAW_BAND  # the heuristic's margin, within the band
        assert chance.features[2] in (0.0, 1.0) and chance.features[7] in (0.0, 1.0)


def test_the_draw_command_prints_a_weight_for_each_draw_feature(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-n", "4", "--against", "hard", "--base", "expert", "--seed", "9", "--jobs", "1", "--decision", "draw"]
    assert main([*argv, "--features", "4"]) == 0
    out = capsys.readouterr().out
    assert " draw chances (" in out.splitlines()[0] and "took the face-up card" in out.splitlines()[0]
    weights = ast.literal_eval(out.splitlines()[-1].removeprefix("draw_fit="))
    assert len(weights) == len(DRAW_FEATURES) and weights[4:] == (0.0,) * (len(DRAW_FEATURES) - 4)


def test_the_discard_experiment_tosses_between_the_two_best_throws_where_they_are_close() -> None:
    def tossed() -> list[KnockChance]:
        # On stop 35's Expert, whose outs weigh the same at any score, so that the gap below is the heuristic's.
        return [c for i in range(3) for c in chances("hard", i, seed=9, base="expert-d4-outs12", decision="discard")]

    found = tossed()
    assert found == tossed()
    assert {c.knocked for c in found} == {True, False}  # threw the second-best card, the best
    assert len(found) >= 6
    for chance in found:
        assert len(chance.features) == len(DISCARD_FEATURES) and chance.features[0] == 1.0
        deadwood, outs, danger = chance.features[1:4]
        gap = 10 * deadwood - D4_OUTS12_EXPERT.outs * 5 * outs + D4_OUTS12_EXPERT.danger * danger  # as it weighs
        assert -1e-9 <= gap <= DISCARD_BAND + 1e-9  # the second is no better by the heuristic, and close
        assert 0.0 <= chance.features[4] < 1.0  # the share of the stock drawn
