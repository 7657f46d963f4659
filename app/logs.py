"""uvicorn's logging, less one line: a successful health probe is not logged.

The container's health check asks ``GET /healthz`` every 5 s (and a proxy may too), which would
be 17,280 identical access-log lines a day burying the requests that matter. Only answers of
200 are dropped: a failing probe (503) is still logged, and so is every other request.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG

__all__ = ["QuietHealthProbes", "log_config"]

HEALTH_PATH = "/healthz"


class QuietHealthProbes(logging.Filter):
    """Drops uvicorn access records of ``GET /healthz`` answered 200."""

    def filter(self, record: logging.LogRecord) -> bool:
        # uvicorn logs an access as (client address, method, path with query, HTTP version, status).
        if isinstance(record.args, tuple) and len(record.args) == 5:
            _, method, path, _, status = record.args
            return not (method in ("GET", "HEAD") and path == HEALTH_PATH and status == 200)
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration with the filter on its access log (every worker uses it)."""
    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["quiet_health_probes"] = {"()": f"{__name__}.QuietHealthProbes"}
    config["handlers"]["access"]["filters"] = ["quiet_health_probes"]
    return config
