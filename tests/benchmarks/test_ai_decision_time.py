"""The decision-time benchmark times research variants too, by their arena names."""

from benchmarks.ai_decision_time import players, timings


def test_a_variant_is_timed_beside_the_levels_under_its_research_name() -> None:
    seated = players(variants=("hard-pf",))
    assert {"easy", "normal", "hard", "expert", "hard-pf"} <= set(seated)
    assert set(players(untimed=True, variants=("hard-pf",))) == set(seated)
    times = timings(seated["hard-pf"], hands=1, seed=3)
    assert times and all(t >= 0 for t in times)
