"""Held-out knock chances (``app.ai.knock_check``), and issue 15's check that a small training run of
Expert's knock rule still beats Hard's rule on them."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ai.knock_check import HeldOutChance, gain, held_out, knocks, load, main
from app.ai.knock_fit import collect, fit
from app.ai.knock_fit import main as fit_main
from app.ai.players import KNOCK_FEATURES, KNOCK_FIT, SELF_FIT

HELD_OUT = Path(__file__).parent / "data" / "knock_held_out.jsonl.gz"
"""``python -m app.ai.knock_check --save tests/ai/data/knock_held_out.jsonl.gz`` (its defaults: 100 matches
of Hard against Hard, seed 2027, each wait played out 4 times)."""


def _chance(effect: float, knock: float, wait: float, match: int) -> HeldOutChance:
    # A position whose first feature is 1 and second is ``effect``: the rule (0, 1, 0, ...) knocks when it is positive.
    return HeldOutChance((1.0, effect, *(0.0,) * (len(KNOCK_FEATURES) - 2)), knock, wait, match)


def test_two_rules_differ_only_where_one_knocks_and_the_other_waits() -> None:
    by_effect = (0.0, 1.0, *(0.0,) * (len(KNOCK_FEATURES) - 2))
    never = (-1.0, *(0.0,) * (len(KNOCK_FEATURES) - 1))
    chances = [_chance(2.0, 10, 4, 0), _chance(-2.0, -25, 6, 0), _chance(1.0, -20, 0, 1), _chance(-1.0, 5, 9, 1)]
    assert [knocks(by_effect, c) for c in chances] == [True, False, True, False]
    assert not any(knocks(never, c) for c in chances)
    # Knocking at the first and third rather than never: (10 - 4) + (-20 - 0) over four chances.
    mean, error = gain(by_effect, never, chances)
    assert mean == pytest.approx((6 - 20) / 4)
    assert error == pytest.approx(abs(6 - -20) / 2 * 2**0.5 / 4)  # the two matches' totals, 6 and -20
    assert gain(never, never, chances) == (0.0, 0.0)


def test_the_held_out_chances_are_what_the_command_makes() -> None:
    saved = load(HELD_OUT)
    assert len(saved) > 4000 and {c.match for c in saved} == set(range(100))
    assert saved[: sum(c.match == 0 for c in saved)] == held_out(0, seed=2027, futures=4)


def test_every_held_out_chance_is_a_knock_that_is_not_gin_and_is_played_both_ways() -> None:
    saved = load(HELD_OUT)
    for c in saved:
        assert len(c.features) == len(KNOCK_FEATURES) and c.features[0] == 1.0
        assert 0.0 < c.features[3] <= 1.0  # deadwood kept / 10: a knock, not Gin
        assert c.features[4] * 31 > 2  # the stock: not the turn before a void, where every rule knocks alike
    assert min(c.knock for c in saved) <= -25 < 0 < max(c.knock for c in saved)  # undercut, and won
    assert len({c.wait for c in saved}) > 100  # means of four played-out futures


def test_expert_knocks_better_than_hard_on_the_held_out_chances() -> None:
    mean, error = gain(SELF_FIT, KNOCK_FIT, load(HELD_OUT))
    assert mean - 2 * error > 0.0


@pytest.mark.slow
def test_a_small_training_run_reproduces_a_knock_rule_that_beats_hards() -> None:
    # Issue 15: Expert's rule is SELF_FIT's command, python -m app.ai.knock_fit --base hard --against hard
    # --seed 47 -n 3000 --spread 0.5. Here its first 400 matches, about 2,000 of its 15,104 chances. On five
    # seeds such runs beat Hard's rule by 2.1 to 3.4 standard errors; on 300 matches one seed did not by one
    # (docs/ai-experiments.md, "A held-out check of the knock rule"). The rule turned round loses 10 points a chance.
    weights = fit(list(collect(["hard"], 400, 47, jobs=2, base="hard", spread=0.5)))
    mean, error = gain(weights, KNOCK_FIT, load(HELD_OUT))
    assert mean > error > 0.0


def test_the_command_saves_the_chances_and_weighs_experts_rule_on_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "held.jsonl.gz"
    assert main(["-n", "1", "--seed", "9", "--futures", "1", "--jobs", "1", "--save", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    saved = load(path)
    assert out[0] == f"{len(saved)} knock chances in 1 matches of Hard against Hard, seed 9"
    assert out[1].startswith("Expert's rule rather than Hard's: ")
    assert saved == held_out(0, seed=9, futures=1)


def test_the_fit_judges_its_rule_on_held_out_chances(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["-n", "6", "--against", "hard", "--base", "hard", "--seed", "9", "--jobs", "1", "--features", "4"]
    assert fit_main([*argv, "--judge", str(HELD_OUT)]) == 0
    assert "rather than Hard's rule: " in capsys.readouterr().out.splitlines()[-1]
