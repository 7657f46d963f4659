"""A local stand-in for the Dockerfile's base image (``python:3.11.x-slim-bookworm``), made from Debian.

No image registry can be reached from CI, so the official Python image cannot be pulled. The
stand-in is Debian bookworm (``debootstrap``) with Debian's Python 3.11 and the host's CA
certificates, laid out as the official image is where the Dockerfile relies on it: ``python``
and ``pip`` first on ``PATH`` in ``/usr/local/bin`` (here a virtualenv at ``/usr/local``, so pip
installs there without Debian's externally-managed guard), and ``groupadd``/``useradd``. It
proves the Dockerfile and the app, not the upstream image: its Python is 3.11.2, the official
image's a later 3.11 release.

Making the root file system takes a minute or two, so its tarball is kept (by default in
``/var/cache/gin-rummy``) under a name that changes whenever the recipe or the host's
certificates do; importing it takes seconds.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

__all__ = ["STANDIN_TAG", "standin_tarball"]

STANDIN_TAG = "gin-rummy-ci/python:3.11-slim-bookworm-standin"
SUITE = "bookworm"
PACKAGES = ("python3", "python3-venv")
MIRROR = os.environ.get("GIN_DEBIAN_MIRROR", "http://deb.debian.org/debian")
CACHE = Path(os.environ.get("GIN_DOCKER_CACHE", "/var/cache/gin-rummy"))
HOST_CA_BUNDLE = Path("/etc/ssl/certs/ca-certificates.crt")
RECIPE = 1  # raise when the steps below change, so that an old tarball is not reused

# What `docker import` gives the image; the official image sets the same PATH and LANG.
IMPORT_CHANGES = (
    "ENV PATH=/usr/local/bin:/usr/local/sbin:/usr/sbin:/usr/bin:/sbin:/bin",
    "ENV LANG=C.UTF-8",
    'CMD ["python3"]',
    "LABEL org.opencontainers.image.description="
    '"Stand-in for python:3.11-slim-bookworm: Debian bookworm, Debian Python 3.11, made by tests/docker"',
)

# Like the slim image: no package caches, documentation, manuals or translations.
_SLIMMED = ("var/cache/apt/archives", "var/lib/apt/lists", "usr/share/doc", "usr/share/man", "usr/share/locale")


def standin_tarball(log: list[str]) -> tuple[Path, bool]:
    """The stand-in's root file system as a tarball, and whether it came from the cache."""
    tarball = CACHE / f"standin-{SUITE}-{_recipe_key()}.tar"
    if tarball.is_file():
        return tarball, True
    for tool in ("debootstrap", "chroot", "tar"):
        if shutil.which(tool) is None:
            raise RuntimeError(f"{tool} is missing: apt-get install debootstrap (and run as root)")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir="/var/tmp", prefix="gin-standin-") as work:
        root = Path(work) / "root"
        _run(
            ["debootstrap", "--variant=minbase", f"--include={','.join(PACKAGES)}", SUITE, str(root), MIRROR],
            log,
        )
        for relative in _SLIMMED:
            for entry in (root / relative).glob("*"):
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry)
                else:
                    entry.unlink()
        # pip inside the image reaches the package index through whatever this host trusts.
        (root / "etc/ssl/certs").mkdir(parents=True, exist_ok=True)
        shutil.copyfile(HOST_CA_BUNDLE, root / "etc/ssl/certs/ca-certificates.crt")
        # python, python3, pip in /usr/local/bin, as in the official image.
        _run(["chroot", str(root), "/usr/bin/python3", "-m", "venv", "/usr/local"], log)
        for script in (root / "usr/local/bin").glob("[Aa]ctivate*"):
            script.unlink()
        partial = tarball.with_suffix(".partial")
        _run(["tar", "--numeric-owner", "-C", str(root), "-cf", str(partial), "."], log)
        partial.replace(tarball)
    return tarball, False


def _recipe_key() -> str:
    digest = hashlib.sha256(f"{RECIPE} {SUITE} {MIRROR} {' '.join(PACKAGES)} {IMPORT_CHANGES}".encode())
    digest.update(HOST_CA_BUNDLE.read_bytes())
    return digest.hexdigest()[:12]


def _run(command: list[str], log: list[str]) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=540, check=False)
    log.append(f"$ {' '.join(command)}\n{result.stdout[-2000:]}{result.stderr[-2000:]}")
    if result.returncode != 0:
        raise RuntimeError(
            f"{command[0]} failed ({result.returncode}):\n{result.stdout[-3000:]}{result.stderr[-3000:]}"
        )
