"""The Jinja2 environment shared by every page, with cache-busted static URLs."""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

import jinja2
from jinja2_fragments.fastapi import Jinja2Blocks

__all__ = ["STATIC_DIR", "TEMPLATES_DIR", "htmx_path", "static_url", "templates"]

APP_DIR = Path(__file__).resolve().parent.parent
TEMPLATES_DIR = APP_DIR / "templates"
STATIC_DIR = APP_DIR / "static"


@cache
def static_url(path: str) -> str:
    """``/static/<path>?v=<hash>``: the hash changes with the file, so browsers may cache it for good."""
    digest = hashlib.sha256((STATIC_DIR / path).read_bytes()).hexdigest()[:10]
    return f"/static/{path}?v={digest}"


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
    )
)
templates.env.globals["static"] = static_url
templates.env.globals["htmx_path"] = htmx_path
