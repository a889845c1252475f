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
import os
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiosqlite

from bot.store.base import StoreBusy, StoreUnavailable
from bot.store.migrations import COMBATS_TO_GAMES, MIGRATIONS
from bot.store.sql import SqlStore
from bot.store.sql_games import SQLITE, combats_to_games

WRITE_WAIT = 2.0  # seconds a write may wait for the lock before StoreBusy
BUSY_SLICE_MS = 100  # SQLite's own wait per attempt, so the writer thread is never stuck long
READ_BUSY_MS = 2000  # a read waits only for rare exclusive moments (WAL recovery)


class SqliteTx:
    """Statements on one aiosqlite connection (``bot.store.sql_games.Tx``)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def one(self, sql: str, *args: Any) -> aiosqlite.Row | None:
        rows = await self.all(sql, *args)  # read to its end: a RETURNING statement finishes
        return rows[0] if rows else None

    async def all(self, sql: str, *args: Any) -> list[aiosqlite.Row]:
        async with self.db.execute(sql, args) as cursor:
            return list(await cursor.fetchall())

    async def run(self, sql: str, *args: Any) -> int:
        async with self.db.execute(sql, args) as cursor:
            return cursor.rowcount

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self.db.executemany(sql, list(rows))


class SqliteStore(SqlStore):
    """``Store`` on a SQLite file (``:memory:`` for a throwaway store): the queries of
    ``bot.store.sql`` on its two connections."""

    dialect = SQLITE

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
        if sqlite3.sqlite_version_info < (3, 35, 0):  # RETURNING (bot.store.sql_games)
            raise sqlite3.OperationalError(f"SQLite {sqlite3.sqlite_version} is too old (3.35+)")
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
    async def _transaction(self) -> AsyncIterator[SqliteTx]:
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
            yield SqliteTx(self.db)
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

    async def _one(self, sql: str, *args: Any) -> aiosqlite.Row | None:
        try:
            return await SqliteTx(self.reader).one(sql, *args)
        except sqlite3.OperationalError as error:
            raise StoreBusy() if _is_busy(error) else error from error

    async def _all(self, sql: str, *args: Any) -> list[aiosqlite.Row]:
        try:
            return await SqliteTx(self.reader).all(sql, *args)
        except sqlite3.OperationalError as error:
            raise StoreBusy() if _is_busy(error) else error from error

    def _is_unique_violation(self, error: BaseException) -> bool:
        return isinstance(error, sqlite3.IntegrityError) and "UNIQUE" in str(error)


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
    await combats_to_games(SqliteTx(db))
