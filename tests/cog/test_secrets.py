"""What the bot must not give away: debug logs without secret rolls, sheets or the token."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import configure_logging
from bot.fake_discord import FakeDiscord
from tests.cog.test_dice import GM, start_campaign
from tests.cog.test_dice_probe import sheet
from tests.harness import assert_ephemeral, running_bot, settings_for

ALICE = "alice"
TOKEN = "tok-SEKRET-4711"  # a stand-in bot token the log must never show


@pytest.fixture
def debug_log() -> Iterator[io.StringIO]:
    """``configure_logging`` at DEBUG (as SPIELLEITER_LOG_LEVEL=DEBUG does), its handler
    writing into the returned buffer; the logging setup of the test run restored afterwards."""
    root = logging.getLogger()
    saved_handlers, saved_level = root.handlers[:], root.level
    named = {name: logging.getLogger(name).level for name in ("discord", "aiosqlite")}
    configure_logging(settings_for_logging())
    buffer = io.StringIO()
    handler = root.handlers[0]
    assert isinstance(handler, logging.StreamHandler)
    handler.setStream(buffer)
    try:
        yield buffer
    finally:
        root.handlers[:] = saved_handlers
        root.setLevel(saved_level)
        for name, level in named.items():
            logging.getLogger(name).setLevel(level)


def settings_for_logging() -> Any:
    from bot.settings import Settings

    return Settings(token=TOKEN, log_level="DEBUG")


async def test_debug_log_keeps_secret_rolls_sheets_and_token_out(
    fake: FakeDiscord, tmp_path: Path, debug_log: io.StringIO
) -> None:
    settings = settings_for(fake, tmp_path / "t.sqlite", token=TOKEN, log_level="DEBUG")
    async with running_bot(fake, settings) as bot:
        await fake.wait_for_sync()
        campaign = await start_campaign(fake, bot)
        dragon = sheet("Drache", Feuerodem=9)
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=None, name="Drache", sheet=dragon
        )
        ex = await fake.slash(
            "roll", {"ausdruck": "3W6 Falltür-im-Thronsaal", "geheim": True}, user=ALICE
        )
        assert_ephemeral(await ex.callback())
        await fake.wait_for_message(channel=fake.dm_channel(GM))
    logging.getLogger("spielleiter").debug("debug lines reach the log")
    logged = debug_log.getvalue()
    assert "debug lines reach the log" in logged
    assert "Falltür-im-Thronsaal" not in logged
    assert "Feuerodem" not in logged and json.dumps(dragon)[:40] not in logged
    assert TOKEN not in logged
