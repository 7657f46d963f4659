"""app.cli: the gin-rummy command hands the settings to uvicorn."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from app import cli
from app.settings import get_settings


@pytest.fixture(autouse=True)
def fresh_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    for name in list(os.environ):
        if name.upper().startswith("GIN_"):
            monkeypatch.delenv(name)
    # The command opens its data directory before serving: a scratch one, not ./data.
    monkeypatch.setenv("GIN_DATA_DIR", str(tmp_path))
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def capture_uvicorn_run(monkeypatch: pytest.MonkeyPatch) -> list[tuple[tuple[Any, ...], dict[str, Any]]]:
    calls: list[tuple[tuple[Any, ...], dict[str, Any]]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *args, **kwargs: calls.append((args, kwargs)))
    return calls


def test_main_serves_the_app_with_default_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = capture_uvicorn_run(monkeypatch)
    cli.main()
    [(args, kwargs)] = calls
    assert args == ("app.main:app",)
    assert kwargs["host"] == "127.0.0.1"
    assert kwargs["port"] == 8000
    assert kwargs["workers"] == 1


def test_main_serves_on_asyncios_loop_which_takes_connections_in_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    # uvloop, which uvicorn picks by default when installed, starved some connections under load.
    calls = capture_uvicorn_run(monkeypatch)
    cli.main()
    [(_, kwargs)] = calls
    assert kwargs["loop"] == "asyncio"


def test_main_takes_host_port_and_workers_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GIN_HOST", "0.0.0.0")
    monkeypatch.setenv("GIN_PORT", "8123")
    monkeypatch.setenv("GIN_WORKERS", "2")
    calls = capture_uvicorn_run(monkeypatch)
    cli.main()
    [(_, kwargs)] = calls
    assert (kwargs["host"], kwargs["port"], kwargs["workers"]) == ("0.0.0.0", 8123, 2)


def test_console_script_is_installed_and_refuses_a_bad_setting() -> None:
    script = Path(sys.executable).parent / "gin-rummy"
    if not script.exists():
        found = shutil.which("gin-rummy")
        assert found, "the gin-rummy console script is not installed (pip install -e .)"
        script = Path(found)
    result = subprocess.run(
        [str(script)],
        env={**os.environ, "GIN_PORT": "not-a-port"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 1
    # One line naming the variable, not a traceback.
    assert result.stderr == "GIN_PORT: Input should be a valid integer, unable to parse string as an integer\n"
