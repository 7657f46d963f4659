"""The app's own ASGI middleware, side by side: response headers, the body limit, the startup line.

Each is a plain ASGI app around the next (``starlette.types``), added in ``app.main``:

- ``SecurityHeaders`` (outermost but one): the CSP and friends on every response, and who may cache it
  (the policy itself is in ``app.security``).
- ``BodyLimit``: refuses a body over the limit before any route reads it, with the usual error screen.
- ``OneLineStartupFailure`` (outermost): a failed startup is reported as its one line (``app.startup``).
"""

from __future__ import annotations

from pathlib import Path

from fastapi import Request
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.errors import message_page
from app.routes.render import is_htmx, render_chooser
from app.security import ALWAYS_HEADERS, STATIC_DIR, cache_control

__all__ = ["BodyLimit", "OneLineStartupFailure", "SecurityHeaders"]

_ALWAYS_NAMES = frozenset(name for name, _ in ALWAYS_HEADERS)


class SecurityHeaders:
    """Adds the CSP, nosniff, referrer and framing headers to every HTTP response, and a Cache-Control."""

    def __init__(self, app: ASGIApp, static_root: Path = STATIC_DIR) -> None:
        self.app = app
        self.static_root = static_root

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        caching = cache_control(scope, self.static_root)

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                # Replace, never duplicate: two CSP headers would both be enforced.
                headers = [(k, v) for k, v in message.get("headers", []) if k.lower() not in _ALWAYS_NAMES]
                headers.extend(ALWAYS_HEADERS)
                if not any(k.lower() == b"cache-control" for k, _ in headers):
                    headers.append((b"cache-control", caching))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


class BodyLimit:
    """Refuses request bodies over ``max_bytes`` (declared or streamed) before any route reads them."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers", [])).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(scope, receive, send)
            return
        # Bodies here are small (a token and a few fields): read it whole, then hand it on.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        limit_kb = self.max_bytes // 1024
        request = Request(scope)
        message = f"That request was too large (over {limit_kb} KB), so it was refused. Your game is untouched."
        if is_htmx(request):
            response = render_chooser(request, message=message, status_code=413, can_resume=True)
        else:
            response = message_page(request, "Request too large", message, 413)
        await response(scope, receive, send)


class OneLineStartupFailure:
    """Reports a ``StartupError`` from the lifespan as its one line, not as a traceback.

    Starlette reports a failed startup to the server with the whole traceback as the message,
    and uvicorn logs that message. The lifespan leaves the line in ``app.state.startup_failure``;
    this middleware (lifespan messages pass through the middleware stack) puts it in place of the
    traceback. uvicorn then logs it and exits with its startup-failure status, which also stops
    the parent of several workers.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "lifespan":
            await self.app(scope, receive, send)
            return

        async def send_one_line(message: Message) -> None:
            if message["type"] == "lifespan.startup.failed":
                line = getattr(scope["app"].state, "startup_failure", None)
                if line:
                    message = {**message, "message": line}
            await send(message)

        await self.app(scope, receive, send_one_line)
