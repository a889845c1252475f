"""Database chores outside the bot: ``spielleiter migrate`` and ``spielleiter copy-db``.

The copy moves every table (campaigns, sheets, games with their logs, saved rolls, preferences,
and whatever a later migration adds) row for row with its ids between a SQLite file and
PostgreSQL, either way, in one transaction on the target, and compares the counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import aiosqlite

from bot.store import SqliteStore, is_postgres, sqlite_path
from bot.store.migrations import SCHEMA_VERSION

Rows = list[tuple[Any, ...]]


class CopyError(RuntimeError):
    """The copy cannot start (or did not verify); the message says why."""


async def migrate_database(database: str | Path) -> tuple[int, int]:
    """Apply the pending migrations; returns (version before, version after)."""
    if is_postgres(database):
        from bot.store.postgres import PostgresStore

        return await PostgresStore(str(database)).migrate()
    path = sqlite_path(database)
    if path != ":memory:":
        Path(path).parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path, isolation_level=None) as db:
        async with db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        before = int(row[0]) if row else 0
        from bot.store.sqlite import migrate

        after = await migrate(db)
    return before, after


class _Side(Protocol):
    """One end of a copy: its tables in foreign-key order, rows, counts, one bulk write."""

    async def open(self) -> None: ...
    async def close(self) -> None: ...
    async def tables(self) -> list[str]: ...
    async def columns(self, table: str) -> list[str]: ...
    async def rows(self, table: str, columns: Sequence[str]) -> Rows: ...
    async def count(self, table: str) -> int: ...
    async def write(self, data: list[tuple[str, list[str], Rows]]) -> None: ...


def _ordered(tables: list[str], references: list[tuple[str, str]]) -> list[str]:
    """``tables`` with every referenced table before the tables that refer to it."""
    before = {t: {r for s, r in references if s == t and r != t} for t in tables}
    ordered: list[str] = []
    while len(ordered) < len(tables):
        ready = [t for t in sorted(tables) if t not in ordered and before[t] <= set(ordered)]
        if not ready:
            raise CopyError(f"circular foreign keys among {sorted(set(tables) - set(ordered))}")
        ordered.extend(ready)
    return ordered


class _SqliteSide:
    def __init__(self, database: str | Path) -> None:
        self.store = SqliteStore(sqlite_path(database))

    async def open(self) -> None:
        await self.store.open()

    async def close(self) -> None:
        await self.store.close()

    async def _fetch(self, sql: str) -> list[Any]:
        async with self.store.db.execute(sql) as cursor:
            return list(await cursor.fetchall())

    async def tables(self) -> list[str]:
        names = [
            str(r[0])
            for r in await self._fetch(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        references = []
        for name in names:
            for fk in await self._fetch(f"PRAGMA foreign_key_list({name})"):
                references.append((name, str(fk[2])))
        return _ordered(names, references)

    async def columns(self, table: str) -> list[str]:
        return [str(r[1]) for r in await self._fetch(f"PRAGMA table_info({table})")]

    async def rows(self, table: str, columns: Sequence[str]) -> Rows:
        return [tuple(r) for r in await self._fetch(f"SELECT {', '.join(columns)} FROM {table}")]

    async def count(self, table: str) -> int:
        return int((await self._fetch(f"SELECT COUNT(*) FROM {table}"))[0][0])

    async def write(self, data: list[tuple[str, list[str], Rows]]) -> None:
        async with self.store._transaction() as tx:
            for table, columns, rows in data:
                marks = ", ".join("?" * len(columns))
                await tx.many(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", rows)


class _PostgresSide:
    def __init__(self, url: str) -> None:
        from bot.store.postgres import PostgresStore

        self.store = PostgresStore(url, command_timeout=None)

    async def open(self) -> None:
        await self.store.open()

    async def close(self) -> None:
        await self.store.close()

    async def tables(self) -> list[str]:
        pool = self.store.pool
        names = [
            str(r["table_name"])
            for r in await pool.fetch(
                "SELECT table_name FROM information_schema.tables"
                " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
                " AND table_name <> 'schema_version'"
            )
        ]
        references = [
            (str(r["child"]), str(r["parent"]))
            for r in await pool.fetch(
                "SELECT c.relname AS child, p.relname AS parent FROM pg_constraint k"
                " JOIN pg_class c ON c.oid = k.conrelid JOIN pg_class p ON p.oid = k.confrelid"
                " WHERE k.contype = 'f' AND k.connamespace = current_schema()::regnamespace"
            )
        ]
        return _ordered(names, references)

    async def _types(self, table: str) -> dict[str, str]:
        rows = await self.store.pool.fetch(
            "SELECT column_name, data_type FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            table,
        )
        return {str(r["column_name"]): str(r["data_type"]) for r in rows}

    async def columns(self, table: str) -> list[str]:
        return list(await self._types(table))

    async def rows(self, table: str, columns: Sequence[str]) -> Rows:
        records = await self.store.pool.fetch(f"SELECT {', '.join(columns)} FROM {table}")
        return [tuple(r) for r in records]

    async def count(self, table: str) -> int:
        return int(await self.store.pool.fetchval(f"SELECT COUNT(*) FROM {table}"))

    async def write(self, data: list[tuple[str, list[str], Rows]]) -> None:
        typed = [(t, c, rows, await self._types(t)) for t, c, rows in data]
        async with self.store.transaction() as conn:
            for table, columns, rows, types in typed:
                casts = [_caster(types[c]) for c in columns]
                records = [
                    tuple(None if v is None else f(v) for f, v in zip(casts, row, strict=True))
                    for row in rows
                ]
                await conn.copy_records_to_table(table, records=records, columns=columns)
                if "id" in columns and types["id"] in ("bigint", "integer"):
                    # the next id a new row gets continues after the copied ones
                    await conn.execute(
                        f"SELECT setval(pg_get_serial_sequence('{table}', 'id'),"
                        f" GREATEST(MAX(id), 1), MAX(id) IS NOT NULL) FROM {table}"
                    )


def _caster(data_type: str) -> Any:
    if data_type in ("bigint", "integer", "smallint"):
        return int
    if data_type in ("double precision", "real", "numeric"):
        return float
    return lambda v: str(v).replace("\x00", "")  # PostgreSQL text cannot hold U+0000


def _side(database: str | Path) -> _Side:
    return _PostgresSide(str(database)) if is_postgres(database) else _SqliteSide(database)


async def copy_database(source: str | Path, target: str | Path) -> dict[str, int]:
    """Copy every row of ``source`` into the empty database ``target`` (both brought to the
    newest schema first). Returns the row count of each table, verified on both sides.

    Raises CopyError when the target already holds data or the counts differ afterwards.
    """
    if str(source) == str(target):
        raise CopyError("FROM and TO are the same database")
    if not is_postgres(source):
        path = sqlite_path(source)
        if path == ":memory:" or not Path(path).is_file():
            raise CopyError(f"there is no database file {source}")
    src, dst = _side(source), _side(target)
    await src.open()
    try:
        await dst.open()
        try:
            tables = await src.tables()
            missing = set(tables) ^ set(await dst.tables())
            if missing:
                raise CopyError(f"the databases differ in the tables {sorted(missing)}")
            filled = {t: n for t in tables if (n := await dst.count(t))}
            if filled:
                rows = ", ".join(f"{t}: {n}" for t, n in filled.items())
                raise CopyError(f"the target is not empty ({rows}); copy into a new database")
            data = []
            for table in tables:
                columns = await src.columns(table)
                data.append((table, columns, await src.rows(table, columns)))
            await dst.write(data)
            counts = {table: await src.count(table) for table in tables}
            copied = {table: await dst.count(table) for table in tables}
            if copied != counts:
                raise CopyError(f"counts differ after the copy: source {counts}, target {copied}")
            return counts
        finally:
            await dst.close()
    finally:
        await src.close()


__all__ = ["SCHEMA_VERSION", "CopyError", "copy_database", "migrate_database"]
