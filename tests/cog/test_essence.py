"""``/essenz`` through the real bot and the fake Discord: challenge, clicking and typing steps,
refusals (wrong player, stale button, illegal move), resign, draw, the bot opponent, list /
export / position, idle reminders and forfeits, German and English."""

from __future__ import annotations

import copy
import json
import time
from typing import Any

from bot.fake_discord import BOT_ID, FakeDiscord, StoredMessage, stable_user_id
from bot.games import GameService, load
from bot.i18n import t
from engines.core import match as m
from engines.essence import ENGINE
from tests.harness import (
    assert_components_valid,
    assert_ephemeral,
    assert_png_attachment,
    assert_public,
    embed_text,
)

ALICE, BOB, CAROL = "alice", "bob", "carol"


def ids_with(message: StoredMessage, part: str) -> list[str]:
    return [c for c in message.custom_ids if part in c]


def mote_select(message: StoredMessage) -> str:
    (select,) = [c for c in message.selects if ":p::" in c["custom_id"]][:1]
    return str(select["custom_id"])


def button_for(message: StoredMessage, label: str) -> str:
    for button in message.buttons:
        if button.get("label") == label:
            return str(button["custom_id"])
    raise AssertionError(f"no button {label!r} among {[b.get('label') for b in message.buttons]}")


async def challenge(fake: FakeDiscord, locale: str = "de", **options: Any) -> StoredMessage:
    ex = await fake.slash("essenz start", {"gegner": BOB, **options}, user=ALICE, locale=locale)
    invitation = await ex.message()
    assert_public(invitation)
    return invitation


async def accepted_game(fake: FakeDiscord, **options: Any) -> StoredMessage:
    invitation = await challenge(fake, **options)
    accept = await fake.click(invitation, 1, user=BOB)
    reply = await accept.callback()
    assert reply.type == 7
    return await accept.message()


async def game_id_of(message: StoredMessage) -> int:
    return int(message.custom_ids[0].split(":")[1])


async def test_challenge_accept_click_a_step_and_type_a_step(fake: FakeDiscord, bot: Any) -> None:
    invitation = await challenge(fake)
    assert f"<@{stable_user_id(BOB)}>" in invitation.content
    assert [b["label"] for b in invitation.buttons] == [
        t("essenzcog.button.accept", "de"),
        t("essenzcog.button.decline", "de"),
    ]
    # Only the invited player may answer.
    refused = await (await fake.click(invitation, 1, user=CAROL)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("error.not_invited", "de")

    accept = await fake.click(invitation, 1, user=BOB)
    assert (await accept.callback()).type == 7
    board = await accept.message()
    assert_components_valid(board)
    assert_png_attachment(board)
    assert t("essenzcog.title", "de", id=await game_id_of(board)) in embed_text(board)
    assert f"<@{stable_user_id(ALICE)}>" in board.content  # Alice (A) begins

    # Bob may not pick a mote while Alice is to act.
    select = mote_select(board)
    wrong = await (await fake.select(board, select, ["d1"], user=BOB)).callback()
    assert_ephemeral(wrong)
    assert wrong.content == t("essenzcog.error.not_your_turn", "de")

    # Alice: mote d1 -> move -> d2 (a face 1 has no orientation: the step is played).
    picked = await fake.select(board, select, ["d1"], user=ALICE)
    assert (await picked.callback()).type == 7
    board = await picked.message()
    assert_components_valid(board)
    assert t("essenzcog.prompt.kind", "de", square="d1") in embed_text(board)
    moving = await fake.click(board, button_for(board, t("essence.kind.move", "de")), user=ALICE)
    board = await moving.message()
    assert t("essenzcog.prompt.target.move", "de", square="d1") in embed_text(board)
    before = copy.deepcopy(board)  # what a slow client still shows
    old_target = button_for(board, "d2")
    played = await fake.click(board, old_target, user=ALICE)
    assert (await played.callback()).type == 7
    board = await played.message()
    assert_png_attachment(board)
    text = embed_text(board)
    assert t("essence.event.moved", "de", name="Alice", source="d1", target="d2") in text
    assert t("essenzcog.status.a2", "de", name="Alice", round=1) in text

    # The button of before the step is stale now.
    stale = await (await fake.click(before, old_target, user=ALICE)).callback()
    assert_ephemeral(stale)
    assert stale.content == t("error.stale", "de")

    # Alice types her second action; a new board is posted and the old one loses its buttons.
    typed = await fake.slash("essenz zug", {"notation": "void d5"}, user=ALICE)
    new_board = await typed.message()
    assert_public(new_board)
    assert_png_attachment(new_board)
    assert f"<@{stable_user_id(BOB)}>" in new_board.content
    assert t("essence.event.void_shifted", "de", source="d4", target="d5") in embed_text(new_board)
    await fake.wait(lambda: board.components == [] or None, 5, "old board cleared")
    record = await GameService(bot.store).get(await game_id_of(new_board))
    assert await bot.store.game_actions(record.id) == [(0, "move d1 d2"), (0, "void d5")]
