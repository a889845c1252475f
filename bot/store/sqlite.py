"""The SQLite backend: one aiosqlite connection, WAL, foreign keys, revision-guarded writes.

Every write runs in ``BEGIN IMMEDIATE … COMMIT`` under one lock, so a crash between two
statements never leaves half a game, and two clicks on one old button apply once.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import (
    CampaignRecord,
    CharacterRecord,
    CombatRecord,
    GameRecord,
    Json,
    StaleRevision,
)
from bot.store.migrations import MIGRATIONS
from bot.store.rows import _campaign, _character, _combat, _dump, _game

_GAME_COLUMNS = (
    "id, kind, engine_version, config, seed, guild_id, channel_id, players, status,"
    " snapshot, revision, message_id, created_at, updated_at, display"
)
_CAMPAIGN_COLUMNS = "id, guild_id, channel_id, name, gm_id, co_gm_ids, settings, status, created_at"
_CHARACTER_COLUMNS = "id, campaign_id, owner_id, name, sheet, revision"
_COMBAT_COLUMNS = "id, channel_id, campaign_id, state, revision, status, message_id"


class SqliteStore:
    """``Store`` on a SQLite file (``:memory:`` for a throwaway store)."""

    def __init__(self, path: Path | str) -> None:
        self.path = str(path)
        self._db: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = await aiosqlite.connect(self.path, isolation_level=None)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute("PRAGMA busy_timeout=5000")
        await migrate(self._db)

    async def close(self) -> None:
        if self._db is not None:
            await self._db.close()
            self._db = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        async with self._lock:
            await self.db.execute("BEGIN IMMEDIATE")
            try:
                yield self.db
            except BaseException:
                await self.db.execute("ROLLBACK")
                raise
            await self.db.execute("COMMIT")

    async def _one(self, sql: str, params: Sequence[Any]) -> aiosqlite.Row | None:
        async with self.db.execute(sql, params) as cursor:
            return await cursor.fetchone()

    async def _all(self, sql: str, params: Sequence[Any]) -> list[aiosqlite.Row]:
        async with self.db.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    # meta and preferences ---------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        async with self._transaction() as db:
            await db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value))

    async def get_pref(self, user_id: int, key: str) -> str | None:
        row = await self._one(
            "SELECT value FROM user_prefs WHERE user_id = ? AND key = ?", (user_id, key)
        )
        return None if row is None else str(row["value"])

    async def set_pref(self, user_id: int, key: str, value: str | None) -> None:
        async with self._transaction() as db:
            if value is None:
                await db.execute(
                    "DELETE FROM user_prefs WHERE user_id = ? AND key = ?", (user_id, key)
                )
            else:
                await db.execute(
                    "INSERT OR REPLACE INTO user_prefs (user_id, key, value) VALUES (?, ?, ?)",
                    (user_id, key, value),
                )

    # games -------------------------------------------------------------------------------

    async def create_game(
        self,
        *,
        kind: str,
        engine_version: int,
        config: Json,
        seed: int,
        guild_id: int | None,
        channel_id: int,
        players: list[int],
        status: str,
        snapshot: Json,
    ) -> GameRecord:
        now = time.time()
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO games (kind, engine_version, config, seed, guild_id, channel_id,"
                " players, status, snapshot, revision, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)",
                (
                    kind,
                    engine_version,
                    _dump(config),
                    seed,
                    guild_id,
                    channel_id,
                    _dump(players),
                    status,
                    _dump(snapshot),
                    now,
                    now,
                ),
            )
            game_id = cursor.lastrowid
        assert game_id is not None
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else _game(row)

    async def games_in_channel(
        self, channel_id: int, *, kind: str | None = None, statuses: tuple[str, ...] = ()
    ) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ?"
        params: list[Any] = [channel_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        if statuses:
            sql += f" AND status IN ({','.join('?' * len(statuses))})"
            params.extend(statuses)
        rows = await self._all(sql + " ORDER BY id", params)
        return [_game(row) for row in rows]

    async def games_idle_since(
        self, before: float, *, unreminded_only: bool = False
    ) -> list[GameRecord]:
        """Active games with no move since ``before`` (optionally: not reminded since)."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' AND updated_at < ?"
        if unreminded_only:
            sql += " AND (reminded_at IS NULL OR reminded_at < updated_at)"
        rows = await self._all(sql + " ORDER BY updated_at", (before,))
        return [_game(row) for row in rows]

    async def mark_reminded(self, game_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE games SET reminded_at = ? WHERE id = ?", (time.time(), game_id)
            )

    async def update_game(
        self,
        game_id: int,
        *,
        expected_revision: int,
        snapshot: Json,
        actions: Sequence[tuple[int, str]] = (),
        status: str | None = None,
        message_id: int | None = None,
    ) -> GameRecord:
        """Write a new snapshot and append ``actions`` to the log, in one transaction.

        Raises StaleRevision when the stored revision is not ``expected_revision``.
        """
        now = time.time()
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET snapshot = ?, revision = revision + 1, updated_at = ?,"
                " status = COALESCE(?, status), message_id = COALESCE(?, message_id)"
                " WHERE id = ? AND revision = ?",
                (_dump(snapshot), now, status, message_id, game_id, expected_revision),
            )
            if cursor.rowcount != 1:
                raise StaleRevision()
            row = await self._one(
                "SELECT COALESCE(MAX(seq), 0) AS last FROM game_actions WHERE game_id = ?",
                (game_id,),
            )
            first = (row["last"] if row else 0) + 1
            await db.executemany(
                "INSERT INTO game_actions (game_id, seq, player, action, at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, first + i, p, a, now) for i, (p, a) in enumerate(actions)],
            )
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def set_game_display(self, game_id: int, display: Json) -> None:
        """Replace the cog's presentation data of a game; the revision stays as it is."""
        async with self._transaction() as db:
            await db.execute("UPDATE games SET display = ? WHERE id = ?", (_dump(display), game_id))

    async def game_actions(self, game_id: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT player, action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [(int(r["player"]), str(r["action"])) for r in rows]

    # saved rolls --------------------------------------------------------------------------

    async def save_roll(self, scope: str, name: str, expression: str, created_by: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO saved_rolls (scope, name, expression, created_by)"
                " VALUES (?, ?, ?, ?)",
                (scope, name, expression, created_by),
            )

    async def delete_roll(self, scope: str, name: str) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM saved_rolls WHERE scope = ? AND name = ?", (scope, name)
            )
            return cursor.rowcount > 0

    async def saved_rolls(self, scopes: list[str]) -> dict[str, str]:
        """Name → expression over ``scopes``; an earlier scope wins over a later one."""
        found: dict[str, str] = {}
        for scope in scopes:
            rows = await self._all(
                "SELECT name, expression FROM saved_rolls WHERE scope = ? ORDER BY name", (scope,)
            )
            for row in rows:
                found.setdefault(str(row["name"]), str(row["expression"]))
        return found

    # campaigns ----------------------------------------------------------------------------

    async def create_campaign(
        self, *, guild_id: int | None, channel_id: int, name: str, gm_id: int, settings: Json
    ) -> CampaignRecord:
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, settings, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, name, gm_id, _dump(settings), time.time()),
            )
            campaign_id = cursor.lastrowid
        return await self._campaign(campaign_id)

    async def _campaign(self, campaign_id: int | None) -> CampaignRecord:
        row = await self._one(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ?", (campaign_id,)
        )
        assert row is not None
        return _campaign(row)

    async def get_campaign(self, campaign_id: int) -> CampaignRecord | None:
        row = await self._one(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE id = ?", (campaign_id,)
        )
        return None if row is None else _campaign(row)

    async def active_campaign(self, channel_id: int) -> CampaignRecord | None:
        row = await self._one(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE channel_id = ? AND status = 'active'",
            (channel_id,),
        )
        return None if row is None else _campaign(row)

    async def campaigns(self, guild_id: int | None) -> list[CampaignRecord]:
        rows = await self._all(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE guild_id IS ? ORDER BY id",
            (guild_id,),
        )
        return [_campaign(row) for row in rows]

    async def update_campaign(
        self,
        campaign_id: int,
        *,
        gm_id: int | None = None,
        co_gm_ids: list[int] | None = None,
        settings: Json | None = None,
        status: str | None = None,
        name: str | None = None,
    ) -> CampaignRecord:
        async with self._transaction() as db:
            await db.execute(
                "UPDATE campaigns SET gm_id = COALESCE(?, gm_id),"
                " co_gm_ids = COALESCE(?, co_gm_ids), settings = COALESCE(?, settings),"
                " status = COALESCE(?, status), name = COALESCE(?, name) WHERE id = ?",
                (
                    gm_id,
                    None if co_gm_ids is None else _dump(co_gm_ids),
                    None if settings is None else _dump(settings),
                    status,
                    name,
                    campaign_id,
                ),
            )
        return await self._campaign(campaign_id)

    async def add_log(self, campaign_id: int, actor_id: int | None, kind: str, data: Json) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
                " VALUES (?, ?, ?, ?, ?)",
                (campaign_id, time.time(), actor_id, kind, _dump(data)),
            )

    async def campaign_log(self, campaign_id: int, limit: int = 50) -> list[Json]:
        """The newest ``limit`` entries, oldest first (``limit`` 0: all)."""
        rows = await self._all(
            "SELECT at, actor_id, kind, data FROM campaign_log WHERE campaign_id = ?"
            " ORDER BY id DESC LIMIT ?",
            (campaign_id, limit if limit > 0 else -1),
        )
        return [
            {
                "at": r["at"],
                "actor_id": r["actor_id"],
                "kind": r["kind"],
                "data": json.loads(r["data"]),
            }
            for r in reversed(rows)
        ]

    # characters ---------------------------------------------------------------------------

    async def create_character(
        self, *, campaign_id: int, owner_id: int | None, name: str, sheet: Json
    ) -> CharacterRecord:
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (campaign_id, owner_id, name, _dump(sheet), time.time()),
            )
            character_id = cursor.lastrowid
        assert character_id is not None
        record = await self.get_character(character_id)
        assert record is not None
        return record

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        row = await self._one(
            f"SELECT {_CHARACTER_COLUMNS} FROM characters WHERE id = ?", (character_id,)
        )
        return None if row is None else _character(row)

    async def characters(self, campaign_id: int) -> list[CharacterRecord]:
        rows = await self._all(
            f"SELECT {_CHARACTER_COLUMNS} FROM characters WHERE campaign_id = ? ORDER BY name",
            (campaign_id,),
        )
        return [_character(row) for row in rows]

    async def update_character(
        self, character_id: int, *, expected_revision: int, name: str, sheet: Json
    ) -> CharacterRecord:
        """Raises StaleRevision when the sheet changed since it was read."""
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE characters SET name = ?, sheet = ?, revision = revision + 1,"
                " updated_at = ? WHERE id = ? AND revision = ?",
                (name, _dump(sheet), time.time(), character_id, expected_revision),
            )
            if cursor.rowcount != 1:
                raise StaleRevision()
        record = await self.get_character(character_id)
        assert record is not None
        return record

    async def delete_character(self, character_id: int) -> None:
        async with self._transaction() as db:
            await db.execute("DELETE FROM characters WHERE id = ?", (character_id,))

    async def set_active_character(self, campaign_id: int, user_id: int, character_id: int) -> None:
        async with self._transaction() as db:
            await db.execute(
                "INSERT OR REPLACE INTO active_characters (campaign_id, user_id, character_id)"
                " VALUES (?, ?, ?)",
                (campaign_id, user_id, character_id),
            )

    async def active_character(self, campaign_id: int, user_id: int) -> CharacterRecord | None:
        row = await self._one(
            f"SELECT {', '.join('c.' + c.strip() for c in _CHARACTER_COLUMNS.split(','))}"
            " FROM active_characters a JOIN characters c ON c.id = a.character_id"
            " WHERE a.campaign_id = ? AND a.user_id = ?",
            (campaign_id, user_id),
        )
        return None if row is None else _character(row)

    # combats ------------------------------------------------------------------------------

    async def create_combat(
        self, *, channel_id: int, campaign_id: int | None, state: Json
    ) -> CombatRecord:
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO combats (channel_id, campaign_id, state, updated_at)"
                " VALUES (?, ?, ?, ?)",
                (channel_id, campaign_id, _dump(state), time.time()),
            )
            combat_id = cursor.lastrowid
        row = await self._one(f"SELECT {_COMBAT_COLUMNS} FROM combats WHERE id = ?", (combat_id,))
        assert row is not None
        return _combat(row)

    async def active_combat(self, channel_id: int) -> CombatRecord | None:
        row = await self._one(
            f"SELECT {_COMBAT_COLUMNS} FROM combats WHERE channel_id = ? AND status = 'active'",
            (channel_id,),
        )
        return None if row is None else _combat(row)

    async def update_combat(
        self,
        combat_id: int,
        *,
        expected_revision: int,
        state: Json,
        status: str | None = None,
        message_id: int | None = None,
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CombatRecord:
        """Write the new combat state and its campaign-log entries (actor, kind, data) in one
        transaction. Raises StaleRevision when the combat moved on since it was read."""
        now = time.time()
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE combats SET state = ?, revision = revision + 1, updated_at = ?,"
                " status = COALESCE(?, status), message_id = COALESCE(?, message_id)"
                " WHERE id = ? AND revision = ?",
                (_dump(state), now, status, message_id, combat_id, expected_revision),
            )
            if cursor.rowcount != 1:
                raise StaleRevision()
            await db.executemany(
                "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
                " SELECT campaign_id, ?, ?, ?, ? FROM combats"
                " WHERE id = ? AND campaign_id IS NOT NULL",
                [(now, actor, kind, _dump(data), combat_id) for actor, kind, data in log],
            )
        row = await self._one(f"SELECT {_COMBAT_COLUMNS} FROM combats WHERE id = ?", (combat_id,))
        assert row is not None
        return _combat(row)


async def migrate(db: aiosqlite.Connection, target: int = len(MIGRATIONS)) -> int:
    """Bring the schema to ``target``; each step is one transaction with its version bump."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    version = int(row[0]) if row else 0
    for number in range(version + 1, target + 1):
        script = MIGRATIONS[number - 1]
        await db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    return max(version, target)
