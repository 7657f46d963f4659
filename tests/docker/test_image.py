"""The image, built from this tree and run by a real Docker engine: it serves, plays, restarts, keeps its key.

The base is a STAND-IN for the official ``python:3.11.x-slim-bookworm`` (Debian bookworm and its
Python 3.11, made by ``tests/docker/standin.py``; no registry is reachable from CI). So these
tests prove the Dockerfile, the locked install and the app in a container, not the upstream image.
"""

from __future__ import annotations

import json
import re
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2 as httpx
import pytest
from packaging.utils import canonicalize_name

from app.seal import KEY_FILE_NAME, Sealer, load_or_create_key_file
from app.web import open_save
from devtools.live import free_port
from tests.docker.conftest import FACTS, TIMINGS, BuiltImage, Docker
from tests.hardening.live_play import HX, Save, advance, token_of
from tests.test_lock import read_lock

SERVICE_UID = "10001"
HEALTHY_WITHIN = 60.0  # seconds; the app answers in 1-3 s and the check runs every 5 s
STOP_WITHIN = 10.0


def inspect(docker: Docker, container: str) -> dict[str, object]:
    state: dict[str, object] = json.loads(docker("inspect", "--format", "{{json .State}}", container).stdout)
    return state


def wait_until_healthy(docker: Docker, container: str, *, since: str = "") -> tuple[float, float]:
    """Seconds until the app first answered /healthz on its published port, and until Docker said healthy."""
    started = time.monotonic()
    port = docker("port", container, "8000/tcp").stdout.split(":")[-1].strip()
    answered: float | None = None
    while time.monotonic() - started < HEALTHY_WITHIN:
        state = inspect(docker, container)
        assert state["Running"], f"the container stopped:\n{docker('logs', container).stderr[-3000:]}"
        if answered is None:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    answered = time.monotonic() - started
            except httpx.TransportError:
                pass
        health = state["Health"]
        assert isinstance(health, dict)
        if health["Status"] == "healthy" and state["StartedAt"] != since:
            assert answered is not None, "Docker said healthy before the app answered on its port"
            return answered, time.monotonic() - started
        time.sleep(0.1)
    raise AssertionError(f"not healthy within {HEALTHY_WITHIN} s: {inspect(docker, container)['Health']}")


@pytest.fixture
def data_volume(docker: Docker) -> Iterator[str]:
    volume = docker.name("data")
    docker("volume", "create", volume)
    docker.volumes.append(volume)
    yield volume
    docker("volume", "rm", "--force", volume, check=False)


def test_the_build_is_quiet_and_installs_exactly_the_lock(docker: Docker, image: BuiltImage) -> None:
    noise = [
        line
        for line in image.output.splitlines()
        # The client's own notice that it uses the classic builder is not the build's.
        if re.search(r"(?i)\bwarn(ing)?\b|\[notice\]|new release of pip", line)
    ]
    assert noise == [], "the build printed warnings"
    installed = docker(
        "run",
        "--rm",
        "--entrypoint",
        "python",
        image.tag,
        "-c",
        "import importlib.metadata as m, platform; print(platform.python_version());"
        " print('\\n'.join(f'{d.name} {d.version}' for d in m.distributions()))",
    ).stdout.split("\n")
    # The lock's markers are judged by the container's Python, not the host's: the stand-in's
    # 3.11.2 needs async-timeout (redis, python_full_version < '3.11.3') where 3.11.7 does not.
    python_version, *installed = installed
    environment = {"python_full_version": python_version, "python_version": python_version.rsplit(".", 1)[0]}
    versions: dict[str, str] = {
        canonicalize_name(name): version for name, version in (line.split() for line in installed if line)
    }
    assert versions.pop("gin-rummy") == "0.1.0"
    # The tools that installed it are gone; everything else is the lock, pin for pin.
    assert "pip" not in versions and "setuptools" not in versions
    expected = {
        name: str(pin.version)
        for name, pin in read_lock("runtime.txt").items()
        if pin.requirement.marker is None or pin.requirement.marker.evaluate(environment)
    }
    assert versions == expected


def test_a_container_serves_plays_restarts_keeps_its_key_and_stops_promptly(
    docker: Docker, image: BuiltImage, data_volume: str, tmp_path: Path
) -> None:
    container = docker.name(f"game-{len(docker.containers)}")
    port = free_port()
    started = time.monotonic()
    # The hardened command from docs/operations.md, on a free loopback port.
    docker(
        "run", "--detach", "--name", container,
        "--read-only", "--tmpfs", "/tmp", "--cap-drop", "ALL", "--security-opt", "no-new-privileges",
        "--volume", f"{data_volume}:/data", "--publish", f"127.0.0.1:{port}:8000", image.tag,
    )  # fmt: skip
    docker.containers.append(container)
    TIMINGS["docker run"] = time.monotonic() - started
    answered, healthy = wait_until_healthy(docker, container)
    TIMINGS["first answer on /healthz after docker run"] = answered
    TIMINGS["'healthy' after docker run"] = healthy

    # Every process in the container runs as the service's uid, and the key it made is its own.
    top = docker("top", container, "-eo", "pid,uid,args").stdout.splitlines()[1:]
    assert top and all(line.split()[1] == SERVICE_UID for line in top), top
    assert docker("exec", container, "id", "-u").stdout.strip() == SERVICE_UID
    owner_mode = docker("exec", container, "stat", "-c", "%u %a", f"/data/{KEY_FILE_NAME}").stdout.split()
    assert owner_mode == [SERVICE_UID, "600"]

    # The test reads the key out of the volume only to check each answer with the engine.
    docker("cp", f"{container}:/data/{KEY_FILE_NAME}", str(tmp_path / KEY_FILE_NAME))
    sealer = Sealer(load_or_create_key_file(tmp_path / KEY_FILE_NAME))
    base_url = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=base_url, timeout=30) as client:
        started = time.monotonic()
        response = client.post("/game/new", data={"level": "normal"}, headers=HX)
        TIMINGS["first New match answered"] = time.monotonic() - started
        assert response.status_code == 200, response.text[:2000]
        save = Save(token_of(response), open_save(sealer, token_of(response)))
        for _ in range(4):  # moves, each checked with the engine; the next deal if the computer ended a hand
            save = advance(client, sealer, save)

    before = str(inspect(docker, container)["StartedAt"])
    started = time.monotonic()
    docker("restart", "--time", "10", container, timeout=60)
    _, healthy = wait_until_healthy(docker, container, since=before)
    TIMINGS["'healthy' again after docker restart"] = time.monotonic() - started
    with httpx.Client(base_url=base_url, timeout=30) as client:
        resumed = client.post("/game/resume", data={"token": save.token, "at": save.at}, headers=HX)
        assert resumed.status_code == 200, resumed.text[:2000]
        # The restarted server opened the earlier token with the key it kept in the volume.
        assert sealer.unseal(token_of(resumed)) == sealer.unseal(save.token)

    started = time.monotonic()
    docker("stop", "--time", "10", container, timeout=60)
    stopped = time.monotonic() - started
    TIMINGS["docker stop"] = stopped
    state = inspect(docker, container)
    assert stopped < STOP_WITHIN, f"docker stop took {stopped:.1f} s: SIGTERM was not handled"
    assert state["ExitCode"] == 0, docker("logs", container).stderr[-2000:]

    # The log has the game's requests but not the health probes that made it healthy. Read once the
    # server has stopped: its own thread writes the access log in batches, and writes the rest at exit.
    logs = docker("logs", container)
    assert '"POST /game/new HTTP/1.1" 200' in logs.stdout
    assert '"POST /game/resume HTTP/1.1" 200' in logs.stdout
    assert "/healthz" not in logs.stdout + logs.stderr


def one_run(docker: Docker, image: BuiltImage, *args: str) -> tuple[int, list[str]]:
    """Run the image in the foreground until it exits; its exit status and its non-empty output lines."""
    container = docker.name(f"once-{len(docker.containers)}")
    docker.containers.append(container)
    result = docker("run", "--name", container, *args, image.tag, timeout=60, check=False)
    lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
    docker("rm", "--volumes", container, check=False)
    return result.returncode, lines


def test_a_root_owned_bind_mount_stops_the_container_with_one_line(docker: Docker, image: BuiltImage) -> None:
    # What `mkdir /srv/gin && docker run -v /srv/gin:/data ...` gives: a directory root owns.
    with tempfile.TemporaryDirectory() as directory:
        Path(directory).chmod(0o755)
        status, lines = one_run(docker, image, "--volume", f"{directory}:/data")
        assert list(Path(directory).iterdir()) == [], "the server wrote into a directory it was refused"
    assert status != 0
    assert lines == [f"/data is not writable by uid {SERVICE_UID}: chown {SERVICE_UID} the directory you mounted"]
    FACTS["root-owned bind mount"] = f"exit {status}: {lines[0]}"


def test_a_bad_gin_keys_stops_the_container_with_one_line_that_does_not_quote_it(
    docker: Docker, image: BuiltImage
) -> None:
    status, lines = one_run(docker, image, "--env", "GIN_KEYS=not-a-fernet-key")
    assert status != 0
    assert len(lines) == 1, lines
    assert lines[0].startswith("GIN_KEYS: key 1 is not a Fernet key"), lines[0]
    assert "not-a-fernet-key" not in lines[0]
    FACTS["bad GIN_KEYS"] = f"exit {status}: {lines[0][:70]}..."
