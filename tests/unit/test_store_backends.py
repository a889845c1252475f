"""The PostgreSQL schema beside SQLite's: the same tables and columns, migrations from every
older version, processes starting together, and the setting that chooses the backend."""

from __future__ import annotations

import asyncio
from pathlib import Path

import aiosqlite
import asyncpg
import pytest

from bot.store import SqliteStore, sqlite_path, store_for
from bot.store.migrations import MIGRATIONS, PG_MIGRATIONS, SCHEMA_VERSION
from bot.store.postgres import PostgresStore, migrate, redact, schema_version
from bot.store.sqlite import migrate as sqlite_migrate
from tests.pg import PG_URL, fresh_schema


async def _sqlite_columns(path: Path) -> dict[str, list[str]]:
    async with aiosqlite.connect(path) as db:
        await sqlite_migrate(db)
        async with db.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
        ) as cursor:
            tables = [row[0] for row in await cursor.fetchall()]
        columns = {}
        for table in tables:
            async with db.execute(f"PRAGMA table_info({table})") as cursor:
                columns[table] = sorted(row[1] for row in await cursor.fetchall())
    return columns


async def _pg_columns(conn: asyncpg.Connection, schema: str) -> dict[str, list[str]]:
    rows = await conn.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = $1 AND table_name <> 'schema_version'",
        schema,
    )
    columns: dict[str, list[str]] = {}
    for row in rows:
        columns.setdefault(row["table_name"], []).append(row["column_name"])
    return {table: sorted(names) for table, names in columns.items()}


def test_both_backends_have_every_migration() -> None:
    assert len(PG_MIGRATIONS) == len(MIGRATIONS) == SCHEMA_VERSION


async def test_both_backends_have_the_same_tables_and_columns(tmp_path: Path) -> None:
    async with fresh_schema("columns") as schema:
        conn = await asyncpg.connect(PG_URL, server_settings={"search_path": schema})
        try:
            await migrate(conn)
            pg = await _pg_columns(conn, schema)
        finally:
            await conn.close()
    assert pg == await _sqlite_columns(tmp_path / "s.sqlite")


@pytest.mark.parametrize("start_version", range(SCHEMA_VERSION))
async def test_postgres_migrates_from_every_older_version(start_version: int) -> None:
    async with fresh_schema("migrate") as schema:
        conn = await asyncpg.connect(PG_URL, server_settings={"search_path": schema})
        try:
            assert await migrate(conn, start_version) == (0, start_version)
            assert await schema_version(conn) == start_version
            if start_version:  # a game stored by that version, with its 63-bit seed
                await conn.execute(
                    "INSERT INTO games (kind, engine_version, config, seed, channel_id, players,"
                    " status, snapshot, created_at, updated_at)"
                    " VALUES ('essence', 1, '{}', $1, 5, '[1, 2]', 'active', '{}', 0, 0)",
                    2**63 - 2,
                )
        finally:
            await conn.close()
        store = PostgresStore(PG_URL, schema=schema)
        await store.open()
        try:
            async with store.pool.acquire() as conn:
                assert await schema_version(conn) == SCHEMA_VERSION
            game = await store.create_game(
                kind="essence",
                engine_version=1,
                config={},
                seed=1,
                guild_id=1,
                channel_id=2,
                players=[1, 2],
                status="active",
                snapshot={},
            )
            assert await store.get_game(game.id) == game
            if start_version:
                assert [g.seed for g in await store.games_in_channel(5)] == [2**63 - 2]
            big = await store.create_game(
                kind="essence", engine_version=1, config={}, seed=2**128 - 3, guild_id=1,
                channel_id=6, players=[1, 2], status="active", snapshot={},
            )  # fmt: skip
            assert (await store.get_game(big.id)).seed == 2**128 - 3
            assert await store.migrate() == (SCHEMA_VERSION, SCHEMA_VERSION)
        finally:
            await store.close()


async def test_processes_starting_together_migrate_once() -> None:
    async with fresh_schema("together") as schema:
        stores = [PostgresStore(PG_URL, schema=schema) for _ in range(4)]
        results = await asyncio.gather(*(s.migrate() for s in stores))
        # a migration applied twice would fail (its tables exist); each starts where another
        # one stopped, and all end at the newest version
        assert [after for _, after in results] == [SCHEMA_VERSION] * 4
        assert sorted(before for before, _ in results)[0] == 0


def test_the_setting_chooses_the_backend(tmp_path: Path) -> None:
    assert isinstance(store_for(tmp_path / "a.sqlite"), SqliteStore)
    assert isinstance(store_for("postgresql://u:p@db.example:5432/bot"), PostgresStore)
    assert isinstance(store_for("postgres://db.example/bot"), PostgresStore)
    assert sqlite_path("sqlite:///data/bot.sqlite") == Path("data/bot.sqlite")
    assert sqlite_path("sqlite:////srv/bot.sqlite") == Path("/srv/bot.sqlite")
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    with pytest.raises(ValueError, match="mysql://"):
        store_for("mysql://db/bot")


def test_logs_never_show_the_database_password() -> None:
    assert redact("postgresql://bot:geheim@db:5432/x") == "postgresql://bot:***@db:5432/x"
    assert redact("postgresql://db/x") == "postgresql://db/x"
    assert "geheim" not in repr(PostgresStore("postgresql://bot:geheim@db/x"))


async def test_a_write_waits_only_so_long_for_a_row_another_process_holds() -> None:
    async with fresh_schema("locks") as schema:
        store = PostgresStore(PG_URL, schema=schema)
        await store.open()
        try:
            async with store.pool.acquire() as conn:
                assert await conn.fetchval("SHOW lock_timeout") == "1500ms"
                assert await conn.fetchval("SHOW idle_in_transaction_session_timeout") == "1min"
        finally:
            await store.close()


async def test_postgres_moves_stored_combats_to_games() -> None:
    """Migration 3 on PostgreSQL: the combats of schema 2 become games with their action rows
    (as on SQLite, tests/unit/test_store.py), and the combats table goes."""
    from tests.unit.test_store import check_upgraded_combats, old_combats

    state, combats = old_combats()
    async with fresh_schema("combats") as schema:
        conn = await asyncpg.connect(PG_URL, server_settings={"search_path": schema})
        try:
            await migrate(conn, 2)
            await conn.execute(
                "INSERT INTO campaigns (id, guild_id, channel_id, name, gm_id, created_at)"
                " VALUES (1, 1, 5, 'Nebelreich', 42, 0)"
            )
            for channel, data, status in combats:
                await conn.execute(
                    "INSERT INTO combats (channel_id, campaign_id, state, revision, status,"
                    " message_id, updated_at) VALUES ($1, 1, $2, 9, $3, 77, 1000)",
                    channel,
                    data,
                    status,
                )
        finally:
            await conn.close()
        store = PostgresStore(PG_URL, schema=schema)
        await store.open()
        try:
            await check_upgraded_combats(store, state)
            async with store.pool.acquire() as conn:
                assert await conn.fetchval("SELECT to_regclass('combats')") is None
        finally:
            await store.close()


def test_the_backends_hold_no_queries_of_their_own() -> None:
    """One SQL layer (``bot/store/sql_games.py``, ``sql.py``) for both backends: a backend
    module runs statements and says its dialect; it queries no table of the store itself
    (PostgreSQL's batched first reads aside). Sizes: ``test_module_sizes.py``."""
    import bot.store

    folder = Path(bot.store.__file__).parent
    for backend in ("sqlite.py", "postgres.py"):
        text = (folder / backend).read_text(encoding="utf-8")
        for table in ("games", "saved_rolls", "characters", "tq_decks", "web_tokens"):
            assert f"FROM {table} " not in text and f"INTO {table} " not in text, (backend, table)
