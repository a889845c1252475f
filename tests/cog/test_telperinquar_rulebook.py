"""``/telperinquar start`` with the rulebook's options (issue 21): the tournament SVO rule and a
round limit, a drafted deck against the bot, and the bots of a 2 vs 2 told apart."""

from __future__ import annotations

from typing import Any

from bot.games import load
from bot.sandbox.fake_discord import FakeDiscord
from tests.cog.test_telperinquar import fixed_seed, game_of, open_decision


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
    opened = await open_decision(fake, bot, record.id, 0)
    assert opened is not None
    footer = opened[0].embeds[0]["footer"]["text"]
    assert footer.startswith("Runde 1/12 · ") and "Turnierregel (SVO)" in footer


async def test_the_bots_of_a_two_against_two_get_distinct_names(
    fake: FakeDiscord, bot: Any
) -> None:
    fixed_seed(bot, 5)
    board = await (await fake.slash("telperinquar start", {"modus": "2v2"})).message()
    record = await bot.store.get_game(game_of(board))
    names = record.display["names"]
    assert len(names) == 4 and len(set(names)) == 4
    opened = await open_decision(fake, bot, record.id, 0)
    assert opened is not None
    shown = opened[0].text
    for name in names[1:]:
        assert name in shown
