"""The PostgreSQL backend (asyncpg): the same ``Store`` (the queries of ``bot.store.sql``) for
a bot that runs as several shard processes on one database.

Every write is one transaction on a pooled connection. Revision-guarded writes are a single
conditional ``UPDATE … WHERE id = $1 AND revision = $2``: two processes clicking the same old
button both reach the row, the second waits for the first's row lock, re-reads the row, finds
the revision moved on and updates nothing, so it applies once and the other click is refused.

PostgreSQL text cannot hold the character U+0000, which SQLite keeps; a user could type it into
a name or a roll. The store drops it from the text it writes instead of failing the command
(``PgTx``).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

from bot.store.base import CampaignRecord, StoreBusy
from bot.store.batch import Batched
from bot.store.migrations import COMBATS_TO_GAMES, PG_MIGRATIONS
from bot.store.pgpool import Answering, Pool
from bot.store.rows import _campaign
from bot.store.sql import SqlStore
from bot.store.sql_games import CAMPAIGN_COLUMNS, POSTGRES, combats_to_games

# connections per pool (a server allows 100 by default, for every process and test together)
WRITE_CONNECTIONS = 5
READ_CONNECTIONS = 3
LOOKUP_CONNECTIONS = 2  # the batched reads every command makes first (languages, campaigns)
WARM_CONNECTIONS = 2  # of each pool opened at start-up, so a first burst finds them
CONNECT_TIMEOUT = 2.0  # seconds: a server that accepts but never answers (asyncpg waits 60)
COMMAND_TIMEOUT = 2.0  # seconds a statement (or the wait for a pooled connection) may take
LOCK_WAIT = "1500ms"  # lock_timeout: a row lock still held then is StoreBusy (before the above)

# pg_advisory_xact_lock key: processes starting together migrate one after the other
MIGRATION_LOCK = 0x5350_4945_4C4C  # "SPIELL"


async def _read_prefs(
    conn: asyncpg.Connection, keys: Sequence[tuple[int, str]]
) -> dict[tuple[int, str], str]:
    rows = await conn.fetch(
        "SELECT p.user_id, p.key, p.value FROM user_prefs p"
        " JOIN unnest($1::bigint[], $2::text[]) AS k (user_id, key) USING (user_id, key)",
        [user for user, _ in keys],
        [key for _, key in keys],
    )
    return {(row["user_id"], row["key"]): str(row["value"]) for row in rows}


async def _read_campaigns(
    conn: asyncpg.Connection, channels: Sequence[int]
) -> dict[int, CampaignRecord]:
    rows = await conn.fetch(
        f"SELECT {CAMPAIGN_COLUMNS} FROM campaigns"
        " WHERE channel_id = ANY($1::bigint[]) AND status = 'active'",
        list(channels),
    )
    return {row["channel_id"]: _campaign(row) for row in rows}


async def _keep_session(conn: asyncpg.Connection) -> None:
    """A pooled connection goes back as it is: the store keeps no session state (locks are
    transaction-scoped, settings fixed at connect), so asyncpg's reset query (a round trip
    on every release) is left out."""


def _text(value: Any) -> Any:
    return POSTGRES.text(value) if isinstance(value, str) else value


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


class PgTx:
    """Statements on one asyncpg connection (``bot.store.sql_games.Tx``): ``?`` becomes
    ``$1``, ``$2``, …; U+0000, which PostgreSQL text cannot hold, is dropped from text (a user
    could type it into a name or a roll; SQLite keeps it)."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        return await self.conn.fetchrow(_numbered(sql), *map(_text, args))

    async def all(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        return list(await self.conn.fetch(_numbered(sql), *map(_text, args)))

    async def run(self, sql: str, *args: Any) -> int:
        return _count(await self.conn.execute(_numbered(sql), *map(_text, args)))

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.conn.executemany(_numbered(sql), [tuple(map(_text, row)) for row in rows])


@functools.lru_cache(maxsize=512)
def _numbered(sql: str) -> str:
    """``?`` → ``$1``, ``$2``, … (the queries hold no ``?`` in a literal)."""
    parts = sql.split("?")
    return parts[0] + "".join(f"${n}{part}" for n, part in enumerate(parts[1:], 1))


class PostgresStore(SqlStore):
    """``Store`` on a PostgreSQL database (the queries of ``bot.store.sql``); ``schema``
    (created if missing) keeps its tables apart from others on the same database (tests;
    several bots on one server).

    Three pools, each with connections opened at start-up (not while a command waits):
    ``pool`` for writes and transactions, ``reads`` for single reads outside a transaction,
    and a small one for what every command reads before its first answer (a user's language,
    the channel's campaign), batched (``bot.store.batch``): a burst of game starts (each a
    transaction of several round trips) or of their reads never makes a light command queue
    behind it. ``command_timeout`` (seconds, None: none) bounds every statement and the wait
    for a connection; after a timeout the store says "cannot reach the storage" at once for a
    few seconds (``bot.store.pgpool``), so a server that stops answering costs one
    interaction a wait, not every one. ``copy-db`` passes None (long copies); migrations
    run on a connection of their own without it."""

    dialect = POSTGRES

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        max_size: int = WRITE_CONNECTIONS,
        read_size: int = READ_CONNECTIONS,
        command_timeout: float | None = COMMAND_TIMEOUT,
    ) -> None:
        self.url = url
        self.schema = schema
        self.max_size = max_size
        self.read_size = read_size
        self.command_timeout = command_timeout
        self._answers = Answering()
        self._pool: Pool | None = None
        self._reads: Pool | None = None
        self._lookups: Pool | None = None
        # what every command reads before it answers, many commands' keys in one statement
        self._prefs = Batched(lambda: self._open(self._lookups), _read_prefs)
        self._active_campaigns = Batched(lambda: self._open(self._lookups), _read_campaigns)

    def __repr__(self) -> str:
        return f"PostgresStore({redact(self.url)!r}, schema={self.schema!r})"

    async def open(self) -> None:
        await self.migrate()
        self._pool = await self._new_pool(self.max_size)
        try:
            self._reads = await self._new_pool(self.read_size)
            self._lookups = await self._new_pool(LOOKUP_CONNECTIONS)
        except BaseException:
            await self.close()
            raise

    async def _new_pool(self, size: int) -> Pool:
        pool = await asyncpg.create_pool(
            self.url,
            init_size=min(size, WARM_CONNECTIONS),  # open now, not while a command waits
            min_size=0,  # none reopened in the background while the server is away
            max_size=size,
            max_inactive_connection_lifetime=0,  # kept while idle
            timeout=CONNECT_TIMEOUT,
            command_timeout=self.command_timeout,
            server_settings=self._server_settings(),
            reset=_keep_session,
        )
        return Pool(pool, self._answers)

    async def migrate(self, target: int = len(PG_MIGRATIONS)) -> tuple[int, int]:
        """Bring the schema to ``target``; returns (version before, version after)."""
        conn = await self._connect()
        try:
            return await migrate(conn, target)
        finally:
            await conn.close()

    async def _connect(self) -> asyncpg.Connection:
        conn = await asyncpg.connect(self.url, timeout=CONNECT_TIMEOUT)
        if self.schema is not None:
            await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {_ident(self.schema)}")
            await conn.execute(f"SET search_path TO {_ident(self.schema)}")
        return conn

    def _server_settings(self) -> dict[str, str]:
        # a write waits at most LOCK_WAIT for a row another process holds (as SQLite's
        # write wait; StoreBusy, before the command timeout would call the server
        # unreachable), and a process frozen inside a transaction loses it after a minute
        settings = {"lock_timeout": LOCK_WAIT, "idle_in_transaction_session_timeout": "60s"}
        if self.schema is not None:
            settings["search_path"] = _ident(self.schema)
        return settings

    async def close(self) -> None:
        pools = [p for p in (self._lookups, self._reads, self._pool) if p is not None]
        self._pool = self._reads = self._lookups = None
        await asyncio.gather(*(pool.close() for pool in pools))

    @staticmethod
    def _open(pool: Pool | None) -> Pool:
        if pool is None:
            raise RuntimeError("store is not open")
        return pool

    @property
    def pool(self) -> Pool:
        """Connections for writes and transactions."""
        return self._open(self._pool)

    @property
    def reads(self) -> Pool:
        """Connections for single reads outside a transaction."""
        return self._open(self._reads)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[asyncpg.Connection]:
        """One transaction on a connection of its own (``copy-db`` copies rows on it);
        StoreBusy ("try again") when a row lock held by another process is not free within
        the ``lock_timeout``. Nothing is written then."""
        async with self._busy(), self.pool.acquire() as conn, conn.transaction():
            yield conn

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[PgTx]:
        async with self.transaction() as conn:
            yield PgTx(conn)

    @staticmethod
    @asynccontextmanager
    async def _busy() -> AsyncIterator[None]:
        try:
            yield
        except asyncpg.exceptions.LockNotAvailableError as error:
            raise StoreBusy() from error

    async def _one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        async with self.reads.acquire() as conn:
            return await PgTx(conn).one(sql, *args)

    async def _all(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self.reads.acquire() as conn:
            return await PgTx(conn).all(sql, *args)

    async def _write(self, sql: str, *args: Any) -> int:
        # one statement is its own transaction: no BEGIN and COMMIT round trips around it
        async with self._busy(), self.pool.acquire() as conn:
            return await PgTx(conn).run(sql, *args)

    async def _write_one(self, sql: str, *args: Any) -> asyncpg.Record | None:
        async with self._busy(), self.pool.acquire() as conn:
            return await PgTx(conn).one(sql, *args)

    def _is_unique_violation(self, error: BaseException) -> bool:
        return isinstance(error, asyncpg.exceptions.UniqueViolationError)

    # the reads every command makes first: many commands' keys in one statement

    async def get_pref(self, user_id: int, key: str) -> str | None:
        return await self._prefs.get((user_id, self.dialect.text(key)))

    async def active_campaign(self, channel_id: int) -> CampaignRecord | None:
        return await self._active_campaigns.get(channel_id)


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
                await combats_to_games(PgTx(conn))
            await conn.execute(PG_MIGRATIONS[version])
            await conn.execute("DELETE FROM schema_version")
            await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", version + 1)


def _ident(name: str) -> str:
    """A quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'
