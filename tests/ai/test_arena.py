"""The arena: reproducible, duplicate decks with seats swapped, honest summary figures."""

import random
from pathlib import Path

import pytest

from app.ai.arena import HandOver, MatchResult, MatchStart, Turn, main, play_match, play_out, summarise
from app.ai.research import ARENA_PLAYERS
from app.engine import Action, ActionKind, PlayerView


def test_same_seed_same_results_and_pairs_swap_seats() -> None:
    one = [play_match("simple", "random", i, 7) for i in range(2)]
    again = [play_match("simple", "random", i, 7) for i in range(2)]
    assert one == again
    assert all(r.a_won for r in one)  # simple always beats random over a match
    other_seed = [play_match("simple", "random", i, 8) for i in range(2)]
    assert other_seed != one


def test_duplicate_pair_mirrors_when_both_seats_play_alike() -> None:
    # With the same player in both seats the twin match replays the same cards with the seats swapped,
    # so the results mirror exactly: the deals are shared within a pair.
    a, b = play_match("simple", "simple", 0, 3), play_match("simple", "simple", 1, 3)
    assert (a.a_points, a.b_points, a.hands) == (b.b_points, b.a_points, b.hands)
    assert a.a_won is not None and a.a_won is not b.a_won


def test_play_out_is_the_arenas_match_and_plays_a_callers_move() -> None:
    events = list(play_out(MatchStart.of("simple", "random", 0, 7)))
    ended = [e.state for e in events if isinstance(e, HandOver)]
    result = play_match("simple", "random", 0, 7)
    assert len(ended) == result.hands and ended[-1].winner is not None
    assert ended[-1].scores[0] == result.a_points  # A sits in seat 0 in even matches
    assert all(e.state.last_hand is not None for e in events if isinstance(e, HandOver))

    # A move set on a turn is played instead of what the seat's player would choose.
    start = MatchStart.of("simple", "random", 0, 7)
    match = play_out(start)
    first = next(match)
    assert isinstance(first, Turn)
    chosen = start.players[first.state.turn](first.seen, random.Random(0))
    first.action = next(
        a for a in first.seen.legal_actions if a.kind is not chosen.kind
    )  # the first upcard: take or pass
    second = next(match)
    assert isinstance(second, Turn)
    assert second.state.log[-1].kind is first.action.kind


def pile_trader(v: PlayerView, rng: random.Random) -> Action:
    """Takes the face-up card whenever it may and never knocks: two of them never touch the stock."""
    legal = v.legal_actions
    for kind in (ActionKind.TAKE_UPCARD, ActionKind.TAKE_DISCARD, ActionKind.DISCARD):
        found = [a for a in legal if a.kind is kind]
        if found:
            return found[0]
    return legal[0]


def test_an_endless_hand_ends_the_match_as_a_draw(monkeypatch: pytest.MonkeyPatch) -> None:
    # No rule ends a hand where both players only trade pile cards: the arena must not hang on one.
    monkeypatch.setitem(ARENA_PLAYERS, "pile-trader", pile_trader)  # the arena's own table
    result = play_match("pile-trader", "pile-trader", 0, 1)
    assert result.a_won is None and result.hands == 0
    assert (result.a_points, result.b_points) == (0, 0)


def test_summary_counts_and_interval() -> None:
    results = [MatchResult(i, i % 4 != 0, 100, 50, 5, 0, 0, 0, 0, 0) for i in range(100)]
    s = summarise(results)
    assert (s.a_wins, s.b_wins, s.draws) == (75, 25, 0)
    assert s.win_rate == 0.75
    assert s.ci_low < 0.75 < s.ci_high and s.ci_low > 0.6 and s.ci_high < 0.85
    assert s.a_points_per_hand == 100 * 100 / 500


def test_cli_prints_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["easy", "random", "-n", "4", "--jobs", "1", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "win rate" in out and "95% CI" in out and "points/hand" in out and "hands/s" in out


def test_a_logged_run_gives_the_same_figures_again_and_a_cut_log_keeps_whole_pairs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "run.jsonl"
    assert main(["easy", "random", "-n", "6", "--jobs", "1", "--seed", "2", "--log", str(log)]) == 0
    played = capsys.readouterr().out
    assert main(["easy", "random", "--seed", "2", "--from-log", str(log)]) == 0
    again = capsys.readouterr().out
    assert again.splitlines()[1:5] == played.splitlines()[1:5]  # wins, rate, points, gins
    # A run stopped after 5 matches: the last pair is not whole, so only 4 matches count.
    lines = log.read_text().splitlines()
    assert len(lines) == 6
    log.write_text("\n".join(lines[:5]) + "\n")
    assert main(["easy", "random", "--seed", "2", "--from-log", str(log)]) == 0
    assert "easy vs random: 4 matches" in capsys.readouterr().out
