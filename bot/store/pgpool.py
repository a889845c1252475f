"""An asyncpg pool that says at once when the server stopped answering.

A PostgreSQL server that hangs (a frozen host, a network that drops packets) makes every
statement wait for its command timeout, and asyncpg then spends as long again trying to cancel
it. One interaction may wait that long; the ones after it must not: once a statement or a
connection timed out, every call fails at once with :class:`NotAnswering` (a
``ConnectionError``, told as "cannot reach the storage") for :data:`QUIET_SECONDS`, and the
first call after that asks the server again.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import asyncpg

QUIET_SECONDS = 5.0
CLOSE_WAIT = 5.0  # seconds closing waits for the server before dropping the connections


class NotAnswering(ConnectionError):
    """The database server did not answer in time a moment ago; not asked again yet."""


class Answering:
    """Whether the server answered lately (shared by a store's pools)."""

    def __init__(self) -> None:
        self._quiet_until = 0.0

    def check(self) -> None:
        if time.monotonic() < self._quiet_until:
            raise NotAnswering("the database server did not answer in time")

    def timed_out(self) -> None:
        self._quiet_until = time.monotonic() + QUIET_SECONDS


class Pool:
    """The asyncpg pool's calls the stores make, each refused at once while the server is
    not answering, and each timeout noted."""

    def __init__(self, pool: asyncpg.Pool, answers: Answering) -> None:
        self.raw = pool
        self._answers = answers

    @asynccontextmanager
    async def acquire(self) -> AsyncIterator[asyncpg.Connection]:
        self._answers.check()
        try:
            async with self.raw.acquire() as conn:
                yield conn
        except TimeoutError:
            self._answers.timed_out()
            raise

    async def fetch(self, sql: str, *args: Any) -> list[asyncpg.Record]:
        async with self.acquire() as conn:
            return list(await conn.fetch(sql, *args))

    async def fetchrow(self, sql: str, *args: Any) -> asyncpg.Record | None:
        async with self.acquire() as conn:
            return await conn.fetchrow(sql, *args)

    async def fetchval(self, sql: str, *args: Any) -> Any:
        async with self.acquire() as conn:
            return await conn.fetchval(sql, *args)

    async def execute(self, sql: str, *args: Any) -> str:
        async with self.acquire() as conn:
            return str(await conn.execute(sql, *args))

    async def close(self) -> None:
        """Close the connections; ones to a server that does not answer are dropped."""
        try:
            async with asyncio.timeout(CLOSE_WAIT):
                await self.raw.close()
        except TimeoutError:
            self.raw.terminate()
