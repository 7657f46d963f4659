"""``docker compose up``, the self-host command, with Debian 12's docker-compose and a real engine.

The base image is the same local STAND-IN as in test_image.py (an override file passes it as the
build argument, as CI must: no registry is reachable), so this proves compose.yaml and the image,
not the upstream base.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest

from devtools.live import free_port
from tests.ci import required_tool
from tests.docker.conftest import PREFIX, ROOT, TIMINGS, BuiltImage, Docker
from tests.hardening.live_play import HX, token_of

HEALTHY_WITHIN = 60.0


class Compose:
    def __init__(self, tool: str, project: str, override: Path, port: int) -> None:
        self.argv = [tool, "--project-name", project, "--project-directory", str(ROOT)]
        self.argv += ["-f", str(ROOT / "compose.yaml"), "-f", str(override)]
        self.env = {**os.environ, "GIN_PUBLISH": f"127.0.0.1:{port}"}

    def __call__(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [*self.argv, *args], capture_output=True, text=True, env=self.env, timeout=timeout, check=False
        )
        assert result.returncode == 0, f"docker-compose {' '.join(args)} failed:\n{result.stderr[-3000:]}"
        return result


@pytest.fixture
def compose(docker: Docker, image: BuiltImage, standin_base: str, tmp_path: Path) -> Iterator[tuple[Compose, int]]:
    # `image` first: its build leaves the layers this build reuses.
    tool = required_tool("docker-compose", "apt-get install docker-compose")
    override = tmp_path / "compose.standin.yaml"
    override.write_text(
        json.dumps(
            {"services": {"game": {"build": {"args": {"PYTHON_IMAGE": standin_base}}, "image": f"{PREFIX}:compose"}}}
        ),
        encoding="utf-8",
    )
    port = free_port()
    project = PREFIX.replace("-", "")
    runner = Compose(tool, project, override, port)
    try:
        yield runner, port
    finally:
        # Containers, the network, the named volume and the image: nothing stays.
        subprocess.run(
            [*runner.argv, "down", "--volumes", "--rmi", "all"],
            capture_output=True,
            env=runner.env,
            timeout=120,
            check=False,
        )


def test_docker_compose_up_serves_a_healthy_game_with_its_key_in_the_named_volume(
    docker: Docker, compose: tuple[Compose, int]
) -> None:
    run, port = compose
    started = time.monotonic()
    run("up", "--detach", "--build")
    [container] = run("ps", "--quiet", "game").stdout.split()
    while True:
        health = json.loads(docker("inspect", "--format", "{{json .State.Health}}", container).stdout)
        if health["Status"] == "healthy":
            break
        assert time.monotonic() - started < HEALTHY_WITHIN, health
        time.sleep(0.2)
    TIMINGS["docker-compose up --build (layers cached) until healthy"] = time.monotonic() - started

    mounts = json.loads(docker("inspect", "--format", "{{json .Mounts}}", container).stdout)
    [data] = [mount for mount in mounts if mount["Destination"] == "/data"]
    assert data["Type"] == "volume" and data["Name"].endswith("_gin-data"), data
    assert json.loads(docker("inspect", "--format", "{{json .HostConfig.ReadonlyRootfs}}", container).stdout)
    environment = json.loads(docker("inspect", "--format", "{{json .Config.Env}}", container).stdout)
    assert "GIN_WORKERS=2" in environment

    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as client:
        response = client.post("/game/new", data={"level": "easy"}, headers=HX)
        assert response.status_code == 200, response.text[:2000]
        assert token_of(response).startswith("v2.")
    top = docker("top", container, "-eo", "pid,uid,args").stdout.splitlines()[1:]
    # GIN_WORKERS=2: uvicorn's supervisor and its two workers, all uid 10001.
    assert len(top) >= 3 and all(line.split()[1] == "10001" for line in top), top
