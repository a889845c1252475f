"""The SQLite backend: WAL, foreign keys, revision-guarded writes, on two aiosqlite
connections: one that writes and one that reads.

Every write runs in ``BEGIN IMMEDIATE … COMMIT`` under one lock, so a crash between two
statements never leaves half a game, and two clicks on one old button apply once. A write waits
at most :data:`WRITE_WAIT` seconds for the lock (ours, and SQLite's when another process holds
the database), then gives up with :class:`StoreBusy` ("try again"), so its interaction is still
answered within Discord's three seconds. Reads go through their own connection: in WAL mode
they see the last committed state and never wait for a writer, neither for one of ours that
holds the lock nor for an outside one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import (
    AlreadyExists,
    CampaignRecord,
    CharacterRecord,
    ContentRecord,
    DeckRecord,
    GameRecord,
    Json,
    LogRow,
    StaleRevision,
    StoreBusy,
    StoreUnavailable,
    WebTokenRecord,
    check_character_limits,
)
from bot.store.migrations import COMBATS_TO_GAMES, MIGRATIONS
from bot.store.rows import (
    _campaign,
    _changed,
    _character,
    _content,
    _deck,
    _dump,
    _game,
    _web_token,
    seed_columns,
)
from bot.store.upgrades import COMBAT_KIND, combat_to_game
from engines.core import EngineError
from engines.w6.state import STATE_VERSION

_GAME_COLUMNS = (
    "id, kind, engine_version, config, seed, guild_id, channel_id, players, status,"
    " snapshot, revision, message_id, created_at, updated_at, display, seed_text"
)
_CAMPAIGN_COLUMNS = "id, guild_id, channel_id, name, gm_id, co_gm_ids, settings, status, created_at"
_CHARACTER_COLUMNS = "id, campaign_id, owner_id, name, sheet, revision"
_DECK_COLUMNS = "id, owner_id, name, cards"
_CONTENT_COLUMNS = "guild_id, kind, name, text, author_id, updated_at"
_TOKEN_COLUMNS = "token_hash, kind, user_id, guild_id, data, expires_at"


WRITE_WAIT = 2.0  # seconds a write may wait for the lock before StoreBusy
BUSY_SLICE_MS = 100  # SQLite's own wait per attempt, so the writer thread is never stuck long
READ_BUSY_MS = 2000  # a read waits only for rare exclusive moments (WAL recovery)


class SqliteStore:
    """``Store`` on a SQLite file (``:memory:`` for a throwaway store)."""

    def __init__(self, path: Path | str, *, write_wait: float = WRITE_WAIT) -> None:
        self.path = str(path)
        self.write_wait = write_wait
        self._db: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()

    async def open(self) -> None:
        """Open (and migrate) the database. Raises StoreUnavailable, saying why in one line,
        when its directory cannot be created or written or the file is no database."""
        try:
            await self._open()
        except (OSError, sqlite3.Error) as error:
            await self.close()
            raise StoreUnavailable(self.path, _reason(self.path, error)) from error

    async def _open(self) -> None:
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            if not os.access(Path(self.path).parent, os.W_OK):  # SQLite says only "unable to open"
                raise sqlite3.OperationalError("no permission to write there")
        self._db = await _connect(self.path)
        self._db.row_factory = aiosqlite.Row
        await self._db.execute("PRAGMA journal_mode=WAL")
        await self._db.execute("PRAGMA foreign_keys=ON")
        await self._db.execute(f"PRAGMA busy_timeout={BUSY_SLICE_MS}")
        await migrate(self._db)
        if self.path == ":memory:":  # a second connection would see another database
            return
        self._reader = await _connect(self.path)
        self._reader.row_factory = aiosqlite.Row
        await self._reader.execute(f"PRAGMA busy_timeout={READ_BUSY_MS}")
        await self._reader.execute("PRAGMA query_only=ON")

    async def close(self) -> None:
        for connection in (self._reader, self._db):
            if connection is not None:
                await connection.close()
        self._db = self._reader = None

    @property
    def db(self) -> aiosqlite.Connection:
        if self._db is None:
            raise RuntimeError("store is not open")
        return self._db

    @property
    def reader(self) -> aiosqlite.Connection:
        """The connection for reads outside a transaction (the writer for ``:memory:``)."""
        return self._reader or self.db

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``BEGIN IMMEDIATE … COMMIT`` under the lock; StoreBusy when the lock (ours or an
        outside process's) is not free within ``write_wait`` seconds. Nothing is written then."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.write_wait
        try:
            async with asyncio.timeout_at(deadline):
                await self._lock.acquire()
        except TimeoutError:
            raise StoreBusy() from None
        try:
            await self._begin(deadline)
            yield self.db
            await self.db.execute("COMMIT")
        except BaseException as error:
            await self._rollback()
            if isinstance(error, sqlite3.OperationalError) and _is_busy(error):
                raise StoreBusy() from error
            raise
        finally:
            self._lock.release()

    async def _rollback(self) -> None:
        """Roll back, also when this write was cancelled and cannot know whether its BEGIN or
        COMMIT ran: the ROLLBACK is queued (before the lock is released) behind every
        statement the write queued, and the connection's thread runs them in order, so the
        next write always starts on a connection without an open transaction."""
        rollback = asyncio.ensure_future(self.db.execute("ROLLBACK"))
        rollback.add_done_callback(_retrieve)
        with contextlib.suppress(sqlite3.OperationalError):  # nothing was open
            await asyncio.shield(rollback)

    async def _begin(self, deadline: float) -> None:
        """Take SQLite's write lock, retrying in short slices (the writer thread never blocks
        long, and the event loop never) until ``deadline``."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                await self.db.execute("BEGIN IMMEDIATE")
                return
            except sqlite3.OperationalError as error:
                if not _is_busy(error):
                    raise
                if loop.time() >= deadline:
                    raise StoreBusy() from error
            await asyncio.sleep(min(0.05, max(0.0, deadline - loop.time())))

    async def _one(self, sql: str, params: Sequence[Any]) -> aiosqlite.Row | None:
        try:
            async with self.reader.execute(sql, params) as cursor:
                return await cursor.fetchone()
        except sqlite3.OperationalError as error:
            raise StoreBusy() if _is_busy(error) else error from error

    async def _all(self, sql: str, params: Sequence[Any]) -> list[aiosqlite.Row]:
        try:
            async with self.reader.execute(sql, params) as cursor:
                return list(await cursor.fetchall())
        except sqlite3.OperationalError as error:
            raise StoreBusy() if _is_busy(error) else error from error

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
        one_per_channel: bool = False,
        display: Json | None = None,
    ) -> GameRecord:
        """A new game. ``one_per_channel``: refused with AlreadyExists("game") when the channel
        has an invited or active game of ``kind`` (checked in the write's transaction, so two
        starts at once make one)."""
        now = time.time()
        async with self._transaction() as db:
            if one_per_channel:
                async with db.execute(
                    "SELECT 1 FROM games WHERE channel_id = ? AND kind = ?"
                    " AND status IN ('invited', 'active')",
                    (channel_id, kind),
                ) as found:
                    if await found.fetchone() is not None:
                        raise AlreadyExists("game")
            cursor = await db.execute(
                "INSERT INTO games (kind, engine_version, config, seed, seed_text, guild_id,"
                " channel_id, players, status, snapshot, revision, created_at, updated_at,"
                " display) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)",
                (
                    kind,
                    engine_version,
                    _dump(config),
                    *seed_columns(seed),
                    guild_id,
                    channel_id,
                    _dump(players),
                    status,
                    _dump(snapshot),
                    now,
                    now,
                    _dump(display or {}),
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

    async def games_in_guild(
        self, guild_id: int, *, statuses: tuple[str, ...] = (), limit: int = 100
    ) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses:
            sql += f" AND status IN ({','.join('?' * len(statuses))})"
            params.extend(statuses)
        rows = await self._all(sql + " ORDER BY id DESC LIMIT ?", [*params, max(0, limit)])
        return [_game(row) for row in rows]

    async def games_idle_since(
        self, before: float, *, unreminded_only: bool = False, status: str = "active"
    ) -> list[GameRecord]:
        """Games of ``status`` (active ones by default) with no move since ``before``
        (optionally: not reminded since)."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status = ? AND updated_at < ?"
        if unreminded_only:
            sql += " AND (reminded_at IS NULL OR reminded_at < updated_at)"
        rows = await self._all(sql + " ORDER BY updated_at", (status, before))
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
        players: list[int] | None = None,
        config: Json | None = None,
        display: Json | None = None,
        log: Sequence[LogRow] = (),
    ) -> GameRecord:
        """Write a new snapshot and append ``actions`` to the log, in one transaction.

        ``players`` and ``config`` replace the seats and the config (an invitation whose seats
        change before the game starts; seats that open while a game runs); ``display`` the
        cog's presentation data; ``log`` rows (campaign id, actor, kind, data) go to the
        campaign log in the same transaction. Raises StaleRevision when the stored revision is
        not ``expected_revision``.
        """
        now = time.time()
        new_players = None if players is None else _dump(players)
        new_config = None if config is None else _dump(config)
        new_display = None if display is None else _dump(display)
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET snapshot = ?, revision = revision + 1, updated_at = ?,"
                " status = COALESCE(?, status), message_id = COALESCE(?, message_id),"
                " players = COALESCE(?, players), config = COALESCE(?, config),"
                " display = COALESCE(?, display)"
                " WHERE id = ? AND revision = ?",
                (
                    _dump(snapshot),
                    now,
                    status,
                    message_id,
                    new_players,
                    new_config,
                    new_display,
                    game_id,
                    expected_revision,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleRevision()
            await _write_log(db, now, log)
            async with db.execute(
                "SELECT COALESCE(MAX(seq), 0) AS last FROM game_actions WHERE game_id = ?",
                (game_id,),
            ) as last:
                row = await last.fetchone()
            first = (row["last"] if row else 0) + 1
            await db.executemany(
                "INSERT INTO game_actions (game_id, seq, player, action, at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(game_id, first + i, p, a, now) for i, (p, a) in enumerate(actions)],
            )
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def drop_last_game_action(
        self,
        game_id: int,
        *,
        expected_revision: int,
        snapshot: Json,
        status: str | None = None,
        display: Json | None = None,
        log: Sequence[LogRow] = (),
    ) -> GameRecord:
        """Undo for every game: delete the last logged action and write ``snapshot`` (the log
        without it, replayed) in one transaction, with ``display`` and ``log`` as in
        ``update_game``; the revision moves on, so buttons made for the undone position are
        stale. Raises StaleRevision when the game moved on since it was read."""
        now = time.time()
        new_display = None if display is None else _dump(display)
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE games SET snapshot = ?, revision = revision + 1, updated_at = ?,"
                " status = COALESCE(?, status), display = COALESCE(?, display)"
                " WHERE id = ? AND revision = ?",
                (_dump(snapshot), now, status, new_display, game_id, expected_revision),
            )
            if cursor.rowcount != 1:
                raise StaleRevision()
            await _write_log(db, now, log)
            await db.execute(
                "DELETE FROM game_actions WHERE game_id = ? AND seq ="
                " (SELECT MAX(seq) FROM game_actions WHERE game_id = ?)",
                (game_id, game_id),
            )
        record = await self.get_game(game_id)
        assert record is not None
        return record

    async def set_game_channel(self, game_id: int, channel_id: int) -> None:
        """The channel (a thread opened for it) where the game lives from now on; the
        revision stays as it is."""
        async with self._transaction() as db:
            await db.execute("UPDATE games SET channel_id = ? WHERE id = ?", (channel_id, game_id))

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

    async def save_roll(
        self, scope: str, name: str, expression: str, created_by: int, *, limit: int = 0
    ) -> bool:
        async with self._transaction() as db:
            if limit > 0:
                row = await self._one(
                    "SELECT COUNT(*) AS n, SUM(name = ?) AS same FROM saved_rolls WHERE scope = ?",
                    (name, scope),
                )
                if row is not None and not row["same"] and row["n"] >= limit:
                    return False
            await db.execute(
                "INSERT OR REPLACE INTO saved_rolls (scope, name, expression, created_by)"
                " VALUES (?, ?, ?, ?)",
                (scope, name, expression, created_by),
            )
        return True

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
        """Raises AlreadyExists when the channel has an active campaign (also one started by a
        second command at the same moment: the unique index decides)."""
        async with self._transaction() as db, _one_active("campaign"):
            cursor = await db.execute(
                "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, settings, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, name, gm_id, _dump(settings), time.time()),
            )
            campaign_id = cursor.lastrowid
        return await self._campaign(campaign_id)

    async def import_campaign(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        name: str,
        gm_id: int,
        settings: Json,
        characters: Sequence[tuple[int | None, str, Json]] = (),
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CampaignRecord:
        now = time.time()
        async with self._transaction() as db:
            cursor = await db.execute(
                "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, settings, created_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, channel_id, name, gm_id, _dump(settings), now),
            )
            campaign_id = cursor.lastrowid
            await db.executemany(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [
                    (campaign_id, owner, title, _dump(sheet), now)
                    for owner, title, sheet in characters
                ],
            )
            await db.executemany(
                "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
                " VALUES (?, ?, ?, ?, ?)",
                [(campaign_id, now, actor, kind, _dump(data)) for actor, kind, data in log],
            )
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
        self,
        *,
        campaign_id: int,
        owner_id: int | None,
        name: str,
        sheet: Json,
        activate: bool = False,
        log: Sequence[tuple[int | None, str, Json]] = (),
        max_in_campaign: int = 0,
        max_per_owner: int = 0,
    ) -> CharacterRecord:
        now = time.time()
        async with self._transaction() as db:
            if max_in_campaign > 0 or max_per_owner > 0:
                async with db.execute(
                    "SELECT COUNT(*), COALESCE(SUM(owner_id = ?), 0) FROM characters"
                    " WHERE campaign_id = ?",
                    (owner_id, campaign_id),
                ) as counted:
                    row = await counted.fetchone()
                assert row is not None
                check_character_limits(row[0], row[1], owner_id, max_in_campaign, max_per_owner)
            cursor = await db.execute(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (campaign_id, owner_id, name, _dump(sheet), now),
            )
            character_id = cursor.lastrowid
            if activate and owner_id is not None:
                await db.execute(
                    "INSERT OR IGNORE INTO active_characters (campaign_id, user_id, character_id)"
                    " VALUES (?, ?, ?)",
                    (campaign_id, owner_id, character_id),
                )
            await db.executemany(
                "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
                " VALUES (?, ?, ?, ?, ?)",
                [(campaign_id, now, actor, kind, _dump(data)) for actor, kind, data in log],
            )
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
        self,
        character_id: int,
        *,
        expected_revision: int,
        name: str,
        sheet: Json,
        log: Sequence[tuple[int | None, str, Json]] = (),
    ) -> CharacterRecord:
        """Raises StaleRevision when the sheet changed since it was read."""
        now = time.time()
        async with self._transaction() as db:
            cursor = await db.execute(
                "UPDATE characters SET name = ?, sheet = ?, revision = revision + 1,"
                " updated_at = ? WHERE id = ? AND revision = ?",
                (name, _dump(sheet), now, character_id, expected_revision),
            )
            if cursor.rowcount != 1:
                raise StaleRevision()
            await db.executemany(
                "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
                " SELECT campaign_id, ?, ?, ?, ? FROM characters WHERE id = ?",
                [(now, actor, kind, _dump(data), character_id) for actor, kind, data in log],
            )
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

    # Telperinquár decks -----------------------------------------------------------------

    async def _deck_in(
        self, db: aiosqlite.Connection, owner_id: int, name: str
    ) -> DeckRecord | None:
        async with db.execute(
            f"SELECT {_DECK_COLUMNS} FROM tq_decks WHERE owner_id = ? AND name = ?",
            (owner_id, name),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _deck(row)

    async def create_deck(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]] = ()
    ) -> DeckRecord:
        async with self._transaction() as db, _one_active("deck"):
            await db.execute(
                "INSERT INTO tq_decks (owner_id, name, cards, updated_at) VALUES (?, ?, ?, ?)",
                (owner_id, name, _dump([list(c) for c in cards]), time.time()),
            )
            deck = await self._deck_in(db, owner_id, name)
        assert deck is not None
        return deck

    async def get_deck(self, owner_id: int, name: str) -> DeckRecord | None:
        row = await self._one(
            f"SELECT {_DECK_COLUMNS} FROM tq_decks WHERE owner_id = ? AND name = ?",
            (owner_id, name),
        )
        return None if row is None else _deck(row)

    async def decks(self, owner_id: int) -> list[DeckRecord]:
        rows = await self._all(
            f"SELECT {_DECK_COLUMNS} FROM tq_decks WHERE owner_id = ? ORDER BY name, id",
            (owner_id,),
        )
        return [_deck(row) for row in rows]

    async def rename_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        async with self._transaction() as db, _one_active("deck"):
            cursor = await db.execute(
                "UPDATE tq_decks SET name = ?, updated_at = ? WHERE owner_id = ? AND name = ?",
                (new_name, time.time(), owner_id, name),
            )
            if cursor.rowcount == 0:
                return None
            return await self._deck_in(db, owner_id, new_name)

    async def copy_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        async with self._transaction() as db, _one_active("deck"):
            cursor = await db.execute(
                "INSERT INTO tq_decks (owner_id, name, cards, updated_at)"
                " SELECT owner_id, ?, cards, ? FROM tq_decks WHERE owner_id = ? AND name = ?",
                (new_name, time.time(), owner_id, name),
            )
            if cursor.rowcount == 0:
                return None
            return await self._deck_in(db, owner_id, new_name)

    async def delete_deck(self, owner_id: int, name: str) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM tq_decks WHERE owner_id = ? AND name = ?", (owner_id, name)
            )
            return cursor.rowcount > 0

    async def change_deck_card(
        self, owner_id: int, name: str, card: str, delta: int
    ) -> DeckRecord | None:
        async with self._transaction() as db:
            deck = await self._deck_in(db, owner_id, name)
            if deck is None:
                return None
            return await self._write_cards(db, deck, _changed(deck.cards, card, delta))

    async def set_deck_cards(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]]
    ) -> DeckRecord | None:
        async with self._transaction() as db:
            deck = await self._deck_in(db, owner_id, name)
            if deck is None:
                return None
            return await self._write_cards(db, deck, [(n, c) for n, c in cards if c > 0])

    async def _write_cards(
        self, db: aiosqlite.Connection, deck: DeckRecord, cards: list[tuple[str, int]]
    ) -> DeckRecord:
        await db.execute(
            "UPDATE tq_decks SET cards = ?, updated_at = ? WHERE id = ?",
            (_dump([list(c) for c in cards]), time.time(), deck.id),
        )
        return DeckRecord(deck.id, deck.owner_id, deck.name, tuple(cards))

    # A server's own content files -------------------------------------------------------

    async def put_content(
        self, guild_id: int, kind: str, text: str, author_id: int, name: str = ""
    ) -> bool:
        async with self._transaction() as db:
            async with db.execute(
                "SELECT 1 FROM server_content WHERE guild_id = ? AND kind = ? AND name = ?",
                (guild_id, kind, name),
            ) as cursor:
                replaced = await cursor.fetchone() is not None
            await db.execute(
                "INSERT OR REPLACE INTO server_content"
                " (guild_id, kind, name, text, author_id, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
                (guild_id, kind, name, text, author_id, time.time()),
            )
        return replaced

    async def get_content(self, guild_id: int, kind: str, name: str = "") -> ContentRecord | None:
        row = await self._one(
            f"SELECT {_CONTENT_COLUMNS} FROM server_content"
            " WHERE guild_id = ? AND kind = ? AND name = ?",
            (guild_id, kind, name),
        )
        return None if row is None else _content(row)

    async def list_content(self, guild_id: int, kind: str) -> list[ContentRecord]:
        rows = await self._all(
            f"SELECT {_CONTENT_COLUMNS} FROM server_content"
            " WHERE guild_id = ? AND kind = ? ORDER BY name",
            (guild_id, kind),
        )
        return [_content(row) for row in rows]

    async def delete_content(self, guild_id: int, kind: str, name: str = "") -> bool:
        async with self._transaction() as db:
            cursor = await db.execute(
                "DELETE FROM server_content WHERE guild_id = ? AND kind = ? AND name = ?",
                (guild_id, kind, name),
            )
            return cursor.rowcount > 0

    # The web companion's tokens ------------------------------------------------------------

    async def put_web_token(
        self, token_hash: str, kind: str, user_id: int, guild_id: int, data: Json,
        expires_at: float, *, now: float,
    ) -> None:  # fmt: skip
        async with self._transaction() as db:
            await db.execute("DELETE FROM web_tokens WHERE expires_at <= ?", (now,))
            await db.execute(
                "INSERT OR REPLACE INTO web_tokens"
                " (token_hash, kind, user_id, guild_id, data, expires_at)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (token_hash, kind, user_id, guild_id, _dump(data), expires_at),
            )

    async def take_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        async with self._transaction() as db:
            async with db.execute(
                f"SELECT {_TOKEN_COLUMNS} FROM web_tokens WHERE token_hash = ? AND kind = ?",
                (token_hash, kind),
            ) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            await db.execute("DELETE FROM web_tokens WHERE token_hash = ?", (token_hash,))
        record = _web_token(row)
        return record if record.expires_at > now else None

    async def get_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        row = await self._one(
            f"SELECT {_TOKEN_COLUMNS} FROM web_tokens"
            " WHERE token_hash = ? AND kind = ? AND expires_at > ?",
            (token_hash, kind, now),
        )
        return None if row is None else _web_token(row)

    async def delete_web_token(self, token_hash: str) -> bool:
        async with self._transaction() as db:
            cursor = await db.execute("DELETE FROM web_tokens WHERE token_hash = ?", (token_hash,))
            return cursor.rowcount > 0


async def _write_log(db: aiosqlite.Connection, now: float, log: Sequence[LogRow]) -> None:
    """Campaign-log rows (campaign id, actor, kind, data) written in the caller's transaction;
    a row for a campaign that is gone is dropped."""
    await db.executemany(
        "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
        " SELECT id, ?, ?, ?, ? FROM campaigns WHERE id = ?",
        [(now, actor, kind, _dump(data), campaign) for campaign, actor, kind, data in log],
    )


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a background statement's outcome as seen (no "exception never retrieved")."""
    if not future.cancelled():
        future.exception()


async def _connect(path: str) -> aiosqlite.Connection:
    connection = aiosqlite.connect(path, isolation_level=None)
    try:
        return await connection
    except BaseException:
        # aiosqlite stops its worker thread on a failed connect but does not wait for it; the
        # thread would then report to a closed event loop (a traceback after our one line)
        await asyncio.to_thread(connection._thread.join, 5)
        raise


def _is_busy(error: sqlite3.OperationalError) -> bool:
    """SQLITE_BUSY / SQLITE_LOCKED: another connection holds the lock."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    return "locked" in str(error) or "busy" in str(error)


@asynccontextmanager
async def _one_active(what: str) -> AsyncIterator[None]:
    """A unique index "one active … per channel" refusing an insert → AlreadyExists."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        if "UNIQUE" not in str(error):
            raise
        raise AlreadyExists(what) from error


def _reason(path: str, error: BaseException) -> str:
    """One line saying why the database at ``path`` cannot be opened."""
    folder = Path(path).parent
    if isinstance(error, OSError):
        return f"the folder {folder} cannot be created ({error.strerror or error})"
    if folder.is_dir() and not os.access(folder, os.W_OK):
        return f"the folder {folder} is read-only ({error})"
    return str(error)


async def migrate(db: aiosqlite.Connection, target: int = len(MIGRATIONS)) -> int:
    """Bring the schema to ``target``; each step is one transaction with its version bump."""
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    version = int(row[0]) if row else 0
    for number in range(version + 1, target + 1):
        script = MIGRATIONS[number - 1]
        if number == COMBATS_TO_GAMES:
            await _with_data_step(db, number, script, _combats_to_games)
            continue
        await db.executescript(f"BEGIN;\n{script}\nPRAGMA user_version = {number};\nCOMMIT;")
    return max(version, target)


async def _with_data_step(
    db: aiosqlite.Connection,
    number: int,
    script: str,
    data_step: Callable[[aiosqlite.Connection], Awaitable[None]],
) -> None:
    """One migration whose data step runs before its script, all in one transaction."""
    await db.execute("BEGIN")
    try:
        await data_step(db)
        for statement in script.split(";"):
            if statement.strip():
                await db.execute(statement)
        await db.execute(f"PRAGMA user_version = {number}")
    except BaseException:
        await db.execute("ROLLBACK")
        raise
    await db.execute("COMMIT")


async def _combats_to_games(db: aiosqlite.Connection) -> None:
    """Each stored combat as a game with its action rows (see ``combat_to_game``)."""
    async with db.execute(
        "SELECT c.channel_id, c.campaign_id, c.state, c.revision, c.status, c.message_id,"
        " c.updated_at, p.guild_id FROM combats c LEFT JOIN campaigns p ON p.id = c.campaign_id"
        " ORDER BY c.id"
    ) as cursor:
        rows = list(await cursor.fetchall())
    for channel, campaign, state, revision, status, message_id, at, guild in rows:
        try:
            game = combat_to_game(json.loads(state), campaign, status)
        except (ValueError, EngineError):
            continue  # a state no version could read stays out (it never loaded either)
        cursor = await db.execute(
            "INSERT INTO games (kind, engine_version, config, seed, guild_id, channel_id,"
            " players, status, snapshot, revision, message_id, display, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                COMBAT_KIND,
                STATE_VERSION,
                _dump(game.config),
                game.seed,
                guild,
                channel,
                _dump(game.players),
                game.status,
                _dump(game.snapshot),
                revision,
                message_id,
                _dump(game.display),
                at,
                at,
            ),
        )
        await db.executemany(
            "INSERT INTO game_actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
            [
                (cursor.lastrowid, i + 1, seat, text, at)
                for i, (seat, text) in enumerate(game.actions)
            ],
        )
