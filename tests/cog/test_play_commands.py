"""The standard table commands written once (``bot.play.commands``): in each game's group,
answered through its own table, with the game autocomplete on every ``spiel`` option."""

from __future__ import annotations

from typing import Any

from bot.sandbox.fake_discord import FakeDiscord
from tests.cog import test_armageddon, test_telperinquar_draft
from tests.cog.test_essence import accepted_game, game_id_of
from tests.cog.test_felsenfeuer import game_of
from tests.harness import assert_ephemeral

ALICE = "alice"
GAME_COMMANDS = {
    "essenz": ("zug", "aufgeben", "remis", "export", "position", "brett"),
    "felsenfeuer": ("zug", "aufgeben", "export", "brett"),
    "armageddon": ("zug", "weg", "ueberstimmen", "notiz", "karte", "aufgeben", "export", "brett"),
    "telperinquar-draft": ("aufgeben", "export", "brett"),
}


async def started(fake: FakeDiscord, bot: Any, group: str) -> int:
    if group == "essenz":
        return await game_id_of(await accepted_game(fake))
    if group == "armageddon":  # Alice plays party 1
        game_id, _board = await test_armageddon.started_game(fake, bot)
        return game_id
    if group == "telperinquar-draft":
        command = await fake.slash(f"{group} start", {"bots": 1}, user=ALICE)
        return test_telperinquar_draft.game_of(await command.message())
    board = await (await fake.slash("felsenfeuer start", {"bot": "random"}, user=ALICE)).message()
    return game_of(board)


async def test_every_game_option_offers_the_users_game(fake: FakeDiscord, bot: Any) -> None:
    for group, names in GAME_COMMANDS.items():
        game_id = await started(fake, bot, group)
        for name in names:
            options = {"notation": ""} if name == "zug" else {}
            options["spiel"] = ""
            choices = await fake.autocomplete(f"{group} {name}", options, user=ALICE)
            assert game_id in [c["value"] for c in choices], (group, name, choices)


async def test_list_and_export_answer_from_each_games_own_table(
    fake: FakeDiscord, bot: Any
) -> None:
    for group in GAME_COMMANDS:
        game_id = await started(fake, bot, group)
        listing = await (await fake.slash(f"{group} liste", user=ALICE)).callback()
        assert_ephemeral(listing)
        assert f"#{game_id}" in str(listing.embeds) + (listing.content or "")
        exported = await (
            await fake.slash(f"{group} export", {"spiel": game_id}, user=ALICE)
        ).callback()
        assert_ephemeral(exported)
        assert len(exported.files) == 1
