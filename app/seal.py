"""Seal bytes into an opaque, tamper-proof text token, and open it again.

A saved game travels through the browser as a token; the server alone can read or
forge one. A token is ``v2.<key id>.<url-safe base64 of nonce and ciphertext>``, the base64
without its ``=`` padding: a form posts ``=`` as ``%3D``, and one escaped character sends the whole
token through the standard library's percent-decoding on every move, where a token with none is
taken as it is. Tokens sealed with the padding (before it was left off) open as they always did.

- ``v2`` names the format: the payload encrypted and authenticated with AES-256-GCM-SIV
  under a key derived (HKDF-SHA256) from the configured key, a random 96-bit nonce, and the
  token's ``v2.<key id>.`` prefix as associated data. GCM-SIV stays safe if two random nonces
  ever collide. The payload is not compressed: compression would make a token's length depend
  on what it hides (a game compresses better when the computer holds cards that repeat ones in
  its log), and the length is visible to anyone.
- ``v1`` tokens (a zlib stream inside a Fernet token: AES-128-CBC with HMAC-SHA256) were sealed
  by earlier versions; they still open, and are sealed again as ``v2`` by the next move. Fernet
  built a cipher, a padder and an HMAC for every token: in a loaded server's request that cost
  about three times what one AEAD call does (docs/load-experiments.md, stop 40).
- the key id is the first 8 hex digits of the SHA-256 of the configured key. It is not
  secret; it tells "sealed under a key we no longer have" apart from "changed or damaged"
  when no key opens the token.

Several keys may be active at once: the first seals, all of them open, so keys can be
rotated without losing games in progress. A configured key is a Fernet key (32 bytes,
url-safe base64), as it has always been.

>>> from cryptography.fernet import Fernet
>>> sealer = Sealer([Fernet.generate_key()])
>>> token = sealer.seal(b"state")
>>> token.startswith("v2.")
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

from cryptography.exceptions import InvalidTag
from cryptography.fernet import Fernet, InvalidToken, MultiFernet
from cryptography.hazmat.primitives.ciphers.aead import AESGCMSIV
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

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

FORMAT_VERSION = "v2"
NONCE_BYTES = 12
KEY_FILE_NAME = "secret.key"
DEFAULT_MAX_TOKEN_CHARS = 64 * 1024
DEFAULT_MAX_PAYLOAD_BYTES = 256 * 1024

# Anchored with fullmatch; ASCII only, so no Unicode digits or letters slip through.
_TOKEN = re.compile(r"(v[12])\.([0-9a-f]{8})\.([A-Za-z0-9_-]+={0,2})", re.ASCII)
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
    """Seals and opens tokens with a list of keys: the first seals, all open."""

    def __init__(
        self,
        keys: Sequence[str | bytes],
        *,
        max_token_chars: int = DEFAULT_MAX_TOKEN_CHARS,
        max_payload_bytes: int = DEFAULT_MAX_PAYLOAD_BYTES,
    ) -> None:
        if not keys:
            raise ValueError("a Sealer needs at least one key")
        fernets = [Fernet(key) for key in keys]  # also checks each key's form
        ids = [_key_id(key) for key in keys]
        # Tried in order, so a token sealed under the first key is opened with one attempt.
        self._aeads = [_aead(key) for key in keys]
        self._primary_id, self._primary = ids[0], self._aeads[0]
        self._prefix = f"{FORMAT_VERSION}.{self._primary_id}."
        self._associated = self._prefix.encode("ascii")  # what the token says it is, sealed with it
        self._fernets = MultiFernet(fernets)
        self._known_ids = frozenset(ids)
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
        """Encrypt and sign ``payload`` under the first key (not compressed, see above).

        The token's length is a function of the payload's length only.
        """
        if len(payload) > self.max_payload_bytes:
            raise OversizedTokenError("This game could not be saved: it is too large.")
        nonce = os.urandom(NONCE_BYTES)
        sealed = nonce + self._primary.encrypt(nonce, payload, self._associated)
        token = self._prefix + base64.urlsafe_b64encode(sealed).rstrip(b"=").decode("ascii")
        # A token this server could not open again must never leave it.
        if len(token) > self.max_token_chars:
            raise OversizedTokenError("This game could not be saved: it is too large.")
        return token

    def unseal(self, token: str) -> bytes:
        """The payload sealed in ``token``; raises only ``SealError`` subclasses."""
        payload, _ = self.unseal_and_refresh(token)
        return payload

    def unseal_and_refresh(self, token: str) -> tuple[bytes, bool]:
        """The payload, and whether it should be sealed again (an older key, or a ``v1`` token).

        Raises only ``SealError`` subclasses, whatever ``token`` holds.
        """
        if not isinstance(token, str):
            raise DamagedTokenError
        if len(token) > self.max_token_chars:
            raise OversizedTokenError
        match = _TOKEN.fullmatch(token)
        if match is None:
            version = token.partition(".")[0]
            if _ANY_VERSION.fullmatch(version) and version not in ("v1", FORMAT_VERSION):
                raise UnknownVersionError
            raise DamagedTokenError
        version, key_id, body = match.groups()
        if version == "v1":
            return self._open_v1(key_id, body.encode("ascii")), True
        try:
            sealed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        except ValueError:  # binascii.Error: a length no base64 has
            raise DamagedTokenError from None
        nonce, ciphertext = sealed[:NONCE_BYTES], sealed[NONCE_BYTES:]
        associated = f"{version}.{key_id}.".encode("ascii")
        for position, aead in enumerate(self._aeads):
            try:
                payload = aead.decrypt(nonce, ciphertext, associated)
            except (InvalidTag, ValueError):  # ValueError: a nonce too short to be one
                continue
            return payload, position > 0
        if key_id in self._known_ids:
            raise DamagedTokenError
        raise UnknownKeyError

    def _open_v1(self, key_id: str, fernet_token: bytes) -> bytes:
        try:
            compressed = self._fernets.decrypt(fernet_token)
        except InvalidToken:
            if key_id in self._known_ids:
                raise DamagedTokenError from None
            raise UnknownKeyError from None
        return self._decompress(compressed)

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


def _aead(key: str | bytes) -> AESGCMSIV:
    # Its own key for the v2 format, derived from the configured one: the same key never serves two ciphers.
    derived = HKDF(SHA256(), 32, salt=None, info=b"gin-rummy saved game v2").derive(base64.urlsafe_b64decode(key))
    return AESGCMSIV(derived)


def _key_id(key: str | bytes) -> str:
    # Hash the decoded key, so that two spellings of one key share an id.
    return hashlib.sha256(base64.urlsafe_b64decode(key)).hexdigest()[:8]
