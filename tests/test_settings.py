"""app.settings: defaults, the GIN_ environment, and refusal of malformed keys."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from cryptography.fernet import Fernet
from pydantic import ValidationError

from app.settings import Settings, get_settings


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    for name in list(os.environ):
        if name.upper().startswith("GIN_"):
            monkeypatch.delenv(name)
    get_settings.cache_clear()
    yield
    get_settings.cache_clear()


def test_defaults() -> None:
    settings = Settings()
    assert settings.host == "127.0.0.1"
    assert settings.port == 8000
    assert settings.data_dir == Path("data")
    assert settings.keys == ()
    assert settings.max_body_bytes == 64 * 1024
    assert settings.workers == 1


def test_environment_overrides_every_field(monkeypatch: pytest.MonkeyPatch) -> None:
    first, second = Fernet.generate_key().decode(), Fernet.generate_key().decode()
    monkeypatch.setenv("GIN_HOST", "0.0.0.0")
    monkeypatch.setenv("GIN_PORT", "9001")
    monkeypatch.setenv("GIN_DATA_DIR", "/srv/gin")
    monkeypatch.setenv("GIN_KEYS", f" {first} ,{second},")
    monkeypatch.setenv("GIN_MAX_BODY_BYTES", "2048")
    monkeypatch.setenv("GIN_WORKERS", "3")

    settings = Settings()

    assert settings.host == "0.0.0.0"
    assert settings.port == 9001
    assert settings.data_dir == Path("/srv/gin")
    assert [key.get_secret_value() for key in settings.keys] == [first, second]
    assert settings.max_body_bytes == 2048
    assert settings.workers == 3


def test_keys_never_show_in_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    key = Fernet.generate_key().decode()
    monkeypatch.setenv("GIN_KEYS", key)
    assert key not in repr(Settings())


def test_empty_keys_variable_means_no_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_KEYS", "")
    assert Settings().keys == ()


def test_malformed_key_is_refused_without_echoing_it(monkeypatch: pytest.MonkeyPatch) -> None:
    good = Fernet.generate_key().decode()
    monkeypatch.setenv("GIN_KEYS", f"{good},not-a-secret-key")
    with pytest.raises(ValidationError, match="key 2 is not a Fernet key") as error:
        Settings()
    assert "not-a-secret-key" not in str(error.value)
    assert good not in str(error.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [("GIN_PORT", "0"), ("GIN_PORT", "70000"), ("GIN_WORKERS", "0"), ("GIN_MAX_BODY_BYTES", "1")],
)
def test_out_of_range_numbers_are_refused(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ValidationError):
        Settings()


def test_get_settings_reads_once(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIN_PORT", "8100")
    first = get_settings()
    monkeypatch.setenv("GIN_PORT", "8200")
    assert get_settings() is first
    assert first.port == 8100
