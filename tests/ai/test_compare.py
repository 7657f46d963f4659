"""Comparing two arena runs match by match: the pairing, the exact test, and the figures printed."""

import dataclasses
import json
import math
from pathlib import Path

import pytest

from app.ai.arena import MatchResult, play_match, read_log
from app.ai.compare import compare, main, mcnemar_p


def result(index: int, won: bool | None, net: int = 10) -> MatchResult:
    a, b = (100 + net, 100) if net >= 0 else (100, 100 - net)
    return MatchResult(index, won, a, b, 5, 0, 0, 0, 0, 0)


def write_log(path: Path, results: list[MatchResult]) -> Path:
    path.write_text("".join(json.dumps(dataclasses.asdict(r)) + "\n" for r in results))
    return path


def test_mcnemar_is_the_exact_two_sided_binomial_tail() -> None:
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(10, 0) == pytest.approx(2 / 2**10)
    assert mcnemar_p(0, 10) == mcnemar_p(10, 0)
    # 7 against 3: P(X <= 3) for X ~ Binomial(10, 1/2) is 176/1024, doubled.
    assert mcnemar_p(7, 3) == pytest.approx(2 * 176 / 1024)
    assert mcnemar_p(5, 5) == 1.0


def test_matches_are_paired_by_index_and_only_whole_duplicate_pairs_count() -> None:
    first = [result(i, True) for i in range(10)]
    second = [result(i, i >= 4) for i in range(9)]  # match 9 missing: pair 8-9 left out
    c = compare(first, second)
    assert c.matches == 8
    assert (c.first_only, c.second_only) == (4, 0)
    assert c.first_rate == 1.0 and c.second_rate == 0.5
    assert c.rate_difference == pytest.approx(0.5)
    assert c.identical == 4
    assert c.p_value == pytest.approx(2 / 2**4)


def test_a_capped_match_is_half_a_win_and_not_a_discordant_one() -> None:
    first = [result(0, None), result(1, True)]
    second = [result(0, True), result(1, True)]
    c = compare(first, second)
    assert c.first_rate == 0.75 and c.second_rate == 1.0
    assert (c.first_only, c.second_only) == (0, 0)


def test_net_points_difference_and_its_interval() -> None:
    first = [result(i, True, net=20) for i in range(4)]
    second = [result(i, True, net=10 + 2 * (i % 2)) for i in range(4)]  # differences 10, 8, 10, 8
    c = compare(first, second)
    assert c.net_difference == pytest.approx(9.0)
    sd = math.sqrt(4 / 3)
    assert c.net_half_width == pytest.approx(1.959963984540054 * sd / 2)


def test_logs_with_nothing_in_common_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    one = write_log(tmp_path / "one.jsonl", [result(0, True), result(1, True)])
    two = write_log(tmp_path / "two.jsonl", [result(2, True), result(3, True)])
    with pytest.raises(SystemExit) as ended:
        main([str(one), str(two)])
    assert ended.value.code == 2
    assert "no duplicate pair" in capsys.readouterr().err


def test_the_same_player_on_the_same_decks_differs_nowhere(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Real arena matches, logged as the arena logs them: a run compared with a replay of itself.
    played = [play_match("simple", "random", i, 5) for i in range(4)]
    one = write_log(tmp_path / "one.jsonl", played)
    two = write_log(tmp_path / "two.jsonl", [play_match("simple", "random", i, 5) for i in reversed(range(4))])
    assert read_log(one) == played
    assert main([str(one), str(two)]) == 0
    out = capsys.readouterr().out
    assert "4 matches on the same decks (4 identical)" in out
    assert "+0.0 points" in out and "only 0" in out and "p = 1" in out
