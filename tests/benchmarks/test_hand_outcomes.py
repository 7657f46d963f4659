"""benchmarks.hand_outcomes plays the arena's matches, and only records them."""

from app.ai.arena import play_match
from app.ai.knock import KnockEstimate
from benchmarks.hand_outcomes import play, recording_estimates, report


def test_the_hands_recorded_add_up_to_the_arenas_match() -> None:
    for index in (0, 1):
        last: list[KnockEstimate | None] = [None]
        with recording_estimates(last):
            rows = list(play("hard", "eaai-gin", index, 101, last))
        arena = play_match("hard", "eaai-gin", index, 101)
        assert len(rows) == arena.hands
        assert sum(r.net for r in rows if r.net > 0) == arena.a_points
        assert -sum(r.net for r in rows if r.net < 0) == arena.b_points
        assert sum(r.label == "A gin" for r in rows) == arena.a_gins
        # Hard weighs every knock but Gin on its samples: each such knock has the estimate it was made on.
        assert all(r.knock_estimate is not None for r in rows if r.label in ("A knock", "A undercut"))
        assert report(rows)[0].startswith(f"hands {arena.hands}")
