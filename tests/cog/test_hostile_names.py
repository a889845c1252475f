"""A player whose display name holds line breaks and separators (``\\r``, ``\\n``,
U+001C–U+001E, U+0085, U+2029) plays every seated game: every board renders, ``brett`` shows
it to everyone and ``aufgeben`` resigns and says so (issue 18)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.games import GameService, load
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, FakeUser, StoredMessage, stable_user_id
from tests.harness import assert_png_attachment, button_labels

BREAKING = "Ev\r\nil\x1c\x1d\x1e\x85\u2029Name"
EVIL = FakeUser(stable_user_id("evil-name"), BREAKING)

STARTS = {
    "essenz": {"bot": "easy"},
    "felsenfeuer": {"bots": 1},
    "telperinquar": {"bot": "random"},
    "telperinquar-draft": {"bots": 1},
}
WITHOUT_IMAGE = {"telperinquar-draft"}  # the draft's board is text and buttons


def game_of(message: StoredMessage) -> int:
    return int(message.custom_ids[0].split(":")[1])


async def bots_done(bot: Any, game_id: int) -> None:
    """Wait until the bot seats have no move to make (a resign typed while the bot thinks
    races with its move)."""
    games = GameService(bot.store)
    for _ in range(400):
        if not games.bot_due(await games.get(game_id)):
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the bot never finished its move")


async def resign_and_check(fake: FakeDiscord, bot: Any, game: str, game_id: int) -> None:
    await bots_done(bot, game_id)
    resigned = await fake.slash(f"{game} aufgeben", {"spiel": game_id}, user=EVIL)
    await resigned.settle()
    said = " ".join((r.content or "") for r in resigned.replies).lower()
    assert "nichts wurde verändert" not in said
    assert "unerwartet" not in said, said
    record = await GameService(bot.store).get(game_id)
    seat = record.players.index(EVIL.id)
    assert record.status != "active" or seat in load(record).eliminated


@pytest.mark.parametrize("game", sorted(STARTS))
async def test_a_breaking_name_renders_every_board_and_resigns(
    fake: FakeDiscord, bot: Any, game: str
) -> None:
    fake.user(EVIL)
    started = await fake.slash(f"{game} start", STARTS[game], user=EVIL)
    board = await started.message()
    game_id = 1  # the first game of a fresh database
    shown = await (await fake.slash(f"{game} brett", {"spiel": game_id}, user=EVIL)).message()
    if game not in WITHOUT_IMAGE:
        assert_png_attachment(board)
        assert_png_attachment(shown)
    await resign_and_check(fake, bot, game, game_id)


async def test_armageddon_with_a_breaking_party_name(fake: FakeDiscord, bot: Any) -> None:
    fake.user(EVIL)
    options = {"szenario": "scharmuetzel", "partei1": EVIL, "partei2": "bob"}
    invitation = await (await fake.slash("armageddon start", options, user="greta")).message()
    accept = t("play.button.accept", "de")
    for user in (EVIL, "bob"):
        labels = button_labels(invitation)
        cid = invitation.buttons[labels.index(accept)]["custom_id"]
        answer = await fake.click(invitation, cid, user=user)
        await answer.callback()
        invitation = await answer.message()
    game_id = game_of(invitation)
    assert_png_attachment(invitation)
    shown = await (await fake.slash("armageddon brett", {"spiel": game_id}, user="bob")).message()
    assert_png_attachment(shown)
    await resign_and_check(fake, bot, "armageddon", game_id)
