"""The PostgreSQL server the tests use, and a throwaway schema per test.

``SPIELLEITER_TEST_DATABASE_URL`` (default ``postgresql://127.0.0.1:5432/test``) names the
server. When it cannot be reached, PostgreSQL tests are skipped with the reason, except under CI
(``CI=true``), where that fails the run. Each test gets its own schema (created here, dropped
afterwards), so tests, helpers and CI can share one server at the same time.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import secrets
import urllib.parse
from collections.abc import AsyncIterator

import pytest

PG_URL = os.environ.get("SPIELLEITER_TEST_DATABASE_URL", "postgresql://127.0.0.1:5432/test")
CONNECT_TIMEOUT = 3.0

_reachable: str | None = None  # "" when reachable, else why not (checked once per session)


async def _check() -> str:
    try:
        import asyncpg

        conn = await asyncpg.connect(PG_URL, timeout=CONNECT_TIMEOUT)
        await conn.close()
    except Exception as error:
        return f"no PostgreSQL at {PG_URL} ({type(error).__name__}: {error})"
    return ""


async def require_postgres() -> None:
    """Skip the test (fail it under CI=true) when the PostgreSQL server cannot be reached."""
    global _reachable
    if _reachable is None:
        _reachable = await _check()
    if _reachable:
        reason = _reachable + "; set SPIELLEITER_TEST_DATABASE_URL or start one (README)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true needs PostgreSQL: {reason}", pytrace=False)
        pytest.skip(reason)


def schema_url(schema: str) -> str:
    """``PG_URL`` with every connection's search path set to ``schema``."""
    sep = "&" if "?" in PG_URL else "?"
    return f"{PG_URL}{sep}search_path={schema}"


@contextlib.asynccontextmanager
async def fresh_schema(prefix: str = "t") -> AsyncIterator[str]:
    """A new empty schema on the test server (dropped with everything in it afterwards)."""
    import asyncpg

    await require_postgres()
    name = f"{prefix}_{os.getpid()}_{secrets.token_hex(4)}"
    conn = await asyncpg.connect(PG_URL, timeout=CONNECT_TIMEOUT)
    try:
        await conn.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await conn.close()
    try:
        yield name
    finally:
        conn = await asyncpg.connect(PG_URL, timeout=CONNECT_TIMEOUT)
        try:
            # a process killed mid-test may still hold a connection: end it before dropping
            await asyncio.wait_for(conn.execute(f'DROP SCHEMA "{name}" CASCADE'), 30)
        finally:
            await conn.close()


class PgProxy:
    """A TCP relay to the test server that can make the server go away: ``hang()`` (every
    connection, old and new, is accepted and never answered: a frozen host) or ``stop()``
    (connections closed, new ones refused: a stopped server)."""

    def __init__(self) -> None:
        parts = urllib.parse.urlsplit(PG_URL)
        self.upstream = (parts.hostname or "127.0.0.1", parts.port or 5432)
        self.live = asyncio.Event()
        self.live.set()
        self.port = 0
        self._server: asyncio.Server | None = None
        self._writers: list[asyncio.StreamWriter] = []
        self._pumps: set[asyncio.Task[None]] = set()

    def url(self, schema: str) -> str:
        """``schema_url(schema)`` through the relay."""
        parts = urllib.parse.urlsplit(schema_url(schema))
        return parts._replace(netloc=f"127.0.0.1:{self.port}").geturl()

    async def __aenter__(self) -> PgProxy:
        self._server = await asyncio.start_server(self._client, "127.0.0.1", 0)
        self.port = self._server.sockets[0].getsockname()[1]
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def hang(self) -> None:
        self.live.clear()

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for pump in list(self._pumps):
            pump.cancel()
        for writer in self._writers:
            writer.close()
        self._writers.clear()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        if not self.live.is_set():
            return  # accepted, never answered
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)
        self._writers.append(up_writer)
        for source, target in ((reader, up_writer), (up_reader, writer)):
            pump = asyncio.create_task(self._pump(source, target))
            self._pumps.add(pump)
            pump.add_done_callback(self._pumps.discard)

    async def _pump(self, source: asyncio.StreamReader, target: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await source.read(65536):
                await self.live.wait()
                target.write(data)
        target.close()
