"""compose.yaml: valid for Docker Compose, the key's volume named, the proxy and Redis behind profiles."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import yaml  # type: ignore[import-untyped]

from tests.ci import required_tool

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "compose.yaml"


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))
    return loaded


def test_docker_compose_accepts_the_file_with_every_profile() -> None:
    # Debian 12's docker-compose (1.29) checks the file against the Compose specification.
    tool = required_tool("docker-compose", "apt-get install docker-compose")
    for profiles in ([], ["--profile", "proxy", "--profile", "replicas"]):
        result = subprocess.run(
            [tool, "--project-directory", str(ROOT), "-f", str(COMPOSE), *profiles, "config", "--quiet"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert result.returncode == 0, result.stderr


def test_the_game_keeps_its_key_in_a_named_volume() -> None:
    # An anonymous volume (a plain `docker run` without -v) would give each new container a new key.
    spec = compose()
    game = spec["services"]["game"]
    assert "gin-data:/data" in game["volumes"]
    assert "gin-data" in spec["volumes"]
    assert "profiles" not in game, "`docker compose up` must start the game"
    assert game["environment"]["GIN_WORKERS"].startswith("${GIN_WORKERS")
    # Published on loopback unless GIN_PUBLISH says otherwise; the image's health check applies.
    assert game["ports"] == ["${GIN_PUBLISH:-127.0.0.1:8000}:8000"]
    assert "healthcheck" not in game


def test_the_proxy_and_redis_start_only_when_their_profile_is_named() -> None:
    services = compose()["services"]
    assert services["proxy"]["profiles"] == ["proxy"]
    assert services["redis"]["profiles"] == ["replicas"]
    assert services["proxy"]["depends_on"] == {"game": {"condition": "service_healthy"}}
    caddyfile = services["proxy"]["volumes"][0].split(":")[0]
    assert (ROOT / caddyfile).is_file()
