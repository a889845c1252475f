"""Shared fixtures: a fake Discord on 127.0.0.1 and the real bot connected to it.

All fixtures are function-scoped (pytest-asyncio 1.x runs each test in its own loop; a bot
shared across loops fails with "Timeout context manager should be used inside a task").

- ``fake``: a started :class:`bot.sandbox.fake_discord.FakeDiscord`; after the test it fails the
  test if the bot logged an unexpected error that no wait noticed, or a message pinged
  @everyone, @here or a role.
- ``settings``: ``Settings`` pointing at ``fake`` with a fresh database in ``tmp_path`` (with
  ``SPIELLEITER_TEST_BACKEND=postgres``: a fresh PostgreSQL schema, to run the cog tests there).
- ``bot``: ``create_bot(settings)`` started, connected, commands synced, ready.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox.fake_discord import FakeDiscord
from tests.harness import running_bot, settings_for
from tests.pg import fresh_schema, schema_url


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    # Discord's 3 s deadline for a first answer is measured by bench/bench_load.py (light and
    # heavy first replies under load); a test passing or failing on the clock would fail now
    # and then on a busy machine. Tests of the refusal itself set the deadline back.
    server.callback_deadline = 60.0
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    if server.errors and not server.errors_raised:
        pytest.fail(f"the bot reported unexpected error(s): {server.errors!r}")
    loud = [m for m in server.messages.values() if any(not p.isdigit() for p in m.pings)]
    if loud:  # the bot calls single users; a name reading @everyone must ping nobody
        pytest.fail(f"messages pinged @everyone/@here or a role: {[m.content for m in loud]!r}")


@pytest.fixture
async def settings(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Any]:
    if os.environ.get("SPIELLEITER_TEST_BACKEND") == "postgres":
        async with fresh_schema("cog") as schema:
            yield settings_for(fake, tmp_path / "t.sqlite", database_url=schema_url(schema))
        return
    yield settings_for(fake, tmp_path / "t.sqlite")


@pytest.fixture
async def bot(fake: FakeDiscord, settings: Any) -> AsyncIterator[Any]:
    async with running_bot(fake, settings) as client:
        await fake.wait_for_sync()
        yield client
