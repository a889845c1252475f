"""``/kampf`` at the table after the second reading of the W6 combat chapter (issue #24):
seeded dice, what the buttons offer."""

from __future__ import annotations

from typing import Any

from bot.chance import Chance
from bot.combat import active_combat
from bot.sandbox.fake_discord import FakeDiscord
from tests.cog.test_w6 import GM, start_campaign


async def test_a_seeded_bot_seeds_the_combat_dice(fake: FakeDiscord, bot: Any) -> None:
    """``spielleiter play --seed N`` reproduces the combat dice: the combat's seed comes from
    the bot's seeded randomness."""
    bot.chance = Chance(41)
    await start_campaign(fake)
    await (await fake.slash("kampf start", user=GM)).message()
    record = await active_combat(bot.store, fake.channel().id)
    assert record is not None and record.seed == Chance(41).bits(31)
