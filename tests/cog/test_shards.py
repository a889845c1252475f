"""Sharding: a process runs the shards its settings name, the fake Discord routes each guild's
interactions to its shard, and idle games are swept only by the process that runs their guild's
shard (DMs: shard 0)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from bot.app import shard_of
from bot.games import GameService
from bot.sandbox.fake_discord import FakeDiscord, guild_on_shard, stable_user_id
from tests.harness import running_bot, settings_for

ALICE, BOB = stable_user_id("alice"), stable_user_id("bob")


async def test_by_default_the_bot_runs_every_shard_discord_recommends(
    fake: FakeDiscord, bot: Any
) -> None:
    assert fake.identifies[0]["shard"] == [0, 1]
    assert bot.owns_guild(fake.guild.id) and bot.owns_guild(None)


async def _idle_game(service: GameService, guild_id: int | None, channel_id: int) -> int:
    record = await service.create(
        "essence",
        {"variants": []},
        channel_id=channel_id,
        guild_id=guild_id,
        players=[ALICE, BOB],
        invited=False,
    )
    return record.id


async def test_a_shard_process_answers_and_sweeps_only_its_own_guilds(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    guilds = [guild_on_shard(0, 2), guild_on_shard(1, 2)]
    assert [shard_of(g.id, 2) for g in guilds] == [0, 1]
    fake = FakeDiscord(guilds, shard_count=2)
    await fake.start()
    try:
        settings = settings_for(fake, tmp_path / "s.sqlite", shard_count=2, shard_ids=(1,))
        async with running_bot(fake, settings) as bot:
            assert fake.sync_count == 0  # the process of shard 0 syncs the global commands
            # the other shard's process could not share this SQLite file: the log says so
            assert "SPIELLEITER_DATABASE_URL=postgresql://" in caplog.text
            fake.register_commands(await bot.command_schema())
            assert [i["shard"] for i in fake.identifies] == [[1, 2]]
            assert [g.id for g in bot.guilds] == [guilds[1].id]  # READY names shard 1's only
            answer = await (await fake.slash("hilfe", channel=guilds[1].channels[0])).callback()
            assert answer.embeds

            service = GameService(bot.store)
            theirs = await _idle_game(service, guilds[0].id, guilds[0].channels[0].id)
            mine = await _idle_game(service, guilds[1].id, guilds[1].channels[0].id)
            dm = await _idle_game(service, None, fake.dm_channel("alice").id)
            later = time.time() + bot.settings.idle_forfeit_minutes * 60 + 5
            await bot.get_cog("Essence").sweep_idle(later)
            await fake.wait_for_message(lambda m: "🏆" in m.text, channel=guilds[1].channels[0])
            assert (await service.get(mine)).status == "finished"
            assert (await service.get(theirs)).status == "active"
            assert (await service.get(dm)).status == "active"  # DMs belong to shard 0
            assert fake.channel_messages(guilds[0].channels[0]) == []
    finally:
        await fake.stop()
    assert not fake.errors


async def test_the_fake_speaks_enough_sharding_for_the_tests() -> None:
    import aiohttp

    guilds = [guild_on_shard(0, 3), guild_on_shard(1, 3), guild_on_shard(2, 3)]
    fake = FakeDiscord(guilds, shard_count=3)
    await fake.start()
    try:
        async with aiohttp.ClientSession() as http:
            async with http.get(fake.api_base + "/gateway/bot") as response:
                assert (await response.json())["shards"] == 3
            async with http.ws_connect(fake.gateway_url) as ws:
                assert (await ws.receive_json())["op"] == 10
                await ws.send_json({"op": 2, "d": {"token": "t", "shard": [2, 3]}})
                ready = await ws.receive_json()
                created = await ws.receive_json()
                assert ready["t"] == "READY" and ready["d"]["shard"] == [2, 3]
                assert [g["id"] for g in ready["d"]["guilds"]] == [str(guilds[2].id)]
                assert created["t"] == "GUILD_CREATE" and created["d"]["id"] == str(guilds[2].id)
                assert fake.connected and not fake.shard_connected(0)
            async with http.ws_connect(fake.gateway_url) as ws:
                await ws.receive_json()
                await ws.send_json({"op": 2, "d": {"token": "t", "shard": [3, 3]}})
                await ws.receive()
                assert ws.close_code == 4010  # Discord's "invalid shard"
    finally:
        await fake.stop()
