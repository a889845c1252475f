"""What a play-tester saw the players learn about an NPC at the W6 table: the public tracker
(and a player's private prompts) keep an NPC's values to the game master, as the status image
does — its LP, armour, held Handlungen and KW left are not told by the narration, the target
lists or the tracker's selects."""

from __future__ import annotations

from typing import Any

from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord
from tests.cog.test_combat import ids_with, tracker
from tests.cog.test_combat_messages import _combat, _force
from tests.cog.test_w6 import ALICE, GM, thoin_json


async def test_an_npc_hit_is_told_without_its_armour_and_lp(fake: FakeDiscord, bot: Any) -> None:
    status = await _combat(fake, thoin_json() | {"waffen": []}, "Ork lp=20 kw=8 ab=5 gs=1")
    assert "LP 20" not in status.text  # the NPC's join names no values
    await _force(fake, "6 5 1 1")
    attack = {"ziel": "ork", "kw": 4}
    attacked = await (await fake.slash("kampf angriff", attack, user=ALICE)).message()
    (no_defence,) = ids_with(attacked, "keine")
    await (await fake.click(attacked, no_defence, user=GM)).message()
    public = (await tracker(fake)).text
    leaked = t("w6cog.ev.damage", "de", fighter="Ork", sp=2, ruestung=1, lp_verlust=1, lp=19)
    assert leaked not in public
    assert "19" not in public and "Rüstung" not in public
    hurt = t("w6cog.lp_state.verletzt", "de")
    assert t("w6cog.ev.damage.npc", "de", fighter="Ork", sp=2, state=hurt) in public


async def test_an_npc_holding_is_told_without_its_handlungen(fake: FakeDiscord, bot: Any) -> None:
    await _combat(fake, thoin_json() | {"ab": 1}, "Ork lp=20 kw=8 ab=5")
    status = await tracker(fake)
    (hold,) = ids_with(status, "weiter")
    await (await fake.click(status, hold, user=GM)).message()
    public = (await tracker(fake)).text
    assert t("w6cog.ev.turn_passed", "de", fighter="Ork", held=2) not in public
    assert t("w6cog.ev.turn_passed.npc", "de", fighter="Ork") in public
