"""Seal bytes into an opaque, tamper-proof text token, and open it again.

A saved game travels through the browser as a token; the server alone can read or
forge one. A token is ``v1.<key id>.<Fernet token>``:

- ``v1`` names the format: a zlib stream of the payload, encrypted and authenticated by
  Fernet (AES-128-CBC with HMAC-SHA256). Tokens are sealed with zlib's level 0 (stored, not
  compressed): compression would make a token's length depend on what it hides (a game
  compresses better when the computer holds cards that repeat ones in its log), and the
  length is visible to anyone. Tokens sealed compressed by earlier versions still open.
- the key id is the first 8 hex digits of the SHA-256 of the sealing key. It is not
  secret and not trusted; it only tells "sealed under a key we no longer have" apart
  from "changed or damaged" when no key opens the token.

Several keys may be active at once (``MultiFernet``): the first seals, all of them
open, so keys can be rotated without losing games in progress.

>>> from cryptography.fernet import Fernet
>>> sealer = Sealer([Fernet.generate_key()])
>>> token = sealer.seal(b"state")
>>> token.startswith("v1.")
True
>>> sealer.unseal(token)
b'state'
>>> try:
...     sealer.unseal(token[:-5])
... except SealError as error:
...     print(error)
This saved game could not be opened: it was changed or damaged.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import os
import re
import tempfile
import zlib
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from cryptography.fernet import Fernet, InvalidToken, MultiFernet

from app.settings import Settings

__all__ = [
    "DamagedTokenError",
    "KeyFileError",
    "OversizedTokenError",
    "SealError",
    "Sealer",
    "UnknownKeyError",
    "UnknownVersionError",
]

FORMAT_VERSION = "v1"
KEY_FILE_NAME = "secret.key"
DEFAULT_MAX_TOKEN_CHARS = 64 * 1024
DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024

# Anchored with fullmatch; ASCII only, so no Unicode digits or letters slip through.
_V1_TOKEN = re.compile(r"v1\.([0-9a-f]{8})\.([A-Za-z0-9_-]+={0,2})", re.ASCII)
_ANY_VERSION = re.compile(r"v[0-9]{1,9}", re.ASCII)


class KeyFileError(ValueError):
    """The key file is there but holds no usable key; ``str(error)`` is one line with the fix."""


class SealError(ValueError):
    """A token could not be sealed or opened; ``str(error)`` is a sentence for a person."""

    message: ClassVar[str] = "This saved game could not be opened."

    def __init__(self, message: str | None = None) -> None:
        super().__init__(message or self.message)


class DamagedTokenError(SealError):
    """The token is garbled, truncated or was changed after sealing."""

    message = "This saved game could not be opened: it was changed or damaged."


class UnknownKeyError(SealError):
    """The token was sealed under a key this server does not hold (any more)."""

    message = "This saved game could not be opened: it was saved by a server whose key this one does not have."


class UnknownVersionError(SealError):
    """The token names a format version this code does not read."""

    message = "This saved game could not be opened: it was saved by a different version of the game."


class OversizedTokenError(SealError):
    """The token, or the payload inside it, is larger than the configured limit."""

    message = "This saved game could not be opened: it is too large."


class Sealer:
    """Seals and opens tokens with a list of Fernet keys: the first seals, all open."""

    def __init__(
        self,
        keys: Sequence[str | bytes],
        *,
        max_token_chars: int = DEFAULT_MAX_TOKEN_CHARS,
        max_payload_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES,
    ) -> None:
        if not keys:
            raise ValueError("a Sealer needs at least one key")
        fernets = [Fernet(key) for key in keys]
        self._primary = fernets[0]
        self._all = MultiFernet(fernets)
        self._primary_id = _key_id(keys[0])
        self._known_ids = frozenset(_key_id(key) for key in keys)
        self.max_token_chars = max_token_chars
        self.max_payload_bytes = max_payload_bytes

    @classmethod
    def from_settings(cls, settings: Settings) -> Sealer:
        """Keys from ``GIN_KEYS`` if set, else from ``data_dir/secret.key`` (made on first use).

        Keeping a generated key on disk means a restart never orphans saved games.
        """
        if settings.keys:
            keys = [key.get_secret_value() for key in settings.keys]
        else:
            keys = load_or_create_key_file(settings.data_dir / KEY_FILE_NAME)
        return cls(keys, max_token_chars=settings.max_body_bytes)

    def seal(self, payload: bytes) -> str:
        """Frame (uncompressed, see above), encrypt and sign ``payload`` under the first key.

        The token's length is a function of the payload's length only.
        """
        if len(payload) > self.max_payload_bytes:
            raise OversizedTokenError("This game could not be saved: it is too large.")
        sealed = self._primary.encrypt(zlib.compress(payload, 0)).decode("ascii")
        token = f"{FORMAT_VERSION}.{self._primary_id}.{sealed}"
        # A token this server could not open again must never leave it.
        if len(token) > self.max_token_chars:
            raise OversizedTokenError("This game could not be saved: it is too large.")
        return token

    def unseal(self, token: str) -> bytes:
        """The payload sealed in ``token``; raises only ``SealError`` subclasses."""
        payload, _ = self.unseal_and_refresh(token)
        return payload

    def unseal_and_refresh(self, token: str) -> tuple[bytes, bool]:
        """The payload, and whether it was sealed under an older key and should be re-sealed.

        Raises only ``SealError`` subclasses, whatever ``token`` holds.
        """
        if not isinstance(token, str):
            raise DamagedTokenError
        if len(token) > self.max_token_chars:
            raise OversizedTokenError
        match = _V1_TOKEN.fullmatch(token)
        if match is None:
            version = token.partition(".")[0]
            if _ANY_VERSION.fullmatch(version) and version != FORMAT_VERSION:
                raise UnknownVersionError
            raise DamagedTokenError
        key_id, fernet_token = match.group(1), match.group(2).encode("ascii")
        try:
            compressed = self._primary.decrypt(fernet_token)
            stale = False
        except InvalidToken:
            try:
                compressed = self._all.decrypt(fernet_token)
                stale = True
            except InvalidToken:
                if key_id in self._known_ids:
                    raise DamagedTokenError from None
                raise UnknownKeyError from None
        return self._decompress(compressed), stale

    def _decompress(self, compressed: bytes) -> bytes:
        # Bounded, so that a small token cannot expand into gigabytes (a zip bomb).
        inflater = zlib.decompressobj()
        try:
            payload = inflater.decompress(compressed, self.max_payload_bytes + 1)
        except zlib.error:
            raise DamagedTokenError from None
        if len(payload) > self.max_payload_bytes:
            raise OversizedTokenError
        if not inflater.eof or inflater.unused_data:
            raise DamagedTokenError
        return payload


def load_or_create_key_file(path: Path) -> list[str]:
    """The keys in ``path``, one a line, first one sealing; a new key is written if absent.

    The file is created with mode 0600, atomically: concurrent workers starting at once
    all end up with the same key.
    """
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        _write_new_key(path)
    # Deleting the file would make a new key and lose every game saved under the old one, so
    # each message offers the backup first.
    fix = "restore it from your backup, or delete it to make a new key (games saved under the old key are then lost)"
    try:
        lines = path.read_text(encoding="ascii").splitlines()
    except UnicodeDecodeError:
        raise KeyFileError(f"the key file {path} is not text: {fix}") from None
    keys = [line.strip() for line in lines if line.strip()]
    if not keys:
        raise KeyFileError(f"the key file {path} holds no key: {fix}")
    for position, key in enumerate(keys, start=1):
        try:
            Fernet(key)
        except ValueError:
            raise KeyFileError(f"line {position} of the key file {path} is not a Fernet key: {fix}") from None
    return keys


def _write_new_key(path: Path) -> None:
    # Write a complete file under a temporary name (mkstemp makes it 0600), then link
    # it into place: the link fails if another process won the race, and nobody ever
    # reads a half-written key.
    descriptor, temporary = tempfile.mkstemp(dir=path.parent, prefix=".secret-", suffix=".tmp")
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(Fernet.generate_key() + b"\n")
            file.flush()
            os.fsync(file.fileno())
        with contextlib.suppress(FileExistsError):
            os.link(temporary, path)
    finally:
        os.unlink(temporary)


def _key_id(key: str | bytes) -> str:
    # Hash the decoded key, so that two spellings of one key share an id.
    return hashlib.sha256(base64.urlsafe_b64decode(key)).hexdigest()[:8]
