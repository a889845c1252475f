"""The PostgreSQL backend (asyncpg): the same ``Store`` for a bot that runs as several shard
processes on one database.

Every write is one transaction on a pooled connection. Revision-guarded writes are a single
conditional ``UPDATE … WHERE id = $1 AND revision = $2``: two processes clicking the same old
button both reach the row, the second waits for the first's row lock, re-reads the row, finds
the revision moved on and updates nothing, so it applies once and the other click is refused.

PostgreSQL text cannot hold the character U+0000, which SQLite keeps; a user could type it into
a name or a roll. The store drops it from the text it writes instead of failing the command.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

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
    WebTokenRecord,
    check_character_limits,
)
from bot.store.migrations import COMBATS_TO_GAMES, PG_MIGRATIONS
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

# pg_advisory_xact_lock key: processes starting together migrate one after the other
MIGRATION_LOCK = 0x5350_4945_4C4C  # "SPIELL"


def _text(value: str) -> str:
    return value.replace("\x00", "")


def _opt_text(value: str | None) -> str | None:
    return None if value is None else _text(value)


def _count(status: str) -> int:
    """Rows touched, from a command status such as ``DELETE 1``."""
    return int(status.rsplit(" ", 1)[-1]) if status[-1:].isdigit() else 0


def redact(url: str) -> str:
    """``url`` without its password, for logs."""
    scheme, sep, rest = url.partition("://")
    if not sep or "@" not in rest:
        return url
    user_part, at, host_part = rest.rpartition("@")
    user = user_part.split(":", 1)[0]
    return f"{scheme}://{user}{':***' if ':' in user_part else ''}{at}{host_part}"


class PostgresStore:
    """``Store`` on a PostgreSQL database; ``schema`` (created if missing) keeps its tables
    apart from others on the same database (tests; several bots on one server)."""

    def __init__(
        self, url: str, *, schema: str | None = None, min_size: int = 1, max_size: int = 10
    ) -> None:
        self.url = url
        self.schema = schema
        self.min_size = min_size
        self.max_size = max_size
        self._pool: asyncpg.Pool | None = None

    def __repr__(self) -> str:
        return f"PostgresStore({redact(self.url)!r}, schema={self.schema!r})"

    async def open(self) -> None:
        await self.migrate()
        self._pool = await asyncpg.create_pool(
            self.url,
            min_size=self.min_size,
            max_size=self.max_size,
            server_settings=self._server_settings(),
        )

    async def migrate(self, target: int = len(PG_MIGRATIONS)) -> tuple[int, int]:
        """Bring the schema to ``target``; returns (version before, version after)."""
        conn = await self._connect()
        try:
            return await migrate(conn, target)
        finally:
            await conn.close()

    async def _connect(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self.url)
        if self.schema is not None:
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {_ident(self.schema)}")
            await conn.execute(f"SET search_path TO {_ident(self.schema)}")
        return conn

    def _server_settings(self) -> dict[str, str]:
        # a write waits at most 5 s for a row another process holds (as SQLite's busy
        # timeout), and a process frozen inside a transaction loses it after a minute
        settings = {"lock_timeout": "5s", "idle_in_transaction_session_timeout": "60s"}
        if self.schema is not None:
            settings["search_path"] = _ident(self.schema)
        return settings

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError("store is not open")
        return self._pool

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction; StoreBusy ("try again") when a row lock held by another process
        is not free within the ``lock_timeout``. Nothing is written then."""
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                yield conn
        except asyncpg.exceptions.LockNotAvailableError as error:
            raise StoreBusy() from error

    # meta and preferences ---------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        value = await self.pool.fetchval("SELECT value FROM meta WHERE key = $1", _text(key))
        return None if value is None else str(value)

    async def set_meta(self, key: str, value: str) -> None:
        await self.pool.execute(
            "INSERT INTO meta (key, value) VALUES ($1, $2)"
            " ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            _text(key),
            _text(value),
        )

    async def get_pref(self, user_id: int, key: str) -> str | None:
        value = await self.pool.fetchval(
            "SELECT value FROM user_prefs WHERE user_id = $1 AND key = $2", user_id, _text(key)
        )
        return None if value is None else str(value)

    async def set_pref(self, user_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self.pool.execute(
                "DELETE FROM user_prefs WHERE user_id = $1 AND key = $2", user_id, _text(key)
            )
            return
        await self.pool.execute(
            "INSERT INTO user_prefs (user_id, key, value) VALUES ($1, $2, $3)"
            " ON CONFLICT (user_id, key) DO UPDATE SET value = EXCLUDED.value",
            user_id,
            _text(key),
            _text(value),
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
        has an invited or active game of ``kind`` (checked under a transaction-scoped advisory
        lock on channel and kind, so two starts at once make one)."""
        now = time.time()
        async with self._transaction() as conn:
            if one_per_channel:
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtextextended($1, 0))",
                    f"one-game:{channel_id}:{kind}",
                )
                found = await conn.fetchval(
                    "SELECT 1 FROM games WHERE channel_id = $1 AND kind = $2"
                    " AND status IN ('invited', 'active')",
                    channel_id,
                    _text(kind),
                )
                if found is not None:
                    raise AlreadyExists("game")
            row = await conn.fetchrow(
                "INSERT INTO games (kind, engine_version, config, seed, seed_text, guild_id,"
                " channel_id, players, status, snapshot, revision, created_at, updated_at,"
                " display) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 0, $11, $11, $12)"
                f" RETURNING {_GAME_COLUMNS}",
                _text(kind),
                engine_version,
                _dump(config),
                *seed_columns(seed),
                guild_id,
                channel_id,
                _dump(players),
                _text(status),
                _dump(snapshot),
                now,
                _dump(display or {}),
            )
        return _game(row)

    async def get_game(self, game_id: int) -> GameRecord | None:
        row = await self.pool.fetchrow(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        return None if row is None else _game(row)

    async def games_in_channel(
        self, channel_id: int, *, kind: str | None = None, statuses: tuple[str, ...] = ()
    ) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = $1"
        params: list[Any] = [channel_id]
        if kind is not None:
            params.append(_text(kind))
            sql += f" AND kind = ${len(params)}"
        if statuses:
            params.append([_text(s) for s in statuses])
            sql += f" AND status = ANY(${len(params)}::text[])"
        rows = await self.pool.fetch(sql + " ORDER BY id", *params)
        return [_game(row) for row in rows]

    async def games_in_guild(
        self, guild_id: int, *, statuses: tuple[str, ...] = (), limit: int = 100
    ) -> list[GameRecord]:
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE guild_id = $1"
        params: list[Any] = [guild_id]
        if statuses:
            params.append([_text(s) for s in statuses])
            sql += f" AND status = ANY(${len(params)}::text[])"
        params.append(max(0, limit))
        rows = await self.pool.fetch(sql + f" ORDER BY id DESC LIMIT ${len(params)}", *params)
        return [_game(row) for row in rows]

    async def games_idle_since(
        self, before: float, *, unreminded_only: bool = False, status: str = "active"
    ) -> list[GameRecord]:
        """Games of ``status`` (active ones by default) with no move since ``before``
        (optionally: not reminded since)."""
        sql = f"SELECT {_GAME_COLUMNS} FROM games WHERE status = $2 AND updated_at < $1"
        if unreminded_only:
            sql += " AND (reminded_at IS NULL OR reminded_at < updated_at)"
        rows = await self.pool.fetch(sql + " ORDER BY updated_at", before, status)
        return [_game(row) for row in rows]

    async def mark_reminded(self, game_id: int) -> None:
        await self.pool.execute(
            "UPDATE games SET reminded_at = $1 WHERE id = $2", time.time(), game_id
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

        ``players`` and ``config`` replace the seats and the config; ``display`` the cog's
        presentation data; ``log`` rows (campaign id, actor, kind, data) go to the campaign
        log in the same transaction. Raises StaleRevision when the stored revision is not
        ``expected_revision``.
        """
        now = time.time()
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE games SET snapshot = $1, revision = revision + 1, updated_at = $2,"
                " status = COALESCE($3, status), message_id = COALESCE($4, message_id),"
                " players = COALESCE($5, players), config = COALESCE($6, config),"
                " display = COALESCE($9, display)"
                f" WHERE id = $7 AND revision = $8 RETURNING {_GAME_COLUMNS}",
                _dump(snapshot),
                now,
                _opt_text(status),
                message_id,
                None if players is None else _dump(players),
                None if config is None else _dump(config),
                game_id,
                expected_revision,
                None if display is None else _dump(display),
            )
            if row is None:
                raise StaleRevision()
            await _write_log(conn, now, log)
            if actions:
                last = await conn.fetchval(
                    "SELECT COALESCE(MAX(seq), 0) FROM game_actions WHERE game_id = $1", game_id
                )
                await conn.executemany(
                    "INSERT INTO game_actions (game_id, seq, player, action, at)"
                    " VALUES ($1, $2, $3, $4, $5)",
                    [(game_id, last + 1 + i, p, _text(a), now) for i, (p, a) in enumerate(actions)],
                )
        return _game(row)

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
        """Undo: delete the last logged action and write ``snapshot`` (with ``display`` and
        ``log`` as in ``update_game``) in one transaction. Raises StaleRevision when the game
        moved on since it was read."""
        now = time.time()
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE games SET snapshot = $1, revision = revision + 1, updated_at = $2,"
                " status = COALESCE($3, status), display = COALESCE($6, display)"
                f" WHERE id = $4 AND revision = $5 RETURNING {_GAME_COLUMNS}",
                _dump(snapshot),
                now,
                _opt_text(status),
                game_id,
                expected_revision,
                None if display is None else _dump(display),
            )
            if row is None:
                raise StaleRevision()
            await _write_log(conn, now, log)
            await conn.execute(
                "DELETE FROM game_actions WHERE game_id = $1 AND seq ="
                " (SELECT MAX(seq) FROM game_actions WHERE game_id = $1)",
                game_id,
            )
        return _game(row)

    async def set_game_channel(self, game_id: int, channel_id: int) -> None:
        """The channel (a thread opened for it) where the game lives from now on; the
        revision stays as it is."""
        await self.pool.execute(
            "UPDATE games SET channel_id = $1 WHERE id = $2", channel_id, game_id
        )

    async def set_game_display(self, game_id: int, display: Json) -> None:
        """Replace the cog's presentation data of a game; the revision stays as it is."""
        await self.pool.execute(
            "UPDATE games SET display = $1 WHERE id = $2", _dump(display), game_id
        )

    async def game_actions(self, game_id: int) -> list[tuple[int, str]]:
        rows = await self.pool.fetch(
            "SELECT player, action FROM game_actions WHERE game_id = $1 ORDER BY seq", game_id
        )
        return [(int(r["player"]), str(r["action"])) for r in rows]

    # saved rolls --------------------------------------------------------------------------

    async def save_roll(
        self, scope: str, name: str, expression: str, created_by: int, *, limit: int = 0
    ) -> bool:
        """Save (or replace) a roll; False when ``scope`` holds ``limit`` rolls already and
        this name is new. Counted under a lock on the scope, so concurrent saves from several
        processes cannot pass the limit."""
        async with self._transaction() as conn:
            if limit > 0:
                await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1))", _text(scope))
                row = await conn.fetchrow(
                    "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE name = $2) AS same"
                    " FROM saved_rolls WHERE scope = $1",
                    _text(scope),
                    _text(name),
                )
                if row is not None and not row["same"] and row["n"] >= limit:
                    return False
            await conn.execute(
                "INSERT INTO saved_rolls (scope, name, expression, created_by)"
                " VALUES ($1, $2, $3, $4) ON CONFLICT (scope, name)"
                " DO UPDATE SET expression = EXCLUDED.expression,"
                " created_by = EXCLUDED.created_by",
                _text(scope),
                _text(name),
                _text(expression),
                created_by,
            )
        return True

    async def delete_roll(self, scope: str, name: str) -> bool:
        status = await self.pool.execute(
            "DELETE FROM saved_rolls WHERE scope = $1 AND name = $2", _text(scope), _text(name)
        )
        return _count(status) > 0

    async def saved_rolls(self, scopes: list[str]) -> dict[str, str]:
        """Name → expression over ``scopes``; an earlier scope wins over a later one."""
        rows = await self.pool.fetch(
            "SELECT scope, name, expression FROM saved_rolls WHERE scope = ANY($1::text[])"
            " ORDER BY name",
            [_text(s) for s in scopes],
        )
        by_scope: dict[str, list[tuple[str, str]]] = {}
        for row in rows:
            by_scope.setdefault(str(row["scope"]), []).append(
                (str(row["name"]), str(row["expression"]))
            )
        found: dict[str, str] = {}
        for scope in scopes:
            for name, expression in by_scope.get(_text(scope), []):
                found.setdefault(name, expression)
        return found

    # campaigns ----------------------------------------------------------------------------

    async def create_campaign(
        self, *, guild_id: int | None, channel_id: int, name: str, gm_id: int, settings: Json
    ) -> CampaignRecord:
        """Raises AlreadyExists when the channel has an active campaign (the unique index
        decides between two starts at the same moment)."""
        return await self.import_campaign(
            guild_id=guild_id, channel_id=channel_id, name=name, gm_id=gm_id, settings=settings
        )

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
        """The campaign, its characters and its log in one transaction: all or nothing."""
        now = time.time()
        async with self._transaction() as conn, _one_active("campaign"):
            row = await conn.fetchrow(
                "INSERT INTO campaigns (guild_id, channel_id, name, gm_id, settings, created_at)"
                f" VALUES ($1, $2, $3, $4, $5, $6) RETURNING {_CAMPAIGN_COLUMNS}",
                guild_id,
                channel_id,
                _text(name),
                gm_id,
                _dump(settings),
                now,
            )
            campaign_id = row["id"]
            await conn.executemany(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                " VALUES ($1, $2, $3, $4, $5)",
                [(campaign_id, o, _text(n), _dump(sheet), now) for o, n, sheet in characters],
            )
            await _insert_log(conn, campaign_id, now, log)
        return _campaign(row)

    async def get_campaign(self, campaign_id: int) -> CampaignRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns WHERE id = $1", campaign_id
        )
        return None if row is None else _campaign(row)

    async def active_campaign(self, channel_id: int) -> CampaignRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns"
            " WHERE channel_id = $1 AND status = 'active'",
            channel_id,
        )
        return None if row is None else _campaign(row)

    async def campaigns(self, guild_id: int | None) -> list[CampaignRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_CAMPAIGN_COLUMNS} FROM campaigns"
            " WHERE guild_id IS NOT DISTINCT FROM $1 ORDER BY id",
            guild_id,
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
        row = await self.pool.fetchrow(
            "UPDATE campaigns SET gm_id = COALESCE($1, gm_id),"
            " co_gm_ids = COALESCE($2, co_gm_ids), settings = COALESCE($3, settings),"
            " status = COALESCE($4, status), name = COALESCE($5, name)"
            f" WHERE id = $6 RETURNING {_CAMPAIGN_COLUMNS}",
            gm_id,
            None if co_gm_ids is None else _dump(co_gm_ids),
            None if settings is None else _dump(settings),
            _opt_text(status),
            _opt_text(name),
            campaign_id,
        )
        assert row is not None
        return _campaign(row)

    async def add_log(self, campaign_id: int, actor_id: int | None, kind: str, data: Json) -> None:
        await self.pool.execute(
            "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
            " VALUES ($1, $2, $3, $4, $5)",
            campaign_id,
            time.time(),
            actor_id,
            _text(kind),
            _dump(data),
        )

    async def campaign_log(self, campaign_id: int, limit: int = 50) -> list[Json]:
        """The newest ``limit`` entries, oldest first (``limit`` 0: all)."""
        rows = await self.pool.fetch(
            "SELECT at, actor_id, kind, data FROM campaign_log WHERE campaign_id = $1"
            " ORDER BY id DESC LIMIT $2",
            campaign_id,
            limit if limit > 0 else None,
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
        """The character, its owner's active mark (``activate``: only when the owner has
        none yet) and ``log`` entries, in one transaction. The limits are counted under a
        lock on the campaign's characters, so concurrent creates from several processes
        cannot pass them."""
        now = time.time()
        async with self._transaction() as conn:
            if max_in_campaign > 0 or max_per_owner > 0:
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtext($1))", f"characters:{campaign_id}"
                )
                counted = await conn.fetchrow(
                    "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE owner_id = $2) AS own"
                    " FROM characters WHERE campaign_id = $1",
                    campaign_id,
                    owner_id,
                )
                assert counted is not None
                check_character_limits(
                    counted["n"], counted["own"], owner_id, max_in_campaign, max_per_owner
                )
            row = await conn.fetchrow(
                "INSERT INTO characters (campaign_id, owner_id, name, sheet, updated_at)"
                f" VALUES ($1, $2, $3, $4, $5) RETURNING {_CHARACTER_COLUMNS}",
                campaign_id,
                owner_id,
                _text(name),
                _dump(sheet),
                now,
            )
            if activate and owner_id is not None:
                await conn.execute(
                    "INSERT INTO active_characters (campaign_id, user_id, character_id)"
                    " VALUES ($1, $2, $3) ON CONFLICT (campaign_id, user_id) DO NOTHING",
                    campaign_id,
                    owner_id,
                    row["id"],
                )
            await _insert_log(conn, campaign_id, now, log)
        return _character(row)

    async def get_character(self, character_id: int) -> CharacterRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_CHARACTER_COLUMNS} FROM characters WHERE id = $1", character_id
        )
        return None if row is None else _character(row)

    async def characters(self, campaign_id: int) -> list[CharacterRecord]:
        # COLLATE "C": the byte order SQLite's ORDER BY name gives, whatever the server's locale
        rows = await self.pool.fetch(
            f"SELECT {_CHARACTER_COLUMNS} FROM characters WHERE campaign_id = $1"
            ' ORDER BY name COLLATE "C", id',
            campaign_id,
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
        async with self._transaction() as conn:
            row = await conn.fetchrow(
                "UPDATE characters SET name = $1, sheet = $2, revision = revision + 1,"
                f" updated_at = $3 WHERE id = $4 AND revision = $5 RETURNING {_CHARACTER_COLUMNS}",
                _text(name),
                _dump(sheet),
                now,
                character_id,
                expected_revision,
            )
            if row is None:
                raise StaleRevision()
            record = _character(row)
            await _insert_log(conn, record.campaign_id, now, log)
        return record

    async def delete_character(self, character_id: int) -> None:
        await self.pool.execute("DELETE FROM characters WHERE id = $1", character_id)

    async def set_active_character(self, campaign_id: int, user_id: int, character_id: int) -> None:
        await self.pool.execute(
            "INSERT INTO active_characters (campaign_id, user_id, character_id)"
            " VALUES ($1, $2, $3) ON CONFLICT (campaign_id, user_id)"
            " DO UPDATE SET character_id = EXCLUDED.character_id",
            campaign_id,
            user_id,
            character_id,
        )

    async def active_character(self, campaign_id: int, user_id: int) -> CharacterRecord | None:
        columns = ", ".join("c." + c.strip() for c in _CHARACTER_COLUMNS.split(","))
        row = await self.pool.fetchrow(
            f"SELECT {columns} FROM active_characters a"
            " JOIN characters c ON c.id = a.character_id"
            " WHERE a.campaign_id = $1 AND a.user_id = $2",
            campaign_id,
            user_id,
        )
        return None if row is None else _character(row)

    # Telperinquár decks -----------------------------------------------------------------

    async def create_deck(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]] = ()
    ) -> DeckRecord:
        async with _one_active("deck"):
            row = await self.pool.fetchrow(
                "INSERT INTO tq_decks (owner_id, name, cards, updated_at) VALUES ($1, $2, $3, $4)"
                f" RETURNING {_DECK_COLUMNS}",
                owner_id,
                _text(name),
                _text(_dump([list(c) for c in cards])),
                time.time(),
            )
        return _deck(row)

    async def get_deck(self, owner_id: int, name: str) -> DeckRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_DECK_COLUMNS} FROM tq_decks WHERE owner_id = $1 AND name = $2",
            owner_id,
            _text(name),
        )
        return None if row is None else _deck(row)

    async def decks(self, owner_id: int) -> list[DeckRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_DECK_COLUMNS} FROM tq_decks WHERE owner_id = $1"
            ' ORDER BY name COLLATE "C", id',
            owner_id,
        )
        return [_deck(row) for row in rows]

    async def rename_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        async with _one_active("deck"):
            row = await self.pool.fetchrow(
                "UPDATE tq_decks SET name = $1, updated_at = $2 WHERE owner_id = $3 AND name = $4"
                f" RETURNING {_DECK_COLUMNS}",
                _text(new_name),
                time.time(),
                owner_id,
                _text(name),
            )
        return None if row is None else _deck(row)

    async def copy_deck(self, owner_id: int, name: str, new_name: str) -> DeckRecord | None:
        async with _one_active("deck"):
            row = await self.pool.fetchrow(
                "INSERT INTO tq_decks (owner_id, name, cards, updated_at)"
                " SELECT owner_id, $1, cards, $2 FROM tq_decks WHERE owner_id = $3 AND name = $4"
                f" RETURNING {_DECK_COLUMNS}",
                _text(new_name),
                time.time(),
                owner_id,
                _text(name),
            )
        return None if row is None else _deck(row)

    async def delete_deck(self, owner_id: int, name: str) -> bool:
        status = await self.pool.execute(
            "DELETE FROM tq_decks WHERE owner_id = $1 AND name = $2", owner_id, _text(name)
        )
        return _count(status) > 0

    async def change_deck_card(
        self, owner_id: int, name: str, card: str, delta: int
    ) -> DeckRecord | None:
        async with self._transaction() as conn:
            deck = await self._locked_deck(conn, owner_id, name)
            if deck is None:
                return None
            return await self._write_cards(conn, deck, _changed(deck.cards, _text(card), delta))

    async def set_deck_cards(
        self, owner_id: int, name: str, cards: Sequence[tuple[str, int]]
    ) -> DeckRecord | None:
        async with self._transaction() as conn:
            deck = await self._locked_deck(conn, owner_id, name)
            if deck is None:
                return None
            kept = [(_text(n), c) for n, c in cards if c > 0]
            return await self._write_cards(conn, deck, kept)

    async def _locked_deck(
        self, conn: asyncpg.Connection, owner_id: int, name: str
    ) -> DeckRecord | None:
        row = await conn.fetchrow(
            f"SELECT {_DECK_COLUMNS} FROM tq_decks WHERE owner_id = $1 AND name = $2 FOR UPDATE",
            owner_id,
            _text(name),
        )
        return None if row is None else _deck(row)

    async def _write_cards(
        self, conn: asyncpg.Connection, deck: DeckRecord, cards: list[tuple[str, int]]
    ) -> DeckRecord:
        await conn.execute(
            "UPDATE tq_decks SET cards = $1, updated_at = $2 WHERE id = $3",
            _dump([list(c) for c in cards]),
            time.time(),
            deck.id,
        )
        return DeckRecord(deck.id, deck.owner_id, deck.name, tuple(cards))

    # A server's own content files -------------------------------------------------------

    async def put_content(
        self, guild_id: int, kind: str, text: str, author_id: int, name: str = ""
    ) -> bool:
        existed = await self.pool.fetchval(
            "INSERT INTO server_content (guild_id, kind, name, text, author_id, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6)"
            " ON CONFLICT (guild_id, kind, name) DO UPDATE SET text = EXCLUDED.text,"
            " author_id = EXCLUDED.author_id, updated_at = EXCLUDED.updated_at"
            " RETURNING xmax <> 0",  # an updated row carries the replacing transaction's id
            guild_id,
            _text(kind),
            _text(name),
            _text(text),
            author_id,
            time.time(),
        )
        return bool(existed)

    async def get_content(self, guild_id: int, kind: str, name: str = "") -> ContentRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_CONTENT_COLUMNS} FROM server_content"
            " WHERE guild_id = $1 AND kind = $2 AND name = $3",
            guild_id,
            _text(kind),
            _text(name),
        )
        return None if row is None else _content(row)

    async def list_content(self, guild_id: int, kind: str) -> list[ContentRecord]:
        rows = await self.pool.fetch(
            f"SELECT {_CONTENT_COLUMNS} FROM server_content"
            ' WHERE guild_id = $1 AND kind = $2 ORDER BY name COLLATE "C"',
            guild_id,
            _text(kind),
        )
        return [_content(row) for row in rows]

    async def delete_content(self, guild_id: int, kind: str, name: str = "") -> bool:
        status = await self.pool.execute(
            "DELETE FROM server_content WHERE guild_id = $1 AND kind = $2 AND name = $3",
            guild_id,
            _text(kind),
            _text(name),
        )
        return bool(status != "DELETE 0")

    # The web companion's tokens ------------------------------------------------------------

    async def put_web_token(
        self, token_hash: str, kind: str, user_id: int, guild_id: int, data: Json,
        expires_at: float, *, now: float,
    ) -> None:  # fmt: skip
        async with self._transaction() as conn:
            await conn.execute("DELETE FROM web_tokens WHERE expires_at <= $1", now)
            await conn.execute(
                "INSERT INTO web_tokens (token_hash, kind, user_id, guild_id, data, expires_at)"
                " VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (token_hash) DO UPDATE SET"
                " kind = EXCLUDED.kind, user_id = EXCLUDED.user_id,"
                " guild_id = EXCLUDED.guild_id, data = EXCLUDED.data,"
                " expires_at = EXCLUDED.expires_at",
                _text(token_hash),
                _text(kind),
                user_id,
                guild_id,
                _dump(data),
                expires_at,
            )

    async def take_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        row = await self.pool.fetchrow(
            "DELETE FROM web_tokens WHERE token_hash = $1 AND kind = $2"
            f" RETURNING {_TOKEN_COLUMNS}",
            _text(token_hash),
            _text(kind),
        )
        if row is None:
            return None
        record = _web_token(row)
        return record if record.expires_at > now else None

    async def get_web_token(self, token_hash: str, kind: str, now: float) -> WebTokenRecord | None:
        row = await self.pool.fetchrow(
            f"SELECT {_TOKEN_COLUMNS} FROM web_tokens"
            " WHERE token_hash = $1 AND kind = $2 AND expires_at > $3",
            _text(token_hash),
            _text(kind),
            now,
        )
        return None if row is None else _web_token(row)

    async def delete_web_token(self, token_hash: str) -> bool:
        status = await self.pool.execute(
            "DELETE FROM web_tokens WHERE token_hash = $1", _text(token_hash)
        )
        return bool(status != "DELETE 0")


async def schema_version(conn: asyncpg.Connection) -> int:
    """The migration the database is at (0: none, or no ``schema_version`` table yet)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))


async def migrate(conn: asyncpg.Connection, target: int = len(PG_MIGRATIONS)) -> tuple[int, int]:
    """Bring the schema of ``conn``'s search path to ``target``: each migration is one
    transaction with its version bump, under an advisory lock, so processes starting together
    apply each migration once. Returns (version before, version after)."""
    before: int | None = None
    while True:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await conn.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER)")
            version = await schema_version(conn)
            before = version if before is None else before
            if version >= target:
                return before, version
            if version + 1 == COMBATS_TO_GAMES:
                await _combats_to_games(conn)
            await conn.execute(PG_MIGRATIONS[version])
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version + 1)


async def _combats_to_games(conn: asyncpg.Connection) -> None:
    """Each stored combat as a game with its action rows (``combat_to_game``), in the
    migration's transaction."""
    rows = await conn.fetch(
        "SELECT c.channel_id, c.campaign_id, c.state, c.revision, c.status, c.message_id,"
        " c.updated_at, p.guild_id FROM combats c LEFT JOIN campaigns p ON p.id = c.campaign_id"
        " ORDER BY c.id"
    )
    for row in rows:
        try:
            game = combat_to_game(json.loads(row["state"]), row["campaign_id"], row["status"])
        except (ValueError, EngineError):
            continue  # a state no version could read stays out (it never loaded either)
        at = row["updated_at"]
        game_id = await conn.fetchval(
            "INSERT INTO games (kind, engine_version, config, seed, guild_id, channel_id,"
            " players, status, snapshot, revision, message_id, display, created_at, updated_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13) RETURNING id",
            COMBAT_KIND,
            STATE_VERSION,
            _dump(game.config),
            game.seed,
            row["guild_id"],
            row["channel_id"],
            _dump(game.players),
            game.status,
            _dump(game.snapshot),
            row["revision"],
            row["message_id"],
            _dump(game.display),
            at,
        )
        await conn.executemany(
            "INSERT INTO game_actions (game_id, seq, player, action, at)"
            " VALUES ($1, $2, $3, $4, $5)",
            [(game_id, i + 1, seat, text, at) for i, (seat, text) in enumerate(game.actions)],
        )


async def _write_log(conn: asyncpg.Connection, now: float, log: Sequence[LogRow]) -> None:
    """Campaign-log rows (campaign id, actor, kind, data) written in the caller's transaction;
    a row for a campaign that is gone is dropped."""
    await conn.executemany(
        "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
        " SELECT id, $2, $3, $4, $5 FROM campaigns WHERE id = $1",
        [(campaign, now, actor, _text(kind), _dump(data)) for campaign, actor, kind, data in log],
    )


def _ident(name: str) -> str:
    """A quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


async def _insert_log(
    conn: asyncpg.Connection,
    campaign_id: int,
    now: float,
    entries: Sequence[tuple[int | None, str, Json]],
) -> None:
    await conn.executemany(
        "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
        " VALUES ($1, $2, $3, $4, $5)",
        [(campaign_id, now, actor, _text(kind), _dump(data)) for actor, kind, data in entries],
    )


@asynccontextmanager
async def _one_active(what: str) -> AsyncIterator[None]:
    """A unique index "one active … per channel" refusing an insert → AlreadyExists."""
    try:
        yield
    except asyncpg.exceptions.UniqueViolationError as error:
        raise AlreadyExists(what) from error
