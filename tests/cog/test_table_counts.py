"""Every seated game played by clicks in a real channel (threads on), counting what the
channels see after every decision: the parent channel holds only the invitation (edited),
the game's thread one living board (no new board for a step of the same person or the bot,
nothing else came after it to scroll it away), no message with live buttons but the current
board and the open private prompt, one private prompt per decision."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.sandbox.fake_discord import FakeChannel, FakeDiscord, StoredMessage
from engines.core import registry
from tests.harness import running_bot, settings_for
from tests.table_player import Tally, play, settled

CLICKS = 30


async def _thread(fake: FakeDiscord, bot: Any, invitation: StoredMessage) -> tuple[int, Any]:
    thread = await fake.wait(lambda: fake.thread_of(invitation), 10, "the game's thread")
    for _attempt in range(500):
        records = await bot.store.games_in_channel(thread.id)
        if records:
            return int(records[0].id), thread
        await asyncio.sleep(0.02)
    raise AssertionError("no game moved into the thread")


async def _essence(fake: FakeDiscord) -> StoredMessage:
    started = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user="alice")
    return await started.message()


async def _felsenfeuer(fake: FakeDiscord) -> StoredMessage:
    return await (await fake.slash("felsenfeuer start", {"bot": "random"}, user="alice")).message()


async def _telperinquar(fake: FakeDiscord) -> StoredMessage:
    options = {"klasse": "geistlicher", "neuer_name": "Licht"}
    await (await fake.slash("telperinquar deck starter", options, user="alice")).callback()
    started = await fake.slash("telperinquar start", {"deck": "Licht"}, user="alice")
    return await started.message()


async def _draft(fake: FakeDiscord) -> StoredMessage:
    started = await fake.slash("telperinquar-draft start", {"bots": 1}, user="alice")
    return await started.message()


async def _armageddon(fake: FakeDiscord) -> StoredMessage:
    """Greta leads the skirmish, Alice and Bob accept: three people, no bot."""
    options = {"szenario": "scharmuetzel", "partei1": "alice", "partei2": "bob"}
    invitation = await (await fake.slash("armageddon start", options, user="greta")).message()
    for user in ("alice", "bob"):
        accept = next(b["custom_id"] for b in invitation.buttons if b.get("label") == "Annehmen")
        await (await fake.click(invitation, accept, user=user)).callback()
    return invitation


GAMES: dict[str, tuple[str, Callable[[FakeDiscord], Awaitable[StoredMessage]]]] = {
    "essence": ("essence", _essence),
    "felsenfeuer": ("felsenfeuer", _felsenfeuer),
    "telperinquar": ("telperinquar", _telperinquar),
    "draft": ("telperinquar-draft", _draft),
    "armageddon": ("armageddon", _armageddon),
}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_game_played_by_clicks_keeps_the_channels_quiet(
    fake: FakeDiscord, tmp_path: Path, game: str
) -> None:
    kind, start = GAMES[game]
    settings = settings_for(fake, tmp_path / "t.sqlite", game_threads=True)
    async with running_bot(fake, settings) as bot:
        await fake.wait_for_sync()
        invitation = await start(fake)
        game_id, thread = await _thread(fake, bot, invitation)
        parent = fake.channel()
        await settled(fake, bot, game_id)

        def public(channel: FakeChannel) -> list[StoredMessage]:
            return [msg for msg in fake.channel_messages(channel) if not msg.ephemeral]

        def check() -> None:
            assert public(parent) == [invitation]  # the invitation, edited, and nothing else
            shown = public(thread)
            calls = [msg for msg in shown if not msg.embeds and not msg.components]
            boards = [msg for msg in shown if msg not in calls]
            assert len(boards) == 1, [b.text[:60] for b in boards]  # one living board
            live = [msg for msg in boards if msg.components]
            assert live == boards  # the board is the live one
            # beside it at most one short call of the person whose turn it now is
            assert len(calls) <= 1 and all(msg.pings for msg in calls), [m.text for m in calls]
            prompts = [
                msg
                for msg in fake.messages.values()
                if msg.ephemeral and any(":p:" in c for c in msg.custom_ids)
            ]
            assert len(prompts) <= 1  # at most the open private prompt has live choices

        tally = Tally()
        engine = registry()[kind]
        await play(fake, bot, game_id, engine, random.Random(3), tally, CLICKS, check)
        await bot.finish_interactions()
        check()
        assert tally.clicks > 0 and tally.steps > 0
        private = [m for m in fake.messages.values() if m.ephemeral and m.channel_id == thread.id]
        assert len(private) <= tally.decisions  # one private prompt per decision at most
