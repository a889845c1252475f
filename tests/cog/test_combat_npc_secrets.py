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
from tests.cog.test_combat_techniques import field, mine, open_form, option_values
from tests.cog.test_combat_techniques import set_up as techniques_set_up
from tests.cog.test_w6 import ALICE, BOB, GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_ephemeral, assert_public


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


async def test_a_players_target_lists_name_an_npcs_lp_in_words(fake: FakeDiscord, bot: Any) -> None:
    status = await techniques_set_up(fake)
    unhurt = t("w6cog.lp_state.unverletzt", "de")
    # the plain attack's targets on the public tracker
    labels = [o["label"] for o in status.component(mine(status, "zatk"))["options"]]
    assert f"Ork (ork, {unhurt})" in labels and "Thoin (thoin, LP 30)" in labels
    assert not any("LP 20" in label for label in labels)
    # a technique's form
    form = await open_form(fake, status, "gezielt")
    labels = list(option_values(form, field(form, "t")))
    assert f"Ork (ork, {unhurt})" in labels and "Ork 2 (ork2, LP 20)" not in labels
    # the autocomplete of /kampf angriff ziel:
    choices = await fake.autocomplete("kampf angriff", {"ziel": "ork"}, user=BOB)
    assert [c["name"] for c in choices] == [f"Ork (ork, {unhurt})", f"Ork 2 (ork2, {unhurt})"]
    # the GM reads the values
    choices = await fake.autocomplete("kampf angriff", {"ziel": "ork"}, user=GM)
    assert [c["name"] for c in choices] == ["Ork (ork, LP 20)", "Ork 2 (ork2, LP 20)"]


async def test_the_campaign_log_keeps_an_npcs_lp_to_the_gm(fake: FakeDiscord, bot: Any) -> None:
    await _combat(fake, thoin_json() | {"waffen": []}, "Ork lp=20 kw=8 ab=5")
    await _force(fake, "6 5 1 1")
    attack = {"ziel": "ork", "kw": 4}
    attacked = await (await fake.slash("kampf angriff", attack, user=ALICE)).message()
    (no_defence,) = ids_with(attacked, "keine")
    await (await fake.click(attacked, no_defence, user=GM)).message()
    lost = t("w6cog.log.damage", "de", name="Ork", amount=2, lp=18, lp_max=20)
    player = await (await fake.slash("kampagne log", user=ALICE)).message()
    assert lost not in player.text and "18/20" not in player.text
    as_file = await (await fake.slash("kampagne log", {"datei": True}, user=ALICE)).message()
    assert b'"lp": 18' not in as_file.attachments[0].data
    gm = await (await fake.slash("kampagne log", user=GM)).message()
    assert lost in gm.text


async def test_an_npcs_defence_dice_are_chosen_in_the_gms_private_prompt(
    fake: FakeDiscord, bot: Any
) -> None:
    await techniques_set_up(fake)  # Orks with 8 KW and reflex dice
    attack = {"ziel": "ork", "kw": 4}
    attacked = await (await fake.slash("kampf angriff", attack, user=BOB)).message()
    ork = [c for c in attacked.custom_ids if c.endswith(":ork")]
    codes = sorted(c.split(":")[3] for c in ork)
    assert codes == ["keine", "npc"]  # no select of 0 … 8 KW, no "Reflex statt Abwehr"
    (ask,) = ids_with(attacked, "npc")
    assert t("w6cog.btn.npc.abwehr", "de", name="Ork") in [b["label"] for b in attacked.buttons]
    refused = await (await fake.click(attacked, ask, user=BOB)).callback()
    assert refused.content == t("w6cog.combat.not_yours", "de", name="Ork")
    prompt = await (await fake.click(attacked, ask, user=GM)).message()
    assert prompt.flags & 64
    (defend,) = ids_with(prompt, "abwehr")
    assert [o["value"] for o in prompt.component(defend)["options"]] == [str(n) for n in range(9)]
    assert ids_with(prompt, "refabw") and ids_with(prompt, "keine")
    exchange = await fake.select(prompt, defend, ["3"], user=GM)
    public = (await tracker(fake, exchange)).text
    assert t("w6cog.ev.defence_announced.kw", "de", fighter="Ork", kw=3) in public


async def test_gm_damage_on_an_npc_answers_only_the_gm(fake: FakeDiscord, bot: Any) -> None:
    """/sl schaden on an NPC told the channel its LP ('Ork verliert 5 LP (jetzt 15/20)');
    on a player's character it stays public."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    hurt = await (
        await fake.slash("sl schaden", {"charakter": "Ork", "punkte": 5}, user=GM)
    ).callback()
    assert_ephemeral(hurt)
    assert t("w6cog.gm.damage", "de", name="Ork", amount=5, lp=15, lp_max=20) in hurt.content
    healed = await (
        await fake.slash("sl heilen", {"charakter": "Ork", "punkte": 5}, user=GM)
    ).callback()
    assert_ephemeral(healed)
    player = await (await fake.slash("kampagne log", user=ALICE)).message()
    assert "15/20" not in player.text
    thoin = await (
        await fake.slash("sl schaden", {"charakter": "Thoin", "punkte": 5}, user=GM)
    ).callback()
    assert_public(thoin)


async def test_an_npcs_reflex_is_offered_in_the_gm_view_not_on_the_tracker(
    fake: FakeDiscord, bot: Any
) -> None:
    """The tracker showed "Ork: Reflex" on the NPC's turn: that it has Reflexwürfel is the
    GM's to know. The GM view offers its reflex instead."""
    status = await _combat(fake, thoin_json() | {"reflex": 0}, "Ork lp=20 kw=8 ab=9 reflex=2")
    labels = [b["label"] for b in status.buttons]
    assert f"Ork: {t('w6cog.btn.reflex', 'de')}" not in labels
    assert not [c for c in ids_with(status, "reflex") if c.endswith(":ork")]
    assert ids_with(status, "rfx") == []  # no player's fighter has reflex dice
    (gm_view,) = ids_with(status, "slsicht")
    view = await (await fake.click(status, gm_view, user=GM)).message()
    assert view.flags & 64
    (rfx,) = ids_with(view, "rfx")
    form = await (await fake.click(view, rfx, user=GM)).message()
    assert form.flags & 64 and ids_with(form, "fdo")


async def test_an_npcs_strength_check_names_no_dice(fake: FakeDiscord, bot: Any) -> None:
    """The Kraft-Probe line told the players how many Kraft-Würfel an NPC has ("… legt eine
    Kraft-Probe ab: 6 5 1 → …"); for them it says only how it went, and the campaign log keeps
    the roll to the GM."""
    await _combat(fake, thoin_json(), "Ork lp=6 kw=8 ab=5 rlp=5 kraft=3")
    await _force(fake, "6 6 6 6 1 1 1 1 1 1 1 1 1 1 1 1")
    attack = {"ziel": "ork", "kw": 4}
    attacked = await (await fake.slash("kampf angriff", attack, user=ALICE)).message()
    (no_defence,) = ids_with(attacked, "keine")
    await (await fake.click(attacked, no_defence, user=GM)).message()
    public = (await tracker(fake)).text
    failed = t("w6cog.ev.not_ok", "de")
    assert t("w6cog.ev.kraft_check.npc", "de", fighter="Ork", ok=failed) in public
    assert "1 1 1" not in public
    what = t("w6cog.log.what.kraft_check", "de")
    player = await (await fake.slash("kampagne log", user=ALICE)).message()
    assert f"Ork: {what}" not in player.text and what not in player.text
    gm = await (await fake.slash("kampagne log", user=GM)).message()
    assert what in gm.text


async def test_old_log_entries_with_an_npcs_lp_are_kept_from_players(
    fake: FakeDiscord, bot: Any
) -> None:
    """Entries written before NPC entries were marked (no ``npc``) still held an NPC's LP:
    a player reads LP and combat rolls only of the players' characters."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    campaign = await bot.store.active_campaign(fake.channel().id)
    old = {"name": "Ork", "amount": 2, "lp": 18, "lp_max": 20}
    await bot.store.add_log(campaign.id, 1, "damage", old)
    await bot.store.add_log(campaign.id, 1, "check", {"name": "Ork", "what": "reflex",
                                                     "successes": 3, "required": 2})  # fmt: skip
    await bot.store.add_log(campaign.id, 1, "damage", old | {"name": "Thoin", "lp": 28,
                                                            "lp_max": 30})  # fmt: skip
    lost = t("w6cog.log.damage", "de", name="Ork", amount=2, lp=18, lp_max=20)
    player = await (await fake.slash("kampagne log", user=ALICE)).message()
    assert lost not in player.text and "18/20" not in player.text and "3/2" not in player.text
    assert "28/30" in player.text
    as_file = await (await fake.slash("kampagne log", {"datei": True}, user=ALICE)).message()
    assert b'"lp": 18' not in as_file.attachments[0].data
    gm = await (await fake.slash("kampagne log", user=GM)).message()
    assert lost in gm.text


async def test_an_npcs_sheet_is_not_told_in_the_players_log(fake: FakeDiscord, bot: Any) -> None:
    """'@gm legt Ork an' told the players an NPC exists (and an edit its field): an NPC's
    sheet entries are the GMs', also older unmarked ones."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    edit = {"charakter": "Ork", "feld": "kw", "wert": "9"}
    await (await fake.slash("charakter feld", edit, user=GM)).callback()
    campaign = await bot.store.active_campaign(fake.channel().id)
    await bot.store.add_log(campaign.id, 1, "sheet", {"event": "created", "name": "Troll"})
    player = await (await fake.slash("kampagne log", user=ALICE)).message()
    assert "Thoin" in player.text
    assert "Ork" not in player.text and "Troll" not in player.text
    gm = await (await fake.slash("kampagne log", user=GM)).message()
    assert t("w6cog.log.sheet.created", "de", name="Ork") in gm.text and "`kw`" in gm.text
