"""Expert's search: candidate throws played out on the same sampled deals (``search.py``)."""

import random
from dataclasses import replace

from app.ai.arena import play_match
from app.ai.inference import card_weights
from app.ai.knock import knock_points
from app.ai.players import EXPERT, HARD, Style, decide
from app.ai.research import EXPERTS, VETO
from app.ai.search import Throw, deals, draw_values, values
from app.engine import ActionKind, Card, Phase, masks, score
from tests.ai.conftest import mask
from tests.ai.test_decisions import position

# Expert from stop 28 to stop 29: the fitted Hard, whose knocks the search may veto.
SEARCHING = EXPERTS["expert-knockfit"]


def test_deals_keep_the_visible_cards_out_and_fill_the_stock_exactly() -> None:
    k = position("As 2s 3s 4c 5c 6c 7d 7h 7s 8s Kh", pile="2c 9d", opp_known=mask("Qh"), stock_size=29)
    for opp, stock in deals(k, card_weights(k), random.Random(1), 20, 6):
        assert opp & mask("Qh") and opp.bit_count() == 10
        assert not opp & (k.hand | mask("2c 9d"))
        assert len(stock) == k.stock_size and not sum(stock) & (opp | k.hand | mask("2c 9d Qh"))


def test_a_searched_knock_is_settled_by_r14_to_r19() -> None:
    # A knock needs no playout: its value on each deal is the engine's settlement against that hand.
    k = position("As 2s 3s 4c 5c 6c 7d 7h 7s 3h Kh", stock_size=30)
    sampled = deals(k, card_weights(k), random.Random(2), 30, 6)
    kept = k.hand ^ mask("Kh")
    (got,) = values(k, [Throw(mask("Kh"), knock=True)], sampled, 5)
    assert got == sum(knock_points(kept, opp) for opp, _ in sampled) / 30
    assert score(3, 20)[2] == 17  # the scale: a 3-point knock against 20 deadwood is worth 17 (R17)


def test_expert_and_the_search_knock_gin() -> None:
    # R16: Gin can't be undercut, so the search never weighs it against waiting.
    k = position("As 2s 3s 4c 5c 6c 7d 7h 7s 7c Kh")
    for style in (EXPERT, SEARCHING):
        action = decide(k, style, random.Random(0))
        assert action.kind is ActionKind.KNOCK and action.card == Card.parse("Kh")


def test_the_search_never_knocks_where_hard_waits() -> None:
    # The search may only veto Hard's knocks: where Hard plays on, the searching player plays on too.
    known = mask("Tc Jc Qc 9d Td Jd 5h 5d 5c")
    k = position("As 2s 3s 4c 4h 4s 8h 8c 8s 9h Kh", opp_known=known, discards=18, stock_size=12)
    assert decide(k, HARD, random.Random(0)).kind is ActionKind.DISCARD
    assert decide(k, SEARCHING, random.Random(0)).kind is ActionKind.DISCARD


def test_the_search_throws_a_loose_card_before_breaking_a_meld() -> None:
    # Kh is loose; 3s is in a made run: on the same deals, breaking the run must come out worse.
    k = position("As 2s 3s 4c 5c 6c 8d 9h Js Qd Kh", stock_size=30, discards=4, opp_stock_draws=2, phase=Phase.DISCARD)
    sampled = deals(k, card_weights(k), random.Random(3), 40, 6)
    loose, broken = values(k, [Throw(mask("Kh")), Throw(mask("3s"))], sampled, 5)
    assert loose > broken
    assert masks.deadwood_of_mask(k.hand ^ mask("Kh")) < masks.deadwood_of_mask(k.hand ^ mask("3s"))


def test_taking_the_face_up_card_that_makes_gin_beats_drawing_blind() -> None:
    # Taking 7c and shedding Kd gives Gin at once (R16: 25 points plus the opponent's deadwood); of the
    # blind draws only 7s does, about one time in thirty.
    k = position("As 2s 3s 4s 4c 5c 6c 7d 7h Kd", pile="2c 7c", phase=Phase.DRAW, stock_size=31)
    sampled = deals(k, card_weights(k), random.Random(4), 30, 6)
    taken, drawn = draw_values(k, sampled, 5)
    assert taken >= 25 > drawn


def test_expert_and_hard_do_not_trade_pile_cards_for_ever() -> None:
    # Match 684 of `arena expert hard --seed 2026` once looped: each took the other's ace from the
    # pile and neither knocked, the stock standing at 6 cards; Expert now draws blind after 16 takes.
    result = play_match("expert", "hard", 684, 2026)
    assert result.a_won is not None and result.hands < 30


def test_a_veto_margin_keeps_knocks_that_the_luckiest_throw_would_veto() -> None:
    # 4 deadwood on the first turn: on 400 deals the knock is worth about 48 points, the best throw
    # about 45. On 40 deals the best of three noisy throws often beats the knock all the same (the
    # winner's curse); a margin of 3 points for the knock (``Style.veto_margin``) vetoes it far less.
    k = position("7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d", pile="Tc", stock_size=30, discards=0, opp_stock_draws=0)

    def vetoes(style: Style) -> int:
        return sum(decide(k, style, random.Random(seed)).kind is ActionKind.DISCARD for seed in range(20))

    plain, margin = vetoes(VETO), vetoes(replace(VETO, veto_margin=3.0))
    assert plain >= 4 and margin < plain / 2, (plain, margin)


def test_a_search_margin_lets_the_search_knock_where_the_heuristic_waits() -> None:
    # The same first-turn knock (worth about 48 points on 400 deals, the throw about 45): a Hard that
    # waits for 100 points never knocks it; with ``search_margin`` the knock goes to the search instead.
    k = position("7h 8h 9h 5c 5d 5s As 2s 3s Kc 4d", pile="Tc", stock_size=30, discards=0, opp_stock_draws=0)
    waiting = replace(SEARCHING, knock_fit=(), knock_margin=100.0, veto_margin=3.0)  # the margin decides, not the fit
    asked = replace(waiting, search_margin=0.0)
    assert all(decide(k, waiting, random.Random(seed)).kind is ActionKind.DISCARD for seed in range(10))
    assert all(decide(k, asked, random.Random(seed)).kind is ActionKind.KNOCK for seed in range(10))
