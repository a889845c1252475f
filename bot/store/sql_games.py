"""The one SQL layer of both stores, first half: how a backend runs a statement, the dialect
differences, and the queries of meta, preferences, games and saved rolls (``sql.py`` has the
rest). Every query is written once, with ``?`` for its parameters; a backend runs it on its
own connections (``bot/store/sqlite.py``, ``bot/store/postgres.py``) and ``Dialect`` holds the
few words the two SQL dialects say differently.

Both run the same statements: upserts are ``INSERT … ON CONFLICT … DO UPDATE`` and new rows
come back by ``RETURNING`` (SQLite 3.35 or newer), counts by ``COUNT(*) FILTER (WHERE …)``.
"""

from __future__ import annotations

import json
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from bot.store.base import AlreadyExists, GameRecord, Json, LogRow, StaleRevision
from bot.store.rows import Row, _dump, _game, seed_columns
from bot.store.upgrades import COMBAT_KIND, combat_to_game
from engines.core import EngineError
from engines.w6.state import STATE_VERSION

GAME_COLUMNS = (
    "id, kind, engine_version, config, seed, guild_id, channel_id, players, status,"
    " snapshot, revision, message_id, created_at, updated_at, display, seed_text"
)
CAMPAIGN_COLUMNS = "id, guild_id, channel_id, name, gm_id, co_gm_ids, settings, status, created_at"
CHARACTER_COLUMNS = "id, campaign_id, owner_id, name, sheet, revision"
DECK_COLUMNS = "id, owner_id, name, cards"
CONTENT_COLUMNS = "guild_id, kind, name, text, author_id, updated_at"
TOKEN_COLUMNS = "token_hash, kind, user_id, guild_id, data, expires_at"

R = TypeVar("R")


class Tx(Protocol):
    """Statements on one connection (inside a transaction, or a backend's reader)."""

    async def one(self, sql: str, *args: Any) -> Row | None: ...
    async def all(self, sql: str, *args: Any) -> list[Row]: ...
    async def run(self, sql: str, *args: Any) -> int:
        """Run a statement; the number of rows it touched."""
        ...

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


@dataclass(frozen=True)
class Dialect:
    """What the two dialects say differently, in the queries written once."""

    # names ordered by their bytes (SQLite's BINARY; PostgreSQL would follow its locale)
    bytewise: str
    # equality that holds for two NULLs too
    same: str
    # LIMIT for "no limit"
    no_limit: int | None
    # a row read to be written in the same transaction (SQLite locks the whole database)
    for_update: str
    # a lock held to the end of the transaction, by a text key (None: writes are serialised)
    lock: str | None
    # whether text keeps U+0000 (PostgreSQL cannot hold it: its backend drops it from text)
    keeps_nul: bool

    def text(self, value: str) -> str:
        """Text as the database keeps it."""
        return value if self.keeps_nul else value.replace("\x00", "")


SQLITE = Dialect(bytewise="", same="IS", no_limit=-1, for_update="", lock=None, keeps_nul=True)
POSTGRES = Dialect(
    bytewise=' COLLATE "C"',
    same="IS NOT DISTINCT FROM",
    no_limit=None,
    for_update=" FOR UPDATE",
    lock="SELECT pg_advisory_xact_lock(hashtextextended(?, 0))",
    keeps_nul=False,
)


def marks(count: int) -> str:
    """``?, ?, ?`` for ``count`` parameters."""
    return ", ".join("?" * count)


def dump_or_none(value: Any) -> str | None:
    return None if value is None else _dump(value)


class SqlGames:
    """The queries of meta, preferences, games and saved rolls on a backend's statements."""

    dialect: Dialect

    # what a backend provides ---------------------------------------------------------------

    def _transaction(self) -> AbstractAsyncContextManager[Tx]:
        """One transaction (StoreBusy when its lock is not free in time)."""
        raise NotImplementedError

    async def _one(self, sql: str, *args: Any) -> Row | None:
        """A read outside a transaction."""
        raise NotImplementedError

    async def _all(self, sql: str, *args: Any) -> list[Row]:
        raise NotImplementedError

    def _is_unique_violation(self, error: BaseException) -> bool:
        raise NotImplementedError

    async def _write(self, sql: str, *args: Any) -> int:
        """One statement that writes, on its own; the rows it touched."""
        async with self._transaction() as tx:
            return await tx.run(sql, *args)

    async def _write_one(self, sql: str, *args: Any) -> Row | None:
        """One statement that writes and returns a row (``RETURNING``), on its own."""
        async with self._transaction() as tx:
            return await tx.one(sql, *args)

    # shared helpers ------------------------------------------------------------------------

    async def _found(self, record: Callable[[Row], R], sql: str, *args: Any) -> R | None:
        """The record of the row ``sql`` reads, or None."""
        row = await self._one(sql, *args)
        return None if row is None else record(row)

    async def _listed(self, record: Callable[[Row], R], sql: str, *args: Any) -> list[R]:
        return [record(row) for row in await self._all(sql, *args)]

    async def _hold(self, tx: Tx, key: str) -> None:
        """Hold ``key`` to the end of ``tx`` (PostgreSQL: other processes wait for it)."""
        if self.dialect.lock is not None:
            await tx.one(self.dialect.lock, key)

    @asynccontextmanager
    async def _one_active(self, what: str) -> AsyncIterator[None]:
        """A unique index ("one active … per channel", a name per owner) refusing a write →
        AlreadyExists."""
        try:
            yield
        except Exception as error:
            if not self._is_unique_violation(error):
                raise
            raise AlreadyExists(what) from error

    # meta and preferences ------------------------------------------------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", key)
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._write(
            "INSERT INTO meta (key, value) VALUES (?, ?)"
            " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def get_pref(self, user_id: int, key: str) -> str | None:
        row = await self._one(
            "SELECT value FROM user_prefs WHERE user_id = ? AND key = ?", user_id, key
        )
        return None if row is None else str(row["value"])

    async def set_pref(self, user_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._write("DELETE FROM user_prefs WHERE user_id = ? AND key = ?", user_id, key)
            return
        await self._write(
            "INSERT INTO user_prefs (user_id, key, value) VALUES (?, ?, ?)"
            " ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
            user_id,
            key,
            value,
        )

    # games -----------------------------------------------------------------------------------

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
        has an invited or active game of ``kind`` (checked in the write's transaction, under a
        lock on channel and kind on PostgreSQL, so two starts at once make one)."""
        now = time.time()
        async with self._transaction() as tx:
            if one_per_channel:
                await self._hold(tx, f"one-game:{channel_id}:{kind}")
                found = await tx.one(
                    "SELECT 1 FROM games WHERE channel_id = ? AND kind = ?"
                    " AND status IN ('invited', 'active')",
                    channel_id,
                    kind,
                )
                if found is not None:
                    raise AlreadyExists("game")
            row = await tx.one(
                "INSERT INTO games (kind, engine_version, config, seed, seed_text, guild_id,"
                " channel_id, players, status, snapshot, revision, created_at, updated_at,"
                " display) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?)"
                f" RETURNING {GAME_COLUMNS}",
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
            )
        assert row is not None
        return _game(row)

    async def get_game(self, game_id: int) -> GameRecord | None:
        return await self._found(_game, f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", game_id)

    async def games_in_channel(
        self, channel_id: int, *, kind: str | None = None, statuses: tuple[str, ...] = ()
    ) -> list[GameRecord]:
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ?"
        params: list[Any] = [channel_id]
        if kind is not None:
            sql += " AND kind = ?"
            params.append(kind)
        if statuses:
            sql += f" AND status IN ({marks(len(statuses))})"
            params.extend(statuses)
        return [_game(row) for row in await self._all(sql + " ORDER BY id", *params)]

    async def games_in_guild(
        self, guild_id: int, *, statuses: tuple[str, ...] = (), limit: int = 100
    ) -> list[GameRecord]:
        """The server's games of those statuses (empty: any), newest first, at most ``limit``."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE guild_id = ?"
        params: list[Any] = [guild_id]
        if statuses:
            sql += f" AND status IN ({marks(len(statuses))})"
            params.extend(statuses)
        rows = await self._all(sql + " ORDER BY id DESC LIMIT ?", *params, max(0, limit))
        return [_game(row) for row in rows]

    async def games_idle_since(
        self, before: float, *, unreminded_only: bool = False, status: str = "active"
    ) -> list[GameRecord]:
        """Games of ``status`` (active ones by default) with no move since ``before``
        (optionally: not reminded since)."""
        sql = f"SELECT {GAME_COLUMNS} FROM games WHERE status = ? AND updated_at < ?"
        if unreminded_only:
            sql += " AND (reminded_at IS NULL OR reminded_at < updated_at)"
        return await self._listed(_game, sql + " ORDER BY updated_at", status, before)

    async def mark_reminded(self, game_id: int) -> None:
        await self._write("UPDATE games SET reminded_at = ? WHERE id = ?", time.time(), game_id)

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
        async with self._transaction() as tx:
            row = await _advance(
                tx, game_id, expected_revision, now, log, snapshot=snapshot, status=status,
                message_id=message_id, players=players, config=config, display=display,
            )  # fmt: skip
            if actions:
                last = await tx.one(
                    "SELECT COALESCE(MAX(seq), 0) AS last FROM game_actions WHERE game_id = ?",
                    game_id,
                )
                first = (last["last"] if last is not None else 0) + 1
                await tx.many(
                    "INSERT INTO game_actions (game_id, seq, player, action, at)"
                    " VALUES (?, ?, ?, ?, ?)",
                    [(game_id, first + i, p, a, now) for i, (p, a) in enumerate(actions)],
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
        """Undo for every game: delete the last logged action and write ``snapshot`` (the log
        without it, replayed) in one transaction, with ``display`` and ``log`` as in
        ``update_game``; the revision moves on, so buttons made for the undone position are
        stale. Raises StaleRevision when the game moved on since it was read."""
        now = time.time()
        async with self._transaction() as tx:
            row = await _advance(
                tx, game_id, expected_revision, now, log, snapshot=snapshot, status=status,
                display=display,
            )  # fmt: skip
            await tx.run(
                "DELETE FROM game_actions WHERE game_id = ? AND seq ="
                " (SELECT MAX(seq) FROM game_actions WHERE game_id = ?)",
                game_id,
                game_id,
            )
        return _game(row)

    async def set_game_channel(self, game_id: int, channel_id: int) -> None:
        """The channel (a thread opened for it) where the game lives from now on; the
        revision stays as it is."""
        await self._write("UPDATE games SET channel_id = ? WHERE id = ?", channel_id, game_id)

    async def set_game_display(self, game_id: int, display: Json) -> None:
        """Replace the cog's presentation data of a game; the revision stays as it is."""
        await self._write("UPDATE games SET display = ? WHERE id = ?", _dump(display), game_id)

    async def game_actions(self, game_id: int) -> list[tuple[int, str]]:
        rows = await self._all(
            "SELECT player, action FROM game_actions WHERE game_id = ? ORDER BY seq", game_id
        )
        return [(int(r["player"]), str(r["action"])) for r in rows]

    # saved rolls -----------------------------------------------------------------------------

    async def save_roll(
        self, scope: str, name: str, expression: str, created_by: int, *, limit: int = 0
    ) -> bool:
        """Save (or replace) a roll; False when ``scope`` holds ``limit`` rolls already and
        this name is new. Counted in the write's transaction (on PostgreSQL under a lock on
        the scope), so concurrent saves, also from several processes, cannot pass the limit."""
        async with self._transaction() as tx:
            if limit > 0:
                await self._hold(tx, f"rolls:{scope}")
                row = await tx.one(
                    "SELECT COUNT(*) AS n, COUNT(*) FILTER (WHERE name = ?) AS same"
                    " FROM saved_rolls WHERE scope = ?",
                    name,
                    scope,
                )
                if row is not None and not row["same"] and row["n"] >= limit:
                    return False
            await tx.run(
                "INSERT INTO saved_rolls (scope, name, expression, created_by)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (scope, name)"
                " DO UPDATE SET expression = excluded.expression,"
                " created_by = excluded.created_by",
                scope,
                name,
                expression,
                created_by,
            )
        return True

    async def delete_roll(self, scope: str, name: str) -> bool:
        deleted = await self._write(
            "DELETE FROM saved_rolls WHERE scope = ? AND name = ?", scope, name
        )
        return deleted > 0

    async def saved_rolls(self, scopes: list[str]) -> dict[str, str]:
        """Name → expression over ``scopes``; an earlier scope wins over a later one."""
        if not scopes:
            return {}
        rows = await self._all(
            "SELECT scope, name, expression FROM saved_rolls"
            f" WHERE scope IN ({marks(len(scopes))}) ORDER BY name",
            *scopes,
        )
        by_scope: dict[str, list[tuple[str, str]]] = {}
        for row in rows:
            by_scope.setdefault(str(row["scope"]), []).append(
                (str(row["name"]), str(row["expression"]))
            )
        found: dict[str, str] = {}
        for scope in scopes:
            for name, expression in by_scope.get(self.dialect.text(scope), []):
                found.setdefault(name, expression)
        return found


async def _advance(
    tx: Tx,
    game_id: int,
    expected_revision: int,
    now: float,
    log: Sequence[LogRow],
    *,
    snapshot: Json,
    status: str | None = None,
    message_id: int | None = None,
    players: list[int] | None = None,
    config: Json | None = None,
    display: Json | None = None,
) -> Row:
    """A game's next revision (the fields not None replaced) with its campaign-log rows;
    StaleRevision when the stored revision is not ``expected_revision``."""
    row = await tx.one(
        "UPDATE games SET snapshot = ?, revision = revision + 1, updated_at = ?,"
        " status = COALESCE(?, status), message_id = COALESCE(?, message_id),"
        " players = COALESCE(?, players), config = COALESCE(?, config),"
        " display = COALESCE(?, display)"
        f" WHERE id = ? AND revision = ? RETURNING {GAME_COLUMNS}",
        _dump(snapshot),
        now,
        status,
        message_id,
        dump_or_none(players),
        dump_or_none(config),
        dump_or_none(display),
        game_id,
        expected_revision,
    )
    if row is None:
        raise StaleRevision()
    await write_log(tx, now, log)
    return row


async def write_log(tx: Tx, now: float, log: Sequence[LogRow]) -> None:
    """Campaign-log rows (campaign id, actor, kind, data) written in the caller's transaction;
    a row for a campaign that is gone is dropped."""
    await tx.many(
        "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data)"
        " SELECT id, ?, ?, ?, ? FROM campaigns WHERE id = ?",
        [(now, actor, kind, _dump(data), campaign) for campaign, actor, kind, data in log],
    )


async def insert_log(
    tx: Tx, campaign_id: int, now: float, entries: Sequence[tuple[int | None, str, Json]]
) -> None:
    await tx.many(
        "INSERT INTO campaign_log (campaign_id, at, actor_id, kind, data) VALUES (?, ?, ?, ?, ?)",
        [(campaign_id, now, actor, kind, _dump(data)) for actor, kind, data in entries],
    )


async def combats_to_games(tx: Tx) -> None:
    """Migration 3's data step: each stored combat as a game with its action rows
    (``combat_to_game``), in the migration's transaction."""
    rows = await tx.all(
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
        made = await tx.one(
            "INSERT INTO games (kind, engine_version, config, seed, guild_id, channel_id,"
            " players, status, snapshot, revision, message_id, display, created_at, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
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
            at,
        )
        assert made is not None
        await tx.many(
            "INSERT INTO game_actions (game_id, seq, player, action, at) VALUES (?, ?, ?, ?, ?)",
            [(made["id"], i + 1, seat, text, at) for i, (seat, text) in enumerate(game.actions)],
        )
