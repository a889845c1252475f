"""The test double of Discord lives apart from the application: starting the real bot (its
modules, every cog, the command schema, the ``spielleiter`` entry point) never imports
:mod:`bot.sandbox` (the fake Discord, its limits, the playground)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

START = """
import asyncio, json, sys
import bot.cli
from bot.app import COGS, create_bot
from bot.settings import Settings
from bot.store import SqliteStore

async def start():
    bot = create_bot(Settings(), SqliteStore(":memory:"), auto_sync=False)
    await bot.store.open()
    await bot.load_cogs()
    await bot.command_schema()
    await bot.store.close()
    return sorted(bot.extensions)

loaded = asyncio.run(start())
print(json.dumps({
    "cogs": loaded,
    "wanted": sorted(COGS),
    "sandbox": sorted(m for m in sys.modules if m == "bot.sandbox" or m.startswith("bot.sandbox.")),
}))
"""


def test_starting_the_real_bot_does_not_import_the_sandbox() -> None:
    done = subprocess.run(
        [sys.executable, "-c", START], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["cogs"] == seen["wanted"]  # every cog really was loaded
    assert seen["sandbox"] == []


def test_the_playground_is_in_the_sandbox() -> None:
    from bot.sandbox import fake_discord, fake_limits, playground

    assert playground.main and fake_discord.FakeDiscord and fake_limits.check_message
