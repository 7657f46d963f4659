"""app.register: both stores keep each match's latest token and compare-and-set it atomically.

Every test runs against a real SQLite file and a real ``redis-server``.
"""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import redis.asyncio

import app.register.sqlite as sqlite_store
from app.register import Register, RegisterUnavailable, open_register
from app.register.redis import RedisRegister
from app.register.sqlite import BUSY_SECONDS, CHECKPOINT_SECONDS, SQLiteRegister
from app.settings import Settings
from app.startup import StartupError
from tests.redis_server import running_redis

IDLE = 3600


def run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    # A thread of its own: Playwright's browser tests leave an event loop running in this one.
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


OpenRegister = Callable[..., Coroutine[Any, Any, Register]]


@pytest.fixture(params=["sqlite", "redis"])
def open_store(request: pytest.FixtureRequest, tmp_path: Path) -> OpenRegister:
    """Opens a register of the parameter's kind (several may be open on one store at once)."""
    url = "" if request.param == "sqlite" else request.getfixturevalue("redis_url")

    async def opened(idle_seconds: int = IDLE) -> Register:
        return await open_register(Settings(data_dir=tmp_path, register_url=url, register_idle_seconds=idle_seconds))

    return opened


def test_an_unknown_match_takes_the_token_it_is_given(open_store: OpenRegister) -> None:
    async def scenario() -> None:
        register = await open_store()
        assert await register.swap("m1", "whatever the browser had", "t1") is None
        assert await register.swap("m1", "t1", "t1") is None  # a request that changes nothing keeps it
        await register.close()

    run(scenario())


def test_the_latest_token_moves_on_and_an_older_one_gets_the_latest_back(open_store: OpenRegister) -> None:
    async def scenario() -> None:
        register = await open_store()
        assert await register.swap("m1", "", "t1") is None
        assert await register.swap("m1", "t1", "t2") is None
        # Replaying t1 (an old tab, a copied save): nothing stored, the latest handed back.
        assert await register.swap("m1", "t1", "t2-from-t1") == "t2"
        assert await register.swap("m1", "t2", "t3") is None
        # Matches are separate.
        assert await register.swap("m2", "t1", "u1") is None
        assert await register.swap("m1", "u1", "x") == "t3"
        await register.close()

    run(scenario())


def test_a_match_idle_past_the_limit_is_forgotten(open_store: OpenRegister) -> None:
    async def scenario() -> None:
        register = await open_store(idle_seconds=1)
        assert await register.swap("m1", "", "t1") is None
        assert await register.swap("m1", "t0", "x") == "t1"
        await asyncio.sleep(1.6)
        # Idle for longer than the limit: as if unknown, so the posted save is taken as it is.
        assert await register.swap("m1", "t0", "t0-played") is None
        assert await register.swap("m1", "t1", "y") == "t0-played"
        await register.close()

    run(scenario())


def test_of_many_racing_swaps_from_one_token_exactly_one_wins(open_store: OpenRegister) -> None:
    """Twelve separate connections (as separate workers or replicas would hold), all at once."""
    contenders = 12

    async def setup() -> None:
        register = await open_store()
        assert await register.swap("m1", "", "t1") is None
        await register.close()

    run(setup())
    start = threading.Barrier(contenders)
    results: list[str | None] = [None] * contenders
    errors: list[BaseException] = []

    def contender(index: int) -> None:
        async def swap() -> str | None:
            register = await open_store()
            try:
                start.wait(timeout=30)
                return await register.swap("m1", "t1", f"t2-by-{index}")
            finally:
                await register.close()

        try:
            results[index] = run(swap())
        except BaseException as error:  # reported below, with the others' results
            errors.append(error)

    threads = [threading.Thread(target=contender, args=(index,)) for index in range(contenders)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert not errors, errors
    winners = [index for index, result in enumerate(results) if result is None]
    assert len(winners) == 1, results
    # Every loser was handed the winner's token: its result.
    assert all(result == f"t2-by-{winners[0]}" for result in results if result is not None)


def test_ping_touches_the_store(open_store: OpenRegister) -> None:
    async def scenario() -> None:
        register = await open_store()
        await register.ping()
        await register.close()

    run(scenario())


def test_a_stopped_redis_makes_swaps_and_pings_fail_loudly() -> None:
    async def scenario(url: str, stop: Callable[[], None]) -> None:
        register = await open_register(Settings(register_url=url))
        assert await register.swap("m1", "", "t1") is None
        stop()
        with pytest.raises(RegisterUnavailable):
            await register.swap("m1", "t1", "t2")
        # Swaps asked at once go as one batch: every one of them fails, none is left waiting.
        answers = await asyncio.gather(*(register.swap(f"m{n}", "", "t") for n in range(10)), return_exceptions=True)
        assert all(isinstance(answer, RegisterUnavailable) for answer in answers), answers
        with pytest.raises(RegisterUnavailable):
            await register.ping()
        await register.close()

    with running_redis() as server:
        run(scenario(server.url, server.stop))


def test_swaps_asked_at_once_on_one_connection_are_each_answered_as_if_alone(open_store: OpenRegister) -> None:
    """As a busy worker asks: many requests' swaps in flight together, some racing for one match."""

    async def scenario() -> None:
        register = await open_store()
        for n in range(30):
            assert await register.swap(f"m{n}", "", f"t{n}") is None
        moves = [register.swap(f"m{n}", f"t{n}", f"t{n}-next") for n in range(30)]
        replays = [register.swap(f"m{n}", f"t{n}", f"t{n}-replayed") for n in range(0, 30, 3)]
        stale = [register.swap(f"m{n}", "old", f"t{n}-stale") for n in range(1, 30, 3)]
        answers = await asyncio.gather(*moves, *replays, *stale)
        assert answers[:30] == [None] * 30  # asked first, so played first
        assert answers[30:40] == [f"t{n}-next" for n in range(0, 30, 3)]  # the double tap gets the result
        assert answers[40:] == [f"t{n}-next" for n in range(1, 30, 3)]
        assert await register.swap("m29", "t29-next", "done") is None
        await register.close()

    run(scenario())


def test_the_redis_register_sends_the_swaps_asked_meanwhile_together(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One pipeline per batch, not one round trip per request: what makes Redis cheap for a busy worker.
    batches: list[int] = []
    pipeline = RedisRegister._pipeline

    async def counted(self: RedisRegister, batch: list[Any]) -> list[object]:
        batches.append(len(batch))
        return await pipeline(self, batch)

    monkeypatch.setattr(RedisRegister, "_pipeline", counted)

    async def scenario() -> None:
        register = await open_register(Settings(register_url=redis_url))
        assert await register.swap("lone", "", "t") is None  # a lone swap goes at once, alone
        answers = await asyncio.gather(*(register.swap(f"m{n}", "", f"t{n}") for n in range(40)))
        assert answers == [None] * 40
        await register.close()

    run(scenario())
    assert batches == [1, 40]


def test_the_redis_register_loads_its_script_again_when_redis_has_lost_it(redis_url: str) -> None:
    async def scenario() -> None:
        register = await open_register(Settings(register_url=redis_url))
        assert await register.swap("m1", "", "t1") is None
        other = redis.asyncio.Redis.from_url(redis_url)
        await other.script_flush()  # as a restarted Redis that kept its data but not its scripts
        await other.aclose()
        answers = await asyncio.gather(register.swap("m1", "t1", "t2"), register.swap("m2", "", "u1"))
        assert list(answers) == [None, None]
        assert await register.swap("m1", "t1", "x") == "t2"
        await register.close()

    run(scenario())


def test_a_request_cancelled_while_its_swap_waits_leaves_the_others_answered(redis_url: str) -> None:
    async def scenario() -> None:
        register = await open_register(Settings(register_url=redis_url))
        swaps = [asyncio.ensure_future(register.swap(f"m{n}", "", f"t{n}")) for n in range(5)]
        await asyncio.sleep(0)
        swaps[2].cancel()  # its client went away
        answers = await asyncio.gather(*swaps, return_exceptions=True)
        assert isinstance(answers[2], asyncio.CancelledError)
        assert [answers[n] for n in (0, 1, 3, 4)] == [None] * 4
        assert await register.swap("m0", "t0", "t0-next") is None
        await register.close()

    run(scenario())


def test_a_locked_sqlite_file_makes_the_swap_fail_after_the_busy_timeout(tmp_path: Path) -> None:
    async def scenario() -> None:
        register = await open_register(Settings(data_dir=tmp_path))
        assert await register.swap("m1", "", "t1") is None
        other = sqlite3.connect(tmp_path / "register.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")  # someone else holds the write lock (a backup, a stuck process)
        started = time.monotonic()
        with pytest.raises(RegisterUnavailable, match="locked"):
            await register.swap("m1", "t1", "t2")
        assert time.monotonic() - started >= BUSY_SECONDS * 0.9
        other.execute("ROLLBACK")
        other.close()
        assert await register.swap("m1", "t1", "t2") is None  # and it recovers
        await register.close()

    run(scenario())


def test_the_sqlite_register_lives_in_the_data_directory(tmp_path: Path) -> None:
    register = run(open_register(Settings(data_dir=tmp_path)))
    assert isinstance(register, SQLiteRegister)
    assert register.path == tmp_path / "register.sqlite3"
    assert register.path.exists()
    run(register.close())


def test_closing_stops_the_checkpoint_thread_at_once_not_at_its_next_period(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A minute's period: a thread that slept it out (rather than waiting on the closing event)
    # would hold a server's shutdown for up to a minute; this one must stop within seconds.
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_SECONDS", 60.0)
    register = SQLiteRegister.open(tmp_path / "register.sqlite3", idle_seconds=IDLE)
    assert register._checkpointer.is_alive()
    started = time.monotonic()
    run(register.close())
    assert time.monotonic() - started < 5.0
    assert not register._checkpointer.is_alive()


def test_under_steady_swaps_the_log_starts_afresh_and_stays_short(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Passive checkpoints alone let the log grow without end while some swap always landed
    # during the copy (120 MB after 15 s of the load benchmark). Here a swap every half
    # millisecond for 3,000 swaps, checkpoints every 20 ms, a restart past 256 frames (1 MB).
    monkeypatch.setattr(sqlite_store, "CHECKPOINT_SECONDS", 0.02)
    monkeypatch.setattr(sqlite_store, "RESTART_FRAMES", 256)
    register = SQLiteRegister.open(tmp_path / "register.sqlite3", idle_seconds=IDLE)
    log = tmp_path / "register.sqlite3-wal"
    tokens = {f"m{n}": "" for n in range(50)}
    longest = 0
    try:
        for n in range(3000):
            match = f"m{n % 50}"
            latest = f"{n:04d}" + "t" * 600
            assert register._swap(match, tokens[match], latest) is None
            tokens[match] = latest
            longest = max(longest, log.stat().st_size)
            time.sleep(0.0005)
    finally:
        run(register.close())
    written = 3000 * 4096  # a page at least per swap, had the log never started afresh
    assert longest < 4 * 1024 * 1024 < written, f"the log reached {longest / 1e6:.1f} MB"


def test_a_move_within_the_refresh_period_changes_the_token_alone(tmp_path: Path) -> None:
    # The common swap leaves `touched` (and its index) alone; one after the refresh period sets it again.
    register = SQLiteRegister.open(tmp_path / "register.sqlite3", idle_seconds=IDLE)
    refresh = register._refresh_seconds
    assert 0 < refresh < IDLE

    def touched() -> float:
        value: float = register._db.execute("SELECT touched FROM latest WHERE match = 'm1'").fetchone()[0]
        return value

    try:
        assert register._swap("m1", "", "t1") is None
        first = touched()
        assert register._swap("m1", "t1", "t2") is None
        assert touched() == first
        assert register._swap("m1", "t1", "t2-from-t1") == "t2"  # refused as ever
        # Last touched longer ago than the refresh period (but not idle): the move touches it again.
        register._db.execute("UPDATE latest SET touched = touched - ? WHERE match = 'm1'", (refresh + 1,))
        assert register._swap("m1", "t2", "t3") is None
        assert touched() >= first
        assert register._swap("m1", "t2", "x") == "t3"
    finally:
        run(register.close())


def test_swaps_only_append_to_the_log_and_a_thread_of_the_register_checkpoints_it(tmp_path: Path) -> None:
    # A checkpoint fsyncs: on the event loop it would stall every request while the disk works.
    async def scenario() -> None:
        register = await open_register(Settings(data_dir=tmp_path))
        assert isinstance(register, SQLiteRegister)
        autocheckpoint = register._db.execute("PRAGMA wal_autocheckpoint").fetchone()[0]
        assert autocheckpoint == 0
        database = register.path
        before = database.stat().st_size
        for n in range(300):
            await register.swap(f"m{n}", "", "t" * 2000)
        # Pages reach the database file only by a checkpoint: the thread's, within a few periods.
        deadline = time.monotonic() + 20 * CHECKPOINT_SECONDS
        while database.stat().st_size <= before + 300 * 2000 and time.monotonic() < deadline:
            await asyncio.sleep(CHECKPOINT_SECONDS / 4)
        assert database.stat().st_size > before + 300 * 2000
        await register.close()
        assert not register._checkpointer.is_alive()

    run(scenario())


def test_a_damaged_sqlite_register_stops_startup_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "register.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StartupError) as error:
        run(open_register(Settings(data_dir=tmp_path)))
    line = str(error.value)
    assert "\n" not in line
    assert line.startswith(
        f"the move register {tmp_path / 'register.sqlite3'} cannot be opened (file is not a database)"
    )
    assert line.endswith(
        "move the file away and restart (a new register is made; games go on from the saves in the browsers)"
    )


def test_an_unreachable_redis_stops_startup_with_the_fix_and_no_password() -> None:
    from devtools.live import free_port

    url = f"redis://:hunter2@127.0.0.1:{free_port()}/0"
    with pytest.raises(StartupError) as error:
        run(open_register(Settings(register_url=url)))
    line = str(error.value)
    assert "\n" not in line and "hunter2" not in line
    assert line.startswith(
        f"the move register at redis://:***@127.0.0.1:{url.split(':')[3].split('/')[0]}/0 does not answer"
    )
    assert line.endswith("start Redis there, or correct GIN_REGISTER_URL")


def test_a_register_url_of_another_kind_is_refused_without_quoting_it() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match=r"must be empty .* or a redis://, rediss:// or unix:// URL") as error:
        Settings(register_url="postgres://user:secret@db/gin")
    assert "secret" not in str(error.value)
