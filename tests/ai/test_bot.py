"""End to end: the bot process plays a whole match under a small referee, over pipes."""

import json
import random
import subprocess
import sys

import pytest

from app.ai import Level
from app.ai.bot import main
from app.ai.simple import simple_choice
from app.engine import Phase
from tests.ai.referee import Referee


def _start(level: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "app.ai.bot", "--level", level],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_bot_plays_a_match_against_simple_under_the_referee() -> None:
    with _start("hard") as proc:
        ref = Referee(proc, simple_choice, random.Random(5))
        hello = ref.ask({"type": "hello", "protocol": "gin-arena/1", "rules": {}})
        assert hello["name"].startswith("gin-rummy")
        state = ref.play_match(seed=5)
        ref.send({"type": "bye"})
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
        errors = proc.stderr.read()
    assert errors == ""  # the tracker never lost the thread (no fallback answers)
    assert state.phase is Phase.MATCH_OVER and max(state.scores) >= 100
    assert ref.requests["choose_discard"] > 10 and ref.requests["offer_upcard"] > 10


def test_unknown_requests_get_an_error_and_notifications_no_answer() -> None:
    lines = [
        {"type": "mystery_note"},
        {"type": "mystery", "id": 7},
        {"type": "hello", "id": 8, "protocol": "gin-arena/1"},
        {"type": "bye"},
    ]
    with _start("easy") as proc:
        out, _ = proc.communicate("".join(json.dumps(m) + "\n" for m in lines), timeout=20)
    replies = [json.loads(x) for x in out.splitlines()]
    assert [r["id"] for r in replies] == [7, 8]
    assert "error" in replies[0] and replies[1]["name"] == "gin-rummy-easy"


def test_the_bot_offers_every_level_and_plays_expert() -> None:
    # Issue 15: --level takes each level the table offers, Expert included (argparse's choices come from Level).
    for level in Level:
        with _start(level.value) as proc:
            out, errors = proc.communicate(json.dumps({"type": "hello", "id": 1}) + "\n", timeout=20)
        assert json.loads(out)["name"] == f"gin-rummy-{level.value}" and errors == ""
    with pytest.raises(SystemExit):
        main(["--level", "grandmaster"])
    # Two hands of Expert under the referee (a whole match of a player that may think 300 ms a move is long).
    with _start(Level.EXPERT.value) as proc:
        ref = Referee(proc, simple_choice, random.Random(6))
        state = ref.play_match(seed=6, hands=2)
        ref.send({"type": "bye"})
        assert proc.stdin is not None and proc.stderr is not None
        proc.stdin.close()
        assert proc.wait(timeout=10) == 0
        errors = proc.stderr.read()
    assert errors == ""  # no fallback answers: the tracker and Expert kept the thread
    assert state.hand_number == 2 and state.phase.over
    assert ref.requests["choose_discard"] >= 4 and ref.requests["offer_upcard"] >= 2
