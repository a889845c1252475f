"""The SQLite store under faults: a database locked by another process, two writes racing for
one channel, a database that cannot be opened."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bot.store import AlreadyExists, SqliteStore, StoreBusy, StoreUnavailable


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    s = SqliteStore(tmp_path / "store.sqlite", write_wait=0.3)
    await s.open()
    yield s
    await s.close()


@contextmanager
def outside_write_lock(path: Path | str) -> Iterator[None]:
    """Another process's connection holding the write lock (``BEGIN IMMEDIATE``)."""
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_write_under_an_outside_lock_is_refused_as_busy_and_writes_nothing(
    store: SqliteStore,
) -> None:
    with outside_write_lock(store.path):
        with pytest.raises(StoreBusy) as caught:
            await store.set_pref(1, "language", "en")
        with pytest.raises(StoreBusy):  # the next write waits no longer: the lock is ours again
            await store.create_campaign(guild_id=1, channel_id=5, name="Wald", gm_id=1, settings={})
    assert caught.value.key == "error.busy"
    assert await store.get_pref(1, "language") is None
    assert await store.active_campaign(5) is None
    await store.set_pref(1, "language", "en")  # free again: writes work
    assert await store.get_pref(1, "language") == "en"


async def test_reads_do_not_wait_behind_a_write_that_waits_for_the_lock(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "s.sqlite", write_wait=5.0)
    await store.open()
    try:
        await store.set_pref(1, "language", "de")
        with outside_write_lock(store.path):
            write = asyncio.create_task(store.set_pref(2, "language", "en"))
            await asyncio.sleep(0.05)  # the write is now waiting for the lock
            assert await store.get_pref(1, "language") == "de"
            assert await store.active_campaign(5) is None
            assert not write.done()  # the reads came back while the write still waits
        await write  # the outside lock is gone: the write goes through
        assert await store.get_pref(2, "language") == "en"
    finally:
        await store.close()


async def test_two_campaigns_started_at_once_in_one_channel_make_one(store: SqliteStore) -> None:
    results = await asyncio.gather(
        *(
            store.create_campaign(guild_id=1, channel_id=5, name=f"K{i}", gm_id=i, settings={})
            for i in range(3)
        ),
        return_exceptions=True,
    )
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(refused) == 2 and all(isinstance(r, AlreadyExists) for r in refused)
    assert refused[0].key == "error.exists"
    active = await store.active_campaign(5)
    assert active is not None and active.name in {"K0", "K1", "K2"}
    assert len(await store.campaigns(1)) == 1


async def test_two_combats_started_at_once_in_one_channel_make_one(store: SqliteStore) -> None:
    def start(i: int) -> Any:
        return store.create_game(
            kind="w6combat", engine_version=2, config={}, seed=i, guild_id=1, channel_id=5,
            players=[1], status="active", snapshot={"n": i}, one_per_channel=True,
        )  # fmt: skip

    results = await asyncio.gather(*(start(i) for i in range(2)), return_exceptions=True)
    assert sum(isinstance(r, AlreadyExists) for r in results) == 1
    assert len(await store.games_in_channel(5, kind="w6combat", statuses=("active",))) == 1
    other = await store.create_game(
        kind="essence", engine_version=1, config={}, seed=1, guild_id=1, channel_id=5,
        players=[1, 2], status="active", snapshot={}, one_per_channel=True,
    )  # fmt: skip
    assert other.kind == "essence"  # one per channel and kind


async def test_a_database_that_cannot_be_opened_says_why_in_one_line(tmp_path: Path) -> None:
    not_a_folder = tmp_path / "datei"
    not_a_folder.write_text("x")
    for path in (not_a_folder / "sub" / "bot.sqlite", Path("/proc/self/bot.sqlite")):
        store = SqliteStore(path)
        with pytest.raises(StoreUnavailable) as caught:
            await store.open()
        assert str(path) in str(caught.value)
        assert "\n" not in str(caught.value) and caught.value.reason
    garbage = tmp_path / "kaputt.sqlite"
    garbage.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreUnavailable, match="not a database"):
        await SqliteStore(garbage).open()


async def test_a_write_cancelled_at_any_point_leaves_the_store_writable(
    store: SqliteStore,
) -> None:
    """A command's task cancelled while its write runs (the bot shutting down, a timeout)
    must not leave a transaction open on the connection: every later write would fail."""
    for steps in range(40):
        task = asyncio.create_task(store.set_pref(steps, "language", "en"))
        for _ in range(steps):
            await asyncio.sleep(0)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.set_pref(1000 + steps, "language", "de")
        assert await store.get_pref(1000 + steps, "language") == "de"
