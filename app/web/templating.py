"""The Jinja2 environment shared by every page, with versioned static URLs (see ``app.security``),
and the rendering of a template's blocks alone, for htmx's swaps (``render_blocks``)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableMapping
from functools import cache, lru_cache
from operator import attrgetter
from pathlib import Path
from typing import Any

import jinja2
import jinja2.compiler
import jinja2.nodes
from fastapi.templating import Jinja2Templates
from markupsafe import Markup, escape

from app.ai import Level
from app.engine import KNOCK_LIMIT, TARGET_SCORE
from app.security import STATIC_DIR, static_url
from app.web.table import FACES, Button, CardFace, HandCard
from app.web.table.narration import Line
from app.web.table.shortcuts import KEY_OF, SHORTCUTS, SHORTCUTS_DATA
from app.words import Sentence

__all__ = ["STATIC_DIR", "TEMPLATES_DIR", "htmx_path", "render_blocks", "templates"]

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"


@cache
def htmx_path() -> str:
    """The vendored htmx file, whatever its pinned version (vendor/README.md records which)."""
    found = sorted((STATIC_DIR / "vendor").glob("htmx-*.min.js"))
    if not found:
        raise RuntimeError("htmx is missing from app/static/vendor/")
    return found[-1].relative_to(STATIC_DIR).as_posix()


class _Context(jinja2.runtime.Context):
    """Jinja's context, with a direct call for this module's own helpers.

    Jinja routes every call in a template through ``Context.call``, which first asks the callable
    whether it wants the context or the environment passed in. The helpers below never do, and a
    table calls them dozens of times per answer: they are called directly.
    """

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        if id(__obj) in _DIRECT:
            kwargs.pop("_block_vars", None)
            kwargs.pop("_loop_vars", None)
            return __obj(*args, **kwargs)
        return super().call(__obj, *args, **kwargs)


_DIRECT: frozenset[int] = frozenset()  # the helpers' ids (any callable can be asked for, hashable or not)


def _shown(value: object) -> str:
    """What ``{{ value }}`` puts on the page: ``escape(value)``, without its copies of what needs none.

    ``escape`` makes a new ``Markup`` of every value, even of markup (the helpers' cards, moves and
    lines, a dozen or more per table) and of whole numbers (the scores, counts, steps). Markup goes
    out as it is, a number as its digits: the same text, as the tests that render both ways check.
    """
    if type(value) is Markup:
        return value
    if type(value) is int:
        return str(value)
    return escape(value)


class _CodeGenerator(jinja2.compiler.CodeGenerator):
    """Jinja's compiler, with each autoescaped ``{{ … }}`` written as ``environment.shown(…)`` (``_shown``).

    The same hook Jinja's own native-types compiler overrides. Outputs whose escaping can change
    within a template (``{% autoescape %}``) or that have a ``finalize`` keep Jinja's code.
    """

    def _output_child_pre(
        self,
        node: jinja2.nodes.Expr,
        frame: jinja2.compiler.Frame,
        finalize: jinja2.compiler.CodeGenerator._FinalizeInfo,
    ) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile and finalize.src is None:
            self.write("environment.shown(")
        else:
            super()._output_child_pre(node, frame, finalize)


class _Environment(jinja2.Environment):
    """Jinja's environment, with each template's globals in a plain dict rather than a ``ChainMap``.

    Every render copies its template's globals into a new context; a ``ChainMap`` does that key by
    key in Python (iterating it, then a look-up through its maps for each of the 30-odd globals),
    which was a tenth of a table's render. A dict copies at C speed. The difference: a template
    sees the environment's globals as they were when it was loaded, which changes nothing here,
    where every global is set when this module is imported, before any page is rendered.
    """

    code_generator_class = _CodeGenerator
    shown = staticmethod(_shown)

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


# trim_blocks and lstrip_blocks keep the blank lines of template tags out of every response.
templates = Jinja2Templates(
    env=_Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # templates change only with a new release: skip the stat() per render
    )
)
templates.env.globals["static"] = static_url
templates.env.globals["htmx_path"] = htmx_path
templates.env.globals["levels"] = tuple(Level)  # the new-match chooser offers each, in order
templates.env.globals.update(knock_limit=KNOCK_LIMIT, target_score=TARGET_SCORE)  # the rules' numbers, in words
templates.env.globals.update(shortcuts=SHORTCUTS, key_of=KEY_OF, shortcuts_data=SHORTCUTS_DATA)  # keys.js's too


# Remembered renderings. A table draws dozens of cards per request (the hand, each card's prompt
# line and moves, the piles, the hand's log), and calling a macro costs far more than a look-up:
# rendering each card's line and buttons anew was the largest part of a discard's page. The
# markup stays in _macros.html; these only remember what it produced, which depends on nothing
# but the arguments each is keyed on (tests/web/test_templating.py renders both ways and compares).
# 52 cards in a few dozen states each (a prompt line per deadwood count, a knock's label per
# count): every player's hands share these, and the bound only stops a runaway.
_REMEMBERED = 8192
_NOTHING = Markup("")


def card_face(f: CardFace) -> Markup:
    return _CARD_FACES[f.code]


def mini(f: CardFace, extra: str = "") -> Markup:
    """A small card (a result's melds, the cards the computer took); ``extra`` is "laid" for a layoff."""
    return _MINIS[extra][f.code]


# Every field of a hand's card but its moves and line, which are drawn apart (card_moves, card_says).
_DRAWN_FIELDS = tuple(f for f in HandCard._fields if f not in ("moves", "says"))
_drawn_fields = attrgetter(*_DRAWN_FIELDS)
_HAND_CARDS: dict[tuple[object, ...], Markup] = {}


def hand_card(card: HandCard) -> Markup:
    """A card of the hand: of its line, only whether it has one changes its control."""
    described = bool(card.says)
    key = (described, _drawn_fields(card))
    drawn = _HAND_CARDS.get(key)
    if drawn is None:
        if len(_HAND_CARDS) >= _REMEMBERED:
            _HAND_CARDS.clear()
        drawn = _HAND_CARDS[key] = Markup(_macros.hand_card(card, described))
    return drawn


def card_says(card: HandCard) -> Markup:
    """The card's prompt line while it is chosen."""
    return _card_says(card.face.code, card.selected, card.says)


@lru_cache(maxsize=_REMEMBERED)
def _card_says(code: str, selected: bool, says: Sentence) -> Markup:
    return Markup(_macros.card_says(code, selected, says))


def card_moves(card: HandCard, size: str = "") -> Markup:
    """The buttons of the card's own moves (Discard, Knock, Gin)."""
    return _card_moves(card.face.code, card.selected, card.moves, size)


@lru_cache(maxsize=_REMEMBERED)
def _card_moves(code: str, selected: bool, moves: tuple[Button, ...], size: str) -> Markup:
    return Markup(_macros.card_moves(code, selected, moves, size))


def move_buttons(buttons: tuple[Button, ...], size: str = "", after: Markup = _NOTHING) -> Markup:
    """The group of the person's move buttons, ``after`` them each card's moves (``card_moves``) while choosing."""
    head, tail = _move_buttons(buttons, size)
    return head + after + tail


@lru_cache(maxsize=_REMEMBERED)
def _move_buttons(buttons: tuple[Button, ...], size: str) -> tuple[Markup, Markup]:
    # The macro's markup with a mark where its caller's goes, split there: the same group of buttons
    # (a phase's moves, a result's Next hand) comes back hand after hand, whatever follows them.
    # Markup's partition keeps both halves markup, so joining them with ``after`` escapes nothing.
    drawn: Markup = _macros.move_buttons(buttons, size, caller=_after_mark)
    head, _, tail = drawn.partition(_AFTER)
    return head, tail


_AFTER = "\x00after\x00"  # the buttons are the server's own words and actions, never a NUL


def _after_mark() -> Markup:
    return Markup(_AFTER)


@lru_cache(maxsize=_REMEMBERED)  # the log's lines and the prompts repeat from hand to hand
def say(sentence: Sentence) -> Markup:
    """A sentence for the page: its words escaped, its cards as ``inline_card`` draws them."""
    return Markup("".join(escape(part) if isinstance(part, str) else _INLINE_CARDS[part.code] for part in sentence))


def each(draw: Callable[[Any], Markup], items: Iterable[Any]) -> Markup:
    """``draw`` of every item, one after the other: ``{{ each(hand_card, t.hand) }}``.

    One expression for the whole list, joined in one call: a ``{% for %}`` loop in the template runs
    Jinja's loop machinery and an output of its own for each of the hand's cards, their lines and
    moves, and the hand's log, dozens per answer.
    """
    return Markup("".join(map(draw, items)))


def log_line(line: Line) -> Markup:
    """A line of the hand's log, as an item of its list."""
    return _log_line(line.words)


@lru_cache(maxsize=_REMEMBERED)
def _log_line(words: Sentence) -> Markup:
    return Markup(_macros.log_line(words))


_HELPERS = {
    "card_face": card_face, "hand_card": hand_card, "card_says": card_says, "card_moves": card_moves, "say": say,
    "mini": mini, "each": each, "log_line": log_line, "move_buttons": move_buttons,
}  # fmt: skip
templates.env.globals.update(_HELPERS)
templates.env.context_class = _Context
_DIRECT = frozenset(map(id, (*_HELPERS.values(), static_url, htmx_path)))

# After the globals: a template's module sees the globals there were when it was made.
_macros: Any = templates.env.get_template("_macros.html").module  # its macros, as attributes
# The macros the pages call themselves, as globals: a template's `{% from "_macros.html" import … %}`
# made the macros' module afresh at every render (its context holds globals the module's lacks).
templates.env.globals.update(
    {name: getattr(_macros, name) for name in ("level_choice", "level_fieldset", "new_match_button")}
)


@cache  # templates change only with a release (auto_reload is off): one look-up, not Jinja's locked cache's
def _template(name: str) -> jinja2.Template:
    return templates.get_template(name)


def render_blocks(name: str, blocks: Iterable[str], values: dict[str, Any]) -> str:
    """The ``blocks`` of template ``name``, one after the other, rendered with ``values``.

    All from one context: a context is a copy of every global, and making one per block (as the
    jinja2-fragments library did) was 1% of a move's instructions (docs/load-experiments.md, "Leaner still").
    A block's own ``set``s stay in the block, so the blocks see the same values either way
    (tests/web/test_templating.py).
    """
    template = _template(name)
    context = template.new_context(values)
    try:
        return "".join(["".join(template.blocks[block](context)) for block in blocks])
    except Exception:
        template.environment.handle_exception()  # re-raises, with the template's lines in the traceback


def _rendered_once_per_card(macro_name: str) -> dict[str, Markup]:
    macro = getattr(_macros, macro_name)
    return {f.code: Markup(macro(f)) for f in FACES}


_CARD_FACES = _rendered_once_per_card("card_face")
_INLINE_CARDS = _rendered_once_per_card("inline_card")
_MINIS = {extra: {f.code: Markup(_macros.mini(f, extra)) for f in FACES} for extra in ("", "laid")}
