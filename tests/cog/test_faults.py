"""Faults and races through the real bot and the fake Discord: a database locked by another
process (writes answered "try again", reads and /hilfe unaffected), two starts at once in one
channel, several clicks on one "Revanche" button."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import AsyncIterator
from typing import Any

from bot.app import SCHEMA_META_KEY, create_bot
from bot.games import GameService
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.store import SqliteStore
from tests.cog.test_essence import ALICE, BOB, accepted_game, game_id_of
from tests.cog.test_w6 import GM, start_campaign
from tests.harness import assert_ephemeral, assert_public, live_board_of, running_client


@contextlib.asynccontextmanager
async def outside_write_lock(path: str) -> AsyncIterator[None]:
    """Another process's connection holding the write lock (``BEGIN IMMEDIATE``). Taken in a
    worker thread: waiting for it on the event loop would stall the bot's own commit."""
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        await asyncio.to_thread(other.execute, "BEGIN IMMEDIATE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_locked_database_answers_try_again_and_reads_still_work(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    bot.store.write_wait = 0.3
    async with outside_write_lock(bot.store.path):
        for locale, lang in (("de", "de"), ("en-US", "en")):
            # a roll in a campaign channel is written to the campaign log before it is shown
            roll = await (
                await fake.slash("roll", {"ausdruck": "3W6"}, user=ALICE, locale=locale)
            ).callback()
            assert_ephemeral(roll)
            assert roll.content == t("error.busy", lang)
            language = await (
                await fake.slash("sprache", {"sprache": "en"}, user=BOB, locale=locale)
            ).callback()
            assert language.content == t("error.busy", lang)
            # reads need no write lock: help, campaign info
            hilfe = await (await fake.slash("hilfe", user=BOB, locale=locale)).callback()
            assert hilfe.embeds and hilfe.embeds[0]["title"] == t("core.help.title", lang)
            info = await (await fake.slash("kampagne info", user=BOB, locale=locale)).callback()
            assert info.embeds[0]["title"] == "Die Mine"
    campaign = await bot.store.active_campaign(fake.channel().id)
    assert [e["kind"] for e in await bot.store.campaign_log(campaign.id)] == ["campaign"]
    assert await bot.store.get_pref(fake.user(BOB).id, "language") is None
    roll = await (await fake.slash("roll", {"ausdruck": "3W6"}, user=ALICE)).callback()
    assert_public(roll)  # free again


async def test_two_campaign_starts_at_once_make_one_and_answer_both(
    fake: FakeDiscord, bot: Any
) -> None:
    pushed = await asyncio.gather(
        *(
            fake.slash("kampagne start", {"name": name}, user=who, locale=locale)
            for name, who, locale in (("Erste", GM, "de"), ("Zweite", ALICE, "en-US"))
        )
    )
    replies = [await ex.callback() for ex in pushed]
    refused = [r for r in replies if r.flags & 64]
    assert len(refused) <= 1
    campaign = await bot.store.active_campaign(fake.channel().id)
    assert campaign is not None
    assert len(await bot.store.campaigns(campaign.guild_id)) == 1


async def test_a_start_that_loses_the_race_to_the_store_is_told_so(
    fake: FakeDiscord, bot: Any
) -> None:
    """Both starts saw no campaign (and no combat) before either was written: the store's
    unique index refuses the second, and the user reads why, not "unexpected error"."""
    store = bot.store
    await start_campaign(fake)
    real_campaign, real_games = store.active_campaign, store.games_in_channel

    async def nothing_yet(channel_id: int) -> None:
        return None

    async def no_games_yet(channel_id: int, **_kw: Any) -> list[Any]:
        return []

    store.active_campaign = nothing_yet
    try:
        for locale, lang in (("de", "de"), ("en-US", "en")):
            again = await (
                await fake.slash("kampagne start", {"name": "X"}, user=ALICE, locale=locale)
            ).callback()
            assert_ephemeral(again)
            assert again.content == t("w6cog.error.campaign_exists", lang)
    finally:
        store.active_campaign = real_campaign
    await (await fake.slash("kampf start", user=GM)).callback()
    store.games_in_channel = no_games_yet
    try:
        for locale, lang in (("de", "de"), ("en-US", "en")):
            again = await (await fake.slash("kampf start", user=GM, locale=locale)).callback()
            assert_ephemeral(again)
            assert again.content == t("w6cog.combat.exists", lang)
    finally:
        store.games_in_channel = real_games


async def test_two_combat_starts_at_once_make_one(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    pushed = await asyncio.gather(*(fake.slash("kampf start", user=GM) for _ in range(2)))
    replies = [await ex.callback() for ex in pushed]
    assert sum(1 for r in replies if not r.flags & 64) == 1
    for reply in replies:
        if reply.flags & 64:
            assert reply.content == t("w6cog.combat.exists", "de")


async def test_three_clicks_on_rematch_create_one_game(fake: FakeDiscord, bot: Any) -> None:
    board = await accepted_game(fake)
    old_id = await game_id_of(board)
    await (await fake.slash("essenz aufgeben", user=BOB)).callback()
    final = await live_board_of(fake, bot, old_id, lambda msg: "🏆" in msg.text)
    (rematch,) = final.custom_ids
    clicks = await asyncio.gather(
        fake.click(final, rematch, user=BOB),
        fake.click(final, rematch, user=ALICE, locale="en-US"),
        fake.click(final, rematch, user=BOB),
    )
    replies = [await ex.callback() for ex in clicks]
    started = [r for r in replies if r.type == 7]
    told = [r for r in replies if r.type != 7]
    assert len(started) == 1 and len(told) == 2
    for reply in told:
        assert_ephemeral(reply)
        assert reply.content in {
            t("essenzcog.rematch.taken", "de"),
            t("essenzcog.rematch.taken", "en"),
        }
    games = await GameService(bot.store).running_in_channel(fake.channel().id)
    assert [g.id for g in games] == [old_id + 1]


async def test_the_idle_sweep_meets_a_locked_database_quietly_and_goes_on_later(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    table = bot.get_cog("Essence").table  # the shared game table sweeps every game's seats
    later = time.time() + bot.settings.idle_reminder_minutes * 60 + 5
    sweep = type(table).sweep_idle
    table.sweep_idle = lambda now: sweep(table, later)  # the loop's "now" is an hour later
    bot.store.write_wait = 0.2
    async with outside_write_lock(bot.store.path):
        await table.idle_loop()  # one sweep: busy, logged as a warning, no error
    await table.idle_loop()
    reminder = await fake.wait_for_message(lambda msg: f"#{game_id}" in msg.content)
    assert f"<@{stable_user_id(ALICE)}>" in reminder.content


async def test_a_bot_starting_on_a_locked_database_still_comes_up(
    fake: FakeDiscord, settings: Any
) -> None:
    """The schema is there (an earlier run), the commands changed (a new version): the sync
    is done even though recording it has to wait for the next start."""
    earlier = SqliteStore(settings.database_path)
    await earlier.open()
    await earlier.close()
    async with outside_write_lock(str(settings.database_path)):
        bot = create_bot(settings)
        bot.store.write_wait = 0.2
        async with running_client(fake, bot) as client:
            await fake.wait_for_sync()
            hilfe = await (await fake.slash("hilfe", user=BOB)).callback()
            assert hilfe.embeds[0]["title"] == t("core.help.title", "de")
            assert await client.store.get_meta(SCHEMA_META_KEY) is None
