"""Recovery (issue 18): a Telperinquár invitation deleted before the last seat's choice still
gives the started game a board; a board left behind by a crash between a game's write and its
board edit is brought up to date by the first click on it."""

from __future__ import annotations

import asyncio
import copy
import time
from typing import Any

from bot.games import GameService, load
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord
from engines.core import match as m
from engines.essence import ENGINE
from tests.cog.test_essence import ALICE, BOB, accepted_game, game_id_of, mote_select
from tests.harness import assert_ephemeral, assert_png_attachment, button_labels


async def test_a_deleted_invitation_still_gives_the_started_game_a_board(
    fake: FakeDiscord, bot: Any
) -> None:
    invitation = await (await fake.slash("telperinquar start", {"gegner": BOB})).message()
    accept = t("play.button.accept", "de")
    labels = button_labels(invitation)
    accept_id = invitation.buttons[labels.index(accept)]["custom_id"]
    chooser = await (await fake.click(invitation, accept_id, user=BOB)).message()
    assert_ephemeral(chooser)
    (select,) = chooser.selects
    fake.messages[invitation.id].deleted = True  # someone deleted the invitation meanwhile
    picked = await fake.select(
        chooser, select["custom_id"], [select["options"][0]["value"]], user=BOB
    )
    assert (await picked.callback()).type == 7
    await picked.settle()
    board = await fake.wait_for_message(
        lambda msg: not msg.deleted and not msg.ephemeral and bool(msg.attachments)
    )
    assert_png_attachment(board)
    games = GameService(bot.store)
    for _ in range(200):  # the board is remembered just after it is posted
        record = await games.get(1)
        if (record.display or {}).get("board") == board.id:
            break
        await asyncio.sleep(0.01)
    assert record.status == "active"
    assert (record.display or {}).get("board") == board.id


async def test_a_board_behind_its_game_is_brought_up_to_date_by_a_click(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    games = GameService(bot.store)
    record = await games.get(game_id)
    # the crash: Alice's turn is written, the board is never edited
    slow = copy.deepcopy(board)  # the board as it stands, Alice to move (a slow client later)
    alice = fake.user(ALICE).id
    while (record := await games.get(game_id)).status == "active":
        match = load(record)
        if all(d.seat != 0 for d in m.decisions(ENGINE, match)):
            break
        (action, *_) = ENGINE.legal_actions(match.state, 0)
        await games.act(game_id, alice, ENGINE.action_text(action))
    assert fake.messages[board.id].custom_ids == slow.custom_ids  # nothing was edited
    # Bob clicks it: its buttons are for Alice's answered turn, and the board is behind the
    # game, so it is drawn anew in place (not "take the newest message": there is none)
    clicked = await fake.select(board, mote_select(board), ["d1"], user=BOB)
    assert (await clicked.callback()).type == 7
    fresh = fake.messages[board.id]
    assert fresh.custom_ids != slow.custom_ids and not fresh.deleted
    assert t("essenzcog.title", "de", id=game_id) in (fresh.embeds[0].get("title") or "")
    # a click on the drawn board acts
    again = await fake.select(fresh, mote_select(fresh), [_mote(fresh)], user=BOB)
    reply = await again.callback()
    assert reply.type == 7 and reply.content != t("error.stale", "de")
    # a merely late click (the board is current) is still told it is stale
    late = await (await fake.select(slow, mote_select(slow), ["d1"], user=BOB)).callback()
    assert_ephemeral(late)
    assert late.content == t("error.stale", "de")


def _mote(message: Any) -> str:
    return str(message.component(mote_select(message))["options"][0]["value"])


async def test_at_start_up_a_board_behind_its_game_is_brought_up_to_date(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    games = GameService(bot.store)
    alice = fake.user(ALICE).id
    before = list(board.custom_ids)
    while all(d.seat == 0 for d in m.decisions(ENGINE, load(await games.get(game_id)))):
        match = load(await games.get(game_id))
        (action, *_) = ENGINE.legal_actions(match.state, 0)
        await games.act(game_id, alice, ENGINE.action_text(action))  # written, never shown
    assert fake.messages[board.id].custom_ids == before
    table = bot.get_cog("Essence").table
    assert await table.refresh_boards(time.time() - 60) == 1  # what the first sweep does
    assert fake.messages[board.id].custom_ids != before
    assert await table.refresh_boards(time.time() - 60) == 0  # current now: left alone
    # Bob can answer on it at once
    fresh = fake.messages[board.id]
    picked = await fake.select(fresh, mote_select(fresh), [_mote(fresh)], user=BOB)
    assert (await picked.callback()).type == 7
