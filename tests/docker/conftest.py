"""Docker-test harness: a real engine, the image built from this tree on a stand-in base, clean-up.

Every test in this folder gets the ``docker`` marker. They build and run containers, so they
run only when asked: ``GIN_DOCKER=1``, or under CI (``.ci/run`` installs ``docker.io`` and
``debootstrap`` and starts ``dockerd``), where a missing engine fails instead of skipping.
Everything a test starts (containers, volumes, images, the stand-in base) is removed at the end
of the session, whatever happened; only the stand-in's tarball stays, as a cache.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.ci import in_ci
from tests.docker.standin import IMPORT_CHANGES, STANDIN_TAG, standin_tarball

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
RUN = uuid.uuid4().hex[:10]
PREFIX = f"gin-test-{RUN}"

# Seconds each step took, for the summary at the end of the run (the closing note quotes them).
TIMINGS: dict[str, float] = {}
FACTS: dict[str, str] = {}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(pytest.mark.docker)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if not TIMINGS and not FACTS:
        return
    terminalreporter.section("docker image (base: a local Debian stand-in for the official Python image)")
    for step, seconds in TIMINGS.items():
        terminalreporter.write_line(f"{step:<56} {seconds:6.1f} s")
    for name, value in FACTS.items():
        terminalreporter.write_line(f"{name:<56} {value}")


def wanted() -> bool:
    return in_ci() or os.environ.get("GIN_DOCKER", "").lower() not in {"", "0", "false", "no"}


@dataclass
class Docker:
    """The ``docker`` command line, and what this session made with it (removed at the end)."""

    cli: str
    containers: list[str] = field(default_factory=list)
    volumes: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)

    def __call__(self, *args: str, timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess[str]:
        result = subprocess.run([self.cli, *args], capture_output=True, text=True, timeout=timeout, check=False)
        if check and result.returncode != 0:
            raise AssertionError(f"docker {' '.join(args)} failed ({result.returncode}):\n{result.stderr[-3000:]}")
        return result

    def name(self, what: str) -> str:
        return f"{PREFIX}-{what}"

    def image_ids(self) -> set[str]:
        return set(self("images", "--all", "--quiet", "--no-trunc").stdout.split())

    def clean_up(self) -> None:
        if self.containers:
            self("rm", "--force", "--volumes", *self.containers, check=False)
        if self.volumes:
            self("volume", "rm", "--force", *self.volumes, check=False)
        # Newest first: an image goes only once nothing is built on it; a few rounds settle the rest.
        for _ in range(3):
            if not self.images:
                break
            self("rmi", "--force", *reversed(self.images), check=False)
            self.images = [i for i in self.images if self("image", "inspect", i, check=False).returncode == 0]


@pytest.fixture(scope="session")
def docker() -> Iterator[Docker]:
    if not wanted():
        pytest.skip("builds and runs the image: set GIN_DOCKER=1 (needs a Docker engine, debootstrap, root)")
    cli = shutil.which("docker")
    if cli is None:
        pytest.fail("no docker command: apt-get install docker.io, then start dockerd", pytrace=False)
    engine = Docker(cli)
    if engine("version", "--format", "{{.Server.Version}}", check=False).returncode != 0:
        pytest.fail("the Docker engine does not answer: start dockerd (as root)", pytrace=False)
    FACTS["engine"] = engine("version", "--format", "{{.Server.Version}}").stdout.strip()
    try:
        yield engine
    finally:
        engine.clean_up()


@pytest.fixture(scope="session")
def standin_base(docker: Docker) -> str:
    """The stand-in for the official base, imported into the engine (made from Debian if not cached)."""
    log: list[str] = []
    started = time.monotonic()
    try:
        tarball, cached = standin_tarball(log)
    except RuntimeError as error:
        pytest.fail(f"could not make the stand-in base: {error}", pytrace=False)
    TIMINGS["stand-in root file system " + ("(cached tarball)" if cached else "(debootstrap)")] = (
        time.monotonic() - started
    )
    started = time.monotonic()
    changes = [arg for change in IMPORT_CHANGES for arg in ("--change", change)]
    docker("import", *changes, str(tarball), STANDIN_TAG, timeout=300)
    docker.images.append(STANDIN_TAG)
    TIMINGS["stand-in docker import"] = time.monotonic() - started
    return STANDIN_TAG


@dataclass(frozen=True)
class BuiltImage:
    tag: str
    output: str


@pytest.fixture(scope="session")
def image(docker: Docker, standin_base: str) -> BuiltImage:
    """The image of this tree, built as the Dockerfile says, on the stand-in base."""
    tag = f"{PREFIX}:image"
    before = docker.image_ids()
    started = time.monotonic()
    built = docker(
        "build", "--build-arg", f"PYTHON_IMAGE={standin_base}", "--tag", tag, str(ROOT), timeout=480, check=False
    )
    TIMINGS["docker build (no layer cache)"] = time.monotonic() - started
    # Both stages' layers: the tag, then every image this build made (the build stage is untagged).
    docker.images.extend(sorted(docker.image_ids() - before))
    docker.images.append(tag)
    assert built.returncode == 0, f"docker build failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}"
    size = int(docker("image", "inspect", "--format", "{{.Size}}", tag).stdout)
    base_size = int(docker("image", "inspect", "--format", "{{.Size}}", standin_base).stdout)
    FACTS["image size (on the stand-in base)"] = f"{size / 1e6:.0f} MB"
    FACTS["  of which the game and its dependencies"] = f"{(size - base_size) / 1e6:.0f} MB"
    return BuiltImage(tag, built.stdout + built.stderr)
