"""The web routes: small routers that read the request, call the engine, and render."""

from app.routes import pages, table

__all__ = ["pages", "table"]
