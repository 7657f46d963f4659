"""Runtime configuration, read once from the environment (variables prefixed ``GIN_``)."""

from __future__ import annotations

import base64
import binascii
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["Settings", "get_settings"]


class Settings(BaseSettings):
    """Everything the server reads from its environment; every field has a safe default."""

    # Errors must not quote their input: it may be a key.
    model_config = SettingsConfigDict(env_prefix="GIN_", frozen=True, hide_input_in_errors=True)

    host: str = "127.0.0.1"
    """Interface to listen on; the container image sets ``0.0.0.0``."""

    port: int = Field(default=8000, ge=1, le=65535)

    data_dir: Path = Path("data")
    """Where the server keeps its state: ``secret.key`` and the move register's SQLite file."""

    keys: Annotated[tuple[SecretStr, ...], NoDecode] = ()
    """Fernet keys from ``GIN_KEYS``, comma-separated: the first seals, all of them open.

    When empty, the key lives in ``data_dir/secret.key`` (see ``app.seal``).
    """

    max_body_bytes: int = Field(default=64 * 1024, ge=1024)
    """Largest request body accepted, and so the largest sealed game token."""

    workers: int = Field(default=1, ge=1)

    request_seconds: float = Field(default=10.0, gt=0)
    """A request must arrive whole within this many seconds of its first byte (``app.server``)."""

    register_url: str = ""
    """Where the move register lives (``app.register``): empty for a SQLite file in ``data_dir``,
    or ``redis://host:6379/0`` (also ``rediss://``, ``unix://``) for one Redis shared by replicas."""

    register_idle_seconds: int = Field(default=30 * 24 * 3600, ge=1)
    """A match nobody has played for this long is forgotten by the register: its save, still in
    the browser, is then taken as it is posted."""

    @field_validator("register_url")
    @classmethod
    def _check_register_url(cls, url: str) -> str:
        url = url.strip()
        if url and url.partition(":")[0].lower() not in ("redis", "rediss", "unix"):
            # Never quoted: a URL may hold a password.
            raise ValueError("must be empty (a SQLite file in GIN_DATA_DIR) or a redis://, rediss:// or unix:// URL")
        return url

    @field_validator("keys", mode="before")
    @classmethod
    def _split_comma_separated(cls, value: Any) -> Any:
        # The environment holds one string; a sequence passed in code is taken as it is.
        if isinstance(value, str):
            return tuple(part.strip() for part in value.split(",") if part.strip())
        return value

    @field_validator("keys")
    @classmethod
    def _check_fernet_keys(cls, keys: tuple[SecretStr, ...]) -> tuple[SecretStr, ...]:
        # Refuse to start with a mistyped key rather than fail on the first saved game.
        # The message names the position only: a key must never reach a log.
        for position, key in enumerate(keys, start=1):
            if not _is_fernet_key(key.get_secret_value()):
                raise ValueError(
                    f"key {position} is not a Fernet key "
                    "(32 bytes, url-safe base64; make one with "
                    "`python -c 'from cryptography.fernet import Fernet; "
                    "print(Fernet.generate_key().decode())'`)"
                )
        return keys


def _is_fernet_key(text: str) -> bool:
    try:
        raw = base64.urlsafe_b64decode(text.encode("ascii"))
    except (UnicodeEncodeError, binascii.Error):
        return False
    return len(raw) == 32


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    """The process-wide settings, read from the environment on first use."""
    return Settings()
