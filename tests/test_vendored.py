"""The vendored front-end files are exactly the published ones recorded in their README."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

VENDOR = Path(__file__).resolve().parent.parent / "app" / "static" / "vendor"
ROW = re.compile(
    r"^\| `(?P<file>[^`]+)` \| `(?P<package>[^`]+)`[^|]* \| (?P<version>[^ |]+) \|"
    r"[^|]+\| `(?P<sha256>[0-9a-f]{64})` \|$",
    re.MULTILINE,
)


def recorded() -> dict[str, re.Match[str]]:
    rows = ROW.finditer((VENDOR / "README.md").read_text(encoding="utf-8"))
    return {row["file"]: row for row in rows}


def test_every_vendored_file_is_recorded() -> None:
    on_disk = {path.name for path in VENDOR.iterdir() if path.name != "README.md"}
    assert on_disk == set(recorded())


@pytest.mark.parametrize("name", sorted(recorded()))
def test_vendored_file_matches_its_recorded_sha256(name: str) -> None:
    digest = hashlib.sha256((VENDOR / name).read_bytes()).hexdigest()
    assert digest == recorded()[name]["sha256"]


@pytest.mark.parametrize("name", sorted(recorded()))
def test_file_name_carries_the_recorded_version(name: str) -> None:
    assert f"-{recorded()[name]['version']}." in name


def test_htmx_is_pinned_to_2_0() -> None:
    [htmx] = [row for row in recorded().values() if row["package"] == "htmx.org"]
    assert htmx["version"].startswith("2.0.")
    assert f'version:"{htmx["version"]}"' in (VENDOR / htmx["file"]).read_text(encoding="utf-8")
