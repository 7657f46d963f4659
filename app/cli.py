"""The ``gin-rummy`` command: serve the game with the settings from the environment."""

from __future__ import annotations

import asyncio
import sys
from concurrent.futures import ThreadPoolExecutor

import uvicorn
from pydantic import ValidationError

from app.logs import log_config
from app.register import open_register
from app.server import GuardedHttpTools
from app.settings import Settings, get_settings
from app.startup import StartupError, open_sealer, settings_problem

__all__ = ["main"]

APP = "app.main:app"


def main() -> None:
    """Run the web server until interrupted; configure it with ``GIN_*`` variables.

    A server that cannot work stops before it listens, with one line on stderr that says what
    is wrong and how to fix it (exit status 1). Each worker opens the same things again at its
    own startup (``app.main``), which is what ``uvicorn app.main:app`` relies on alone.
    """
    try:
        settings = get_settings()
        open_sealer(settings)
        # In a thread of its own: asyncio.run refuses to start where an event loop already runs
        # (main() called from a program, or a test, that has one).
        with ThreadPoolExecutor(max_workers=1) as pool:
            pool.submit(lambda: asyncio.run(_try_register(settings))).result()
    except ValidationError as error:
        sys.exit(settings_problem(error))
    except StartupError as error:
        sys.exit(str(error))
    # An import string, not the app object: uvicorn needs it to start several workers.
    uvicorn.run(
        APP,
        host=settings.host,
        port=settings.port,
        workers=settings.workers,
        server_header=False,
        log_config=log_config(),
        # httptools with a header-size limit and a deadline for slow clients (app.server).
        http=GuardedHttpTools,
        timeout_keep_alive=5,
        # asyncio's own event loop, not uvloop (which uvicorn picks when installed): under a full
        # worker, libuv accepts one connection per turn of its loop, so connections opened in a
        # burst waited up to seconds for their first answer; asyncio accepts them all at once, and
        # uvloop saved no CPU worth a loop of our own (docs/load-experiments.md, "uvloop's tail, explained").
        loop="asyncio",
    )


async def _try_register(settings: Settings) -> None:
    register = await open_register(settings)
    await register.close()


if __name__ == "__main__":
    main()
