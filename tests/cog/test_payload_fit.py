"""Replies that real Discord refused (found by attacking the bot, issue 8) now fit its limits:
the strict fake Discord would answer 400 and fail the test otherwise. Long lists end in
"und N weitere", long texts in "… (gekürzt)", echoed input is cut."""

from __future__ import annotations

from typing import Any

from bot.fit import CONTENT, FIELD_VALUE, PARAM
from bot.i18n import t
from bot.sandbox.fake_discord import FakeDiscord, stable_user_id
from tests.cog.test_w6 import ALICE, GM, import_sheet, start_campaign, thoin_json
from tests.harness import assert_ephemeral

MANY = 60  # the most a sheet may have is 64 (MAX_ENTRIES), names up to 64 characters


def big_sheet() -> dict[str, Any]:
    """Thoin with many long Persönlichkeitsmerkmale, Eigenschaften and Fertigkeiten."""
    data = thoin_json()
    data["pm"] = {"K": 4, "G": 3, "M": 3, "B": 3} | {
        f"Merkmal-{i:03d}-" + "W" * 50: 1 for i in range(MANY)
    }
    data["eigenschaften"] = {f"Eigenschaft-{i:03d}-" + "L" * 40: 2 for i in range(MANY)}
    data["fertigkeiten"] = {f"Fertigkeit-{i:03d}-" + "L" * 40: 1 for i in range(MANY)}
    data["notizen"] = "Notiz " * 600
    return data


def _field(reply: Any, name: str) -> str:
    (embed,) = reply.embeds
    return next(f["value"] for f in embed["fields"] if f["name"] == name)


async def test_sheet_with_many_traits_fits_one_embed(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    imported = await import_sheet(fake, ALICE, big_sheet())
    assert imported.content == t("w6cog.sheet.imported", "de", name="Thoin")
    reply = await (await fake.slash("charakter zeigen", user=ALICE)).message()
    pm = _field(reply, t("w6cog.sheet.pm", "de"))
    assert len(pm) <= FIELD_VALUE
    assert pm.startswith("K 4, G 3, M 3, B 3, Merkmal-000-WWW")
    shown = pm.count("Merkmal-")
    assert pm.endswith(" " + t("core.fit.more", "de", n=MANY - shown))
    assert fake.refused == []


async def test_sheet_with_many_traits_in_english(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, big_sheet())
    reply = await (await fake.slash("charakter zeigen", user=ALICE, locale="en-US")).message()
    skills = _field(reply, t("w6cog.sheet.fertigkeiten", "en"))
    assert " and " in skills and skills.endswith(" more")
    assert fake.refused == []


async def test_probe_error_listing_a_big_sheet_fits(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, big_sheet())
    reply = await (await fake.slash("probe", {"eigenschaft": "Zaubern"}, user=ALICE)).callback()
    assert_ephemeral(reply)
    assert len(reply.content) <= CONTENT
    assert reply.content.startswith("**Thoin** hat keine Eigenschaft „Zaubern“. Eigenschaften: ")
    assert "Eigenschaft-000-LLL" in reply.content
    assert reply.content.count(" weitere") == 2  # attributes and skills, each shortened
    assert fake.refused == []


async def test_field_error_cuts_the_echoed_value(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, thoin_json())
    value = "viel" * 999
    bad = await (
        await fake.slash("charakter feld", {"feld": "kw", "wert": value}, user=ALICE)
    ).callback()
    assert_ephemeral(bad)
    cut = value[: PARAM - 1] + "…"
    assert bad.content == t("w6.sheet.not_integer", "de", field="kw", value=cut)


async def test_import_error_cuts_the_echoed_value(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake, locale="en-US")
    data = thoin_json()
    data["waffen"][0]["schaden"] = "x" * 4500
    reply = await import_sheet(fake, ALICE, data)
    assert_ephemeral(reply)
    assert len(reply.content) < 400
    assert "x" * (PARAM - 1) + "…" in reply.content


async def test_campaign_info_with_45_co_gms_fits(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    campaign = await bot.store.active_campaign(fake.channel().id)
    co = [stable_user_id(f"co{i}") for i in range(45)]
    await bot.store.update_campaign(campaign.id, co_gm_ids=co)
    info = await (await fake.slash("kampagne info", user=ALICE)).callback()
    gms = _field(info, t("w6cog.campaign.gm", "de"))
    assert len(gms) <= FIELD_VALUE
    assert gms.startswith(f"<@{stable_user_id(GM)}>, <@{co[0]}> (Co)")
    listed = gms.count("(Co)")
    assert gms.endswith(" " + t("core.fit.more", "de", n=45 - listed))
    assert fake.refused == []


async def test_character_list_of_a_crowded_campaign_fits(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    campaign = await bot.store.active_campaign(fake.channel().id)
    for i in range(40):
        name = f"{i:02d}" + "N" * 62
        await bot.store.create_character(
            campaign_id=campaign.id, owner_id=stable_user_id(f"p{i}"), name=name, sheet={}
        )
    reply = await (await fake.slash("charakter liste", user=GM)).callback()
    assert len(reply.content) <= CONTENT
    lines = reply.content.splitlines()
    assert lines[0].startswith("#1 **00NNN")
    assert lines[-1] == t("core.fit.more", "de", n=40 - (len(lines) - 1))


async def test_autocomplete_on_a_big_sheet_offers_at_most_25(fake: FakeDiscord, bot: Any) -> None:
    await start_campaign(fake)
    await import_sheet(fake, ALICE, big_sheet())
    attributes = await fake.autocomplete("probe", {"eigenschaft": ""}, user=ALICE)
    skills = await fake.autocomplete("probe", {"fertigkeit": ""}, user=ALICE)
    paths = await fake.autocomplete("charakter feld", {"feld": ""}, user=ALICE)
    assert len(attributes) == len(skills) == len(paths) == 25
    assert fake.refused == []
