"""Scaling figures side by side: store writes per second and p99 on SQLite and PostgreSQL with 1
and 8 concurrent writers, and commands per second of one real ``spielleiter run`` process
against the fake Discord (target: 4x the 50 requests per second Discord allows a bot).

A write is what a move is: a revision-guarded snapshot plus one action-log row, each writer on
its own game. PostgreSQL comes from ``SPIELLEITER_BENCH_DATABASE_URL`` (default: the test
server); its figures are left out, with the reason, when no server answers. Run alone:
``python -m bench.run scale``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import tempfile
import time
from pathlib import Path

from bench.common import Figure, percentile
from bot.store import SqliteStore, Store
from bot.store.postgres import PostgresStore

WRITES = 320  # per configuration, spread over the writers
WRITERS = (1, 8)
COMMANDS = 300
IN_FLIGHT = 16
DISCORD_LIMIT = 50.0  # requests per second Discord allows a bot (global rate limit)
TARGET_COMMANDS = 4 * DISCORD_LIMIT
PG_URL = os.environ.get(
    "SPIELLEITER_BENCH_DATABASE_URL",
    os.environ.get("SPIELLEITER_TEST_DATABASE_URL", "postgresql://127.0.0.1:5432/test"),
)


async def _writes(store: Store, writers: int) -> tuple[float, list[float]]:
    """(writes per second, latency samples in ms) of ``writers`` concurrent writers."""
    games = [
        await store.create_game(
            kind="essence",
            engine_version=1,
            config={},
            seed=1,
            guild_id=1,
            channel_id=w,
            players=[1, 2],
            status="active",
            snapshot={"board": "x" * 400},
        )
        for w in range(writers)
    ]
    samples: list[float] = []

    async def writer(game_id: int, count: int) -> None:
        revision = 0
        for i in range(count):
            start = time.perf_counter()
            record = await store.update_game(
                game_id,
                expected_revision=revision,
                snapshot={"board": "y" * 400, "i": i},
                actions=[(i % 2, "move a1 b2")],
            )
            samples.append((time.perf_counter() - start) * 1000)
            revision = record.revision

    start = time.perf_counter()
    await asyncio.gather(*(writer(g.id, WRITES // writers) for g in games))
    elapsed = time.perf_counter() - start
    return len(samples) / elapsed, samples


def _store_figures(backend: str, writers: int, rate: float, samples: list[float]) -> list[Figure]:
    name = f"store {backend}, {writers} writer{'s' if writers > 1 else ''}:"
    return [
        Figure(f"{name} writes/s", rate, "1/s"),
        Figure(f"{name} write p50", statistics.median(samples), "ms"),
        Figure(f"{name} write p99", percentile(samples, 99), "ms"),
    ]


async def _postgres_schema() -> tuple[str | None, str]:
    """A fresh schema on the bench server, or (None, why not)."""
    import asyncpg

    name = f"bench_{os.getpid()}"
    try:
        conn = await asyncpg.connect(PG_URL, timeout=3)
    except Exception as error:
        return None, f"{type(error).__name__}: {error}"
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        await conn.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await conn.close()
    return name, ""


async def _drop_schema(name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(PG_URL, timeout=3)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()


def _with_schema(schema: str) -> str:
    return f"{PG_URL}{'&' if '?' in PG_URL else '?'}search_path={schema}"


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of process ``pid`` so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def _commands_per_second(folder: Path, database: str) -> tuple[float, float]:
    """/roll 3W6+2 from many users, ``IN_FLIGHT`` at a time, answered by a real bot process:
    (commands per wall second, commands per CPU second of the bot process). On a shared
    machine the wall figure shows the load; the CPU figure is what one process can do per core."""
    from bot.sandbox.fake_discord import FakeDiscord
    from tests.e2e.test_process import BotProcess

    fake = FakeDiscord()
    await fake.start()
    process = BotProcess(fake, folder, {"SPIELLEITER_DATABASE_URL": database})
    try:
        await process.start()
        await fake.wait_for_sync(30)
        roll = fake.command("roll")["options"][0]["name"]
        queue = iter(range(COMMANDS + IN_FLIGHT))

        async def user(worker: int) -> int:
            done = 0
            for index in queue:
                ex = await fake.slash("roll", {roll: "3W6+2"}, user=f"u{index % 50}")
                await ex.callback(timeout=30)
                done += 1
            return done

        warm = [await (await fake.slash("roll", {roll: "1W6"})).callback() for _ in range(5)]
        assert all(r.type in (4, 5) for r in warm)
        assert process.proc is not None
        cpu = _cpu_seconds(process.proc.pid)
        start = time.perf_counter()
        done = sum(await asyncio.gather(*(user(w) for w in range(IN_FLIGHT))))
        wall = time.perf_counter() - start
        return done / wall, done / max(1e-9, _cpu_seconds(process.proc.pid) - cpu)
    finally:
        if process.proc is not None and process.proc.returncode is None:
            process.proc.kill()
            await process.proc.wait()
        await fake.stop()


async def run() -> list[Figure]:
    figures: list[Figure] = []
    with tempfile.TemporaryDirectory() as folder:
        for writers in WRITERS:
            store = SqliteStore(Path(folder) / f"w{writers}.sqlite")
            await store.open()
            try:
                figures += _store_figures("sqlite", writers, *await _writes(store, writers))
            finally:
                await store.close()
        schema, why = await _postgres_schema()
        if schema is None:
            print(f"(PostgreSQL figures left out: no server at {PG_URL}: {why})")
        else:
            try:
                for writers in WRITERS:
                    pg = PostgresStore(PG_URL, schema=schema)
                    await pg.open()
                    try:
                        figures += _store_figures("postgres", writers, *await _writes(pg, writers))
                    finally:
                        await pg.close()
            finally:
                await _drop_schema(schema)

        databases = [("sqlite", str(Path(folder) / "commands.sqlite"))]
        schema, _ = await _postgres_schema() if schema is not None else (None, "")
        if schema is not None:
            databases.append(("postgres", _with_schema(schema)))
        try:
            for backend, database in databases:
                workdir = Path(folder) / backend
                workdir.mkdir()
                wall, cpu = await _commands_per_second(workdir, database)
                name = f"one process ({backend}): /roll commands"
                figures += [
                    Figure(f"{name} per CPU second", cpu, "1/s", TARGET_COMMANDS, True),
                    Figure(f"{name} per wall second", wall, "1/s"),
                ]
        finally:
            if schema is not None:
                await _drop_schema(schema)
    return figures
