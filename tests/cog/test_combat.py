"""``/kampf`` through the real bot and the fake Discord: start, add two, attack with defence
via buttons and selects, damage applied, phase advance, stale click, undo, end with the LP
written back to the sheet; in German and English."""

from __future__ import annotations

from typing import Any

from bot.combat import active_combat, unpack
from bot.games import load
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, StoredMessage
from engines.w6.sheet_io import sheet_from_json
from tests.cog.test_w6 import ALICE, BOB, GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_components_valid, assert_ephemeral, assert_public, embed_text


def ids_with(message: StoredMessage, code: str) -> list[str]:
    return [c for c in message.custom_ids if c.split(":")[3] == code]


async def tracker(fake: FakeDiscord, exchange: Any = None) -> StoredMessage:
    """The combat's living tracker (issue #19: one public status message, edited in place),
    once ``exchange`` (a click in a private prompt, which edits the tracker) has settled."""
    if exchange is not None:
        await exchange.settle()
    found = [
        m
        for m in fake.channel_messages()
        if not m.flags & 64 and any(a.filename == "kampf.png" for a in m.attachments)
    ]
    return found[-1]


async def npc_prompt(fake: FakeDiscord, status: StoredMessage, fighter: str = "ork") -> Any:
    """The GM's private prompt for an NPC's answer (its KW left stay off the public tracker:
    the tracker's button ``npc`` opens it)."""
    (ask,) = [c for c in ids_with(status, "npc") if c.endswith(f":{fighter}")]
    prompt = await (await fake.click(status, ask, user=GM)).message()
    assert prompt.flags & 64
    return prompt


async def set_up(fake: FakeDiscord, locale: str = "de") -> StoredMessage:
    """Campaign, Thoin (alice), Ork (NPC), a combat with both, begun. Returns the status."""
    await start_campaign(fake, locale)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5 gs=2"}, user=GM)).callback()
    started = await (await fake.slash("kampf start", user=GM, locale=locale)).message()
    assert started.embeds[0]["title"] == t("w6cog.combat.title_setup", locale[:2])
    await (await fake.slash("kampf dazu", user=ALICE, locale=locale)).message()
    added = await (
        await fake.slash("kampf dazu", {"charakter": "Ork"}, user=GM, locale=locale)
    ).message()
    assert "Thoin" in embed_text(added) and "Ork" in embed_text(added)
    (begin,) = ids_with(added, "beginnen")
    return await (await fake.click(added, begin, user=GM, locale=locale)).message()


async def test_attack_defence_damage_phase_undo_end(fake: FakeDiscord, bot: Any) -> None:
    status = await set_up(fake)
    assert status.embeds[0]["title"] == t("w6cog.combat.title", "de", phase=1)
    assert "▶ **Thoin**" in embed_text(status)  # AB 6 before AB 5
    assert_components_valid(status)
    first_status = status
    # The GM sets the next dice: attack 6 6 5 1 (3 successes), defence 1 2 3 (none).
    forced = await (
        await fake.slash("kampf aktion", {"notation": "wuerfel 6 6 5 1 1 2 3"}, user=GM)
    ).message()

    # Bob does not control Thoin.
    (attack,) = ids_with(forced, "zatk")
    refused = await (await fake.select(forced, attack, ["ork"], user=BOB)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.combat.not_yours", "de", name="Thoin")

    # Alice: the target on the tracker, then the KW in an ephemeral prompt: two clicks.
    chooser = await (await fake.select(forced, attack, ["ork"], user=ALICE)).message()
    assert_ephemeral(chooser)
    (kw_menu,) = ids_with(chooser, "kwatk")
    announced = await fake.select(chooser, kw_menu, ["4"], user=ALICE)
    prompt = await announced.message()  # the private prompt, updated in place
    assert_ephemeral(prompt) and not prompt.custom_ids
    assert t("w6cog.ev.attack_dice_announced", "de", fighter="Thoin", kw=4) in prompt.text
    attacked = await tracker(fake, announced)
    assert_public(attacked)
    assert t("w6cog.ev.attack_dice_announced", "de", fighter="Thoin", kw=4) in attacked.text

    # The GM answers for the Ork: 3 KW defence, then rolls instead of falling back.
    prompt = await npc_prompt(fake, attacked)
    (defend,) = ids_with(prompt, "abwehr")
    decided = await tracker(fake, await fake.select(prompt, defend, ["3"], user=GM))
    assert "🎲 **Thoin** würfelt 6 6 5 1 → 3 Erfolge" in decided.text
    (roll,) = ids_with(decided, "wuerfeln")
    hit = await (await fake.click(decided, roll, user=GM)).message()
    # Axt 1-2: 5 + Zusatz K 4 + Fertigkeit 2 = 11 SP − Gesamtschutz 2 = 9 LP (the GM view
    # below: LP 11/20); the public line keeps the NPC's armour and LP to the GM.
    hurt = t("w6cog.lp_state.verletzt", "de")
    assert t("w6cog.ev.damage.npc", "de", fighter="Ork", sp=11, state=hurt) in hit.text
    # Issue 9: the public status hides the NPC's values (its LP in words); the GM reads them
    # privately through "SL-Ansicht".
    assert "LP 11/20" not in embed_text(hit)
    assert f"**Ork** `ork` · {t('w6cog.lp_state.verletzt', 'de')}" in embed_text(hit)
    (gm_view,) = ids_with(hit, "slsicht")
    refused_view = await (await fake.click(hit, gm_view, user=ALICE)).callback()
    assert_ephemeral(refused_view)
    private = await (await fake.click(hit, gm_view, user=GM)).message()
    assert_ephemeral(private)
    assert "LP 11/20" in embed_text(private)

    # Stale: the old status went (issue #19: one living tracker; a command moves it down).
    assert first_status.deleted
    # A private prompt used up keeps no live components (nothing stale to click).
    assert chooser.custom_ids == []

    # Both are done for the phase: phase 2 begins.
    (thoin_done,) = [c for c in ids_with(hit, "fertig") if c.endswith(":thoin")]
    after_thoin = await (await fake.click(hit, thoin_done, user=ALICE)).message()
    (ork_done,) = [c for c in ids_with(after_thoin, "fertig") if c.endswith(":ork")]
    phase_two = await (await fake.click(after_thoin, ork_done, user=GM)).message()
    assert phase_two.embeds[0]["title"] == t("w6cog.combat.title", "de", phase=2)

    # Only the GM undoes; the undo goes back into phase 1.
    undone = await (await fake.slash("kampf zurück", user=GM)).message()
    assert undone.embeds[0]["title"] == t("w6cog.combat.title", "de", phase=1)

    worn = {"kaempfer": "thoin", "feld": "lp", "wert": 11}
    await (await fake.slash("kampf setzen", worn, user=GM)).message()
    ended = await (await fake.slash("kampf ende", user=GM)).message()
    assert ended.embeds[0]["title"] == t("w6cog.combat.title_ended", "de")
    assert ended.components == []
    campaign = await bot.store.active_campaign(fake.channel().id)
    ork = next(r for r in await bot.store.characters(campaign.id) if r.name == "Ork")
    assert sheet_from_json(ork.sheet).lp == 20  # an NPC is a template: the fight leaves it
    # the end-of-game hook wrote the player's LP back: Thoin keeps what the fight left him
    (record,) = await bot.store.games_in_channel(
        fake.channel().id, kind="w6combat", statuses=("finished",)
    )
    (fighter,) = [f for f in load(record).state.fighters if f.name == "Thoin"]
    thoin = next(r for r in await bot.store.characters(campaign.id) if r.name == "Thoin")
    assert sheet_from_json(thoin.sheet).lp == fighter.lp == 11
    kinds = [e["kind"] for e in await bot.store.campaign_log(campaign.id, limit=0)]
    assert "damage" in kinds and kinds.count("combat") >= 8


async def test_combat_commands_in_english(fake: FakeDiscord, bot: Any) -> None:
    status = await set_up(fake, locale="en-US")
    assert status.embeds[0]["title"] == t("w6cog.combat.title", "en", phase=1)
    await (await fake.slash("kampf aktion", {"notation": "wuerfel 1 1 1 1"}, user=GM)).message()
    missed = await (
        await fake.slash("kampf angriff", {"ziel": "ork", "kw": 4}, user=ALICE, locale="en-US")
    ).message()
    assert t("w6cog.ev.attack_dice_announced", "en", fighter="Thoin", kw=4) in missed.text
    (defend,) = ids_with(missed, "keine")
    answered = await (await fake.click(missed, defend, user=GM, locale="en-US")).message()
    assert t("w6cog.ev.attack_failed", "en", fighter="Thoin") in answered.text


async def test_only_the_gm_starts_and_ends_a_combat(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    refused = await (await fake.slash("kampf start", user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.error.gm_only", "de")
    await (await fake.slash("kampf start", user=GM)).message()
    again = await (await fake.slash("kampf ende", user=BOB)).callback()
    assert again.content == t("w6cog.error.gm_only", "de")


async def test_player_cannot_add_an_npc(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    refused = await (await fake.slash("kampf dazu", {"charakter": "Ork"}, user=ALICE)).callback()
    assert refused.content == t("w6cog.error.no_character", "de", name="Ork")  # as no name
    three = await (
        await fake.slash("kampf dazu", {"charakter": "Ork", "anzahl": 3}, user=GM)
    ).message()
    for fighter_id in ("`ork`", "`ork2`", "`ork3`"):
        assert fighter_id in embed_text(three)


async def test_notation_autocomplete_and_gm_buttons_refused_to_players(
    fake: FakeDiscord, bot: Any
) -> None:
    status = await set_up(fake)
    choices = await fake.autocomplete("kampf aktion", {"notation": "@"}, user=ALICE)
    values = [c["value"] for c in choices]
    assert "@thoin angriff" in values and "@thoin fertig" in values
    assert not any(v.startswith("@ork") for v in values)
    (next_phase,) = ids_with(status, "phase")
    refused = await (await fake.click(status, next_phase, user=ALICE)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6.combat.gm_only", "de", verb="phase")


async def test_held_action_is_offered_after_someone_else_acted(fake: FakeDiscord, bot: Any) -> None:
    status = await set_up(fake)
    (hold,) = [c for c in ids_with(status, "weiter") if c.endswith(":thoin")]
    held = await (await fake.click(status, hold, user=ALICE)).message()
    assert t("w6cog.ev.turn_passed", "de", fighter="Thoin", held=2) in held.text
    assert "▶ **Ork**" in embed_text(held)
    (ork_done,) = [c for c in ids_with(held, "fertig") if c.endswith(":ork")]
    after = await (await fake.click(held, ork_done, user=GM)).message()
    assert "✋ **Thoin**" in embed_text(after)
    assert any(c.endswith(":thoin") for c in ids_with(after, "zatk"))


async def test_campaign_rules_reach_the_combat_and_a_character_joins_once(
    fake: FakeDiscord, bot: Any
) -> None:
    from bot.combat import unpack

    await start_campaign(fake)
    await (
        await fake.slash("kampagne regel", {"regel": "schwere_treffer", "an": True}, user=GM)
    ).callback()
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("kampf start", user=GM)).message()
    await (await fake.slash("kampf dazu", user=ALICE)).message()
    twice = await (await fake.slash("kampf dazu", user=ALICE)).callback()
    assert_ephemeral(twice)
    assert twice.content == t("w6cog.combat.already_in", "de", name="Thoin")
    state = unpack(await active_combat(bot.store, fake.channel().id)).state
    assert state.settings.schwere_treffer and not state.settings.kaufen
    assert [f.id for f in state.fighters] == ["thoin"]


async def test_a_button_of_the_previous_version_is_answered_stale(
    fake: FakeDiscord, bot: Any
) -> None:
    """Status messages posted before combats became games carry ``kampf:<combat>:<revision>``
    buttons: a click on one is told it is outdated, in the user's language, and changes
    nothing (the migration of the stored combat is tested in tests/unit/test_store.py)."""
    status = await set_up(fake)
    before = await active_combat(bot.store, fake.channel().id)
    button = {"type": 2, "style": 1, "label": "Phase", "custom_id": "kampf:1:4:phase:sl"}
    row = {"type": 1, "components": [button]}  # as the old status had it
    old_status = fake._new_message(status.channel_id, {"content": "alt", "components": [row]}, [])
    for locale, lang in (("de", "de"), ("en-US", "en")):
        old = await (await fake._component(old_status, button, [], GM, locale)).callback()
        assert_ephemeral(old)
        assert old.content == t("error.stale", lang)
    assert await active_combat(bot.store, fake.channel().id) == before


async def test_undo_replays_the_log_at_most_undo_tiefe_steps_in_a_row(
    fake: FakeDiscord, bot: Any
) -> None:
    """The GM's undo is ``GameService.undo_last`` (the log without its last step, replayed);
    the combat's ``undo_tiefe`` still caps how many steps go back in a row, and a new step
    starts the count again."""
    await set_up(fake)
    await (await fake.slash("kampf aktion", {"notation": "regel undo_tiefe=1"}, user=GM)).message()
    await (await fake.slash("kampf phase", user=GM)).message()
    back = await (await fake.slash("kampf zurück", user=GM)).message()
    assert back.embeds[0]["title"] == t("w6cog.combat.title", "de", phase=1)
    again = await (await fake.slash("kampf zurück", user=GM)).callback()
    assert_ephemeral(again)
    assert again.content == t("w6.combat.nothing_to_undo", "de")
    refused = await (await fake.slash("kampf zurück", user=ALICE)).callback()
    assert_ephemeral(refused)
    await (await fake.slash("kampf phase", user=GM)).message()
    forward = await (await fake.slash("kampf zurück", user=GM)).message()
    assert forward.embeds[0]["title"] == t("w6cog.combat.title", "de", phase=1)


async def test_an_npc_is_a_template_copies_join_fresh_and_the_fight_leaves_it_whole(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 10: a fight wrote the last copy's LP back onto the NPC, so the next
    ``dazu anzahl:3`` brought three wounded orks; copies join at the template's full LP and
    the template keeps its values after the fight."""
    await start_campaign(fake)
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    await (await fake.slash("kampf dazu", {"charakter": "Ork"}, user=GM)).message()
    hit = {"kaempfer": "ork", "feld": "lp", "wert": 3}
    await (await fake.slash("kampf setzen", hit, user=GM)).message()
    await (await fake.slash("kampf ende", user=GM)).message()
    campaign = await bot.store.active_campaign(fake.channel().id)
    (ork,) = await bot.store.characters(campaign.id)
    assert sheet_from_json(ork.sheet).lp == 20
    # a template worn down by hand (or by a fight before this fix) still gives fresh copies
    await (await fake.slash("sl schaden", {"charakter": "Ork", "punkte": 12}, user=GM)).callback()
    await (await fake.slash("kampf start", user=GM)).message()
    three = {"charakter": "Ork", "anzahl": 3}
    await (await fake.slash("kampf dazu", three, user=GM)).message()
    record = await active_combat(bot.store, fake.channel().id)
    fighters = unpack(record).state.fighters
    assert [(f.id, f.lp, f.lp_max) for f in fighters] == [
        ("ork", 20, 20),
        ("ork2", 20, 20),
        ("ork3", 20, 20),
    ]
