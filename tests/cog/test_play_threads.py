"""Where a game lives and how its board behaves in a real channel: a game started in a text
channel opens its own thread from its invitation (the parent keeps only the invitation, edited
to say where the game is and, at the end, who won), falls back where threads are impossible
(no permission, a thread already, the server's setting) and says why, keeps one living board
that is edited step by step (a new one only when the person to act changes after other
messages came), archives its thread after the end, and finds its board again after a restart.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

import bot.app
import bot.sandbox.fake_discord.model as fake_module
from bot.games import load
from bot.i18n import t
from bot.play.table import GUILD_LANGUAGE_PREF, THREADS_PREF
from bot.sandbox.fake_discord import (
    CREATE_PUBLIC_THREADS,
    FakeChannel,
    FakeDiscord,
    StoredMessage,
    stable_user_id,
)
from tests.harness import (
    assert_ephemeral,
    assert_png_attachment,
    embed_text,
    live_board_of,
    running_bot,
    settings_for,
)
from tests.party import PARTY
from tests.table_player import Tally, play

ALICE, BOB, CAROL = "alice", "bob", "carol"


@pytest.fixture
def threaded(fake: FakeDiscord, tmp_path: Path) -> Any:
    """Settings with games in threads (the bot's default; the other cog tests turn it off)."""
    return settings_for(fake, tmp_path / "t.sqlite", game_threads=True)


@pytest.fixture
async def tbot(
    fake: FakeDiscord, threaded: Any, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Any]:
    monkeypatch.setattr(bot.app, "COGS", (*bot.app.COGS, "tests.party_cog"))
    async with running_bot(fake, threaded) as client:
        await fake.wait_for_sync()
        yield client


def public(fake: FakeDiscord, channel: FakeChannel | int | str) -> list[StoredMessage]:
    return [msg for msg in fake.channel_messages(channel) if not msg.ephemeral]


def live_buttons(messages: list[StoredMessage]) -> list[StoredMessage]:
    return [msg for msg in messages if msg.components]


def uploads(fake: FakeDiscord, since: int) -> int:
    """The pictures uploaded by the requests after the first ``since``."""
    return sum(f.filename.endswith(".png") for r in fake.requests[since:] for f in r.files)


def shown_picture(board: StoredMessage) -> bool:
    """Whether the board shows a picture: its own, or one uploaded with another message."""
    url = ((board.embeds or [{}])[0].get("image") or {}).get("url", "")
    if url.startswith("attachment://"):
        return any(a.filename == url.removeprefix("attachment://") for a in board.attachments)
    return "/attachments/" in url


async def game_in_thread(fake: FakeDiscord, tbot: Any) -> tuple[int, StoredMessage, FakeChannel]:
    """Alice starts Essence against the bot in #allgemein: (game id, invitation, thread)."""
    started = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    invitation = await started.message()
    thread = await fake.wait(lambda: fake.thread_of(invitation), 5, "the game's thread")
    record = await living_in(fake, tbot, thread)
    return record.id, invitation, thread


async def living_in(fake: FakeDiscord, client: Any, thread: FakeChannel) -> Any:
    """The one game that lives in ``thread`` (it moves there just after the thread opens)."""
    for _attempt in range(250):
        records = await client.store.games_in_channel(thread.id)
        if records:
            (record,) = records
            return record
        await asyncio.sleep(0.02)
    raise AssertionError("no game moved into the thread")


async def test_a_game_gets_its_own_thread_and_the_channel_keeps_only_its_invitation(
    fake: FakeDiscord, tbot: Any
) -> None:
    game_id, invitation, thread = await game_in_thread(fake, tbot)
    assert thread.parent_id == fake.channel().id
    title = t("essenzcog.title", "de", id=game_id)
    assert thread.name.startswith(f"{title} · Alice, Spielleiter")
    board = await live_board_of(fake, tbot, game_id)
    assert board.channel_id == thread.id
    assert_png_attachment(board)
    # the invitation says where the game is; nothing else was posted in the channel
    assert f"<#{thread.id}>" in invitation.content
    assert public(fake, fake.channel()) == [invitation]
    # a typed step in the thread: answered privately, the one board edited in place
    alice = f"<@{stable_user_id(ALICE)}>"
    for notation in ("move c1 c2", "split a1 b2"):
        typed = await fake.slash(
            "essenz zug", {"notation": notation}, user=ALICE, channel=thread.id
        )
        assert_ephemeral(await typed.callback())
    for _attempt in range(250):  # the bot has answered with its two steps
        if len(await tbot.store.game_actions(game_id)) == 4:
            break
        await asyncio.sleep(0.02)
    thinking = t("essenzcog.bot.thinking", "de")
    board = await live_board_of(
        fake, tbot, game_id, lambda m: thinking not in m.text and alice in m.content
    )
    assert [m.id for m in public(fake, thread)] == [board.id]  # one board, steps and the bot's
    assert len(await tbot.store.game_actions(game_id)) == 4
    logged = [line for line in embed_text(board).splitlines() if line.startswith("› ")]
    assert len(set(logged)) == len(logged)  # the running log tells each step once
    # the game ends: the board offers the rematch, the invitation tells who won with the image
    requests = len(fake.requests)
    await (await fake.slash("essenz aufgeben", user=ALICE, channel=thread.id)).callback()
    board = await live_board_of(fake, tbot, game_id, lambda m: "🏆" in m.text)
    await fake.wait(lambda: "🏆" in invitation.content or None, 5, "the invitation says who won")
    assert f"<#{thread.id}>" in invitation.content and invitation.components == []
    assert_png_attachment(invitation)
    assert uploads(fake, requests) == 1  # the final picture, once: the board shows it too
    assert shown_picture(board) and not board.attachments
    assert public(fake, fake.channel()) == [invitation]
    assert live_buttons(public(fake, thread)) == [board]  # only the rematch is live
    # after the archive time the sweep archives the thread (once)
    table = tbot.get_cog("Essence").table
    await table.sweep_idle(time.time() + 30)
    assert thread.id not in fake.archived
    later = time.time() + tbot.settings.thread_archive_minutes * 60 + 5
    await table.sweep_idle(later)
    assert thread.id in fake.archived
    requests = len(fake.requests)
    await table.sweep_idle(later)
    assert not [r for r in fake.requests[requests:] if r.method == "PATCH"]


async def test_without_the_permission_the_game_stays_and_says_why(
    fake: FakeDiscord, tbot: Any
) -> None:
    fake.deny(fake.channel(), CREATE_PUBLIC_THREADS)
    started = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    board = await started.message()
    assert not fake.threads
    assert t("play.home.no_thread.permission", "de") in board.content
    assert_png_attachment(board)
    assert public(fake, fake.channel()) == [board]


async def test_a_game_started_in_a_thread_stays_there(fake: FakeDiscord, tbot: Any) -> None:
    _game_id, _invitation, thread = await game_in_thread(fake, tbot)
    again = await fake.slash(
        "essenz start", {"bot": "easy", "schnell": True}, user=BOB, channel=thread.id
    )
    board = await again.message()
    assert board.channel_id == thread.id and len(fake.threads) == 1
    assert t("play.home.no_thread.thread", "de") in board.content


async def test_a_server_that_turns_threads_off_plays_in_the_channel(
    fake: FakeDiscord, tbot: Any
) -> None:
    await tbot.store.set_pref(fake.guild.id, THREADS_PREF, "off")
    started = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    board = await started.message()
    assert not fake.threads
    assert "Thread" not in board.content  # the server's own choice needs no excuse
    assert embed_text(board)


async def test_an_invited_game_moves_into_its_thread_when_it_starts(
    fake: FakeDiscord, tbot: Any
) -> None:
    """Three people: the invitation in the channel, the thread once all accepted; the person
    to act changes and a reminder came after the board: the next board is new and pings, the
    old one keeps one line and no buttons."""
    options = {"zweiter": BOB, "dritter": CAROL}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    for user, colour in ((BOB, "blue"), (CAROL, "gold")):
        (select,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:c")]
        await (await fake.select(invitation, select["custom_id"], [colour], user=user)).callback()
    thread = await fake.wait(lambda: fake.thread_of(invitation), 5, "the game's thread")
    record = await living_in(fake, tbot, thread)
    game_id = record.id
    await fake.wait(lambda: f"<#{thread.id}>" in invitation.content or None, 5, "the note")
    assert invitation.components == []
    board = await live_board_of(fake, tbot, game_id)
    assert board.channel_id == thread.id
    assert str(stable_user_id(ALICE)) in board.pings
    # a reminder comes after the board; then Alice plays: Bob and Carol may react (new people)
    table = tbot.get_cog("PartyTest").table
    await table.remind(record, 0)
    card = load(record).state.hands[0][0]
    typed = await fake.slash(
        "party zug", {"notation": f"play {card}"}, user=ALICE, channel=thread.id
    )
    assert_ephemeral(await typed.callback())
    newer = await live_board_of(fake, tbot, game_id, lambda m: m.id != board.id)
    assert {str(stable_user_id(BOB)), str(stable_user_id(CAROL))} <= newer.pings
    await fake.wait(lambda: not board.components or None, 5, "the old board stripped")
    assert board.components == [] and board.embeds == []  # the old board: one line
    assert board.content.startswith(f"**{t('play.title', 'de', id=game_id)}**")
    assert live_buttons(public(fake, thread)) == [newer]
    assert public(fake, fake.channel()) == [invitation]


async def test_a_game_ended_by_clicks_uploads_its_final_picture_once(
    fake: FakeDiscord, tbot: Any
) -> None:
    """Played to its end by clicks: the final picture goes up once, with the invitation in
    the parent channel (the thread's first message); the final board shows it from there
    (or keeps its own where the last step changed nothing in it)."""
    options = {"zweiter": BOB, "karten": 1}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    (select,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:c")]
    await (await fake.select(invitation, select["custom_id"], ["blue"], user=BOB)).callback()
    thread = await fake.wait(lambda: fake.thread_of(invitation), 5, "the game's thread")
    record = await living_in(fake, tbot, thread)
    requests, tally = len(fake.requests), Tally()
    await play(fake, tbot, record.id, PARTY, random.Random(3), tally, 40)
    assert (await tbot.store.get_game(record.id)).status == "finished"

    def told(text: str) -> bool:  # won, or tied (the game's seed is drawn: either may come)
        return "🏆" in text or "Gleichstand." in text

    await fake.wait(lambda: told(invitation.content) or None, 5, "the invitation tells the end")
    (picture,) = invitation.attachments
    board = await live_board_of(fake, tbot, record.id, lambda m: told(m.text))
    assert shown_picture(board)  # its own (the last step changed nothing) or the invitation's
    assert board.attachments or f"/{picture.id}/" in board.embeds[0]["image"]["url"]
    assert uploads(fake, requests) <= tally.clicks  # at most one picture a click, the end too


async def test_after_a_restart_the_board_is_found_and_edited_not_posted_again(
    fake: FakeDiscord, threaded: Any
) -> None:
    async with running_bot(fake, threaded) as first:
        await fake.wait_for_sync()
        game_id, _invitation, thread = await game_in_thread(fake, first)
        board = await live_board_of(fake, first, game_id)
    async with running_bot(fake, threaded) as second:
        typed = await fake.slash(
            "essenz zug", {"notation": "move c1 c2"}, user=ALICE, channel=thread.id
        )
        assert_ephemeral(await typed.callback())
        moved = t("essence.event.moved", "de", name="Alice", source="c1", target="c2")
        again = await live_board_of(fake, second, game_id, lambda m: moved in embed_text(m))
        assert again.id == board.id
        assert [m.id for m in public(fake, thread)] == [board.id]


async def test_the_server_setting_is_chosen_with_a_command(fake: FakeDiscord, tbot: Any) -> None:
    shown = await (await fake.slash("einstellungen", user=ALICE)).callback()
    assert_ephemeral(shown)
    host = t("core.choice.game_language.host", "de")
    state = t("core.settings.state.on", "de")
    assert shown.content == t("core.settings.shown", "de", state=state, language=host)
    off = await (await fake.slash("einstellungen", {"threads": "off"}, user=ALICE)).callback()
    assert off.content == t("core.settings.threads.off", "de")
    board = await (
        await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    ).message()
    assert not fake.threads and embed_text(board)
    back = await (await fake.slash("einstellungen", {"threads": "default"}, user=ALICE)).callback()
    assert back.content == t(
        "core.settings.threads.default", "de", state=t("core.settings.state.on", "de")
    )
    assert await tbot.store.get_pref(fake.guild.id, THREADS_PREF) is None
    in_dm = await (
        await fake.slash(
            "einstellungen", {"threads": "off"}, user=ALICE, channel=fake.dm_channel(ALICE).id
        )
    ).callback()
    assert_ephemeral(in_dm)
    assert in_dm.content == t("core.error.server_only", "de")


async def test_the_servers_language_is_every_new_games_whoever_clicks(
    fake: FakeDiscord, tbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A manager sets the game language: the public invitation, thread and board of a game
    started later speak it, though its host and those who click read another; private answers
    follow each reader; the host's language again after the reset; others may not change it."""
    chosen = await (await fake.slash("einstellungen", {"sprache": "en"}, user=ALICE)).callback()
    assert_ephemeral(chosen)
    assert chosen.content == t("core.settings.language.en", "de")  # Alice reads German
    assert await tbot.store.get_pref(fake.guild.id, GUILD_LANGUAGE_PREF) == "en"
    shown = await (await fake.slash("einstellungen", user=BOB, locale="en-US")).callback()
    english = t("core.choice.game_language.en", "en")
    on = t("core.settings.state.on", "en")
    assert shown.content == t("core.settings.shown", "en", state=on, language=english)
    # Alice (German) invites Bob and Carol (German too): everything public is English
    options = {"zweiter": BOB, "dritter": CAROL}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    assert "invites you to" in invitation.content
    for user, colour in ((BOB, "blue"), (CAROL, "gold")):
        (select,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:c")]
        await (await fake.select(invitation, select["custom_id"], [colour], user=user)).callback()
        if user == BOB:  # the invitation, edited by a German click, still English
            assert "invites you to" in invitation.content
    thread = await fake.wait(lambda: fake.thread_of(invitation), 5, "the game's thread")
    record = await living_in(fake, tbot, thread)
    assert thread.name.startswith(t("play.title", "en", id=record.id))
    board = await live_board_of(fake, tbot, record.id)
    assert t("play.title", "en", id=record.id) in board.text
    # a private answer speaks its reader's language: Bob's typed step out of turn, German
    typed = await fake.slash("party zug", {"notation": "pass"}, user=BOB, channel=thread.id)
    refused = await typed.callback()
    assert_ephemeral(refused)
    assert refused.content == t("play.error.not_your_turn", "de")
    # back to the host's language: Bob (English) resets; Alice's next game is German
    reset = await fake.slash("einstellungen", {"sprache": "host"}, user=BOB, locale="en-US")
    assert (await reset.callback()).content == t("core.settings.language.host", "en")
    assert await tbot.store.get_pref(fake.guild.id, GUILD_LANGUAGE_PREF) is None
    started = await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    first = await started.message()
    german = await fake.wait(lambda: fake.thread_of(first), 5, "the thread")
    assert german.name.startswith(t("essenzcog.title", "de", id=record.id + 1))
    # German for the server: Bob's (English) game speaks German
    await (await fake.slash("einstellungen", {"sprache": "de"}, user=ALICE)).callback()
    started = await fake.slash(
        "essenz start", {"bot": "easy", "schnell": True}, user=BOB, locale="en-US"
    )
    second = await started.message()
    thread = await fake.wait(lambda: fake.thread_of(second), 5, "the thread")
    assert thread.name.startswith(t("essenzcog.title", "de", id=record.id + 2))
    assert t("essenzcog.choice.level.easy", "de") in thread.name  # the bot named in German too
    # Bob (English) chooses a mote on the public board: it stays German
    board = await live_board_of(fake, tbot, record.id + 2)
    select = board.selects[0]
    mote = select["options"][0]["value"]
    chosen = await fake.select(board, select["custom_id"], [mote], user=BOB, locale="en-US")
    await chosen.callback()
    assert board.selects and board.selects[0]["custom_id"] != select["custom_id"]  # the next
    assert t("essenzcog.title", "de", id=record.id + 2) in embed_text(board)
    german = {t(key, "de") for key in ("play.select.step", "essenzcog.select.option")}
    assert board.selects[0].get("placeholder") in german
    # someone who may not manage the server changes nothing
    real = fake_module._member_payload

    def without_rights(user: Any, **kwargs: Any) -> dict[str, Any]:
        member = real(user, **kwargs)
        if user.name == CAROL:
            member["permissions"] = str(1 << 11)  # send messages, no Manage Server
        return member

    monkeypatch.setattr(fake_module, "_member_payload", without_rights)
    for locale, lang in (("de", "de"), ("en-US", "en")):
        refused = await (
            await fake.slash("einstellungen", {"sprache": "en"}, user=CAROL, locale=locale)
        ).callback()
        assert_ephemeral(refused)
        assert refused.content == t("core.error.not_manager", lang)
    assert await tbot.store.get_pref(fake.guild.id, GUILD_LANGUAGE_PREF) == "de"


async def test_a_game_in_a_thread_is_named_by_number_in_its_parent_channel(
    fake: FakeDiscord, tbot: Any
) -> None:
    game_id, _invitation, thread = await game_in_thread(fake, tbot)
    typed = await fake.slash("essenz zug", {"notation": "move c1 c2", "spiel": game_id}, user=ALICE)
    assert_ephemeral(await typed.callback())
    assert await tbot.store.game_actions(game_id) == [(0, "move c1 c2")]
    assert public(fake, fake.channel()) != []  # the invitation only
    assert len(public(fake, fake.channel())) == 1 and len(public(fake, thread)) == 1


async def test_the_board_asked_for_in_the_parent_channel_is_shown_only_to_the_asker(
    fake: FakeDiscord, tbot: Any
) -> None:
    game_id, invitation, thread = await game_in_thread(fake, tbot)
    board = await live_board_of(fake, tbot, game_id)
    shown = await (await fake.slash("essenz brett", {"spiel": game_id}, user=BOB)).message()
    assert_ephemeral(shown)
    assert_png_attachment(shown)
    assert public(fake, fake.channel()) == [invitation]
    assert (await tbot.store.get_game(game_id)).display["board"] == board.id
    assert [m.id for m in public(fake, thread)] == [board.id]


async def test_the_archive_sweep_looks_at_a_finished_game_without_a_thread_once(
    fake: FakeDiscord, tbot: Any
) -> None:
    await tbot.store.set_pref(fake.guild.id, THREADS_PREF, "off")
    board = await (
        await fake.slash("essenz start", {"bot": "easy", "schnell": True}, user=ALICE)
    ).message()
    await (await fake.slash("essenz aufgeben", user=ALICE)).callback()
    game_id = int(board.custom_ids[0].split(":")[1])
    await live_board_of(fake, tbot, game_id, lambda m: "🏆" in m.text)
    later = time.time() + tbot.settings.thread_archive_minutes * 60 + 5

    async def listed() -> list[int]:
        found = await tbot.store.games_idle_since(later, unreminded_only=True, status="finished")
        return [r.id for r in found]

    assert game_id in await listed()
    await tbot.get_cog("Essence").table.sweep_idle(later)
    assert game_id not in await listed()  # not read again every minute


async def test_the_person_whose_turn_it_is_is_called_once_by_one_short_message(
    fake: FakeDiscord, tbot: Any
) -> None:
    """Issue 19: an edit notifies nobody, so when the person to act changes on a quiet board
    the board is edited in place and one short message calls the new person(s); the call
    before it goes, so the thread keeps the board and at most one call."""
    options = {"zweiter": BOB, "dritter": CAROL}
    invitation = await (await fake.slash("party start", options, user=ALICE)).message()
    for user, colour in ((BOB, "blue"), (CAROL, "gold")):
        (select,) = [s for s in invitation.selects if s["custom_id"].endswith(":inv:c")]
        await (await fake.select(invitation, select["custom_id"], [colour], user=user)).callback()
    thread = await fake.wait(lambda: fake.thread_of(invitation), 5, "the game's thread")
    record = await living_in(fake, tbot, thread)
    board = await live_board_of(fake, tbot, record.id)
    card = load(record).state.hands[0][0]
    typed = await fake.slash(
        "party zug", {"notation": f"play {card}"}, user=ALICE, channel=thread.id
    )
    assert_ephemeral(await typed.callback())

    def calls() -> list[StoredMessage]:
        return [m for m in public(fake, thread) if not m.components and not m.embeds]

    (call,) = await fake.wait(lambda: calls() or None, 5, "the call")
    assert {str(stable_user_id(BOB)), str(stable_user_id(CAROL))} <= call.pings
    assert [m.id for m in live_buttons(public(fake, thread))] == [board.id]  # edited in place
    for user in (CAROL, BOB):
        answered = await fake.slash("party zug", {"notation": "pass"}, user=user, channel=thread.id)
        assert_ephemeral(await answered.callback())
    # the turn went on to another person: a new call, the first one gone
    await fake.wait(lambda: (calls() and calls()[0].id != call.id) or None, 5, "the next call")
    assert len(calls()) == 1 and call.deleted
    assert [m.id for m in live_buttons(public(fake, thread))] == [board.id]


async def test_a_game_the_bot_opens_calls_nobody_who_is_watching(
    fake: FakeDiscord, tbot: Any
) -> None:
    """Felsenfeuer against the bot: the bot makes its Auswahl first (the board says it thinks),
    then it is Alice's turn; she started the game a moment ago, so the board is edited and no
    call is posted (the thread holds the board alone)."""
    options = {"bot": "random", "startspieler": 1}
    invitation = await (await fake.slash("felsenfeuer start", options, user=ALICE)).message()
    thread = await fake.wait(lambda: fake.thread_of(invitation), 5, "the game's thread")
    record = await living_in(fake, tbot, thread)
    alice = f"<@{stable_user_id(ALICE)}>"
    board = await live_board_of(fake, tbot, record.id, lambda m: alice in m.content)
    await tbot.finish_interactions()
    assert [m.id for m in public(fake, thread)] == [board.id]
