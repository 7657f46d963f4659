"""app.logs: the health probes' access lines are dropped, every other access line is kept."""

from __future__ import annotations

import logging
import logging.config

import pytest

from app.logs import QuietHealthProbes, log_config


def access(method: str, path: str, status: int) -> logging.LogRecord:
    # The shape of uvicorn's access record: a format string and five arguments.
    return logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:51234", method, path, "1.1", status), None,
    )  # fmt: skip


@pytest.mark.parametrize("method", ["GET", "HEAD"])
def test_a_successful_health_probe_is_not_logged(method: str) -> None:
    assert not QuietHealthProbes().filter(access(method, "/healthz", 200))


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/healthz", 503),  # a failing probe is news
        ("GET", "/healthz?verbose=1", 200),
        ("GET", "/", 200),
        ("POST", "/game/new", 200),
        ("POST", "/healthz", 405),
    ],
)
def test_every_other_access_is_logged(method: str, path: str, status: int) -> None:
    assert QuietHealthProbes().filter(access(method, path, status))


def test_uvicorn_access_handler_carries_the_filter(capsys: pytest.CaptureFixture[str]) -> None:
    # The configuration as uvicorn applies it, but on a logger of the test's own, so that
    # uvicorn's loggers keep their handlers for the other tests.
    config = log_config()
    config["loggers"] = {"tests.access": {"handlers": ["access"], "level": "INFO", "propagate": False}}
    logging.config.dictConfig(config)
    logger = logging.getLogger("tests.access")
    try:
        logger.handle(access("GET", "/healthz", 200))
        logger.handle(access("POST", "/game/act", 200))
    finally:
        for handler in logger.handlers[:]:
            logger.removeHandler(handler)
    out = capsys.readouterr().out
    assert "/game/act" in out
    assert "/healthz" not in out
