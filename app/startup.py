"""What the server opens before it serves anything, or the one line that says why it cannot.

A server that starts with a key it cannot read, or a data directory it cannot write, answers
every game request with an error while its health check says all is well. So the key is read
(or made) and the data directory tried at startup, by ``gin-rummy`` before uvicorn starts and by
the app's lifespan in every worker (which is what ``uvicorn app.main:app`` runs), and any problem
becomes a ``StartupError``: one line saying what is wrong and how to fix it, never a traceback.

These lines are part of the interface (the container tests and operators' runbooks look for
them); change their wording deliberately.
"""

from __future__ import annotations

import errno
import os
import tempfile
from pathlib import Path

from pydantic import ValidationError

from app.seal import KEY_FILE_NAME, KeyFileError, Sealer, load_or_create_key_file
from app.settings import Settings

__all__ = ["StartupError", "check_data_dir", "open_sealer", "settings_problem"]


class StartupError(Exception):
    """The server cannot work as configured; ``str(error)`` is one line: what is wrong, and the fix."""


def settings_problem(error: ValidationError) -> str:
    """One line naming each ``GIN_`` variable that was refused, and why (never its value)."""
    problems = []
    for item in error.errors():
        name = "GIN_" + str(item["loc"][0]).upper() if item["loc"] else "GIN_*"
        problems.append(f"{name}: {item['msg'].removeprefix('Value error, ')}")
    return "; ".join(problems)


def check_data_dir(directory: Path) -> None:
    """Make ``directory`` if needed and prove that this process can write in it, or ``StartupError``."""
    uid = os.geteuid()
    if directory.exists() and not directory.is_dir():
        raise StartupError(f"{directory} is not a directory: set GIN_DATA_DIR to a directory uid {uid} can write")
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor, probe = tempfile.mkstemp(dir=directory, prefix=".write-test-")
    except OSError as error:
        raise StartupError(_unwritable(directory, uid, error)) from None
    os.close(descriptor)
    os.unlink(probe)


def _unwritable(directory: Path, uid: int, error: OSError) -> str:
    if error.errno == errno.EROFS:
        return f"{directory} is on a read-only file system: mount a writable volume there"
    if error.errno == errno.ENOSPC:
        return f"{directory} is full: free some space on its file system"
    if error.errno in (errno.EACCES, errno.EPERM):
        if not directory.is_dir():
            return f"{directory} does not exist and uid {uid} cannot create it: create it and chown {uid} it"
        return f"{directory} is not writable by uid {uid}: chown {uid} the directory you mounted"
    return f"{directory} cannot be written by uid {uid}: {error.strerror}"


def open_sealer(settings: Settings) -> Sealer:
    """The sealer for ``settings``: the keys of ``GIN_KEYS``, else the data directory's key file (made if absent)."""
    if settings.keys:
        return Sealer.from_settings(settings)
    check_data_dir(settings.data_dir)
    path = settings.data_dir / KEY_FILE_NAME
    try:
        keys = load_or_create_key_file(path)
    except KeyFileError as error:
        raise StartupError(str(error)) from None
    except PermissionError:
        uid = os.geteuid()
        raise StartupError(f"the key file {path} is not readable by uid {uid}: chown {uid} it") from None
    except OSError as error:
        raise StartupError(f"the key file {path} cannot be read: {error.strerror}") from None
    return Sealer(keys, max_token_chars=settings.max_body_bytes)
