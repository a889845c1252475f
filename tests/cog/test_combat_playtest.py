"""What a play-tester met at the W6 table beyond secrets: a defender without KW is not
offered a select of "0 KW" (unless a shield's bonus dice make a defence of 0 KW a roll); a
called shot's form does not say "no check needed" before its zone is chosen."""

from __future__ import annotations

from typing import Any

from bot.combat import active_combat, unpack
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord
from cogs.combat_forms import Form, _target_options
from tests.cog.test_combat import ids_with, tracker
from tests.cog.test_combat_messages import _combat, _force
from tests.cog.test_combat_techniques import choose, field, fields, open_form, option_values
from tests.cog.test_combat_techniques import set_up as techniques_set_up
from tests.cog.test_w6 import ALICE, GM, import_sheet, start_campaign, thoin_json


async def _ork_attacks_thoin_without_kw(fake: FakeDiscord, thoin: dict[str, Any]) -> Any:
    """Thoin spends every KW on a missed attack, is done; the Ork attacks him."""
    await _combat(fake, thoin, "Ork lp=20 kw=8 ab=5")
    await _force(fake, "1 1 1 1 1 1 1 1 1 1 1 1")
    attack = {"ziel": "ork", "kw": 12}
    attacked = await (await fake.slash("kampf angriff", attack, user=ALICE)).message()
    (no_defence,) = ids_with(attacked, "keine")
    await (await fake.click(attacked, no_defence, user=GM)).message()
    status = await tracker(fake)
    (done,) = [c for c in ids_with(status, "fertig") if c.endswith(":thoin")]
    await (await fake.click(status, done, user=ALICE)).message()
    status = await tracker(fake)
    (attack,) = ids_with(status, "zatk")
    menu = await (await fake.select(status, attack, ["thoin"], user=GM)).message()
    (dice,) = ids_with(menu, "kwatk")
    await (await fake.select(menu, dice, ["4"], user=GM)).settle()
    return await tracker(fake)


async def test_no_kw_select_for_a_defender_without_kw(fake: FakeDiscord, bot: Any) -> None:
    status = await _ork_attacks_thoin_without_kw(fake, thoin_json())
    assert [c for c in ids_with(status, "keine") if c.endswith(":thoin")]
    assert not [c for c in ids_with(status, "abwehr") if c.endswith(":thoin")]


async def test_a_shield_keeps_the_defence_of_no_kw(fake: FakeDiscord, bot: Any) -> None:
    shield = {"name": "Holzschild", "kw_bonus": 2, "be": 0, "block": 2, "rs": 0}
    status = await _ork_attacks_thoin_without_kw(fake, thoin_json() | {"schild": shield})
    (defend,) = [c for c in ids_with(status, "abwehr") if c.endswith(":thoin")]
    assert [o["value"] for o in status.component(defend)["options"]] == ["0"]


async def test_a_called_shot_without_a_zone_does_not_say_no_check_is_needed(
    fake: FakeDiscord, bot: Any
) -> None:
    status = await techniques_set_up(fake)
    form = await open_form(fake, status, "gezielt")
    await choose(fake, form, "t", [option_values(form, field(form, "t"))["Ork (ork, unverletzt)"]])
    assert t("w6cog.form.no_probe", "de") not in (form.content or "")
    await choose(fake, form, "z", ["0"])  # Kopf: 5 successes
    assert t("w6cog.form.probe", "de", required=5) in (form.content or "")
    assert "p" in fields(form)


async def test_a_big_fight_offers_the_other_side_first_in_the_target_menus(
    fake: FakeDiscord, bot: Any
) -> None:
    """30 Goblins and Thoin: a select holds 25 targets, and the player's fighter was the one
    left out of every Goblin's attack menu (join order); the other side comes first."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json() | {"ab": 1})
    await (await fake.slash("sl nsc", {"werte": "Goblin lp=5 kw=3 ab=9"}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    for _ in range(3):
        options = {"charakter": "Goblin", "anzahl": 10}
        await (await fake.slash("kampf dazu", options, user=GM)).message()
    added = await (await fake.slash("kampf dazu", user=ALICE)).message()
    status = await (await fake.click(added, ids_with(added, "beginnen")[0], user=GM)).message()
    values = [o["value"] for o in status.component(ids_with(status, "zatk")[0])["options"]]
    assert len(values) == 25 and values[0] == "thoin"
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    goblin = state.fighter("goblin")
    form = Form("gezielt", "goblin", ())
    assert _target_options(state, goblin, form, "de")[0][1].startswith("Thoin")
