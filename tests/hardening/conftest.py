"""Shared by the hardening tests: whether CI is running (where a missing tool fails instead of skipping)."""

from __future__ import annotations

import os


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() not in {"", "0", "false", "no"}
