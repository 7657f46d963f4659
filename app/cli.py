"""The ``gin-rummy`` command: serve the game with the settings from the environment."""

from __future__ import annotations

import uvicorn

from app.settings import get_settings

__all__ = ["main"]

APP = "app.main:app"


def main() -> None:
    """Run the web server until interrupted; configure it with ``GIN_*`` variables."""
    settings = get_settings()
    # An import string, not the app object: uvicorn needs it to start several workers.
    uvicorn.run(
        APP,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        server_header=False,
    )


if __name__ == "__main__":
    main()
