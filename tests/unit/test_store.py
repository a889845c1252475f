"""The SQLite store's own matters: migrations from every older version, WAL and foreign keys.
What every backend must do (revision-guarded writes, records) is in test_store_contract.py."""

from __future__ import annotations

from pathlib import Path

import aiosqlite
import pytest

from bot.store import SqliteStore
from bot.store.migrations import MIGRATIONS, SCHEMA_VERSION
from bot.store.sqlite import migrate


@pytest.fixture
async def store(tmp_path: Path):
    s = SqliteStore(tmp_path / "store.sqlite")
    await s.open()
    yield s
    await s.close()


async def _new_game(store: SqliteStore, channel: int = 10):
    return await store.create_game(
        kind="essence",
        engine_version=1,
        config={"quick": False},
        seed=7,
        guild_id=1,
        channel_id=channel,
        players=[100, 200],
        status="active",
        snapshot={"turn": 1},
    )


@pytest.mark.parametrize("start_version", range(SCHEMA_VERSION))
async def test_migrates_from_every_older_version(tmp_path: Path, start_version: int) -> None:
    path = tmp_path / "old.sqlite"
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, start_version)
        async with db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == start_version
    store = SqliteStore(path)
    await store.open()
    try:
        async with store.db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == len(MIGRATIONS)
        game = await _new_game(store)
        assert (await store.get_game(game.id)) == game
    finally:
        await store.close()


async def test_opening_twice_keeps_data_and_settings(tmp_path: Path) -> None:
    path = tmp_path / "s.sqlite"
    first = SqliteStore(path)
    await first.open()
    game = await _new_game(first)
    await first.close()
    second = SqliteStore(path)
    await second.open()
    try:
        assert await second.get_game(game.id) == game
        async with second.db.execute("PRAGMA journal_mode") as cursor:
            assert (await cursor.fetchone())[0] == "wal"
        async with second.db.execute("PRAGMA foreign_keys") as cursor:
            assert (await cursor.fetchone())[0] == 1
    finally:
        await second.close()
