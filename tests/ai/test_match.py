"""The match model behind score-aware knocking: the chance of winning from a score."""

from app.ai.match import win_chance


def test_the_ends_and_the_middle() -> None:
    assert win_chance(100, 40, 100) == 1.0 and win_chance(40, 100, 100) == 0.0
    assert abs(win_chance(0, 0, 100) - 0.5) < 1e-9 and abs(win_chance(73, 73, 100) - 0.5) < 1e-9


def test_more_points_never_hurt_and_the_model_is_fair() -> None:
    for a in range(0, 100, 7):
        for b in range(0, 100, 7):
            assert win_chance(a + 1, b, 100) >= win_chance(a, b, 100)
            assert win_chance(a, b + 1, 100) <= win_chance(a, b, 100)
            assert abs(win_chance(a, b, 100) + win_chance(b, a, 100) - 1.0) < 1e-9


def test_a_lead_near_the_target_is_worth_more_than_the_same_lead_early() -> None:
    assert win_chance(95, 75, 100) > win_chance(20, 0, 100) > 0.5
