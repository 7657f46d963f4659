"""Whether CI is running, and the tools a test needs: under CI a missing tool fails the test, never skips it."""

from __future__ import annotations

import os
import shutil

import pytest

__all__ = ["in_ci", "required_tool"]


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in {"", "0", "false", "no"}


def required_tool(name: str, install: str) -> str:
    """The path of command ``name``; if it is missing, skip (elsewhere) or fail (under CI) saying ``install``."""
    found = shutil.which(name)
    if found is None:
        reason = f"{name} is not installed ({install})"
        if in_ci():
            pytest.fail(f"{reason}; CI is set, so this test may not skip", pytrace=False)
        pytest.skip(reason)
    return found
