"""``/kampagne``, ``/charakter`` and ``/sl`` through the real bot and the fake Discord:
permissions, the guided creation, field edits, sheet image, export/import round trip, log."""

from __future__ import annotations

import json
from typing import Any

from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from bot.sheets import modal_label
from engines.w6.sheet_io import sheet_from_json, sheet_to_json
from tests.harness import assert_ephemeral, assert_png_attachment, assert_public, embed_text

GM, ALICE, BOB = "gm", "alice", "bob"


def thoin_json() -> dict[str, Any]:
    return {
        "schema": "w6.sheet",
        "version": 1,
        "name": "Thoin",
        "rasse": "Zwerg",
        "pm": {"K": 4, "G": 3, "M": 3, "B": 3},
        "eigenschaften": {"Geschick": 3, "Intuition": 2, "Kraft": 5},
        "fertigkeiten": {"Spaltwaffen": 2},
        "lp": 30,
        "lp_max": 30,
        "rlp": 5,
        "kw": 12,
        "reflex": 4,
        "ab": 6,
        "handlungen": [4, 6, 9],
        "waffen": [
            {"name": "Axt", "fertigkeit": "Spaltwaffen", "schaden": "1-2", "zusatz": "K", "cap": 3}
        ],
    }


async def start_campaign(fake: FakeDiscord, locale: str = "de") -> None:
    reply = await (
        await fake.slash("kampagne start", {"name": "Die Mine"}, user=GM, locale=locale)
    ).callback()
    assert_public(reply)


async def import_sheet(
    fake: FakeDiscord, user: str, data: dict[str, Any], npc: bool = False
) -> Any:
    body = json.dumps(data).encode()
    options: dict[str, Any] = {"datei": ("thoin.json", body)}
    if npc:
        options["nsc"] = True
    return await (await fake.slash("charakter import", options, user=user)).callback()


async def test_campaign_start_info_and_second_start_refused(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    again = await (await fake.slash("kampagne start", {"name": "X"}, user=ALICE)).callback()
    assert_ephemeral(again)
    assert again.content == t("w6cog.error.campaign_exists", "de")
    info = await (await fake.slash("kampagne info", user=ALICE)).callback()
    assert info.embeds[0]["title"] == "Die Mine"
    assert f"<@{stable_user_id(GM)}>" in embed_text(info)
    assert t("w6cog.rule.schwere_treffer", "de") in embed_text(info)


async def test_commands_without_campaign_say_so_in_english(fake: FakeDiscord, bot: Any) -> None:
    reply = await (await fake.slash("charakter liste", user=ALICE, locale="en-US")).callback()
    assert_ephemeral(reply)
    assert reply.content == t("w6cog.error.no_campaign", "en")


async def test_only_the_gm_changes_settings(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    refused = await (
        await fake.slash("kampagne regel", {"regel": "schwere_treffer", "an": True}, user=ALICE)
    ).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.error.gm_only", "de")
    done = await (
        await fake.slash("kampagne regel", {"regel": "schwere_treffer", "an": True}, user=GM)
    ).callback()
    assert done.content == t(
        "w6cog.campaign.rule_set", "de", rule=t("w6cog.rule.schwere_treffer", "de"), state="an"
    )
    campaign = await bot.store.active_campaign(fake.channel().id)
    assert campaign.settings["regeln"] == {"schwere_treffer": True}


async def test_co_gm_may_change_settings_after_being_added(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await (await fake.slash("kampagne co-sl", {"nutzer": BOB}, user=GM)).callback()
    done = await (
        await fake.slash("kampagne regel", {"regel": "kaufen", "an": True}, user=BOB)
    ).callback()
    assert_public(done)
    handover = await (
        await fake.slash("kampagne übergeben", {"nutzer": ALICE}, user=BOB)
    ).callback()
    assert handover.content == t("w6cog.error.main_gm_only", "de")


async def test_guided_creation_by_modal_then_field_edit(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    opened = await fake.slash("charakter neu", user=ALICE)
    modal = await opened.modal()
    assert modal["title"] == t("w6cog.modal.title", "de")
    submitted = await fake.submit_modal(
        opened, {"name": "Alrik", "rasse": "Mensch", "pm": "3 2 4 3", "werte": "20 8 4 5"}
    )
    created = await submitted.callback()
    assert_public(created)
    assert created.embeds[0]["title"] == "Alrik"
    edit = await (
        await fake.slash(
            "charakter feld", {"feld": "eigenschaften.Geschick", "wert": "4"}, user=ALICE
        )
    ).callback()
    assert edit.content == t(
        "w6cog.sheet.field_set", "de", name="Alrik", field="eigenschaften.Geschick", value="4"
    )
    campaign = await bot.store.active_campaign(fake.channel().id)
    record = await bot.store.active_character(campaign.id, stable_user_id(ALICE))
    sheet = sheet_from_json(record.sheet)
    assert sheet.eigenschaft("Geschick") == 4 and sheet.lp == 20 and sheet.pm_value("M") == 4


async def test_modal_thresholds_with_spaces_and_a_bad_line_names_the_form_field(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    fields = {"name": "Alrik", "pm": "3 2 4 3", "handlungen": "4 6 8 10 12"}
    created = await (
        await fake.submit_modal(await fake.slash("charakter neu", user=ALICE), fields)
    ).callback()
    assert_public(created)
    campaign = await bot.store.active_campaign(fake.channel().id)
    record = await bot.store.active_character(campaign.id, stable_user_id(ALICE))
    assert sheet_from_json(record.sheet).handlungen == (4, 6, 8, 10, 12)
    fields = {"name": "Boromir", "pm": "3 2 4 3", "handlungen": "12 8"}
    bad = await (
        await fake.submit_modal(await fake.slash("charakter neu", user=ALICE), fields)
    ).callback()
    assert_ephemeral(bad)
    assert bad.content == t("w6cog.sheet.bad_thresholds", "de", value="12 8")
    assert bad.content.startswith(t("w6cog.modal.handlungen", "de"))


async def test_modal_values_line_is_as_strict_as_the_pm_line_and_names_form_labels(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 10: "20 8" on the "LP KW Reflex AB" line was taken as LP 20, KW 8 and defaults
    for the rest; a value out of range named the internal path (``kw``, ``pm.K``)."""
    await start_campaign(fake)
    for locale, lang in (("de", "de"), ("en-US", "en")):
        short = {"name": "Alrik", "pm": "3 2 4 3", "werte": "20 8"}
        bad = await (
            await fake.submit_modal(
                await fake.slash("charakter neu", user=ALICE, locale=locale), short, locale=locale
            )
        ).callback()
        assert_ephemeral(bad)
        assert bad.content == t("w6cog.sheet.bad_values", lang, value="20 8")
        assert bad.content.startswith(t("w6cog.modal.werte", lang))
        huge = {"name": "Alrik", "pm": "3 2 4 3", "werte": "20 5000 4 5"}
        bad = await (
            await fake.submit_modal(
                await fake.slash("charakter neu", user=ALICE, locale=locale), huge, locale=locale
            )
        ).callback()
        assert_ephemeral(bad)
        label = modal_label("kw", lang)  # English: the pool's one word, "combat dice"
        assert label == t("w6cog.modal.part", lang, label=t("w6cog.modal.werte", lang),
                          part={"de": "KW", "en": "combat dice"}[lang])  # fmt: skip
        assert bad.content.startswith(label + ":"), bad.content
        assert "kw" not in bad.content.replace("KW", "")
        pm = {"name": "Alrik", "pm": "3 2 4 1000"}
        bad = await (
            await fake.submit_modal(
                await fake.slash("charakter neu", user=ALICE, locale=locale), pm, locale=locale
            )
        ).callback()
        label = t("w6cog.modal.part", lang, label=t("w6cog.modal.pm", lang), part="B")
        assert bad.content.startswith(label + ":"), bad.content
        assert "pm.B" not in bad.content
    campaign = await bot.store.active_campaign(fake.channel().id)
    assert await bot.store.characters(campaign.id) == []


async def test_character_names_are_unique_per_campaign_ignoring_case(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 10: a GM's NPC copy "Thoin" next to alice's Thoin made every lookup by name a
    guess; a second character of the same name (any case) is refused at creation, import,
    quick NPC and rename, and changes nothing."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    for locale, lang in (("de", "de"), ("en-US", "en")):
        copy = await import_sheet(fake, GM, thoin_json() | {"name": "THOIN"}, npc=True)
        assert_ephemeral(copy)
        assert copy.content == t("w6cog.error.name_taken", "de", name="THOIN")
        npc = await (
            await fake.slash("sl nsc", {"werte": "thoin lp=20 kw=8 ab=5"}, user=GM, locale=locale)
        ).callback()
        assert_ephemeral(npc)
        assert npc.content == t("w6cog.error.name_taken", lang, name="thoin")
        form = {"name": " Thoin ", "pm": "3 2 4 3"}
        made = await (
            await fake.submit_modal(
                await fake.slash("charakter neu", user=BOB, locale=locale), form, locale=locale
            )
        ).callback()
        assert_ephemeral(made)
        assert made.content == t("w6cog.error.name_taken", lang, name="Thoin")
    await import_sheet(fake, BOB, thoin_json() | {"name": "Borin"})
    renamed = await (
        await fake.slash("charakter feld", {"feld": "name", "wert": "thoin"}, user=BOB)
    ).callback()
    assert_ephemeral(renamed)
    assert renamed.content == t("w6cog.error.name_taken", "de", name="thoin")
    own_case = await (
        await fake.slash("charakter feld", {"feld": "name", "wert": "THOIN"}, user=ALICE)
    ).callback()
    assert own_case.content.startswith(
        t("w6cog.sheet.field_set", "de", name="THOIN", field="name", value="THOIN")[:20]
    )
    campaign = await bot.store.active_campaign(fake.channel().id)
    names = sorted(r.name for r in await bot.store.characters(campaign.id))
    assert names == ["Borin", "THOIN"]


async def test_invalid_value_is_a_friendly_ephemeral_and_changes_nothing(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    bad = await (
        await fake.slash("charakter feld", {"feld": "kw", "wert": "viel"}, user=ALICE)
    ).callback()
    assert_ephemeral(bad)
    assert bad.content == t("w6.sheet.not_integer", "de", field="kw", value="viel")
    campaign = await bot.store.active_campaign(fake.channel().id)
    record = (await bot.store.characters(campaign.id))[0]
    assert record.revision == 0


async def test_field_autocomplete_offers_the_sheet_paths(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    choices = await fake.autocomplete("charakter feld", {"feld": "eigensch"}, user=ALICE)
    values = [c["value"] for c in choices]
    assert "eigenschaften.Geschick" in values and "eigenschaften.Kraft" in values


async def test_player_cannot_edit_another_players_sheet(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    refused = await (
        await fake.slash(
            "charakter feld", {"feld": "lp", "wert": "1", "charakter": "Thoin"}, user=BOB
        )
    ).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.error.not_your_sheet", "de")
    by_gm = await (
        await fake.slash(
            "charakter feld", {"feld": "lp", "wert": "25", "charakter": "Thoin"}, user=GM
        )
    ).callback()
    assert "`lp` = 25" in (by_gm.content or "")


async def test_only_the_gm_runs_npcs(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    refused = await (
        await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=ALICE)
    ).callback()
    assert refused.content == t("w6cog.error.gm_only", "de")
    made = await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5"}, user=GM)).callback()
    assert_ephemeral(made)
    assert made.content == t("w6cog.sheet.npc_created", "de", name="Ork")
    edit = await (
        await fake.slash(
            "charakter feld", {"feld": "lp", "wert": "3", "charakter": "Ork"}, user=ALICE
        )
    ).callback()
    assert edit.content == t("w6cog.error.no_character", "de", name="Ork")  # as no name
    npc_import = await import_sheet(fake, ALICE, thoin_json(), npc=True)
    assert npc_import.content == t("w6cog.error.gm_only", "de")


async def test_sheet_image_is_a_real_png(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    ex = await fake.slash("charakter zeigen", user=ALICE, locale="en-US")
    message = await ex.message()
    image = assert_png_attachment(message, "charakter.png")
    assert image.width == 960
    assert message.embeds[0]["title"] == "Thoin"
    assert t("w6cog.sheet.derived", "en") in embed_text(message)


async def test_damage_heal_rest_and_secret_check_are_logged(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    hit = await (
        await fake.slash("sl schaden", {"charakter": "Thoin", "punkte": 28}, user=GM)
    ).callback()
    assert hit.content.startswith(
        t("w6cog.gm.damage", "de", name="Thoin", amount=28, lp=2, lp_max=30)
    )
    assert t("w6cog.gm.kraft_check", "de", name="Thoin") in hit.content
    rest = await (await fake.slash("sl rast", {"charakter": "Thoin"}, user=GM)).callback()
    assert rest.content == t("w6cog.gm.rest", "de", name="Thoin", amount=5, lp=7, lp_max=30)
    heal = await (
        await fake.slash("sl heilen", {"charakter": "Thoin", "punkte": 99}, user=GM)
    ).callback()
    assert heal.content == t("w6cog.gm.heal", "de", name="Thoin", amount=23, lp=30, lp_max=30)
    secret = await (
        await fake.slash(
            "sl geheimprobe", {"charakter": "Thoin", "eigenschaft": "Geschick"}, user=GM
        )
    ).callback()
    assert_ephemeral(secret)
    player_log = await (await fake.slash("kampagne log", user=ALICE)).callback()
    gm_log = await (await fake.slash("kampagne log", user=GM)).callback()
    assert "verliert 28 LP" in embed_text(player_log)
    assert "geheime Probe" not in embed_text(player_log)
    assert "geheime Probe" in embed_text(gm_log)


async def test_export_import_round_trip(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    await (await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5 gs=2"}, user=GM)).callback()
    await (
        await fake.slash("kampagne regel", {"regel": "stabilitaet", "an": True}, user=GM)
    ).callback()
    refused = await (await fake.slash("kampagne export", user=ALICE)).callback()
    assert refused.content == t("w6cog.error.gm_only", "de")
    exported = await (await fake.slash("kampagne export", user=GM)).callback()
    assert_ephemeral(exported)
    (file,) = exported.files
    data = json.loads(file.data)
    assert data["schema"] == "spielleiter.w6.kampagne"
    assert [c["sheet"]["name"] for c in data["characters"]] == ["Thoin"]
    assert [c["sheet"]["name"] for c in data["npcs"]] == ["Ork"]
    assert data["settings"]["regeln"]["stabilitaet"] is True
    assert any(e["kind"] == "sheet" for e in data["log"])

    other = fake.channel("spieltisch")
    imported = await (
        await fake.slash(
            "kampagne import", {"datei": ("kampagne.json", file.data)}, user=BOB, channel=other
        )
    ).callback()
    assert imported.content == t("w6cog.campaign.imported", "de", name="Die Mine", count=2)
    copy = await bot.store.active_campaign(other.id)
    assert copy.gm_id == stable_user_id(BOB)
    assert copy.settings == data["settings"]
    records = await bot.store.characters(copy.id)
    by_name = {r.name: r for r in records}
    assert by_name["Thoin"].owner_id == stable_user_id(ALICE)
    assert by_name["Ork"].owner_id is None
    original = sheet_to_json(sheet_from_json(thoin_json()))
    assert by_name["Thoin"].sheet == original


async def test_import_of_a_broken_file_is_refused(fake: FakeDiscord, bot: Any) -> None:
    reply = await (
        await fake.slash("kampagne import", {"datei": ("x.json", b"{kaputt")}, user=GM)
    ).callback()
    assert_ephemeral(reply)
    assert reply.content == t("json.not_json", "de")
    assert await bot.store.active_campaign(fake.channel().id) is None


async def test_sheet_export_reimports_to_the_same_sheet(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    exported = await (await fake.slash("charakter export", user=ALICE)).callback()
    assert_ephemeral(exported)
    (file,) = exported.files
    assert file.filename == "Thoin.json"
    assert json.loads(file.data) == sheet_to_json(sheet_from_json(thoin_json()))
    twin = await import_sheet(fake, BOB, json.loads(file.data))
    assert twin.content == t("w6cog.error.name_taken", "de", name="Thoin")  # names are unique
    again = await import_sheet(fake, BOB, json.loads(file.data) | {"name": "Thoin 2"})
    assert again.content == t("w6cog.sheet.imported", "de", name="Thoin 2")
    listing = await (await fake.slash("charakter liste", user=BOB)).callback()
    assert listing.content.count("**Thoin") == 2 and "★" in listing.content


async def test_broken_sheet_import_names_the_field(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake, locale="en-US")
    data = thoin_json()
    data["waffen"][0]["schaden"] = "viel"
    reply = await import_sheet(fake, ALICE, data)
    assert_ephemeral(reply)
    assert reply.content == t("w6.sheet.bad_ratio", "de", field="waffen.Axt.schaden", value="viel")


async def test_active_character_switches_per_user(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    second = thoin_json() | {"name": "Brom"}
    await import_sheet(fake, ALICE, second)
    chosen = await (
        await fake.slash("charakter aktiv", {"charakter": "Brom"}, user=ALICE)
    ).callback()
    assert chosen.content == t("w6cog.sheet.active", "de", name="Brom")
    campaign = await bot.store.active_campaign(fake.channel().id)
    active = await bot.store.active_character(campaign.id, stable_user_id(ALICE))
    assert active.name == "Brom"
    refused = await (
        await fake.slash("charakter aktiv", {"charakter": "Brom"}, user=BOB)
    ).callback()
    assert refused.content == t("w6cog.error.not_your_sheet", "de")


async def test_a_file_that_is_no_sheet_is_called_so(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    for body, key in (
        (b"[1,2]", "w6.sheet.not_a_sheet"),
        (b'{"schema":"x"}', "w6.sheet.bad_schema"),
    ):
        options = {"datei": ("x.json", body)}
        reply = await (await fake.slash("charakter import", options, user=ALICE)).callback()
        assert_ephemeral(reply)
        assert reply.content == t(key, "de", schema="w6.sheet", field="schema", value="x")
        assert reply.content.startswith("Das ist kein W6-Charakterbogen")


async def test_weapon_fields_by_the_sheets_words_and_unknown_ones_listed(
    fake: FakeDiscord, bot: Any
) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())

    async def edit(path: str, value: str) -> Any:
        options = {"feld": path, "wert": value}
        return await (await fake.slash("charakter feld", options, user=ALICE)).callback()

    bad = await edit("waffen.Axt.basis", "3")
    assert_ephemeral(bad)
    assert bad.content == t("w6.sheet.bad_ratio", "de", field="waffen.Axt.basis", value="3")
    done = await edit("waffen.Axt.basis", "2-4")
    assert_ephemeral(done)  # a sheet is built field by field: the editor's alone
    assert "2-4" in done.content
    unknown = await edit("waffen.Axt.gewicht", "2-4")
    allowed = "name, fertigkeit, schaden, zusatz, cap, reichweite, techniken, fernkampf, "
    allowed += "zielen, block, stabilitaet"
    field = "waffen.Axt.gewicht"
    assert unknown.content == t("w6.sheet.unknown_field", "de", field=field, allowed=allowed)


async def test_npc_threshold_from_k_and_g_and_rest_without_rlp(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    made = await (
        await fake.slash("sl nsc", {"werte": "Ork lp=20 kw=8 ab=5 k=4 g=3"}, user=GM)
    ).callback()
    assert "Schwelle 7" in embed_text(made)
    rest = await (await fake.slash("sl rast", {"charakter": "Ork"}, user=GM)).callback()
    assert rest.content.startswith(t("w6cog.gm.rest", "de", name="Ork", amount=0, lp=20, lp_max=20))
    assert t("w6cog.gm.rest_no_rlp", "de", name="Ork") in rest.content


async def test_field_edit_answers_the_editor_alone_with_what_changed(
    fake: FakeDiscord, bot: Any
) -> None:
    """Issue 10: every ``/charakter feld`` posted the whole sheet in the channel; building a
    sheet flooded it. The answer is ephemeral: the field, the derived values it changed, and
    a button for the whole sheet."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    for locale, lang in (("de", "de"), ("en-US", "en")):
        options = {"feld": "pm.M", "wert": "7" if lang == "de" else "1"}  # 3 then 1 Handlung
        edit = await fake.slash("charakter feld", options, user=ALICE, locale=locale)
        reply = await edit.callback()
        assert_ephemeral(reply)
        assert reply.embeds == []
        assert reply.content.startswith(
            t("w6cog.sheet.field_set", lang, name="Thoin", field="pm.M", value=options["wert"])
        )
        assert t("w6cog.sheet.handlungen", lang) in reply.content.splitlines()[1]
    message = await edit.message()
    (show,) = message.custom_ids
    refused = await (await fake.click(message, show, user=BOB)).callback()
    assert_ephemeral(refused)
    assert refused.content == t("w6cog.sheet.not_your_button", "de")
    whole = await (await fake.click(message, show, user=ALICE)).callback()
    assert_ephemeral(whole)
    assert whole.embeds[0]["title"] == "Thoin"


async def test_delete_asks_first_and_an_old_confirm_is_kind(fake: FakeDiscord, bot: Any) -> None:
    """Issue 10: ``/charakter löschen`` deleted at once. Now it asks with a confirm button that
    only the asker may press; cancel keeps the sheet; a confirm for a sheet changed or
    deleted since is refused kindly and changes nothing."""
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    campaign = await bot.store.active_campaign(fake.channel().id)

    async def ask(locale: str = "de") -> Any:
        return await (
            await fake.slash("charakter löschen", {"charakter": "Thoin"}, user=ALICE, locale=locale)
        ).message()

    async def ask_for(name: str) -> Any:
        options = {"charakter": name}
        return await (await fake.slash("charakter löschen", options, user=ALICE)).message()

    asked = await ask("en-US")
    assert asked.content == t("w6cog.sheet.delete_confirm", "en", name="Thoin")
    confirm, cancel = asked.custom_ids
    assert len(await bot.store.characters(campaign.id)) == 1
    cancelled = await (await fake.click(asked, cancel, user=ALICE)).message()
    assert cancelled.content == t("w6cog.sheet.delete_cancelled", "de", name="Thoin")
    assert len(await bot.store.characters(campaign.id)) == 1
    asked = await ask()
    confirm, _ = asked.custom_ids
    foreign = await (await fake.click(asked, confirm, user=GM)).callback()
    assert foreign.content == t("w6cog.sheet.not_your_button", "de")
    await (await fake.slash("charakter feld", {"feld": "kw", "wert": "11"}, user=ALICE)).callback()
    changed = await (await fake.click(asked, confirm, user=ALICE)).callback()
    assert_ephemeral(changed)
    assert changed.content == t("w6cog.sheet.changed_since", "de", name="Thoin")
    assert len(await bot.store.characters(campaign.id)) == 1
    asked, twice = await ask(), await ask()
    confirm, _ = asked.custom_ids
    done = await (await fake.click(asked, confirm, user=ALICE)).message()
    assert done.content == t("w6cog.sheet.deleted", "de", name="Thoin")
    assert done.components == []
    assert await bot.store.characters(campaign.id) == []
    again = await (await fake.click(twice, twice.custom_ids[0], user=ALICE)).callback()
    assert_ephemeral(again)
    assert again.content == t("w6cog.sheet.gone", "de")
    # a store may give a deleted id to the next character (revision 1 again): an old confirm
    # leaves that one alone
    await import_sheet(fake, ALICE, thoin_json() | {"name": "Dain"})
    stale, fresh = await ask_for("Dain"), await ask_for("Dain")
    await (await fake.click(fresh, fresh.custom_ids[0], user=ALICE)).message()
    await import_sheet(fake, ALICE, thoin_json() | {"name": "Borin"})
    (borin,) = await bot.store.characters(campaign.id)
    assert f":{borin.id}:" in stale.custom_ids[0]  # the id came back
    reused = await (await fake.click(stale, stale.custom_ids[0], user=ALICE)).callback()
    assert reused.content == t("w6cog.sheet.gone", "de")  # the one asked about is gone
    assert [r.name for r in await bot.store.characters(campaign.id)] == ["Borin"]


async def test_template_file_imports_cleanly_and_is_documented(fake: FakeDiscord, bot: Any) -> None:
    """Issue 10: players guessed the sheet format. ``/charakter vorlage`` sends a filled
    example (weapons, armour, shield) that imports as it is; SHEET.md names every field."""
    from bot.play.specs.w6_sheet import sheet_view
    from cogs.w6_sheets import TEMPLATE_FILE
    from engines.w6.sheet_io import ARMOUR_KEYS, SHIELD_KEYS, TOP_KEYS, WEAPON_KEYS

    await start_campaign(fake)
    for locale, lang in (("de", "de"), ("en-US", "en")):
        sent = await (await fake.slash("charakter vorlage", user=ALICE, locale=locale)).callback()
        assert_ephemeral(sent)
        assert sent.content == t("w6cog.sheet.template", lang)
    (file,) = sent.files
    data = json.loads(file.data)
    imported = await import_sheet(fake, ALICE, data)
    assert imported.content == t("w6cog.sheet.imported", "de", name=data["name"])
    campaign = await bot.store.active_campaign(fake.channel().id)
    (record,) = await bot.store.characters(campaign.id)
    assert record.sheet == data  # the export format, unchanged by the import
    sheet = sheet_from_json(record.sheet)
    assert len(sheet.waffen) >= 2 and any(w.fernkampf for w in sheet.waffen)
    assert sheet.ruestung and sheet.schild is not None
    doc = (TEMPLATE_FILE.parent / "SHEET.md").read_text()
    for key in {*TOP_KEYS, *WEAPON_KEYS, *ARMOUR_KEYS, *SHIELD_KEYS}:
        assert f"`{key}`" in doc, key
    # the image's weapon box names its columns before the weapon lines
    (weapons,) = [s for s in sheet_view(record, sheet, "en").sections if s.title == "Weapons"]
    assert (weapons.rows[0].label, weapons.rows[0].value) == ("Weapon", "Base · Bonus · Skill")
    assert weapons.rows[1].label == sheet.waffen[0].name
