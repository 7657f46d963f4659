"""Every player makes legal moves, and decisions depend only on the view (fairness)."""

import random
from dataclasses import replace

import pytest

from app.ai import Level, choose
from app.ai.knowledge import from_view
from app.ai.levels import PLAYERS as LEVEL_PLAYERS
from app.ai.players import EXPERT, HARD, Style, level_player
from app.ai.research import ABLATIONS, EXPERTS
from app.ai.research import ARENA_PLAYERS as PLAYERS
from app.engine import GameState, Phase, apply, legal_actions, masks, new_match, view
from tests.ai.conftest import reshuffle_hidden, states


# The levels and baselines, plus the variants whose code paths the levels do not use (playouts, discard lookahead).
@pytest.mark.parametrize(
    "name",
    [
        *("random", "simple", "eaai", "eaai-knock5", "eaai-gin"),
        *("easy", "normal", "hard", "expert", "hard-mc", "hard-look4"),
    ],
)
def test_players_only_make_legal_moves_through_whole_matches(name: str) -> None:
    rng = random.Random(3)
    assert name in PLAYERS
    player = PLAYERS[name]
    state = new_match(rng)
    moves = 0
    while state.phase is not Phase.MATCH_OVER and moves < 1500:
        action = player(view(state, state.turn), rng)
        assert action in legal_actions(state)
        state = apply(state, action, rng)
        moves += 1
    assert moves > 50


# The players a person can meet, by name: the levels, and Expert (``players.EXPERT``) also before
# ``Level`` offers it.
PRODUCTION = {level.value: LEVEL_PLAYERS[level] for level in Level} | {"expert": level_player(EXPERT)}
# Particle inference (issue 15, stop 26) reads the opponent's moves from the log: it must see no more.
READERS = PRODUCTION | {"hard-pf": level_player(ABLATIONS["hard-pf"])}


@pytest.mark.parametrize("name", list(READERS))
def test_decisions_ignore_hidden_cards(name: str) -> None:
    player = READERS[name]
    shuffler = random.Random(99)
    compared = changed = 0
    for seed in (1, 2):
        for state in states(seed=seed, hands=3):
            me = state.turn
            if state.phase.over:
                continue
            twin = GameState.model_validate(reshuffle_hidden(state, me, shuffler).model_dump())
            changed += masks.cards_mask(twin.hands[1 - me]) != masks.cards_mask(state.hands[1 - me])
            assert from_view(view(twin, me)) == from_view(view(state, me))
            for s in range(3):
                a = player(view(state, me), random.Random(s))
                b = player(view(twin, me), random.Random(s))
                assert a == b
            compared += 1
    assert compared > 60 and changed > 60  # the hidden cards really were different


def test_levels_decide_differently_somewhere() -> None:
    # Guards against the levels silently collapsing into one player.
    differ = 0
    for state in states(seed=8, hands=5):
        if state.phase not in (Phase.DRAW, Phase.DISCARD, Phase.UPCARD):
            continue
        v = view(state, state.turn)
        picks = {str(choose(v, level, random.Random(0))) for level in Level}
        differ += len(picks) > 1
    assert differ > 0


def test_asking_out_of_turn_is_an_error_not_a_move() -> None:
    state = new_match(random.Random(1))
    waiting = view(state, 1 - state.turn)
    for level in Level:
        with pytest.raises(ValueError, match="not this player's turn"):
            choose(waiting, level, random.Random(0))


@pytest.mark.parametrize(
    "style",
    [HARD, EXPERT, ABLATIONS["hard-pf"], EXPERTS["expert-pf"], EXPERTS["expert-uc6"]],
    ids=["hard", "expert", "hard-pf", "expert-pf", "expert-uc6"],
)
def test_the_work_that_evens_out_the_timing_never_changes_a_decision(style: Style) -> None:
    # The arena turns it off (research.ARENA_PLAYERS) to play faster: its tables must still be the level's.
    # The padding draws from a generator of its own, never the decision's: a draw from the decision's
    # would shift every later sample of the match, though this decision may come out the same.
    timed, untimed = level_player(style), level_player(replace(style, even_time=False))
    compared = 0
    for state in states(seed=12, hands=4):
        if state.phase.over or len(legal_actions(state)) < 2:
            continue
        for s in range(2):
            timed_rng, untimed_rng = random.Random(s), random.Random(s)
            assert timed(view(state, state.turn), timed_rng) == untimed(view(state, state.turn), untimed_rng)
            assert timed_rng.getstate() == untimed_rng.getstate()
        compared += 1
    assert compared > 40
