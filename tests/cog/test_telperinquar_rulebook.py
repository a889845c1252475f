"""``/telperinquar start`` with the rulebook's options (issue 21): the tournament SVO rule and a
round limit, a drafted deck against the bot, and the bots of a 2 vs 2 told apart."""

from __future__ import annotations

from typing import Any

from bot.games import load
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.services.decks import DeckService
from engines.telperinquar.cards import DRAFT
from engines.telperinquar.decks import parse_list, validate
from tests.cog.test_telperinquar import fixed_seed, game_of, open_decision
from tests.harness import assert_png_attachment

DRAFTED = (
    "1 Draft-Held\n10 Stufenkarte Draft-Held\n2 Knappe\n2 Langschwert\n2 Kettenhemd\n"
    "2 Feuerpfeil\n2 Wolf\n2 Falke\n2 Greif\n2 Heiltrank\n2 Parade\n2 Zweihänder\n"
    "2 Plattenpanzer\n2 Hinterhalt\n2 Fallgrube\n2 Magierstab\n3 Buckler\n"
)


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


async def test_a_drafted_deck_plays_against_the_bot(fake: FakeDiscord, bot: Any) -> None:
    """The bot gets a draft deck of its own (three boosters opened, built as a drafter's), so
    a drafted deck meets the bot instead of being refused beside a starter deck."""
    fixed_seed(bot, 7)
    await DeckService(bot.store).new_deck(
        stable_user_id("alice"), "Mein Draft", parse_list(DRAFTED).entries
    )
    board = await (await fake.slash("telperinquar start", {"deck": "Mein Draft"})).message()
    record = await bot.store.get_game(game_of(board))
    assert record.status == "active"
    data = load(record).state.data
    assert [p["classes"] for p in data["players"]] == [[DRAFT], [DRAFT]]
    bot_deck = record.config["seat_choices"][1]
    assert validate(parse_list(bot_deck)).legal
    opened = await open_decision(fake, bot, record.id, 0)  # the board names the draft heroes
    assert opened is not None and "Draft-Held" in opened[0].text
    assert_png_attachment(opened[0])
