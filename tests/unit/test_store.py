"""The SQLite store's own matters: migrations from every older version, WAL and foreign keys.
What every backend must do (revision-guarded writes, records) is in test_store_contract.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

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
        if start_version:  # a game stored by that version, with its 63-bit seed
            await db.execute(
                "INSERT INTO games (kind, engine_version, config, seed, channel_id, players,"
                " status, snapshot, created_at, updated_at)"
                " VALUES ('essence', 1, '{}', ?, 5, '[1, 2]', 'active', '{}', 0, 0)",
                (2**63 - 2,),
            )
    store = SqliteStore(path)
    await store.open()
    try:
        async with store.db.execute("PRAGMA user_version") as cursor:
            assert (await cursor.fetchone())[0] == len(MIGRATIONS)
        if start_version:
            old = await store.games_in_channel(5)
            assert [g.seed for g in old] == [2**63 - 2]
        game = await _new_game(store)
        assert (await store.get_game(game.id)) == game
        big = await store.create_game(
            kind="essence", engine_version=1, config={}, seed=2**128 - 3, guild_id=1,
            channel_id=6, players=[1, 2], status="active", snapshot={},
        )  # fmt: skip
        assert (await store.get_game(big.id)).seed == 2**128 - 3
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


def old_combats() -> tuple[Any, list[tuple[int, str, str]]]:
    """Combats as the previous version stored them (channel, state JSON, status): a running
    one (schema 2 state, the cog's packing) in channel 5, a running one of schema 1 in
    channel 6 and an ended one in channel 7, all of campaign 1; and the running state."""
    from engines.w6 import apply, join_action, make, new_combat, state_to_json
    from tests.unit.test_w6_combat import fighter
    from tests.unit.test_w6_engine import _as_v1

    state = new_combat(42, seed=5)
    state, _ = apply(state, join_action(fighter("held", 7, ab=8)), 7)
    state, _ = apply(state, join_action(fighter("ork", ab=4, lp=17, lp_max=23)), 42)
    state, _ = apply(state, make("beginnen"), 42)
    state, _ = apply(state, make("angriff", "held", ("ork",), kw=3), 7)
    packed = json.dumps({"engine": state_to_json(state), "charaktere": {"held": 3}})
    old = json.dumps({"engine": _as_v1(state, [], {0: 42, 1: 7}), "charaktere": {}})
    return state, [(5, packed, "active"), (6, old, "active"), (7, packed, "ended")]


async def _v2_database_with_combats(path: Path) -> dict[str, Any]:
    """A database of schema 2 (combats in their own table) holding ``old_combats``."""
    state, combats = old_combats()
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await migrate(db, 2)
        await db.execute(
            "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, created_at)"
            " VALUES (1, 5, 'Nebelreich', 42, 0)"
        )
        for channel, data, status in combats:
            await db.execute(
                "INSERT INTO combats (channel_id, campaign_id, state, revision, status,"
                " message_id, updated_at) VALUES (?, 1, ?, 9, ?, 77, 1000)",
                (channel, data, status),
            )
    return {"state": state}


async def check_upgraded_combats(store: Any, old_state: Any) -> None:
    """What every backend holds after migration 3 (see ``old_combats``)."""
    from bot.games import GameService, load

    service = GameService(store)
    (running,) = await service.running_in_channel(5, "w6combat")
    assert load(running).state == old_state
    assert running.players == [42, 7] and running.guild_id == 1
    assert running.display == {"campaign": 1, "characters": {"held": 3}}
    actions = await store.game_actions(running.id)
    assert actions == [(e.actor, e.action) for e in old_state.log]
    back = await service.undo_last(running)
    assert load(back).state.pending is None and load(back).state.phase == 1
    (carried,) = await service.running_in_channel(6, "w6combat")
    assert load(carried).state.fighters == old_state.fighters
    assert load(carried).state.pending is not None
    assert await service.running_in_channel(7, "w6combat") == []
    (ended,) = await store.games_in_channel(7, kind="w6combat")
    assert ended.status == "finished"


async def test_stored_combats_become_games_that_replay_and_undo(tmp_path: Path) -> None:
    """Migration 3 moves every combat to the games table with its action rows: a running one
    goes on where it was (same state, campaign and characters), undoes by replaying its log,
    and the combats table is gone."""
    path = tmp_path / "v2.sqlite"
    old = await _v2_database_with_combats(path)
    store = SqliteStore(path)
    await store.open()
    try:
        await check_upgraded_combats(store, old["state"])
        async with store.db.execute(
            "SELECT name FROM sqlite_master WHERE name = 'combats'"
        ) as cursor:
            assert await cursor.fetchone() is None
    finally:
        await store.close()
