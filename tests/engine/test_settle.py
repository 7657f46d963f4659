"""Knock settlement (R14–R19) and the worked examples E1–E4."""

import random
from collections.abc import Sequence
from itertools import combinations

import pytest

from app.engine import Card, IllegalAction, InvalidCards, Side, parse_cards, settle
from app.engine.cards import DECK
from tests.engine.oracle import all_melds, oracle_deadwood


def test_e1_undercut_scores_25_plus_the_difference() -> None:
    # Knocker keeps 8h (8); the defender lays 9s on 6s-7s-8s and keeps 4c Ad (5).
    r = settle(parse_cards("6s 7s 8s 2c 2d 2h Jc Jd Jh 8h"), parse_cards("9s 3c 3d 3h 3s Kc Kd Kh 4c Ad"))
    assert (r.knocker_deadwood, r.defender_deadwood) == (8, 5)
    assert r.layoffs == parse_cards("9s")
    assert r.kind == "undercut" and r.winner == "defender"
    assert r.points == 28
    assert r.formula == "25 + 8 − 5 = 28"


def test_e2_knock_scores_the_difference() -> None:
    # Knocker keeps 4d (4); the defender keeps Kd Qc 7c (27) and can lay nothing off.
    r = settle(parse_cards("As 2s 3s 5c 5d 5h 9h Th Jh 4d"), parse_cards("Kd Qc 7c 6s 6c 6d 8d 9d Td Jd"))
    assert (r.knocker_deadwood, r.defender_deadwood) == (4, 27)
    assert r.kind == "knock" and r.winner == "knocker"
    assert r.points == 23
    assert r.formula == "27 − 4 = 23"


def test_r17_e3_gin_scores_25_plus_deadwood_and_ignores_layoffs() -> None:
    # The defender could lay 4s and Jh off; against Gin it may not (R16).
    knocker = parse_cards("As 2s 3s 5c 5d 5h 8h 9h Th 7h")
    defender = parse_cards("4s Jh Kc Kd 2c 3d 8s 9c 6d Qd")
    r = settle(knocker, defender)
    assert r.kind == "gin" and r.winner == "knocker"
    assert r.layoffs == ()
    assert r.defender_deadwood == 4 + 10 + 10 + 10 + 2 + 3 + 8 + 9 + 6 + 10 - 0  # no melds of its own
    assert r.points == 25 + r.defender_deadwood
    assert r.formula == f"25 + {r.defender_deadwood} = {r.points}"


def test_r16_no_layoffs_against_gin() -> None:
    r = settle(parse_cards("6s 7s 8s 2c 2d 2h Jc Jd Jh Js"), parse_cards("9s Ts 5s Kh Qh Ah 4c 4d 3h 3d"))
    assert r.kind == "gin"
    assert r.layoffs == ()
    assert r.defender_deadwood == 9 + 10 + 5 + 10 + 10 + 1 + 4 + 4 + 3 + 3


def test_r18_knock_with_strictly_lower_deadwood() -> None:
    r = settle(parse_cards("As 2s 3s 4c 4d 4h 7h 8h 9h 2d"), parse_cards("Kc Kd Qh Qs Jc 6d 5c 3d 8s 9c"))
    assert r.kind == "knock" and r.winner == "knocker"
    assert r.points == r.defender_deadwood - r.knocker_deadwood == r.defender_deadwood - 2


def test_r19_e4_tie_is_an_undercut_worth_25() -> None:
    # Knocker keeps 7 (5d 2h); defender keeps 7 (4c 3c) after its own melds.
    knocker = parse_cards("Ts Js Qs 8c 8d 8h Kc Kd Kh 7d")
    defender = parse_cards("2s 3s 4s 5h 6h 7h 9c 9d 9s 7c")
    r = settle(knocker, defender)
    assert (r.knocker_deadwood, r.defender_deadwood) == (7, 7)
    assert r.kind == "undercut" and r.winner == "defender" and r.points == 25
    assert r.formula == "25 + 7 − 7 = 25"


def test_r15_layoffs_chain_along_a_run() -> None:
    # 9s, then Ts, then Js onto 6s-7s-8s: the chain of three is among the options searched.
    from app.engine.cards import cards_mask
    from app.engine.settle import layoff_options

    run = cards_mask(parse_cards("6s 7s 8s"))
    options = layoff_options(run, cards_mask(parse_cards("9s Ts Js 5s 4s Kh")))
    assert cards_mask(parse_cards("9s Ts Js")) in options
    assert cards_mask(parse_cards("4s 5s 9s Ts Js")) in options
    assert cards_mask(parse_cards("Ts Js")) not in options  # Ts needs 9s first


def test_r15_chained_layoffs_beyond_the_defenders_own_run() -> None:
    # The defender holds 9s Ts but no Js: only the chain 9s, Ts gets both off.
    r = settle(parse_cards("6s 7s 8s 2c 2d 2h 4c 4d 4h Ac"), parse_cards("9s Ts 5c Kh Qd 9h 8d Kd 3h 7c"))
    assert set(r.layoffs) == set(parse_cards("9s Ts"))
    assert r.defender_deadwood == 5 + 10 + 10 + 9 + 8 + 10 + 3 + 7


def test_r15_runs_extend_at_either_end() -> None:
    r = settle(parse_cards("5h 6h 7h 2c 2d 2s 4c 4d 4s Ac"), parse_cards("3h 4h 8h 9h Kc Qd Jd Ks 9s 8c"))
    assert set(r.layoffs) == set(parse_cards("3h 4h 8h 9h"))


def test_r15_a_three_card_set_takes_its_fourth_card() -> None:
    r = settle(parse_cards("5h 6h 7h 2c 2d 2s 4c 4d 4s Ac"), parse_cards("2h 4h Kc Qd Jd Ks 9s 8c Th 7d"))
    assert Card.parse("2h") in r.layoffs
    assert Card.parse("4h") in r.layoffs  # extends 5h-6h-7h downwards (the 4-set is not needed)
    r4 = settle(parse_cards("Ac Ad Ah 2s 7c 7d 7h 3d 4d 5d"), parse_cards("7s As Kc Qd Jd Ks 9s 8c Th 6h"))
    assert set(r4.layoffs) == set(parse_cards("7s As"))


def test_r15_own_melds_and_layoffs_are_searched_together() -> None:
    # 9s could be laid off on 6s-7s-8s, but kept it makes 9s 9c 9d a set together with 9c 9d;
    # laying off 9s would leave 9c 9d as 18 deadwood. The least deadwood keeps the set.
    r = settle(parse_cards("6s 7s 8s 2c 2d 2h 4c 4d 4h Ac"), parse_cards("9s 9c 9d Kh Qd Jd 3h 3c 5d 6c"))
    assert Card.parse("9s") not in r.layoffs
    assert parse_cards("9c 9d 9s") in r.defender.melds
    assert r.defender_deadwood == 10 + 10 + 10 + 3 + 3 + 5 + 6


def test_r14_knocker_arrangement_is_minimal_and_the_worst_for_the_defender() -> None:
    # The knocker's 3d goes in 3d-3h-3s (keeping 2d 4d 4s) or in 2d-3d-4d (keeping 3h 3s 4s):
    # 10 deadwood either way. With the run, the defender would lay off Ad and 5d (13 left);
    # with the set, it lays off nothing useful (19 left). R14 picks the set.
    knocker = parse_cards("6c 2d 3d 4d 6d 3h 6h 3s 4s 6s")
    defender = parse_cards("2c 3c 4c 7c Ad 5d 7d 5s 7s 8s")
    r = settle(knocker, defender)
    assert r.knocker_deadwood == 10
    assert parse_cards("3d 3h 3s") in r.knocker.melds
    assert r.defender_deadwood == 19 == _oracle_settle(knocker, defender)
    assert r.kind == "knock" and r.points == 9


def test_an_illegal_knock_is_refused_with_the_rule() -> None:
    with pytest.raises(IllegalAction, match="R11"):
        settle(parse_cards("As 3s 5s 7c 9d Jh Kc Qd 2h 4d"), parse_cards("2s 4s 6s 8c Td Qh Kd Jd 3h 5d"))


def test_settle_refuses_wrong_sizes_and_shared_cards() -> None:
    with pytest.raises(InvalidCards):
        settle(parse_cards("As 2s 3s"), parse_cards("4s 5s 6s"))
    with pytest.raises(InvalidCards, match="twice"):
        settle(parse_cards("As 2s 3s 5c 5d 5h 9h Th Jh 4d"), parse_cards("As Kd Qh Qs 7c 6d 2c 3d 8s 9c"))


# --- golden data: an independent brute-force settlement ---------------------------------


def _oracle_min_arrangements(cards: Sequence[Card]) -> list[list[frozenset[Card]]]:
    melds = all_melds(cards)
    target = oracle_deadwood(cards)
    total = sum(c.value for c in cards)
    out = []
    for k in range(0, 4):
        for combo in combinations(melds, k):
            used = [c for m in combo for c in m]
            if len(used) == len(set(used)) and total - sum(c.value for c in used) == target:
                out.append(list(combo))
    return out


def _can_extend(meld: frozenset[Card], card: Card) -> bool:
    if len({c.rank for c in meld}) == 1:
        return len(meld) == 3 and card.rank == next(iter(meld)).rank
    suit = next(iter(meld)).suit
    ranks = [c.rank for c in meld]
    return card.suit == suit and card.rank in (min(ranks) - 1, max(ranks) + 1)


def _oracle_defence(melds: list[frozenset[Card]], defender: frozenset[Card]) -> int:
    best = oracle_deadwood(list(defender))
    for i, meld in enumerate(melds):
        for card in defender:
            if _can_extend(meld, card):
                grown = [*melds[:i], meld | {card}, *melds[i + 1 :]]
                best = min(best, _oracle_defence(grown, defender - {card}))
    return best


def _oracle_settle(knocker: Sequence[Card], defender: Sequence[Card]) -> int:
    return max(_oracle_defence(arr, frozenset(defender)) for arr in _oracle_min_arrangements(knocker))


def _knockable_hand(rng: random.Random) -> list[Card]:
    while True:
        low = rng.randrange(0, 9)
        pool = [c for c in DECK if low <= c.rank < low + 5]
        cards = rng.sample(pool, 10)
        if oracle_deadwood(cards) <= 10:
            return cards


def test_settle_agrees_with_a_brute_force_oracle() -> None:
    rng = random.Random(2024)
    checked = 0
    while checked < 150:
        knocker = _knockable_hand(rng)
        rest = [c for c in DECK if c not in knocker]
        near = [c for c in rest if any(abs(c.rank - k.rank) <= 2 for k in knocker)]
        defender = rng.sample(near if len(near) >= 10 else rest, 10)
        r = settle(knocker, defender)
        if r.kind == "gin":
            assert r.defender_deadwood == oracle_deadwood(defender)
        else:
            assert r.defender_deadwood == _oracle_settle(knocker, defender), (knocker, defender)
        assert r.winner == (Side.KNOCKER if r.kind != "undercut" else Side.DEFENDER)
        checked += 1


def test_r15_each_layoff_names_the_meld_it_extends() -> None:
    r = settle(parse_cards("5h 6h 7h 2c 2d 2s 4c 4d 4s Ac"), parse_cards("3h 4h 8h 9h Kc Qd Jd Ks 8c 6c"))
    run = r.knocker.melds.index(parse_cards("5h 6h 7h"))
    targets = dict(zip(r.layoffs, r.layoff_targets, strict=True))
    # 4h could also complete the set of fours, but then 3h could not follow it: the run takes both.
    assert targets == {Card.parse(c): run for c in ("3h", "4h", "8h", "9h")}
    s = settle(parse_cards("5h 6h 7h 2c 2d 2s 4c 4d 4s Ac"), parse_cards("2h Th 8c 9s Kc Qd Jd Ks 8d 6c"))
    assert s.layoff_targets == (s.knocker.melds.index(parse_cards("2c 2d 2s")),)
