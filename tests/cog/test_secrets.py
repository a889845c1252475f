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
from bot.fake_discord import FakeDiscord, stable_user_id
from tests.cog.test_combat import ids_with
from tests.cog.test_dice import GM, start_campaign
from tests.cog.test_dice_probe import sheet
from tests.cog.test_essence import BOB, challenge
from tests.cog.test_w6 import import_sheet, thoin_json
from tests.cog.test_w6 import start_campaign as start_w6_campaign
from tests.harness import assert_ephemeral, assert_public, running_bot, settings_for

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


# ---- mentions: user text pings nobody, the bot's calls ping exactly whom they call ---------


async def test_character_names_that_read_as_mentions_ping_nobody_in_probe(
    fake: FakeDiscord, bot: Any
) -> None:
    campaign = await start_campaign(fake, bot)
    alice = stable_user_id(ALICE)
    for name in ("@everyone", "<@123>"):
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=alice, name=name, sheet=sheet(name, Kraft=3)
        )
        options = {"charakter": name, "eigenschaft": "Kraft"}
        message = await (await fake.slash("probe", options, user=ALICE)).message()
        assert_public(message)
        assert name in message.content
        assert message.pings == set()


async def test_campaign_name_that_reads_as_mentions_pings_nobody(
    fake: FakeDiscord, bot: Any
) -> None:
    name = "@everyone <@123> @here"
    started = await (await fake.slash("kampagne start", {"name": name}, user=GM)).message()
    assert_public(started)
    assert name in started.content
    assert started.pings == set()
    # Handing the lead over calls the new GM, and only them.
    handed = await (await fake.slash("kampagne übergeben", {"nutzer": ALICE}, user=GM)).message()
    assert handed.pings == {str(stable_user_id(ALICE))}


async def test_combat_narration_pings_only_the_one_who_must_answer(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_w6_campaign(fake)
    await import_sheet(fake, ALICE, {**thoin_json(), "name": "@everyone"})
    npc = "<@123> lp=20 kw=8 ab=5 gs=2"
    await (await fake.slash("sl nsc", {"werte": npc}, user=GM)).callback()
    started = await (await fake.slash("kampf start", user=GM)).message()
    assert started.pings == set()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    added = await (await fake.slash("kampf dazu", {"charakter": "<@123>"}, user=GM)).message()
    (begin,) = ids_with(added, "beginnen")
    status = await (await fake.click(added, begin, user=GM)).message()
    (attack,) = ids_with(status, "atk")
    chooser = await (await fake.click(status, attack, user=ALICE)).message()
    (target_select,) = ids_with(chooser, "ziel")
    target = chooser.component(target_select)["options"][0]["value"]
    kw_reply = await (await fake.select(chooser, target_select, [target], user=ALICE)).callback()
    kw_menu = kw_reply.components[0]["components"][0]["custom_id"]
    attacked = await (await fake.select(chooser, kw_menu, ["4"], user=ALICE)).message()
    assert_public(attacked)
    assert "@everyone" in attacked.content  # the narration names the attacker
    assert f"<@{stable_user_id(GM)}>" in attacked.content  # the GM answers for the NPC
    assert attacked.pings == {str(stable_user_id(GM))}


async def test_essence_calls_the_invited_and_the_player_to_move(
    fake: FakeDiscord, bot: Any
) -> None:
    invitation = await challenge(fake)
    assert invitation.pings == {str(stable_user_id(BOB))}
    accept = await fake.click(invitation, 1, user=BOB)
    board = await accept.message()
    assert f"<@{stable_user_id(ALICE)}>" in board.content
    assert board.pings == {str(stable_user_id(ALICE))}  # Alice (A) begins
