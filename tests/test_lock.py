"""The hashed lock in requirements/: every pin hashed, in step with pyproject.toml, past the advisories."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LOCKS = ROOT / "requirements"
LOCK_FILES = ("build.txt", "runtime.txt", "test.txt")


@dataclass(frozen=True)
class Pin:
    version: Version
    hashes: frozenset[str]
    requirement: Requirement


def read_lock(name: str) -> dict[str, Pin]:
    """The pins of one lock file, by canonical name (continuation lines joined)."""
    text = (LOCKS / name).read_text(encoding="utf-8").replace("\\\n", " ")
    pins: dict[str, Pin] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        spec, *options = line.split(" --hash=")
        requirement = Requirement(spec.strip())
        [specifier] = requirement.specifier
        assert specifier.operator == "==", f"{name}: {line[:60]} is not pinned with =="
        pins[canonicalize_name(requirement.name)] = Pin(
            Version(specifier.version), frozenset(option.strip() for option in options), requirement
        )
    return pins


def pyproject() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)


def declared(section: str) -> list[Requirement]:
    project = pyproject()
    if section == "runtime":
        names: list[str] = project["project"]["dependencies"]
    elif section == "build":
        names = project["build-system"]["requires"]
    else:
        names = project["project"]["optional-dependencies"][section]
    return [Requirement(name) for name in names]


@pytest.mark.parametrize("name", LOCK_FILES)
def test_every_pin_is_exact_and_hashed(name: str) -> None:
    pins = read_lock(name)
    assert pins, f"{name} pins nothing"
    for package, pin in pins.items():
        assert pin.hashes, f"{name}: {package} has no --hash, and pip --require-hashes would refuse it"
        assert all(h.startswith("sha256:") for h in pin.hashes), package


@pytest.mark.parametrize(
    ("section", "lock"), [("runtime", "runtime.txt"), ("build", "build.txt"), ("test", "test.txt")]
)
def test_the_lock_satisfies_what_pyproject_declares(section: str, lock: str) -> None:
    # A dependency added to pyproject.toml without `scripts/lock` fails here, not in the image.
    pins = read_lock(lock)
    for requirement in declared(section):
        pin = pins.get(canonicalize_name(requirement.name))
        assert pin, f"{requirement.name} is declared in pyproject.toml but not in requirements/{lock}: run scripts/lock"
        assert requirement.specifier.contains(pin.version, prereleases=True), (
            f"requirements/{lock} pins {requirement.name}=={pin.version} outside {requirement.specifier}: "
            "run scripts/lock"
        )


def test_the_test_set_installs_exactly_what_the_image_installs() -> None:
    # Tests must run the versions the image ships: same pins, same files.
    everything = read_lock("test.txt")
    for lock in ("runtime.txt", "build.txt"):
        for package, pin in read_lock(lock).items():
            assert package in everything, f"{package} from {lock} is missing from test.txt"
            assert everything[package].version == pin.version, package
            assert everything[package].hashes == pin.hashes, package


def test_the_build_input_is_the_build_system_of_pyproject() -> None:
    lines = (LOCKS / "build.in").read_text(encoding="utf-8").split()
    assert lines == pyproject()["build-system"]["requires"], "requirements/build.in is stale: run scripts/lock"


@pytest.mark.parametrize(
    ("package", "vulnerable"),
    [
        # Range-header denial of service in StaticFiles/FileResponse (GHSA-7f5h-v6xp-fcq8).
        ("starlette", "0.49.0"),
        # Advisories fixed in python-multipart 0.0.18, 0.0.26 and 0.0.27.
        ("python-multipart", "0.0.26"),
        ("jinja2", "3.1.5"),
        ("cryptography", "44.0.0"),
    ],
)
def test_no_version_with_an_advisory_can_be_declared_or_installed(package: str, vulnerable: str) -> None:
    name = canonicalize_name(package)
    runtime = {canonicalize_name(r.name): r for r in declared("runtime")}
    if name in runtime:
        assert not runtime[name].specifier.contains(vulnerable), f"{runtime[name]} admits {package} {vulnerable}"
    pinned = read_lock("runtime.txt").get(name)
    # A package dropped from the dependencies is fine; one still installed must be past the fix.
    assert pinned is None or pinned.version > Version(vulnerable), f"{package}=={pinned and pinned.version}"
    assert name in runtime or pinned is None, f"{package} is installed but not declared: give it a lower bound"
