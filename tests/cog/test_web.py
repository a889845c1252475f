"""``/web`` through the real bot and the fake Discord: the one-time link opens the companion
served by the bot process itself, on the bot's store (a sheet saved there is what
``/charakter zeigen`` shows at once)."""

from __future__ import annotations

import asyncio
import io
import queue
import re
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.sandbox.playground import Playground
from bot.sandbox.playground import main as playground_main
from tests.cog.test_w6 import import_sheet, start_campaign, thoin_json
from tests.games import stored_game
from tests.harness import (
    assert_ephemeral,
    assert_public,
    embed_text,
    running_bot,
    settings_for,
)
from tests.unit.test_web import form_of

LINK = re.compile(r"(http://127\.0\.0\.1:\d+/login/[A-Za-z0-9_-]+)")


@pytest.fixture
async def web_bot(fake: FakeDiscord, tmp_path: Path) -> AsyncIterator[Any]:
    settings = settings_for(fake, tmp_path / "web.sqlite", web_port=0)
    async with running_bot(fake, settings) as client:
        await fake.wait_for_sync()
        yield client


async def web_link(fake: FakeDiscord, user: str, locale: str = "de") -> str:
    reply = await (await fake.slash("web", user=user, locale=locale)).callback()
    assert_ephemeral(reply)
    match = LINK.search(reply.content or "")
    assert match, reply.content
    return match.group(1)


async def signed_in(link: str) -> aiohttp.ClientSession:
    session = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    base, token = link.split("/login/")
    page = await session.get(link)
    assert page.status == 200
    home = await session.post(f"{base}/login", data={"token": token})
    assert home.status == 200, await home.text()
    return session


async def test_web_gives_a_private_link_that_signs_in_once(fake: FakeDiscord, web_bot: Any) -> None:
    await start_campaign(fake)
    link = await web_link(fake, "gm", locale="en-US")
    session = await signed_in(link)
    try:
        home = await (await session.get(link.split("/login/")[0] + "/")).text()
        assert "Die Mine" in home and "Spielleiter Testgilde" in home
        assert t("web.home.title", "en") in home
        base, token = link.split("/login/")
        again = await session.post(f"{base}/login", data={"token": token})
        assert again.status == 403
    finally:
        await session.close()


async def test_a_sheet_saved_on_the_web_is_what_charakter_zeigen_shows(
    fake: FakeDiscord, web_bot: Any
) -> None:
    await start_campaign(fake)
    await import_sheet(fake, "alice", thoin_json())
    link = await web_link(fake, "alice")
    base = link.split("/login/")[0]
    session = await signed_in(link)
    try:
        campaign = await (await session.get(base + "/")).text()
        campaign_path = re.search(r'href="(/w6/c/\d+)"', campaign)
        assert campaign_path
        listing = await (await session.get(base + campaign_path.group(1))).text()
        sheet_path = re.search(r'href="(/w6/s/\d+)"', listing)
        assert sheet_path
        page = await (await session.get(base + sheet_path.group(1))).text()
        form = form_of(page, sheet_path.group(1))
        form.update({"rasse": "Bergzwerg", "action": "save"})
        saved = await session.post(base + sheet_path.group(1), data=form)
        assert saved.status == 200
    finally:
        await session.close()
    shown = await (await fake.slash("charakter zeigen", user="alice")).message()
    assert "Bergzwerg" in embed_text(shown)


async def test_web_says_when_it_is_off(fake: FakeDiscord, bot: Any) -> None:
    off = await (await fake.slash("web", user="alice")).callback()
    assert_ephemeral(off)
    assert off.content == t("web.error.off", "de")


async def test_web_in_a_direct_message_says_it_needs_a_server(
    fake: FakeDiscord, web_bot: Any
) -> None:
    dm = fake.dm_channel("alice")
    reply = await (await fake.slash("web", user="alice", channel=dm.id)).callback()
    assert_ephemeral(reply)
    assert reply.content == t("web.error.server_only", "de")


class _Lines:
    """A script the playground reads line by line as the test writes it."""

    def __init__(self) -> None:
        self.queue: queue.Queue[str] = queue.Queue()

    def readline(self) -> str:
        return self.queue.get()

    def isatty(self) -> bool:
        return False


async def _printed(out: io.StringIO, pattern: re.Pattern[str]) -> re.Match[str]:
    async with asyncio.timeout(30):
        while (found := pattern.search(out.getvalue())) is None:
            await asyncio.sleep(0.02)
    return found


async def test_the_playground_serves_the_companion_and_web_prints_a_local_link(
    tmp_path: Path,
) -> None:
    lines, out = _Lines(), io.StringIO()
    session = Playground(
        database=tmp_path / "play.sqlite",
        out_dir=tmp_path / "out",
        stdin=lines,  # type: ignore[arg-type]
        stdout=out,
        web_port=0,
    )
    task = asyncio.create_task(session.run())
    try:
        await _printed(out, re.compile("web companion: http://127.0.0.1:"))
        lines.queue.put("/web\n")
        link = (await _printed(out, LINK)).group(1)
        client = await signed_in(link)
        try:
            home = await client.get(link.split("/login/")[0] + "/")
            assert home.status == 200 and "Spielleiter Testgilde" in await home.text()
        finally:
            await client.close()
    finally:
        lines.queue.put("quit\n")
        assert await task == 0


def test_the_playground_refuses_a_port_that_is_none() -> None:
    with pytest.raises(SystemExit):
        playground_main(["--web", "achtzig"])


async def test_replay_posts_a_finished_game_as_a_gif(fake: FakeDiscord, bot: Any) -> None:
    channel = fake.channel()
    alice, bob = stable_user_id("alice"), stable_user_id("bob")
    game = await stored_game(
        bot.store, players=[alice, bob], guild_id=channel.guild_id, channel_id=channel.id, steps=6
    )
    reply = await (await fake.slash("essenz replay", {"spiel": game.id}, user="carol")).message()
    assert_public(reply)
    title = t("essenzcog.title", "de", id=game.id)
    assert reply.content == t("web.replay.posted", "de", game=title, count=7)
    (gif,) = reply.attachments
    assert gif.filename.endswith(".gif") and gif.data.startswith(b"GIF8")


async def test_replay_of_a_running_game_is_only_for_its_players(
    fake: FakeDiscord, bot: Any
) -> None:
    channel = fake.channel()
    alice, bob = stable_user_id("alice"), stable_user_id("bob")
    game = await stored_game(
        bot.store,
        players=[alice, bob],
        guild_id=channel.guild_id,
        channel_id=channel.id,
        steps=3,
        finish=False,
    )
    refused = await (await fake.slash("essenz replay", {"spiel": game.id}, user="carol")).callback()
    assert_ephemeral(refused)
    assert refused.content == t("error.not_a_player", "de")
    shown = await (await fake.slash("essenz replay", {"spiel": game.id}, user="alice")).message()
    assert shown.attachments and shown.attachments[0].data.startswith(b"GIF8")


async def test_a_taken_port_leaves_the_companion_off_and_the_bot_running(
    fake: FakeDiscord, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    try:
        port = taken.getsockname()[1]
        settings = settings_for(fake, tmp_path / "busy.sqlite", web_port=port)
        async with running_bot(fake, settings) as client:
            assert client.web is None
            assert f"cannot listen on 127.0.0.1:{port}" in caplog.text
            await fake.wait_for_sync()
            off = await (await fake.slash("web", user="alice")).callback()
            assert off.content == t("web.error.off", "de")
    finally:
        taken.close()
