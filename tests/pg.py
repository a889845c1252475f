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
