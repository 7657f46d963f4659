"""The knock estimate scores each sampled hand exactly as the engine's settlement would."""

import random

from app.ai.knock import estimate_knock, knock_points
from app.engine import Side, masks, settle
from tests.ai.conftest import mask

CARD_BITS = tuple(masks.CARD_OF_BIT)
mask_cards, deadwood_of_mask = masks.mask_cards, masks.deadwood_of_mask


def test_knock_points_agree_with_engine_settle() -> None:
    rng = random.Random(4)
    checked = 0
    while checked < 80:
        cards = rng.sample(CARD_BITS, 20)
        knocker, defender = sum(cards[:10]), sum(cards[10:])
        if deadwood_of_mask(knocker) > 10:
            continue
        result = settle(mask_cards(knocker), mask_cards(defender))
        expected = result.points if result.winner is Side.KNOCKER else -result.points
        assert knock_points(knocker, defender) == expected
        checked += 1


def test_estimate_counts_undercuts() -> None:
    kept = mask("As 2s 3s 4c 5c 6c 7d 7h 7s 9c")  # 9 deadwood (9c)
    weak = mask("Kc Kd Qh Qs Jc Jd Th Ts 9h 8d")  # 97 deadwood, nothing to lay off
    strong = mask("8h 8s 8c Jh Qh Kh 4h 5h 6h 2d")  # 2 deadwood: an undercut
    assert knock_points(kept, weak) == 97 - 9
    assert knock_points(kept, strong) == -(25 + 9 - 2)
    est = estimate_knock(kept, [weak, strong])
    assert est.undercut_rate == 0.5
    assert est.mean_points == (88 - 32) / 2
