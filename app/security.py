"""Response hardening: a strict Content-Security-Policy and friends, and who may cache what.

``app.middleware.SecurityHeaders`` puts these on every response; install it outermost, so that
error pages and refusals from inner middleware get them too::

    app.add_middleware(GZipMiddleware, minimum_size=500)
    app.add_middleware(SecurityHeaders)        # added last = outermost

Caching follows from what a response holds:

- a static file asked for under its versioned URL (``static_url(path)``, e.g.
  ``/static/css/table.css?v=3f2a9c01de``) never changes, so browsers and proxies keep it
  for a year without asking again. The version must be the file's current digest: an
  old page naming an old version gets the file with ``no-cache``, never a year-long copy
  of content that does not match its URL.
- any other static file may be cached but is revalidated first (``no-cache``; Starlette
  answers with an ETag).
- everything else is a game response or a page that leads to one: ``no-store``, because
  the page carries the sealed save and no cache, shared or private, should keep a copy.
  A route that sets its own ``Cache-Control`` keeps it.

>>> static_url("favicon.svg").startswith("/static/favicon.svg?v=")
True
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from types import MappingProxyType
from urllib.parse import parse_qs

from starlette.types import Scope

__all__ = [
    "ALWAYS_HEADERS",
    "CONTENT_SECURITY_POLICY",
    "IMMUTABLE",
    "STATIC_DIR",
    "STATIC_PREFIX",
    "cache_control",
    "static_digests",
    "static_url",
]

STATIC_DIR = Path(__file__).resolve().parent / "static"
STATIC_PREFIX = "/static/"

# Everything from this origin only, and no inline script or style (so an injected
# <script> or style="" attribute does nothing). data: images cover SVG in CSS.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
NO_STORE = "no-store"

_DIGEST_CHARS = 10  # 40 bits: collisions between versions of one file are not a concern

ALWAYS_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    # For browsers that predate CSP's frame-ancestors.
    (b"x-frame-options", b"DENY"),
)
"""On every HTTP response, replacing any a route set (two CSP headers would both be enforced)."""


@cache
def static_digests(root: Path = STATIC_DIR) -> Mapping[str, str]:
    """The digest of every file under ``root``, by its path relative to it (``css/table.css``).

    Read once per process: static files ship with the package and do not change while it
    runs (a reloading dev server starts a new process).
    """
    digests = {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:_DIGEST_CHARS]
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
    return MappingProxyType(digests)


def static_url(path: str) -> str:
    """``/static/<path>?v=<digest>``: the URL changes with the file, so it may be cached for good.

    Raises ``LookupError`` for a file that does not exist, so a template naming a missing
    file fails its first render (in tests) instead of serving a broken link.
    """
    digest = static_digests().get(path)
    if digest is None:
        raise LookupError(f"no static file {path!r} under {STATIC_DIR}")
    return f"{STATIC_PREFIX}{path}?v={digest}"


def cache_control(scope: Scope, static_root: Path = STATIC_DIR) -> bytes:
    """The ``Cache-Control`` a response to ``scope`` gets unless its route set one (see above)."""
    path: str = scope.get("path", "")
    if not path.startswith(STATIC_PREFIX):
        return NO_STORE.encode()
    relative = path.removeprefix(STATIC_PREFIX)
    wanted = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("v", [])
    # A lookup in the digest table, never a path on disk: a crafted URL cannot make this read a file.
    current = static_digests(static_root).get(relative)
    if current is not None and wanted == [current]:
        return IMMUTABLE.encode()
    return REVALIDATE.encode()
