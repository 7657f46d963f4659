"""The Jinja2 environment shared by every page, with versioned static URLs (see ``app.security``)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2
from jinja2_fragments.fastapi import Jinja2Blocks

from app.security import STATIC_DIR, static_url

__all__ = ["STATIC_DIR", "TEMPLATES_DIR", "htmx_path", "templates"]

TEMPLATES_DIR = Path(__file__).resolve().parent.parent / "templates"


@cache
def htmx_path() -> str:
    """The vendored htmx file, whatever its pinned version (vendor/README.md records which)."""
    found = sorted((STATIC_DIR / "vendor").glob("htmx-*.min.js"))
    if not found:
        raise RuntimeError("htmx is missing from app/static/vendor/")
    return found[-1].relative_to(STATIC_DIR).as_posix()


# trim_blocks and lstrip_blocks keep the blank lines of template tags out of every response.
templates = Jinja2Blocks(
    env=jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES_DIR),
        autoescape=jinja2.select_autoescape(),
        trim_blocks=True,
        lstrip_blocks=True,
        auto_reload=False,  # templates change only with a new release: skip the stat() per render
    )
)
templates.env.globals["static"] = static_url
templates.env.globals["htmx_path"] = htmx_path
