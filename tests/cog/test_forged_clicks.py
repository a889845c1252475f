"""A click counts only on the message that carries it (issue 18): a forged ``custom_id`` of
game #1 sent on another message (another game's board, a dice roll, a message in another
channel) neither acts nor replaces that message; the same click on the board still acts."""

from __future__ import annotations

import copy
from typing import Any

from bot.games import GameService
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord
from tests.cog.test_essence import ALICE, BOB, accepted_game, game_id_of, mote_select
from tests.harness import assert_ephemeral


async def test_a_forged_click_on_another_message_neither_acts_nor_replaces_it(
    fake: FakeDiscord, bot: Any
) -> None:
    board = await accepted_game(fake)
    game_id = await game_id_of(board)
    select = mote_select(board)
    roll = await (await fake.slash("roll", {"ausdruck": "2W6"}, user=ALICE)).message()
    elsewhere = await (
        await fake.slash("roll", {"ausdruck": "1W6"}, user=ALICE, channel="wuerfel")
    ).message()
    other = await (await fake.slash("essenz start", {"bot": "easy"}, user=BOB)).message()
    games = GameService(bot.store)
    before = await games.get(game_id)
    for message in (roll, elsewhere, other):
        shown = copy.deepcopy(message)
        for custom_id in (select, *board.custom_ids):
            forged = await fake.forge_component(
                message, custom_id, component_type=3 if custom_id == select else 2,
                values=["d1"] if custom_id == select else [], user=ALICE,
            )  # fmt: skip
            reply = await forged.callback()
            assert_ephemeral(reply)
            assert reply.content == t("error.unknown_component", "de")
        assert fake.messages[message.id].text == shown.text
        assert fake.messages[message.id].custom_ids == shown.custom_ids
    assert (await games.get(game_id)).revision == before.revision
    # on its own board the same choice acts
    picked = await fake.select(board, select, ["d1"], user=ALICE)
    assert (await picked.callback()).type == 7
