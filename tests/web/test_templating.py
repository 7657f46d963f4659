"""The remembered renderings of app/web/templating.py draw exactly what _macros.html draws.

Each is keyed on part of what it draws (a hand's card without its moves and line, a card's line,
a card's moves): if a macro came to show more than its key holds, a remembered rendering would
show another card's markup. These render every card of real discard positions both ways.
"""

from __future__ import annotations

import random
from dataclasses import replace

import jinja2.compiler
from markupsafe import Markup

from app.ai import Level
from app.engine import Action, ActionKind, Card, Phase, apply, discard_deadwoods, new_match, parse_cards, view
from app.web import HUMAN, TableView, table_view
from app.web.table import FACES, HandCard
from app.web.templating import (
    card_moves,
    card_says,
    each,
    hand_card,
    log_line,
    mini,
    move_buttons,
    render_blocks,
    say,
    templates,
)

MACROS = templates.env.get_template("_macros.html").module
"""The macros themselves, rendered afresh (``templating`` keeps the same module privately)."""


def _discard_hands(count: int) -> list[tuple[HandCard, ...]]:
    """The person's cards at ``count`` discard positions of random matches, several selected."""
    rng = random.Random(3)
    hands: list[tuple[HandCard, ...]] = []
    state = new_match(rng, starter=HUMAN)
    while len(hands) < count:
        if not state.phase.in_play:
            state = new_match(rng, starter=HUMAN)
            continue
        seen = view(state, state.turn)
        if state.turn == HUMAN and state.phase is Phase.DISCARD:
            selected = rng.choice(seen.hand)
            shown = table_view(seen, Level.NORMAL, match_id="m", token="t", at="a", selected=selected)
            hands.append(shown.hand)
        state = apply(state, rng.choice(seen.legal_actions), rng)
    return hands


def _fresh(macro: str, *args: object) -> Markup:
    return Markup(getattr(MACROS, macro)(*args))


def test_every_card_of_a_discard_is_drawn_as_its_macro_draws_it() -> None:
    hands = _discard_hands(60)
    for hand in hands:
        for card in hand:
            assert hand_card(card) == _fresh("hand_card", card, bool(card.says))
            assert card_says(card) == _fresh("card_says", card.face.code, card.selected, card.says)
            assert card_moves(card) == _fresh("card_moves", card.face.code, card.selected, card.moves, "")
    assert any(card.selected for hand in hands for card in hand)
    assert any('class="moves shown"' in card_moves(card) for hand in hands for card in hand)


def test_a_list_is_drawn_in_one_piece_as_its_items_are_drawn_one_by_one() -> None:
    # each() joins the items' markup, so the template escapes (copies) a list once, not each item.
    hand = _discard_hands(1)[0]
    assert each(hand_card, hand) == Markup("").join(hand_card(card) for card in hand)
    assert each(hand_card, ()) == Markup("")
    assert isinstance(each(card_says, hand), Markup)


def test_every_line_of_a_hands_log_is_drawn_as_its_macro_draws_it() -> None:
    rng = random.Random(11)
    state = new_match(rng, starter=HUMAN)
    while state.phase.in_play and len(state.log) < 24:
        state = apply(state, rng.choice(view(state, state.turn).legal_actions), rng)
    shown = table_view(view(state, HUMAN), Level.NORMAL, match_id="m", token="t", at="a")
    assert len(shown.log) >= 10
    for line in shown.log:
        assert log_line(line) == _fresh("log_line", line.words) == Markup(f"<li>{say(line.words)}</li>")


def test_a_card_of_another_position_with_other_moves_and_line_keeps_its_own_control() -> None:
    # The same card, once with a line and a Discard, once with neither: the control differs only in
    # its description, and each card's moves and line are its own.
    card = _discard_hands(1)[0][0]
    bare = card._replace(moves=(), says=())
    assert "aria-describedby" in hand_card(card)
    assert "aria-describedby" not in hand_card(bare)
    assert card_moves(bare) == Markup('<span class="moves"></span>')
    assert f"discard {card.face.code}" in card_moves(card)


def test_knock_and_gin_buttons_carry_their_action_for_htmx() -> None:
    hand = parse_cards("As 2s 3s 4c 5c 6c 7c 7d 7h 7s Kh")
    state = new_match(random.Random(5), starter=HUMAN)
    seen = view(state, HUMAN)
    gin = Card.parse("Kh")
    offered = (Action(ActionKind.DISCARD, gin), Action(ActionKind.KNOCK, gin))
    seen = seen.model_copy(update={"hand": hand, "legal_actions": offered, "phase": Phase.DISCARD})
    assert discard_deadwoods(hand)[gin] == 0
    shown = table_view(seen, Level.NORMAL, match_id="m", token="t", at="a")
    (king,) = [c for c in shown.hand if c.face.code == "Kh"]
    drawn = card_moves(king, "big")
    assert """hx-vals='{"action": "knock Kh"}'""" in drawn
    assert 'class="btn gin big"' in drawn
    assert drawn == _fresh("card_moves", "Kh", False, king.moves, "big")


def test_a_sentence_is_drawn_with_its_words_escaped_and_its_cards_named() -> None:
    drawn = say(("You <b> took ", Card.parse("7h"), "."))
    assert drawn.startswith("You &lt;b&gt; took ")
    assert "seven of hearts" in drawn
    assert say(("You <b> took ", Card.parse("7h"), ".")) is drawn  # remembered


def _tables(count: int) -> list[TableView]:
    """The person's tables of random play, a card chosen at random in half of them (those of a discard)."""
    rng = random.Random(5)
    shown: list[TableView] = []
    state = new_match(rng, starter=HUMAN)
    while len(shown) < count:
        if not state.phase.in_play:
            state = new_match(rng, starter=HUMAN)
            continue
        seen = view(state, HUMAN)
        if state.turn == HUMAN:
            selected = rng.choice(seen.hand) if state.phase is Phase.DISCARD else None
            shown.append(table_view(seen, Level.NORMAL, match_id="m", token="t", at="a", selected=selected))
        state = apply(state, rng.choice(view(state, state.turn).legal_actions), rng)
    return shown


def test_the_swapped_blocks_from_one_context_are_each_block_from_its_own() -> None:
    # render_blocks renders the table and the live region from one context; a block's own values
    # (the table's `set`s) must not reach the next block, nor the first block's rendering change.
    template = templates.get_template("table.html")
    blocks = ("table", "announce")
    for t in _tables(40):
        values = {"t": t, "oob": True}
        apart = "".join("".join(template.blocks[name](template.new_context(values))) for name in blocks)
        assert render_blocks("table.html", blocks, values) == apart
        assert apart.count('id="announce"') == 1 and 'hx-swap-oob="innerHTML"' in apart


def test_the_direct_calls_render_what_jinjas_own_context_renders() -> None:
    # templating's context calls its own helpers without Jinja's checks; the table must come out the same.
    from jinja2.runtime import Context

    shown = _tables(40)

    def rendered() -> list[str]:
        return [render_blocks("table.html", ("table", "announce"), {"t": t, "oob": True}) for t in shown]

    direct_context = templates.env.context_class
    assert direct_context is not Context
    direct = rendered()
    templates.env.context_class = Context
    try:
        plain = rendered()
    finally:
        templates.env.context_class = direct_context
    assert direct == plain
    assert all('class="card' in page for page in direct)


def test_the_move_buttons_are_drawn_as_their_macro_draws_them() -> None:
    # Remembered by the buttons and size alone: what follows them (each card's moves while choosing)
    # goes where the macro's caller goes, whatever the group was remembered with.
    shown = _tables(60)
    groups = {t.buttons for t in shown}
    assert len(groups) > 1 and any(t.choosing for t in shown)
    for t in shown:
        after = each(card_moves, t.hand)
        for size in ("", "big"):
            assert move_buttons(t.buttons, size) == _fresh("move_buttons", t.buttons, size)
            drawn = move_buttons(t.buttons, size, after)
            assert drawn == Markup(vars(MACROS)["move_buttons"](t.buttons, size, caller=lambda after=after: after))
            assert drawn.endswith(f"{after}</div>")


def test_every_small_card_is_drawn_as_its_macro_draws_it() -> None:
    for face in FACES:
        for extra in ("", "laid"):
            assert mini(face, extra) == _fresh("mini", face, extra)
    assert ", laid off" in mini(FACES[0], "laid")


def test_the_pages_say_what_jinjas_own_compiler_would_have_them_say() -> None:
    # templating compiles each `{{ … }}` to skip escape's copies of markup and numbers; the text
    # must be what Jinja's own compiler makes of the same template, escaping included.
    plain = templates.env.overlay(cache_size=0)  # no cache of its own: it would hand back our compilations
    plain.code_generator_class = jinja2.compiler.CodeGenerator
    assert templates.env.code_generator_class is not jinja2.compiler.CodeGenerator
    shown = _tables(30)
    words = '<b>Tom & Jerry\'s "card"</b>'
    shown += [replace(t, message=words) for t in shown[:5]]
    for t in shown:
        for oob in (False, True):
            values = {"t": t, "oob": oob}
            ours = templates.env.get_template("table.html").render(values)
            assert ours == plain.get_template("table.html").render(values)
    assert "&lt;b&gt;Tom &amp; Jerry&#39;s &#34;card&#34;&lt;/b&gt;" in ours
    assert 'class="card' in ours
