"""``/telperinquar start`` with the rulebook's options (issue 21): the tournament SVO rule and a
round limit, a drafted deck against the bot, and the bots of a 2 vs 2 told apart."""

from __future__ import annotations

from typing import Any

from bot.games import load
from bot.sandbox.fake_discord import FakeDiscord
from tests.cog.test_telperinquar import fixed_seed, game_of, live_board


async def test_start_takes_the_tournament_rule_and_a_round_limit(
    fake: FakeDiscord, bot: Any
) -> None:
    fixed_seed(bot, 4)
    board = await (
        await fake.slash("telperinquar start", {"turnier": True, "runden": 12})
    ).message()
    record = await bot.store.get_game(game_of(board))
    assert record.config["svo"] is True and record.config["round_limit"] == 12
    data = load(record).state.data
    assert data["svo"] is True and data["round_limit"] == 12
    footer = (await live_board(fake, bot, record.id)).embeds[0]["footer"]["text"]
    assert footer.startswith("Runde 1/12 · ") and "Turnierregel (SVO)" in footer
